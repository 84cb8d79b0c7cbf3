"""7 słów for a reader who is not Polish (issue 48, item 9), in Chromium: the Polish deck's
own letters are explained in the reader's language, those on the area first; a player
practising against bots may ask for the solver's words; a pass says that no word was
written, never that "your word" is locked in."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from cardtable.locales import message

from .browser_helpers import browser, create_table, new_page, server, shot

__all__ = ["browser", "server"]  # fixtures used by name

POLISH = ["Ą", "Ć", "Ę", "Ł", "Ń", "Ó", "Ś", "Ź", "Ż"]
READERS = {"en": ("en-GB", 1366, 800), "ru": ("ru-RU", 390, 844), "pl": ("pl-PL", 390, 844)}


@pytest.mark.parametrize("lang", list(READERS))
def test_a_reader_of_another_language_learns_the_polish_letters_and_a_pass_says_so(
    server: tuple[str, Any], browser: Browser, lang: str
) -> None:
    url, _app = server
    locale, width, height = READERS[lang]
    page = new_page(browser, locale=locale, width=width, height=height)
    create_table(page, url, "siedem-slow", ["human", "bot:easy"], {})
    page.wait_for_selector("#board #area .card.letter")
    if lang == "pl":  # a Polish reader knows them
        expect(page.locator("#polish-letters")).to_have_count(0)
    else:
        page.click("#polish-letters summary")
        letters = page.locator("#polish-letters dt")
        expect(letters).to_have_count(len(POLISH))
        said = page.eval_on_selector_all(
            "#polish-letters dt",
            "ts => ts.map(t => [t.dataset.letter, t.nextElementSibling.textContent,"
            " t.classList.contains('on-area')])",
        )
        assert sorted(letter for letter, _, _ in said) == sorted(POLISH)
        for letter, text, _ in said:
            assert text == message(f"word.letter_sound.{letter}", lang)
        on_area = [on for _, _, on in said]
        assert on_area == sorted(on_area, reverse=True)  # the area's letters first
        area = set(
            page.eval_on_selector_all(
                "#area .card.letter", "cs => cs.map(c => c.dataset.letter.toUpperCase())"
            )
        )
        assert {letter for letter, _, on in said if on} == area & set(POLISH)
    # practising against a bot: a hint names the solver's best words for these letters
    page.click("#hint")
    expect(page.locator("#hint-text")).to_contain_text(message("siedem.term.hint", lang, words=""))
    # no word written: a pass, said as one in the panel and the log
    page.click("#lock")
    expect(page.locator(".locked-note")).to_have_text(message("word.passed", lang))
    expect(page.locator("#log")).to_contain_text(message("word.said_you_passed", lang))
    expect(page.locator("#log")).not_to_contain_text(message("word.said_you_locked", lang))
    if lang != "pl":  # opened, the letters stay open while the board is drawn again
        expect(page.locator("#polish-letters")).to_have_attribute("open", "")
    shot(page, f"siedem-reader-{lang}-{width}")
    assert not page.errors  # type: ignore[attr-defined]
