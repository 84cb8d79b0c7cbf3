"""Play whole games over the app's WebSockets (in-process), checking every frame."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from contextlib import ExitStack
from typing import Any

from fastapi.testclient import TestClient

import cardtable
from cardtable.core.rng import Rng
from cardtable.games.siedem_slow import solve
from cardtable.server.tables import LiveTable

from .server_helpers import seat_keys

Frame = dict[str, Any]
FrameCheck = Callable[[int | None, Frame, Any, LiveTable], None]


def next_state(socket: Any, version: int) -> Frame:
    """The first state frame of at least ``version`` (older duplicates and presence
    changes are skipped)."""
    while True:
        frame = socket.receive_json()
        if frame["type"] == "state" and frame["version"] >= version:
            return frame
        assert frame["type"] in ("state", "presence"), frame


def normal(data: Any) -> Any:
    return json.loads(json.dumps(data))


def word_action(view: Frame, seat: int, replica: Any, rng: random.Random) -> Frame:
    """7 słów writing: the lowest seat writes the best word and flips, the others lock."""
    first = seat == min(s for s in view["to_move"] if s >= 0)
    allowed = lambda word: replica.family_block(seat, word) is None  # noqa: E731
    best = solve(replica.area, replica.dictionary, top=1, allowed=allowed) if first else []
    if best and not view.get("entry") and rng.random() < 0.8:
        return {"type": "submit", "word": best[0].word}
    if view.get("entry") and view.get("may_flip"):
        return {"type": "flip"}
    return {"type": "lock"}


def play_game(
    client: TestClient,
    game: str,
    options: dict[str, Any],
    seats: int,
    rng: random.Random,
    check: FrameCheck | None = None,
    spectate: bool = True,
    max_moves: int = 5000,
) -> tuple[str, Any]:
    """Create an all-human table, play it to the end with random legal moves sent by the
    seats' sockets, and check every frame every socket receives. Returns the table id and
    the test's own replica of the final state."""
    created = client.post(
        "/api/tables", json={"game": game, "seats": ["human"] * seats, "options": options}
    ).json()
    table_id = created["id"]
    keys = seat_keys(created)
    table = client.app.state.hub.tables[table_id]  # type: ignore[attr-defined]
    replica = cardtable.load(game, **table.row.options).new_state(seed=table.row.seed)
    parse = table.game.parse_action
    with ExitStack() as stack:
        sockets: dict[int | None, Any] = {
            seat: stack.enter_context(
                client.websocket_connect(f"/ws/tables/{table_id}?seat={seat}&key={key}")
            )
            for seat, key in sorted(keys.items())
        }
        if spectate:
            sockets[None] = stack.enter_context(client.websocket_connect(f"/ws/tables/{table_id}"))
        frames = {seat: next_state(s, 0) for seat, s in sockets.items()}
        for version in range(max_moves):
            for seat, frame in frames.items():
                assert frame["version"] == version
                if check is not None:
                    check(seat, frame, replica, table)
            if replica.is_over:
                break
            seat = min(s for s in replica.to_move if s >= 0)
            view = frames[seat]["view"]
            if game == "siedem-slow" and view["phase"] in ("writing", "hourglass"):
                action = word_action(view, seat, replica, rng)
            else:
                action = rng.choice(view["legal_actions"])
            sockets[seat].send_json({"type": "action", "action": action, "version": version})
            before, rounds = replica.clone(), replica.rounds_finished
            replica.apply(seat, parse(action))
            frames = {s: next_state(sock, version + 1) for s, sock in sockets.items()}
            if replica.rounds_finished > rounds and not replica.is_over:
                frames = round_break(sockets, frames, before, seat, parse(action))
        assert replica.is_over, "the game did not end"
    return table_id, replica


def play_seat(socket: Any, seat: int, choose: Callable[[Frame], Frame]) -> Frame:
    """Play one seat to the end of the game as a page does: a move of ``choose``'s when
    the seat is to move, "Next round" when a round has ended; returns the last frame."""
    frame = next_state(socket, 0)
    while frame["table"]["status"] != "finished":
        pause = frame["table"]["round_break"]
        if pause is not None:
            if seat in pause["waiting"]:
                socket.send_json({"type": "next_round"})
        elif frame["view"].get("legal_actions"):
            action = choose(frame)
            socket.send_json({"type": "action", "action": action, "version": frame["version"]})
        frame = next_state(socket, frame["version"])
    return frame


def round_break(
    sockets: dict[int | None, Any],
    frames: dict[int | None, Frame],
    before: Any,
    seat: int,
    action: Any,
) -> dict[int | None, Frame]:
    """A round ended: every socket sees its final board (what a copy of the game stopped
    at the round's end shows that seat) and no move until each human seat has sent
    ``next_round``; then the next round's frames."""
    final = before.clone()
    final.end_at_round(explain=True)
    final.apply(seat, action)
    version = next(iter(frames.values()))["version"]
    humans = [s for s in sockets if s is not None]
    for viewer, frame in frames.items():
        assert frame["table"]["round_break"]["waiting"] == humans
        assert frame["clock"] is None
        assert frame["view"] == normal({**final.view(viewer), "over": False})
        assert not frame["view"].get("legal_actions")
    mover = humans[0]
    sockets[mover].send_json({"type": "action", "action": action.to_json(), "version": version})
    assert next_reply(sockets[mover])["code"] == "round_break"  # nothing moves meanwhile
    for human in humans:
        sockets[human].send_json({"type": "next_round"})
    after = {}
    for viewer, sock in sockets.items():
        while True:
            frame = next_state(sock, version)
            if frame["table"]["round_break"] is None:
                after[viewer] = frame
                break
    return after


def hidden_independent(seat: int | None, frame: Frame, replica: Any, table: LiveTable) -> None:
    """The frame shows exactly the engine's view for this seat, and that view does not
    change when everything the seat cannot see is re-dealt; before the end the seed and
    salt are nowhere in it."""
    assert frame["seat"] == seat
    assert frame["view"] == normal(replica.view(seat))
    if seat is not None and not replica.is_over:
        for k in range(2):
            other = replica.determinize(seat, Rng(frame["version"] * 7 + k))
            assert frame["view"] == normal(other.view(seat))
    if seat is None:
        assert "hand" not in frame["view"] and "legal_actions" not in frame["view"]
    text = json.dumps(frame)
    if not replica.is_over:
        assert "reveal" not in frame["table"]
        assert str(table.row.seed) not in text and table.row.salt not in text
    else:
        assert frame["table"]["reveal"] == {"seed": table.row.seed, "salt": table.row.salt}


def next_reply(socket: Any) -> Frame:
    """The next frame that is not a broadcast (an error or a pong)."""
    while True:
        frame = socket.receive_json()
        if frame["type"] not in ("state", "presence"):
            return frame
