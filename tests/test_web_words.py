"""Words that read right in the browser (issue 48, item 6), in Chromium: the round
calculator says who pays whom in the case the sentence asks for ("Gracz 2 płaci Graczowi
1: 15"); the Ohanami pad's count fields stop where the box does, as its message says;
"Your level" says what its number means."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from cardtable.games.ohanami.scoring import IN_THE_BOX
from cardtable.locales import message

from .browser_helpers import browser, create_table, new_page, server, shot
from .test_browser import tap_round
from .test_web_match import bot_record
from .test_web_pad_words import LOCALES, open_ohanami_pad, setup_page

__all__ = ["browser", "server"]  # fixtures used by name


@pytest.mark.parametrize(
    ("lang", "pays"), [("pl", "Gracz 2 płaci Graczowi 1: "), ("ru", "Игрок 2 платит Игроку 1: ")]
)
def test_the_calculator_says_who_pays_whom_in_the_right_case(
    server: tuple[str, Any], browser: Browser, lang: str, pays: str
) -> None:
    url, _app = server
    page = setup_page(browser, url, "/companion/hanafuda", lang, "phone")
    page.select_option("#pad-game", "koi-koi")
    page.click("#pad-new")
    tap_round(page, [["01-1", "03-1", "08-1"], ["02-4"]])
    page.select_option("#pad-shobu", "0")
    expect(page.locator("#pad-settlement li").first).to_contain_text(pays)
    shot(page, f"pad-pays-{lang}")


@pytest.mark.parametrize("lang", list(LOCALES))
def test_the_ohanami_count_fields_stop_where_the_box_does(
    server: tuple[str, Any], browser: Browser, lang: str
) -> None:
    url, _app = server
    page = open_ohanami_pad(browser, url, lang, "phone")
    problem = page.locator("[data-player='0'] [data-counts-problem]")
    for colour, have in IN_THE_BOX.items():
        field = page.locator(f"[data-player='0'] [data-colour='{colour}']")
        assert field.get_attribute("max") == str(have), colour
        field.fill(str(have + 1))  # one past the field's limit: the message names that limit
        said = message(
            "pad.count_over",
            lang,
            colour=message(f"line.colour.{colour}", lang),
            have=have,
            wanted=have + 1,
        )
        expect(problem).to_have_text(said)
        field.fill("0")
        expect(problem).to_have_text("")


@pytest.mark.parametrize("lang", list(LOCALES))
def test_your_level_says_what_its_number_means(
    server: tuple[str, Any], browser: Browser, lang: str
) -> None:
    """The rating beside "Your level" is put on the bots' scale: each bot level's own
    rating, and what being above one means."""
    url, _app = server
    page = new_page(browser, locale=LOCALES[lang], width=390, height=844)
    page.goto(url)
    page.evaluate("record => localStorage.setItem('cardtable.record', record)", bot_record(6))
    page.reload()
    scale = page.locator("#record-levels li[data-game='koi-koi'] .record-scale")
    expect(scale).to_be_visible()
    said = scale.inner_text()
    easy = message("bot.easy", lang).lower()
    assert said.startswith(message("record.scale", lang, ladder="").split("(")[0]), said
    assert re.search(rf"{easy} \d+\.\d", said), said
    shot(page, f"record-scale-{lang}")


def test_russian_writes_koikoi_one_way_on_the_lobby_and_the_table(
    server: tuple[str, Any], browser: Browser
) -> None:
    """The game's name in the reader's language: a Russian page says "Кои-кои" in the
    lobby's choice of game and the table's header, as its decision box does, never the
    Latin "Koi-koi" beside it."""
    url, _app = server
    page = new_page(browser, "ru-RU", width=1366, height=800)
    page.goto(f"{url}/?game=koi-koi")
    expect(page.locator("#game option[value='koi-koi']")).to_have_text("Кои-кои")
    create_table(page, url, "koi-koi", ["human", "bot:random"], {})
    expect(page.locator("#title")).to_contain_text("Кои-кои")
    text = page.locator("body").inner_text()
    assert not re.search(r"[Kk]oi-?koi", text), re.findall(r".{30}[Kk]oi-?koi.{30}", text)
    shot(page, "koikoi-title-ru")
