"""Games across days (issue 47): a move clock of days, a table that outlives the half hour
other tables are let go after and the server's restart, and the lobby's "Your turn" list
with its count in the page's title."""

from __future__ import annotations

import contextlib
import json
import random
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from playwright.sync_api import Browser, expect
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

from cardtable.server.app import create_app
from cardtable.server.day_clock import DAY

from .browser_helpers import browser, new_page, page_pause, shot
from .server_helpers import FAST, ServerProcess, eventually, http, seat_keys, server_thread
from .test_web_sound import WATCH_AUDIO, heard

__all__ = ["browser"]  # fixtures used by name


def day_table(url: str, days: int = 1) -> tuple[str, dict[int, str]]:
    body = {"game": "koi-koi", "seats": ["human", "human"], "public": False,
            "move_seconds": days * DAY}  # fmt: skip
    status, created = http("POST", f"{url}/api/tables", body)
    assert status == 201, created
    return str(created["id"]), seat_keys(created)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'days.db'}", FAST)) as served:
        yield served


def test_a_move_clock_in_days_and_no_other(client: TestClient) -> None:
    def clock_of(seconds: int) -> Any:
        body = {"game": "koi-koi", "seats": ["human", "bot:easy"], "move_seconds": seconds}
        answer = client.post("/api/tables", json=body)
        return answer.json()["id"] if answer.status_code == 201 else answer.status_code

    assert client.get(f"/api/tables/{clock_of(3 * DAY)}").json()["move_seconds"] == 3 * DAY
    assert client.get(f"/api/tables/{clock_of(5000)}").json()["move_seconds"] == 3600
    assert clock_of(8 * DAY) == 422


def test_a_day_table_is_kept_live_when_nobody_watches(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    days = client.post("/api/tables", json={"game": "koi-koi", "seats": ["human", "human"],
                                            "move_seconds": 2 * DAY}).json()["id"]  # fmt: skip
    minutes = client.post("/api/tables", json={"game": "koi-koi", "seats": ["human", "human"],
                                               "move_seconds": 60}).json()["id"]  # fmt: skip
    later = time.time() + DAY  # nobody has come back for a day
    gone = client.portal.call(hub.evict_abandoned, later)  # type: ignore[union-attr]
    assert minutes in gone and days not in gone
    assert days in hub.tables and hub.store.table(days).status == "playing"
    # once such a game is over it leaves memory like any other (it is only read from now on)
    over = hub.tables[days].game.new_state(seed=1)
    rng = random.Random(1)
    while not over.is_over:
        seat = min(over.to_move)
        over.apply(seat, rng.choice(over.legal_actions(seat)))
    hub.tables[days].state = over
    gone = client.portal.call(hub.evict_abandoned, later + DAY)  # type: ignore[union-attr]
    assert days in gone and days not in hub.tables


def test_your_turn_replays_no_table_for_a_wrong_key_and_is_limited(tmp_path: Path) -> None:
    """A table left memory comes back for "Your turn" only when the key opens its seat (a
    made-up key costs a store read, not a replay), and an address asks so many times a
    minute, then 429."""
    settings = replace(FAST, turns_burst=3, turns_per_minute=0.01)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'turns.db'}", settings)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        made = client.post("/api/tables", json={"game": "koi-koi", "seats": ["human", "human"],
                                                "move_seconds": 60}).json()  # fmt: skip
        table_id, key = made["id"], seat_keys(made)[0]
        later = time.time() + DAY
        assert table_id in client.portal.call(hub.evict_abandoned, later)  # type: ignore[union-attr]
        hub.store.set_fields(table_id, status="playing")  # as a restart finds it

        def turns(seat_key: str) -> Any:
            body = {"seats": [{"table": table_id, "seat": 0, "key": seat_key}]}
            return client.post("/api/turns", json=body)

        assert turns("not-the-key").json() == {"turns": [], "ended": []}
        assert table_id not in hub.tables  # not replayed for a made-up key
        answer = turns(key).json()["turns"]
        assert [turn["table"] for turn in answer] == [table_id] and table_id in hub.tables
        assert turns(key).status_code == 200
        refused = turns(key)  # the fourth within the minute
        assert refused.status_code == 429, refused.text


def drain(socket: Any) -> None:
    """Reads what ``socket`` was sent so far; ConnectionClosed once it is closed."""
    with contextlib.suppress(TimeoutError):
        while True:
            socket.recv(timeout=0)


def mover(url: str, table_id: str, keys: dict[int, str]) -> int:
    """Both people sit down (the invited one too), and the game starts: the seat to move
    first (the deal says which). Behind nginx the two may first reach two processes (one
    marked down for a moment), and one closes its socket with "moved": they sit down again,
    as the page does."""
    ws_url = url.replace("http", "ws")
    deadline = time.monotonic() + 60
    while True:
        try:
            with (
                connect(f"{ws_url}/ws/tables/{table_id}?seat=1&key={keys[1]}") as invited,
                connect(f"{ws_url}/ws/tables/{table_id}?seat=0&key={keys[0]}") as socket,
            ):
                while True:
                    frame = json.loads(socket.recv(timeout=5))
                    if frame["type"] == "state" and frame["table"]["waiting"] == []:
                        return int(min(frame["view"]["to_move"]))
                    drain(invited)  # raises once its process lets it go
        except (ConnectionClosed, InvalidHandshake, OSError):  # TimeoutError is an OSError
            if time.monotonic() > deadline:
                raise


def test_a_day_game_survives_a_restart_and_shows_in_your_turn(
    tmp_path: Path, browser: Browser
) -> None:
    served = ServerProcess(f"sqlite:///{tmp_path / 'days.db'}")
    served.start()
    try:
        table_id, keys = day_table(served.url)
        to_move = mover(served.url, table_id, keys)
        served.kill9()  # no goodbye: the table lives in the store only
        served.start()
        seats = [{"table": table_id, "seat": n, "key": k} for n, k in keys.items()]
        status, answer = http("POST", f"{served.url}/api/turns", {"seats": seats})
        assert status == 200
        turns = {turn["seat"]: turn for turn in answer["turns"]}
        assert turns[to_move]["your_turn"] and not turns[1 - to_move]["your_turn"]
        left = turns[to_move]["deadline"] - time.time()
        assert DAY - 120 < left <= DAY  # the clock counts from the deal, through the restart
        wrong = http("POST", f"{served.url}/api/turns", {"seats": [{**seats[0], "key": "x"}]})
        assert wrong[1] == {"turns": [], "ended": []}  # a wrong key learns nothing

        page = new_page(browser, locale="pl-PL", width=390, height=844)
        page.goto(served.url)
        seat = json.dumps({"seat": to_move, "key": keys[to_move]})
        page.evaluate(f"localStorage.setItem('cardtable.seat.{table_id}', {json.dumps(seat)})")
        page.reload()
        turn = page.locator(f"#turns-panel li[data-table='{table_id}']")
        expect(turn).to_contain_text("Koi-koi")
        expect(turn).to_contain_text("zostało: 23 godz.")
        assert page.title().startswith("(1) ")
        shot(page, "your-turn-pl")
        turn.locator("a").click()
        page.wait_for_selector("#board[data-version]")
        expect(page.locator("#clock")).to_contain_text("23 godz.")
    finally:
        served.stop()


def test_ended_tables_make_room_for_the_open_ones(tmp_path: Path, browser: Browser) -> None:
    """A browser that has sat at more tables than one request may ask about (100): the
    server says which are over (finished, abandoned, unknown), the page asks about them no
    more, and the open table beyond the first hundred shows in "Your turn"."""
    with server_thread(f"sqlite:///{tmp_path / 'many.db'}", FAST) as (url, _app):
        table_id, keys = day_table(url)
        to_move = mover(url, table_id, keys)
        stale = [{"table": f"gone{n:04d}", "seat": 0, "key": "k"} for n in range(3)]
        status, answer = http("POST", f"{url}/api/turns", {"seats": stale})
        assert status == 200 and answer["ended"] == [seat["table"] for seat in stale]
        page = new_page(browser, locale="en-GB")
        page.goto(url)
        seat = json.dumps({"seat": to_move, "key": keys[to_move]})
        page.evaluate(
            """([tableId, seat]) => {
                localStorage.setItem(`cardtable.seat.${tableId}`, seat);  // the oldest
                for (let n = 0; n < 150; n++) {
                  const old = JSON.stringify({seat: 0, key: "k"});
                  localStorage.setItem(`cardtable.seat.old${n}`, old);
                }
            }""",
            [table_id, seat],
        )
        turn = page.locator(f"#turns-panel li[data-table='{table_id}']")
        for _ in range(4):  # each look lets go of up to a hundred ended tables
            page.reload()
            page.wait_for_timeout(500)
            if turn.count():
                break
        expect(turn).to_be_visible()
        ended = page.evaluate("JSON.parse(localStorage.getItem('cardtable.turns.ended'))")
        assert ended and all(name.startswith("old") for name in ended)  # never the open one


def test_a_turn_that_comes_rings_the_bell(tmp_path: Path, browser: Browser) -> None:
    """The lobby open, sound on: a table where it has just become this browser's turn
    rings the table's bell once, and the title counts it."""
    with server_thread(f"sqlite:///{tmp_path / 'bell.db'}", FAST) as (url, _app):
        table_id, keys = day_table(url)
        to_move = mover(url, table_id, keys)
        page = new_page(browser, locale="en-GB")
        page.add_init_script(WATCH_AUDIO)
        page.goto(url)
        page.evaluate("localStorage.setItem('cardtable.sound', 'on')")
        page.reload()
        expect(page.locator("#play-now")).to_be_enabled()
        page.mouse.click(5, 300)  # a gesture: only after one may a page make a sound
        assert heard(page)["started"] == 0
        seat = json.dumps({"seat": to_move, "key": keys[to_move]})
        page.evaluate(f"localStorage.setItem('cardtable.seat.{table_id}', {json.dumps(seat)})")
        page.evaluate("window.dispatchEvent(new Event('focus'))")  # back to the tab
        expect(page.locator("#turns-panel")).to_be_visible()
        eventually(lambda: heard(page)["started"] > 0, 10, "the bell rings", page_pause(page))
        assert page.title().startswith("(1) ")


def test_your_turn_follows_the_player_key_to_another_device(
    tmp_path: Path, browser: Browser
) -> None:
    """A seat asked about with the player key is remembered for it: another browser that
    has only the key (as "Continue on another device" carries it) lists that turn, opens
    the seat from the list, and the database keeps no seat key in the clear."""
    player, stranger = "5e" * 16, "7f" * 16
    db = tmp_path / "follow.db"
    with server_thread(f"sqlite:///{db}", FAST) as (url, _app):
        table_id, keys = day_table(url)
        to_move = mover(url, table_id, keys)
        mine = {"table": table_id, "seat": to_move, "key": keys[to_move]}
        status, first = http("POST", f"{url}/api/turns", {"seats": [mine], "player": player})
        assert status == 200 and [t["seat"] for t in first["turns"]] == [to_move]
        assert "key" not in first["turns"][0]  # this device has it already
        _, other = http("POST", f"{url}/api/turns", {"seats": [], "player": player})
        assert [(t["table"], t["seat"], t["your_turn"]) for t in other["turns"]] == [
            (table_id, to_move, True)
        ]
        assert other["turns"][0]["key"] == keys[to_move]
        _, foreign = http("POST", f"{url}/api/turns", {"seats": [], "player": stranger})
        assert foreign == {"turns": [], "ended": []}  # another player's key learns nothing
        forged = {**mine, "seat": 1 - to_move}  # a key that does not open the seat
        http("POST", f"{url}/api/turns", {"seats": [forged], "player": stranger})
        nothing = {"turns": [], "ended": []}  # nothing remembered for it
        assert http("POST", f"{url}/api/turns", {"seats": [], "player": stranger})[1] == nothing
        for kept_file in tmp_path.glob("follow.db*"):  # the database and its journal
            assert keys[to_move].encode() not in kept_file.read_bytes()

        page = new_page(browser, locale="ru-RU", width=390, height=844)
        page.goto(url)
        page.evaluate(f"localStorage.setItem('cardtable.player', '{player}')")
        page.reload()
        turn = page.locator(f"#turns-panel li[data-table='{table_id}']")
        expect(turn).to_contain_text("Кои-кои")  # the game's name as Russian writes it
        assert page.title().startswith("(1) ")
        shot(page, "your-turn-other-device-ru")
        turn.locator("a").click()
        page.wait_for_selector("#board[data-version]")
        expect(page.locator("#chat-form")).to_have_count(1)  # seated: a seat's own panel
