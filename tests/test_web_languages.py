"""No English on the Polish and Russian pages: the lobby and a table of each game, read as
a person sees them (the words of the page's text that only the English catalogue uses —
names that stay romaji, like yaku and game names, and the Polish and Russian card names pass)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Browser

from cardtable.core.game import game_ids
from cardtable.games.hanafuda.deck import CARDS
from cardtable.locales import catalogue

from .browser_helpers import board, browser, new_page, server, shot

__all__ = ["browser", "server"]  # fixtures used by name

WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)


def words(texts: Any) -> set[str]:
    return {w.lower() for text in texts for w in WORD.findall(str(text))}


def english_only() -> set[str]:
    """Words only the English catalogue says (placeholders like {name} left out)."""

    def said(lang: str) -> set[str]:
        return words(re.sub(r"\{\w+\}", " ", text) for text in catalogue(lang).values())

    # names a Polish or Russian page says too: the games' romaji names and the card names
    names = words(game_id.replace("-", " ") for game_id in game_ids())
    names |= words(card.name(lang) for card in CARDS for lang in ("pl", "ru"))
    return said("en") - said("pl") - said("ru") - names


def english_on(page: Any) -> set[str]:
    # the language switch names each language in its own words, as it should; code (the
    # deal's hash) is no language, and a hex digest may spell "add" or "bad"
    text = page.evaluate(
        "(() => { let text = document.body.innerText;"
        " for (const e of document.querySelectorAll('#lang, code'))"
        " text = text.replace(e.innerText, ''); return text; })()"
    )
    return words([text]) & english_only()


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_the_lobby_has_no_english(server: tuple[str, Any], browser: Browser, lang: str) -> None:
    url, _app = server
    page = new_page(browser, locale=f"{lang}-{lang.upper()}")
    page.goto(url)
    page.wait_for_selector(".seat-kind")
    page.click("#rules summary")
    page.evaluate("for (const g of document.querySelectorAll('#rule-fields details')) g.open=1")
    assert english_on(page) == set()


TABLE_SHOWN = """(() => {
    const board = document.querySelector('#board');
    return board?.dataset.mine === 'true' && board.children.length > 0
        && document.querySelectorAll('#players li').length > 0
        && (board.dataset.version === '0' || document.querySelectorAll('#log li').length > 0);
})()"""


@pytest.mark.parametrize("lang", ["pl", "ru"])
@pytest.mark.parametrize(
    "game", ["koi-koi", "bakappana", "hana-awase", "hana-awase-88", "ohanami", "siedem-slow"]
)
def test_a_table_has_no_english(
    server: tuple[str, Any], browser: Browser, game: str, lang: str
) -> None:
    url, _app = server
    page = new_page(browser, locale=f"{lang}-{lang.upper()}", width=1366, height=768)
    page.goto(f"{url}/?game={game}")
    page.wait_for_selector(".seat-kind")
    page.click("#create")
    page.wait_for_selector("#board[data-version]")
    # read once the page shows the table at the player's turn: the board, the seats and,
    # when the bots have moved before the player, their moves in the log
    page.wait_for_function(TABLE_SHOWN, timeout=60_000)  # a loaded machine: the bots first
    assert catalogue(lang)["table.log"] in page.inner_text("#log-panel")  # it is translated
    found = english_on(page)
    if found:
        shot(page, f"english-on-{game}-{lang}")
    assert found == set(), f"{game} in {lang}: {sorted(found)} (state {board(page)})"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "ru",
            [
                "12-1 нет у вас в руке",
                "место Ewa уже сделало выбор в этом раунде отбора",
                "место № 3 уже сделало выбор в этом раунде отбора",
            ],
        ),
        (
            "pl",
            [
                "12-1 nie ma w twojej ręce",
                "miejsce Ewa już wybrało w tym doborze",
                "miejsce nr 3 już wybrało w tym doborze",
            ],
        ),
    ],
)
def test_a_refused_move_is_said_in_the_pages_language(
    server: tuple[str, Any], browser: Browser, lang: str, said: list[str]
) -> None:
    """errorText says a refusal by its key and values: a seat ({"seat": n}) by its name
    where the page knows it, else as the catalogue numbers seats."""
    url, _app = server
    page = new_page(browser, locale=f"{lang}-{lang.upper()}")
    page.goto(url)
    page.wait_for_selector(".seat-kind")
    texts = page.evaluate(
        """async (lang) => {
            const { errorText, loadLanguage } = await import('/static/js/i18n.js');
            await loadLanguage(lang);
            const card = { code: "illegal", message: "12-1 is not in your hand",
                           key: "illegal.not_in_hand", values: { card: "12-1" } };
            const seat = { code: "illegal", message: "seat 2 has already chosen",
                           key: "illegal.ohanami.already_chosen", values: { seat: { seat: 2 } } };
            const names = ["Anna", "Bot", "Ewa"];
            return [errorText(card), errorText(seat, (n) => names[n]), errorText(seat)];
        }""",
        lang,
    )
    assert texts == said
