"""The hanafuda board never breaks (issue 48, item 4), in real Chromium: the folded result at
"Game over" leaves no empty band above the board and the own piles lie over no table row;
a friend's departure notice leaves the "Your turn" bar and the hand in sight; on a phone the
lesson's coach covers neither the opponent it says to watch nor the final board."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from .browser_helpers import browser, create_table, new_page, server, shot
from .test_web_friends import invite_a_friend
from .test_web_learn import MOVED_ON, POINTED_OR_OVER, TARGET, open_lesson
from .test_web_result_box import LAPTOP, PHONE, SIZES, boxes_overlap
from .test_web_table import play_until_break, seat_socket

__all__ = ["browser", "server"]  # fixtures used by name

#: games that end soon: a koi-koi stake of 1 (the first round won ends it), one round of 88
SHORT_GAMES = {"koi-koi": {"zero_sum_start": "1"}, "hana-awase-88": {"rounds": "1"}}

#: the board's rows, top to bottom, as the page lays them out
ROWS = """() => {
    const r = (s) => document.querySelector(s).getBoundingClientRect();
    return { bar: r('#round-result').bottom, board: r('#board').top, field: r('.middle').bottom,
             status: r('.hanafuda > .status-row').bottom, own: r('.hanafuda > .mine .seat-box').top,
             hand: r('.hanafuda > .mine .hand').bottom, screen: innerHeight };
}"""


def play_to_the_end(page: Page, url: str, game: str) -> None:
    """A two-seat table against a random bot, the page's seat played at random to the end."""
    table_id = create_table(page, url, game, ["human", "bot:random"], SHORT_GAMES[game])
    rng = random.Random(3)
    with seat_socket(page, url, table_id) as ws:
        while play_until_break(ws, rng) is not None:  # a round that did not end the game
            page.click("#round-result #next-round")
    page.wait_for_selector("#round-result:not([hidden]) #close-result")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(SHORT_GAMES))
def test_the_final_board_under_the_folded_result_is_whole(
    server: tuple[str, Any], browser: Browser, game: str, size: str
) -> None:
    url, _app = server
    page = new_page(browser, locale="en-GB", **SIZES[size])
    play_to_the_end(page, url, game)
    page.click("#result-fold")
    page.wait_for_selector("#round-result.folded")
    page.wait_for_function("!document.getAnimations().some(a => a.effect?.target?.dataset?.anim)")
    page.evaluate("window.scrollTo(0, 0)")
    rows = page.evaluate(ROWS)
    # the bar, then the board right under it (its margin), not a band as tall as the
    # game-over panel beside it makes the page
    assert 0 <= rows["board"] - rows["bar"] <= 16, rows
    # the own piles below the "Game over" line, which is below the table row
    assert rows["own"] >= rows["status"] - 0.5 >= rows["field"] - 0.5, rows
    shot(page, f"over-folded-{game}-{size}")


def test_a_friend_leaving_keeps_the_turn_bar_and_the_hand_in_sight(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    host = new_page(browser, locale="pl-PL", **LAPTOP)
    _table_id, invite = invite_a_friend(host, url, "Ania")
    guest = new_page(browser, locale="ru-RU", **PHONE)
    guest.goto(invite)
    guest.fill("#sit-name", "Маша")
    guest.click("#sit-down")
    host.wait_for_selector(".hanafuda > .mine .hand .card")
    guest.context.close()  # the friend closes the tab
    host.wait_for_selector("#departures .seat-left")
    host.wait_for_function("!document.querySelector('#departures').hidden")
    host.wait_for_timeout(100)  # the board takes the notice's height into its own
    rows = host.evaluate(ROWS)
    # the own piles under the turn bar, not over it, and the whole hand on the screen
    assert rows["own"] >= rows["status"] - 0.5, rows
    assert rows["hand"] <= rows["screen"] - 4, rows
    shot(host, "friend-left-board-pl-1366")


#: a lesson's coach panel and the opponent's seat, when the learner waits for the
#: opponent's move: the panel's position (pinned or not) and whether they overlap with the
#: board scrolled to its top; noted by the page each time the coach says to watch
WATCH_WAITING = """() => {
    window.watchedWaits = [];
    new MutationObserver(() => {
        const text = document.querySelector('#lesson-text');
        if (text?.dataset.key !== 'lesson.waiting') return;
        window.watchedWaits.push(getComputedStyle(document.querySelector('#lesson')).position);
    }).observe(document.querySelector('#lesson'), { childList: true, subtree: true });
}"""


def covered(page: Page, selector: str, *covers: str) -> bool:
    """Whether, with ``selector`` scrolled to the screen's top, one of ``covers`` lies over it."""
    page.eval_on_selector(selector, "e => e.scrollIntoView({ block: 'start' })")
    return any(boxes_overlap(page, selector, cover) for cover in covers)


@pytest.mark.parametrize("lang", ["en-GB", "ru-RU"])
def test_on_a_phone_the_coach_covers_no_one_it_says_to_watch(
    server: tuple[str, Any], browser: Browser, lang: str
) -> None:
    url, _app = server
    page = new_page(browser, locale=lang, **PHONE)
    open_lesson(page, url, "koi-koi")
    page.evaluate(WATCH_WAITING)
    while True:
        page.wait_for_function(POINTED_OR_OVER, timeout=30_000)
        if page.get_attribute("#board", "data-status") == "finished":
            break
        target = page.locator(f"#board {TARGET}, #round-result {TARGET}")
        target.evaluate("element => { element.dataset.clicked = '1'; }")
        target.click()
        page.wait_for_function(MOVED_ON, timeout=30_000)
    waits = page.evaluate("window.watchedWaits")
    assert waits and "sticky" not in waits, waits  # the opponent's piles are watched whole
    page.wait_for_selector("#round-result:not([hidden]) #close-result")
    # the final board beside the result sheet and the coach's last words: each seat can be
    # seen whole under neither of them
    for seat in (".seats .seat-box", ".hanafuda > .mine .seat-box"):
        assert not covered(page, seat, "#lesson", "#round-result"), seat
    shot(page, f"lesson-over-{lang}-390")


@pytest.mark.parametrize("size", list(SIZES))
def test_a_spectators_board_has_no_empty_band_under_the_piles(
    server: tuple[str, Any], browser: Browser, size: str
) -> None:
    """A spectator has no hand at the board's foot: the field comes right under the seats'
    piles (the board used to fill the screen, the field floating in an empty band)."""
    url, _app = server
    host = new_page(browser, locale="en-GB", **LAPTOP)
    table_id = create_table(host, url, "koi-koi", ["human", "bot:random"], {})
    page = new_page(browser, locale="en-GB", **SIZES[size])
    page.goto(f"{url}/t/{table_id}")
    page.wait_for_selector("#board[data-version] .hanafuda.watching")
    gap = page.evaluate(
        """() => {
            const seats = document.querySelector('.hanafuda .seats').getBoundingClientRect();
            const cards = [...document.querySelectorAll('.middle .card')]
                .map((c) => c.getBoundingClientRect().top);
            return Math.min(...cards) - seats.bottom;
        }"""
    )
    assert 0 <= gap <= 60, gap
    shot(page, f"spectator-board-{size}")
    assert not page.errors  # type: ignore[attr-defined]
