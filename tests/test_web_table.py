"""The table page as players meet it, in real Chromium: rounds end on their final board and
wait for "Next round", bots' calls are announced, spectators see every seat, cards move,
the hand stays on screen, the tab says whose turn it is, a double click is no error."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from websockets.sync.client import connect

from cardtable.server.fairness import Commitment

from .browser_helpers import (
    board,
    browser,
    close_result,
    create_table,
    hanafuda_move,
    new_page,
    page_pause,
    server,
    shot,
    wait_for_change,
)
from .server_helpers import eventually, idle_in_its_break

__all__ = ["browser", "server"]  # fixtures used by name

#: a game, the seats and house rules that make a short game with more than one round
BREAK_TABLES = {
    "koi-koi": (["human", "bot:random"], {"rounds": "3"}),
    "ohanami": (["human", "bot:greedy"], {}),
    "siedem-slow": (
        ["human", "bot:easy"],
        {"deck": '"en"', "rounds": "2", "hourglass_seconds": "5", "grace_seconds": "0",
         "flip_cap_seconds": "6"},
    ),
}  # fmt: skip


@contextmanager
def seat_socket(page: Page, url: str, table_id: str) -> Iterator[Any]:
    """A second connection to the page's own seat (its key is in the page's storage): the
    test plays the seat's moves through it while the page shows the table."""
    stored = page.evaluate(f"localStorage.getItem('cardtable.seat.{table_id}')")
    seat = json.loads(stored)
    ws_url = url.replace("http", "ws")
    with connect(f"{ws_url}/ws/tables/{table_id}?seat={seat['seat']}&key={seat['key']}") as ws:
        yield ws


def frames(ws: Any) -> Iterator[dict[str, Any]]:
    while True:
        frame = json.loads(ws.recv(timeout=30))
        # a move sent on a frame the bots had already overtaken: the next frame is newer
        assert frame["type"] != "error" or frame["code"] == "stale", frame
        if frame["type"] == "state":
            yield frame


def play_until_break(ws: Any, rng: random.Random, limit: float = 90) -> dict[str, Any] | None:
    """Random legal moves for the seat until a round ends; that frame, or None when the
    game ended with the round (a koi-koi stake can run out in the first round)."""
    stream = frames(ws)

    def round_over() -> tuple[dict[str, Any] | None] | None:
        """The next frame: (it,) at a round break, (None,) when the game is over, else the
        seat's move on it and None."""
        frame = next(stream, None)
        assert frame is not None, "the socket closed"
        if frame["table"]["round_break"]:
            return (frame,)
        if frame["table"]["status"] == "finished":
            return (None,)
        legal = [a for a in frame["view"].get("legal_actions", []) if a["type"] != "flip"]
        if legal:
            action = rng.choice(legal)
            ws.send(json.dumps({"type": "action", "action": action, "version": frame["version"]}))
        return None

    # reading the next frame waits already: no pause between asks
    (ended,) = eventually(round_over, limit, "a round ends", pause=lambda seconds: None)
    return ended


@pytest.mark.parametrize("game", list(BREAK_TABLES))
def test_a_round_ends_on_its_final_board_and_waits_for_next_round(
    server: tuple[str, Any], browser: Browser, game: str
) -> None:
    url, app = server
    seats, rules = BREAK_TABLES[game]
    page = new_page(browser, width=1366, height=768)
    for attempt in range(5):  # a game that ends with its first round breaks nowhere
        table_id = create_table(page, url, game, seats, rules)
        table = app.state.hub.tables[table_id]
        with seat_socket(page, url, table_id) as ws:
            pause = play_until_break(ws, random.Random(4 + attempt))
        if pause is not None:
            break
    else:
        raise AssertionError("five games in a row ended with their first round")
    page.wait_for_selector("#round-result:not([hidden]) #next-round")
    assert board(page)["break"] == "1"
    # the final board with its result: the round's own number, nobody to move
    assert board(page)["round"] == "1" and board(page)["mine"] == "false"
    # its score lines, or for a round that scored nothing (a koi-koi round whose cards ran
    # out before anyone stopped) the sentence saying so, never an empty table
    said = page.locator("#round-result .breakdown tr[data-rule], #round-result #no-points")
    expect(said.first).to_be_visible()
    over = "Stage 1 is over" if game == "ohanami" else "Round 1 is over"
    expect(page.locator("#status")).to_contain_text(over)
    shot(page, f"break-{game}")
    # the server deals nothing visible, and no bot or clock runs while we look
    assert idle_in_its_break(table)
    assert page.locator("#clock").is_hidden()
    assert board(page)["break"] == "1"
    assert pause["view"]["round" if game != "ohanami" else "stage"] == 1
    page.click("#next-round")
    page.wait_for_function("document.querySelector('#board').dataset.break === ''")
    assert board(page)["round"] == "2"
    assert page.locator("#round-result").is_hidden()
    assert not page.errors  # type: ignore[attr-defined]


def test_a_bots_koikoi_call_is_announced_and_logged(
    server: tuple[str, Any], browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    url, _app = server
    # a deal whose random bot calls koi-koi a few moves in (the bot draws from the table's
    # seed): left to the CSPRNG, the wait ran from seconds to minutes
    monkeypatch.setattr(Commitment, "draw", classmethod(lambda cls: cls(seed=5, salt="ab")))
    page = new_page(browser, width=1366, height=768)

    def new_table() -> None:
        create_table(page, url, "koi-koi", ["human", "bot:random"], {"rounds": "12"})
        # remember every announcement the table makes
        page.evaluate(
            """() => {
                window.announced = [];
                const banner = document.querySelector('#announce');
                new MutationObserver(() => window.announced.push(banner.textContent)).observe(
                    banner, { childList: true, characterData: true, subtree: true });
            }"""
        )

    new_table()

    # the random bot calls koi-koi when luck gives it a yaku and the choice: rounds go on
    # until it does (a few moves with this seed); a game can end first (the shōbu this
    # test calls can empty a zero-sum stake): then another
    def bot_called() -> bool:
        """True once the log has the bot's call; else one move of this seat's."""
        if page.locator("#log li", has_text="calls koi-koi").count():
            return True
        if board(page).get("status") == "finished":
            new_table()
            return False
        version = board(page)["version"]
        if hanafuda_move(page):
            wait_for_change(page, version, 10)
        return False

    eventually(bot_called, 300, "the bot calls koi-koi", pause=page_pause(page))
    call = page.locator("#log li", has_text="calls koi-koi").first.inner_text()
    assert call.startswith("Bot (random) calls koi-koi")
    page.wait_for_function("window.announced.some(t => t.includes('calls koi-koi'))")
    # the log says the round in words: who played which card and what it took
    lines = page.locator("#log li").all_inner_texts()
    assert any(" plays " in line and ", takes " in line for line in lines)
    assert any(" draws " in line for line in lines)
    shot(page, "koikoi-call-announced")


@pytest.mark.parametrize(("game", "players"), [("koi-koi", 2), ("hana-awase-88", 3)])
def test_a_spectator_sees_every_seat(
    server: tuple[str, Any], browser: Browser, game: str, players: int
) -> None:
    url, _app = server
    host = new_page(browser)
    seats = ["human"] + ["bot:easy"] * (players - 1)
    table_id = create_table(host, url, game, seats, {"rounds": "1"} if game == "koi-koi" else {})
    watcher = new_page(browser, locale="ru-RU")
    watcher.goto(f"{url}/t/{table_id}?watch=1")
    watcher.wait_for_selector(".seat-box")
    for n in range(players):
        box = watcher.locator(f".seat-box[data-seat='{n}']")
        expect(box).to_be_visible()
        expect(box.locator(".name")).not_to_be_empty()
        expect(box.locator(".stack")).to_have_count(4)
    assert watcher.locator(".hand").count() == 0  # a spectator holds no cards
    shot(watcher, f"spectator-{game}")


def test_cards_move_between_two_frames(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser, width=1366, height=768)
    create_table(page, url, "koi-koi", ["human", "bot:easy"], {"rounds": "1"})
    page.wait_for_function("document.querySelector('#board').dataset.mine === 'true'")
    page.evaluate(
        """() => {
            window.moves = [];
            new MutationObserver(() => {
                const moving = document.querySelectorAll('#board [data-anim]');
                for (const card of moving) {
                    const [animation] = card.getAnimations();
                    if (!animation) continue;
                    // where the animation starts and where it ends, whatever the machine's speed
                    animation.pause();
                    animation.currentTime = 0;
                    const first = card.getBoundingClientRect();
                    animation.finish();
                    const later = card.getBoundingClientRect();
                    window.moves.push([first.left, first.top, later.left, later.top]);
                }
            }).observe(document.querySelector('#board'), { childList: true });
        }"""
    )
    version = board(page)["version"]
    hanafuda_move(page)
    wait_for_change(page, version)
    page.wait_for_function("window.moves.length > 0")
    moves = page.evaluate("window.moves")
    assert any(abs(x0 - x1) > 2 or abs(y0 - y1) > 2 for x0, y0, x1, y1 in moves)


def test_reduced_motion_moves_nothing(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    context = browser.new_context(reduced_motion="reduce", viewport={"width": 1366, "height": 768})
    page = context.new_page()
    create_table(page, url, "koi-koi", ["human", "bot:easy"], {"rounds": "1"})
    page.wait_for_function("document.querySelector('#board').dataset.mine === 'true'")
    version = board(page)["version"]
    hanafuda_move(page)
    wait_for_change(page, version)
    cards_moving = "document.getAnimations().filter(a => a.effect?.target?.dataset?.anim).length"
    assert page.evaluate(cards_moving) == 0


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
def test_the_hand_stays_on_screen_through_a_round(
    server: tuple[str, Any], browser: Browser, width: int, height: int
) -> None:
    url, _app = server
    page = new_page(browser, width=width, height=height)
    # three rounds: a single one can end after two turns when the bot makes a yaku at once
    create_table(page, url, "koi-koi", ["human", "bot:medium"], {"rounds": "3"})
    checked = 0

    def looked_enough() -> bool:
        """One look at the hand on this seat's turn, and its move; True after six looks or
        at the end of the game."""
        nonlocal checked
        if checked >= 6 or board(page).get("status") == "finished":
            return True
        close_result(page)
        state = board(page)
        if state.get("mine") != "true":
            return False
        page.evaluate("window.scrollTo(0, 0)")
        box = page.evaluate(
            """() => {
                const hand = document.querySelector('.mine .hand');
                if (!hand) return null;  // caught between two drawings of the board
                const r = hand.getBoundingClientRect();
                const width = document.documentElement.scrollWidth;
                return [r.top, r.bottom, innerHeight, width];
            }"""
        )
        if box is None:
            hanafuda_move(page)
            wait_for_change(page, state["version"], 10)
            return False
        top, bottom, inner, scroll_width = box
        assert top >= 0 and bottom <= inner, f"the hand is off screen at {width}x{height}: {box}"
        assert scroll_width <= width, f"the page scrolls sideways ({scroll_width}px)"
        checked += 1
        if checked == 4:
            shot(page, f"koikoi-hand-{width}")
        hanafuda_move(page)
        wait_for_change(page, state["version"], 10)
        return False

    eventually(looked_enough, 120, "six looks at the hand", pause=page_pause(page))
    assert checked >= 4


def test_the_tab_title_says_your_turn_and_the_sound_switch_is_remembered(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    page = new_page(browser, locale="pl-PL")
    create_table(page, url, "koi-koi", ["human", "bot:easy"], {"rounds": "1"})
    page.wait_for_function("document.querySelector('#board').dataset.mine === 'true'")
    expect(page).to_have_title("● Twój ruch — Koi-koi")
    assert "data:image/svg+xml" in (page.get_attribute("link[rel=icon]", "href") or "")
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "false")  # off until asked
    page.click("#sound")
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")
    page.reload()
    expect(page.locator("#sound")).to_have_attribute("aria-pressed", "true")
    page.wait_for_function("document.querySelector('#board').dataset.mine === 'true'")
    # every change of turn is seen with the title of that moment: the bot answers within 50 ms
    page.evaluate(
        """() => {
            window.turns = [];
            const b = document.querySelector('#board');
            new MutationObserver(() => {
                const d = b.dataset;
                window.turns.push([d.mine, d.break, d.status, document.title]);
            }).observe(b, { attributes: true, attributeFilter: ['data-mine'] });
        }"""
    )

    def passed_to_the_bot() -> bool:
        hanafuda_move(page)
        try:
            page.wait_for_function("window.turns.some(([mine]) => mine === 'false')", timeout=3000)
        except PlaywrightTimeout:  # the flipped card may wait for this seat's choice of capture
            return False
        return True

    eventually(passed_to_the_bot, 60, "the turn passes to the bot", pause=page_pause(page))
    turns = page.evaluate("window.turns")
    for mine, round_break, status, title in turns:
        if mine == "false" and not round_break and status != "finished":
            assert title == "Koi-koi — cardtable"
        elif mine == "true":
            assert title == "● Twój ruch — Koi-koi"


def test_a_double_click_is_not_an_error(server: tuple[str, Any], browser: Browser) -> None:
    url, app = server
    page = new_page(browser)
    sent: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []

    def listen(socket: WebSocket) -> None:
        if "/ws/tables/" in socket.url:
            socket.on("framesent", lambda payload: sent.append(json.loads(payload)))
            socket.on("framereceived", lambda payload: note_error(json.loads(payload)))

    def note_error(message: dict[str, Any]) -> None:
        if message["type"] == "error":
            errors.append(message)

    page.on("websocket", listen)
    table_id = create_table(page, url, "koi-koi", ["human", "bot:easy"], {"rounds": "1"})
    table = app.state.hub.tables[table_id]
    page.wait_for_function("document.querySelector('#board').dataset.mine === 'true'")
    version = int(board(page)["version"])
    page.locator(".hand .card.playable").first.dblclick()
    if page.locator(".card.target").count():  # two matches: double click the choice too
        page.locator(".card.target").first.dblclick()
    wait_for_change(page, str(version))

    def mine() -> int:  # the moves of seat 0 the table took since the double click
        return sum(1 for move in table.state.log[version:] if move.seat == 0)

    def clicks() -> int:
        return sum(1 for message in sent if message["type"] == "action")

    # every action the page sent is answered, by a move or by an error frame
    eventually(lambda: mine() + len(errors) >= clicks(), what="every click answered")
    # the double click played one hand card; what follows is that turn's own (the flipped
    # card's take, a koi-koi call), never a second card
    kinds = [type(move.action).__name__ for move in table.state.log[version:] if move.seat == 0]
    assert kinds[0] == "Play" and kinds.count("Play") == 1, kinds
    assert {error["code"] for error in errors} <= {"stale"}  # the page says nothing of those
    assert page.locator("#toast").is_hidden(), page.locator("#toast").inner_text()


def test_every_choice_is_reachable_from_the_keyboard(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    page = new_page(browser)
    create_table(page, url, "koi-koi", ["human", "bot:easy"], {"rounds": "1"})
    page.wait_for_function("document.querySelector('#board').dataset.mine === 'true'")
    version = board(page)["version"]
    page.locator(".hand .card.playable").first.focus()
    focused = page.evaluate("document.activeElement.matches('.hand .card.playable')")
    assert focused
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "focus is visible"
    page.keyboard.press("Enter")
    if page.locator(".card.target").count():  # two matches: the table cards are next in turn
        page.locator(".card.target").first.focus()
        page.keyboard.press(" ")
    wait_for_change(page, version)


def test_a_three_player_round_by_clicking_keeps_the_hand_on_screen(
    server: tuple[str, Any], browser: Browser
) -> None:
    """Hana-awase 88: three seats around the field, captures also from the others' piles
    (a stolen card is picked out of its stack), until the round's result."""
    url, _app = server
    page = new_page(browser, width=1366, height=768)
    create_table(page, url, "hana-awase-88", ["human", "bot:easy", "bot:easy"], {})
    expect(page.locator(".seat-box .name")).to_have_count(3)
    names = page.locator(".seat-box .name").all_inner_texts()
    assert len(set(names)) == 3, names  # two easy bots, told apart

    def round_over() -> bool:
        """True at the round's break; else, on this seat's turn, the hand is in sight and
        it moves."""
        state = board(page)
        if state.get("break"):
            return True
        if state.get("mine") == "true":
            page.evaluate("window.scrollTo(0, 0)")
            bottom = page.evaluate(
                "document.querySelector('.mine .hand').getBoundingClientRect().bottom"
            )
            assert bottom <= 768
            hanafuda_move(page)
            wait_for_change(page, state["version"], 10)
        return False

    eventually(round_over, 120, "the round ends", pause=page_pause(page))
    expect(page.locator("#round-result #next-round")).to_be_visible()
    shot(page, "hana-awase-88-round-result")
