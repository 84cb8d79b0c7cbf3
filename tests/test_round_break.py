"""Between rounds the server holds the table: the round's final board with its result, no
bot and no clock, until every human at the table has pressed "Next round" (with two or more
humans, a countdown moves the table on)."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.server.app import create_app
from cardtable.server.protocol import encoded
from cardtable.server.round_break import RoundBreak

from .server_helpers import FAST, idle_in_its_break, seat_keys
from .socket_play import next_reply, next_state

Frame = dict[str, Any]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = replace(FAST, round_break_seconds=0.6)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'break.db'}", settings)) as test_client:
        yield test_client


def create(client: TestClient, game: str, seats: list[str], options: dict[str, Any]) -> Frame:
    response = client.post("/api/tables", json={"game": game, "seats": seats, "options": options})
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def until_break(socket: Any, seat: int, rng: random.Random) -> Frame:
    """Play random moves for ``seat`` until a round ends; the first frame of the break."""
    frame = next_state(socket, 0)
    while frame["table"]["round_break"] is None:
        assert frame["table"]["status"] != "finished", "the game ended without a break"
        legal = frame["view"].get("legal_actions")
        if legal:
            action = rng.choice(legal)
            socket.send_json({"type": "action", "action": action, "version": frame["version"]})
        frame = next_state(socket, frame["version"])
    return frame


def started(socket: Any) -> Frame:
    """The first state frame once every invited person has sat down."""
    while (frame := next_state(socket, 0))["table"]["waiting"]:
        pass
    return frame


def explained(ended: dict[str, Any]) -> bool:
    """A result explains itself: lines for what scored, or a round nobody won (the
    tables' deals are drawn by the server, so either may come)."""
    return bool(ended["lines"]) or (ended["outcome"] == "exhausted" and not any(ended["scores"]))


def test_a_round_ends_on_its_final_board_and_waits_for_the_player(client: TestClient) -> None:
    created = create(client, "koi-koi", ["human", "bot:random"], {"rounds": 3, "zero_sum": False})
    table = client.app.state.hub.tables[created["id"]]  # type: ignore[attr-defined]
    url = f"/ws/tables/{created['id']}?seat=0&key={created['key']}"
    with (
        client.websocket_connect(url) as ws,
        client.websocket_connect(f"/ws/tables/{created['id']}") as spectator,
    ):
        pause = until_break(ws, 0, random.Random(3))
        view, version = pause["view"], pause["version"]
        # the board as the round ended: round 1, its result, nobody to move, no clock
        assert view["round"] == 1 and view["last_round"]["round"] == 1
        assert explained(view["last_round"])
        assert view["to_move"] == [] and view["legal_actions"] == [] and not view["over"]
        assert pause["clock"] is None
        assert pause["table"]["round_break"] == {
            "round": 1, "ready": [], "waiting": [0], "deadline": None, "also": [],
        }  # fmt: skip
        # the engine has dealt round 2, but nobody sees it and the bot does not move
        assert table.state.rounds_finished == 1 and not table.state.is_over
        assert idle_in_its_break(table) and table.version == version
        watched = next_state(spectator, version)
        assert watched["table"]["round_break"]["round"] == 1 and "hand" not in watched["view"]
        assert watched["view"]["piles"] == view["piles"]
        # a move of the next round is refused, and so is a hint
        legal = table.state.legal_actions(0) or [table.state.legal_actions(1)[0]]
        ws.send_json({"type": "action", "action": legal[0].to_json(), "version": version})
        assert next_reply(ws)["code"] == "round_break"
        ws.send_json({"type": "hint", "lang": "en"})
        assert next_reply(ws)["code"] == "no_hint"
        # the spectator cannot start the round
        spectator.send_json({"type": "next_round"})
        assert next_reply(spectator)["code"] == "spectator"
        ws.send_json({"type": "next_round"})
        frame = next_state(ws, version)
        assert frame["table"]["round_break"] is None
        assert frame["view"]["round"] == 2 and len(frame["view"]["hand"]) == 8
        ws.send_json({"type": "next_round"})  # a late double click changes nothing
        ws.send_json({"type": "ping"})
        assert next_reply(ws) == {"type": "pong"}


def test_with_two_people_a_countdown_moves_the_table_on(client: TestClient) -> None:
    # without stakes a big first round cannot end the match before any break
    created = create(client, "koi-koi", ["human", "human"], {"rounds": 3, "zero_sum": False})
    keys = seat_keys(created)
    table = client.app.state.hub.tables[created["id"]]  # type: ignore[attr-defined]
    sockets = [
        client.websocket_connect(f"/ws/tables/{created['id']}?seat={n}&key={keys[n]}")
        for n in (0, 1)
    ]
    with sockets[0] as first, sockets[1] as second:
        rng = random.Random(11)
        # the first seat's first frame may be from before the second sat down
        frames = [started(first), started(second)]
        while frames[0]["table"]["round_break"] is None:
            mover = next(n for n in (0, 1) if frames[n]["view"]["legal_actions"])
            action = rng.choice(frames[mover]["view"]["legal_actions"])
            version = frames[mover]["version"]
            (first, second)[mover].send_json({"type": "action", "action": action})
            frames = [next_state(first, version + 1), next_state(second, version + 1)]
        pause = frames[0]["table"]["round_break"]
        assert pause["waiting"] == [0, 1]
        assert pause["deadline"] == pytest.approx(table.last_change + 0.6)
        first.send_json({"type": "next_round"})
        ready = next_state(second, frames[1]["version"])
        assert ready["table"]["round_break"]["ready"] == [0]
        assert ready["table"]["round_break"]["waiting"] == [1]
        # the second player does not press: the countdown starts round 2 for both
        moved_on = next_state(second, frames[1]["version"])
        assert moved_on["table"]["round_break"] is None and moved_on["view"]["round"] == 2
        assert time.time() >= pause["deadline"]


def test_the_last_round_ends_the_game_without_a_break(client: TestClient) -> None:
    created = create(client, "koi-koi", ["human", "bot:random"], {"rounds": 1})
    url = f"/ws/tables/{created['id']}?seat=0&key={created['key']}"
    with client.websocket_connect(url) as ws:
        frame = next_state(ws, 0)
        rng = random.Random(2)
        while frame["table"]["status"] != "finished":
            assert frame["table"]["round_break"] is None
            if frame["view"]["legal_actions"]:
                action = rng.choice(frame["view"]["legal_actions"])
                ws.send_json({"type": "action", "action": action, "version": frame["version"]})
            frame = next_state(ws, frame["version"])
        assert frame["view"]["over"] and explained(frame["view"]["last_round"])


def test_a_round_that_ends_at_its_deal_is_shown_with_the_one_before() -> None:
    """A koi-koi deal may hold a lucky hand: the move that ends a round then ends the next
    one too. The break shows the first round's final board, and the lucky round's result
    with it (nobody could have seen it otherwise)."""
    game = cardtable.load("koi-koi", preset="nintendo", rounds=12)
    for seed in range(200):
        state, rng = game.new_state(seed=seed), random.Random(seed)
        while not state.is_over:
            seat = min(state.to_move)
            action = rng.choice(state.legal_actions(seat))
            before, rounds = state.clone(), state.rounds_finished
            state.apply(seat, action)
            if state.rounds_finished == rounds + 2 and not state.is_over:
                pause = RoundBreak.after(before, state, seat, action, [0], now=0.0, countdown=9)
                assert pause.round == rounds + 1 and pause.deadline is None
                assert [r["round"] for r in pause.also] == [rounds + 2]
                assert pause.also[0]["outcome"] == "lucky_hand"
                assert any(line["rule"].startswith("lucky") for line in pause.also[0]["lines"])
                assert pause.view(0)["round"] == rounds + 1
                return
    raise AssertionError("no lucky hand came up in 200 seeded games")


def test_the_break_leaves_the_board_before_the_move_as_it_was() -> None:
    """The coach judges the move on the board it was made on, also when it ended a round."""
    game = cardtable.load("koi-koi", rounds=3)
    state, rng = game.new_state(seed=5), random.Random(5)
    while True:
        seat = min(state.to_move)
        action = rng.choice(state.legal_actions(seat))
        before = state.clone()
        state.apply(seat, action)
        if state.rounds_finished:
            break
    kept = before.clone()
    pause = RoundBreak.after(before, state, seat, action, [0], now=0.0, countdown=0.0)
    assert pause.round == 1
    assert before.view(seat) == kept.view(seat) and before.to_move == kept.to_move
    assert action in before.legal_actions(seat)


@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("koi-koi", {"rounds": 3}),
        ("hana-awase", {"players": 3, "rounds": 3}),
        ("hana-awase-88", {}),
        ("bakappana", {}),
        ("ohanami", {"players": 3}),
    ],
)
def test_each_seat_is_sent_the_break_view_of_its_own_seat(
    game_id: str, options: dict[str, Any]
) -> None:
    """A break's frames share what every seat sees alike (worked out once): what each seat
    and a spectator are sent is their own view of the final board, the game not over."""
    import json

    game = cardtable.load(game_id, **options)
    state, rng = game.new_state(seed=3), random.Random(3)
    while True:
        seat = min(state.to_move)
        action = rng.choice(state.legal_actions(seat))
        before, rounds = state.clone(), state.rounds_finished
        state.apply(seat, action)
        if state.rounds_finished > rounds:
            break
    humans = range(state.num_players)
    pause = RoundBreak.after(before, state, seat, action, humans, now=0.0, countdown=9)
    for viewer in [None, *humans]:
        text = pause.encoded_view(viewer).text
        assert json.loads(text) == {**pause.final.view(viewer), "over": False}
        # the very text the whole view encodes to: no key twice, none moved
        assert text == encoded(pause.view(viewer))
        assert pause.encoded_view(viewer).text == text  # the same when sent again
