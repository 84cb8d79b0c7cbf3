"""The table's log tells what happened (issue 48, item 5), in real Chromium: a reload keeps
the whole game's lines in the order they came (a koi-koi call where it was made, earlier
rounds too), and a round that ends on its last card says so in the log and the result box
(no one called shōbu)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from playwright.sync_api import Browser

from cardtable.locales import message

from .browser_helpers import browser, create_table, new_page, server
from .server_helpers import eventually
from .test_web_result_box import LOCALES, said_by_the_result
from .test_web_table import frames, seat_socket

__all__ = ["browser", "server"]  # fixtures used by name

LOG = "() => [...document.querySelectorAll('#log li')].map(li => li.textContent)"


def send(ws: Any, frame: dict[str, Any], action: dict[str, Any]) -> None:
    ws.send(json.dumps({"type": "action", "action": action, "version": frame["version"]}))


def play_past_a_call(ws: Any, rng: random.Random) -> bool:
    """Play the page's seat at random, calling koi-koi whenever it may, until a call was
    made, a round has ended, and the seat has moved a few times since both (a count of the
    next round's moves alone could end on the call itself); False when the game ended
    first."""
    calls_seen, rounds_done, moves_after = 0, 0, 0
    for frame in frames(ws):
        table, view = frame["table"], frame["view"]
        if table["status"] == "finished":
            return False
        if table["round_break"]:
            if 0 in table["round_break"]["waiting"]:
                rounds_done += 1
                ws.send(json.dumps({"type": "next_round"}))
            continue
        legal = view.get("legal_actions") or []
        calls = sum(view.get("koikoi_calls") or [])
        calls_seen = max(calls_seen, calls)
        if rounds_done and calls_seen and moves_after >= 3:
            return True
        call = [a for a in legal if a["type"] == "koi-koi"]
        moves = call or [a for a in legal if a["type"] != "flip"]
        if moves:
            moves_after += bool(rounds_done and calls_seen)
            send(ws, frame, rng.choice(moves))
    return False


def test_a_reload_keeps_the_whole_game_in_the_order_it_came(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, app = server
    page = new_page(browser, locale="en-GB", width=1366, height=800)
    for attempt in range(6):
        table_id = create_table(page, url, "koi-koi", ["human", "bot:random"], {"rounds": "6"})
        with seat_socket(page, url, table_id) as ws:
            if play_past_a_call(ws, random.Random(attempt)):
                break
    else:
        raise AssertionError("six games ended before a koi-koi call in a second round")
    table = app.state.hub.tables[table_id]
    # the page has the table's last frame (the bots wait for the seat now)
    shown = "document.querySelector('#board').dataset.version"
    eventually(lambda: page.evaluate(shown) == str(table.version), 20, "the page catches up")
    before = page.evaluate(LOG)
    # the first round's end is in it, then the second round's moves
    # (a misdeal ends a round too: the cards are dealt again)
    ended = ("Round 1", "shōbu", "last card", "Misdeal")
    assert any(said in line for line in before for said in ended), before
    call = next((n for n, line in enumerate(before) if "calls koi-koi" in line), None)
    assert call is not None and call < len(before) - 1, before  # moves were made after it
    page.reload()
    page.wait_for_selector("#board[data-version]")
    page.wait_for_selector("#log li")
    eventually(lambda: page.evaluate(LOG)[: len(before)] == before, 5, "the log as before")
    assert page.evaluate(LOG)[: len(before)] == before


#: a koi-koi round's final board at its break, won by Ala (seat 0) by 6 points with its
#: stop (the engine's "shobu" outcome), and what the log and the result box say of it;
#: ``HANDS`` (cards left in the hands) is filled in
ROUND_END = """
    const ended = { round: 3, dealer: 1, scores: [6, -6], outcome: 'shobu',
                     lines: [{ seat: 0, rule: 'yaku:tane', points: 6, cards: [] }] };
    const view = { round: 3, rounds: 12, hand_sizes: HANDS, stock_size: 0, events: [],
                   koikoi_calls: [0, 0], last_round: ended, scores: [36, 24] };
    const frame = { table: { id: 't', status: 'playing', options: {}, round_break:
                    { round: 3, waiting: [0], ready: [] } }, view, seat: 0 };
    const ctx2 = { ...ctx, frame, roundBreak: frame.table.round_break, lang: LANG,
                   seatName: (n) => ['Ala', 'Olek'][n] };
    const panel = document.createElement('section');
    document.body.append(panel);
    result.renderResult(panel, { frame, client: hanafuda, ctx: ctx2, ui: {}, now: 0,
                                 onNext: () => {} });
    const reason = panel.querySelector('#round-reason')?.textContent;
    return [hanafuda.narrate(view, ctx2).at(-1).text, reason];
"""


def round_end(lang: str, hands: list[int]) -> str:
    return ROUND_END.replace("HANDS", json.dumps(hands)).replace("LANG", json.dumps(lang))


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_round_ended_on_its_last_card_says_so(
    server: tuple[str, Any], browser: Browser, lang: str
) -> None:
    url, _app = server
    last_card = said_by_the_result(browser, url, lang, round_end(lang, hands=[0, 0]))
    assert last_card == [
        message("hanafuda.log.last_card", lang, name="Ala", n=6),
        message("hanafuda.outcome.last_card", lang, name="Ala"),
    ]
    # a stop called with cards still in hand is a shōbu, and the box says who called it
    called = said_by_the_result(browser, url, lang, round_end(lang, hands=[3, 3]))
    assert called == [
        message("hanafuda.log.shobu", lang, name="Ala", n=6),
        message("hanafuda.outcome.shobu", lang, name="Ala"),
    ]
