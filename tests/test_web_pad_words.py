"""The score pads speak the page's language, in Chromium: the round calculator's house rules
are the new-table form's grouped, explained widget (no identifiers such as own_x2, no
true/false/default), and the Ohanami pad says every refusal, a count below 0 or past the box
included, in Polish or Russian, under the count it is about."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from cardtable.core.game import spec_of
from cardtable.locales import message

from .browser_helpers import OPEN_RULE_GROUPS, browser, new_page, server, shot

__all__ = ["browser", "server"]  # fixtures used by name

LOCALES = {"pl": "pl-PL", "ru": "ru-RU"}
SIZES = {"laptop": {"width": 1366, "height": 800}, "phone": {"width": 390, "height": 844}}
#: words of a developer's form: a name_with_underscores, a bare true/false, "default"
IDENTIFIER = re.compile(r"\b(\w+_\w+|true|false|default)\b")
HANAFUDA_GAMES = ["koi-koi", "hana-awase", "hana-awase-88", "bakappana"]


def setup_page(browser: Browser, url: str, path: str, lang: str, size: str) -> Page:
    page = new_page(browser, locale=LOCALES[lang], **SIZES[size])
    page.goto(f"{url}{path}")
    page.evaluate("localStorage.clear()")  # no remembered pad, the browser's language
    page.goto(f"{url}{path}")
    page.wait_for_selector("#pad-players option", state="attached")
    return page


def open_house_rules(page: Page) -> None:
    """Unfold the house rules and every group of them, as a curious player would."""
    page.evaluate("document.querySelector('#pad-rules').open = true")
    page.evaluate(OPEN_RULE_GROUPS.replace("#rule-fields", "#pad-rule-fields"))


def said_on(page: Page, root: str) -> str:
    """Every word the setup shows or offers: its text and every choice of every list."""
    return page.eval_on_selector(
        root,
        """el => [el.innerText, ...[...el.querySelectorAll('option')].map(o => o.textContent)]
            .join('\\n')""",
    )


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_round_calculator_says_its_house_rules_in_words(
    server: tuple[str, Any], browser: Browser, lang: str, size: str
) -> None:
    url, _app = server
    page = setup_page(browser, url, "/companion/hanafuda", lang, size)
    for game in HANAFUDA_GAMES:
        page.select_option("#pad-game", game)
        open_house_rules(page)
        # grouped and explained as on the new-table form
        groups = page.locator("#pad-rule-fields details.option-group")
        assert groups.count() >= 2, game
        expect(page.locator("#pad-rule-fields .option-help").first).to_be_visible()
        text = said_on(page, "#setup")
        assert not IDENTIFIER.findall(text), (game, IDENTIFIER.findall(text)[:10])
        # the catalogue's words: each rule set, the stake option of koi-koi and its help
        for name in spec_of(game).presets:
            assert message(f"preset.{game}.{name}", lang) in text, (game, name)
        preset_help = message(f"preset.{game}.default.help", lang)
        expect(page.locator("#pad-preset-help")).to_have_text(preset_help)
        if game == "koi-koi":
            for key in ("option.koi-koi.zero_sum", "option.koi-koi.koikoi_multiplier.own_x2"):
                assert message(key, lang) in text, key
            shot(page, f"pad-rules-koi-koi-{lang}-{size}")
    # a house rule changed in words reaches the pad the server keeps
    page.select_option("#pad-game", "koi-koi")
    open_house_rules(page)
    page.select_option("[data-option='koikoi_multiplier']", '"opponent_x2"')
    with page.expect_response("**/api/companion") as answer:
        page.click("#pad-new")
    assert answer.value.json()["options"]["koikoi_multiplier"] == "opponent_x2"
    expect(page.locator("#entry")).to_be_visible()
    assert not page.errors  # type: ignore[attr-defined]


def open_ohanami_pad(browser: Browser, url: str, lang: str, size: str) -> Page:
    page = setup_page(browser, url, "/companion/ohanami", lang, size)
    page.click("#pad-new")
    expect(page.locator("#entry")).to_be_visible()
    return page


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_ohanami_pad_says_a_wrong_count_in_the_pages_language(
    server: tuple[str, Any], browser: Browser, lang: str, size: str
) -> None:
    url, _app = server
    page = open_ohanami_pad(browser, url, lang, size)
    blue = page.locator("[data-player='0'] [data-colour='blue']")
    problem = page.locator("[data-player='0'] [data-counts-problem]")
    colour = message("line.colour.blue", lang)
    blue.fill("99")
    over = message("pad.count_over", lang, colour=colour, have=34, wanted=99)
    expect(problem).to_have_text(over)
    expect(page.locator("#pad-round [role=alert]")).to_have_text(over)
    expect(blue).to_have_attribute("aria-invalid", "true")
    blue.fill("-4")
    below = message("pad.count_negative", lang, colour=colour, wanted=-4)
    expect(problem).to_have_text(below)
    shot(page, f"pad-ohanami-negative-{lang}-{size}")
    assert "box" not in page.inner_text("main")
    blue.fill("2")
    expect(problem).to_have_text("")
    expect(blue).not_to_have_attribute("aria-invalid", "true")
    expect(page.locator("#pad-round")).to_have_attribute("data-scores", "6,0")
    assert not page.errors  # type: ignore[attr-defined]
