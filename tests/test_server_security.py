"""Security of the web server: hidden cards never leave the server, hostile messages are
answered with an error and no crash, seat keys guard the seats, and limits hold."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.server.app import create_app
from cardtable.server.settings import Settings

from .server_helpers import FAST, seat_keys
from .socket_play import hidden_independent, next_reply, next_state, play_game

GAMES = [
    ("koi-koi", {"rounds": 1}, 2),
    ("bakappana", {"rounds": 1}, 3),
    ("bakappana", {"rounds": 1}, 2),
    ("hana-awase", {"rounds": 1}, 4),
    ("hana-awase-88", {"rounds": 1}, 3),
    ("ohanami", {}, 2),
    ("ohanami", {}, 4),
    # long clocks: no server-side time-up can slip between the test's moves on a slow machine
    (
        "siedem-slow",
        {"deck": "en", "rounds": 2, "hourglass_seconds": 300, "flip_cap_seconds": 0},
        3,
    ),
]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'sec.db'}", FAST)) as test_client:
        yield test_client


CHUNKS = 4


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))  # in parts, so the two test workers share it
def test_no_frame_ever_carries_another_seats_hidden_cards(client: TestClient, chunk: int) -> None:
    """200 random full games over the sockets (50 a part): every frame to every seat and
    spectator is exactly the engine's view, which does not change when the cards that
    seat cannot see are re-dealt (other hands, the stock order, words being written)."""
    rng = random.Random(2026 + chunk)
    finished = 0
    part = 200 // CHUNKS
    for number in range(chunk * part, (chunk + 1) * part):
        game, options, seats = GAMES[number % len(GAMES)]
        options = dict(options)
        if "players" not in options and game != "koi-koi":
            options["players"] = seats
        play_game(
            client, game, options, seats, rng, check=hidden_independent, spectate=number % 4 == 0
        )
        finished += 1
    assert finished == part


MESSAGE_TYPES = st.sampled_from(["action", "ping", "state", "hello", "", "ACTION", None, 1])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
ACTIONS = st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "take", "koi-koi", "shobu", "keep", "place", "submit", "x"])},
    optional={
        "card": st.one_of(
            st.text(max_size=6), st.integers(), st.sampled_from(["01-1", "12-4", "13-1"])
        ),
        "take": st.one_of(st.none(), st.text(max_size=6), st.integers()),
        "cards": st.lists(st.integers(), max_size=3),
        "word": st.text(max_size=40),
        "placements": JSON_VALUES,
    },
)
MESSAGES = st.one_of(
    st.text(max_size=60),
    JSON_VALUES.map(json.dumps),
    st.builds(lambda t, a: json.dumps({"type": t, "action": a}), MESSAGE_TYPES, JSON_VALUES),
    st.builds(
        lambda a, v: json.dumps({"type": "action", "action": a, "version": v}), ACTIONS, JSON_VALUES
    ),
    st.integers(5000, 9000).map(
        lambda n: json.dumps({"type": "action", "action": {"type": "play", "card": "x" * n}})
    ),
    st.just("[" * 5000 + "]" * 5000),
)


@pytest.mark.slow
def test_ten_thousand_hostile_messages_get_errors_and_no_crash(client: TestClient) -> None:
    created = client.post(
        "/api/tables", json={"game": "koi-koi", "seats": ["human", "human"]}
    ).json()
    table_id, keys = created["id"], seat_keys(created)
    sent = [0]
    with (
        client.websocket_connect(f"/ws/tables/{table_id}?seat=0&key={keys[0]}") as s0,
        client.websocket_connect(f"/ws/tables/{table_id}?seat=1&key={keys[1]}") as s1,
    ):
        # each socket's own state (a seat joining later is only a presence frame to the other)
        start = {s0: next_state(s0, 0), s1: next_state(s1, 0)}
        mover = s0 if start[s0]["view"]["legal_actions"] else s1
        # the seat that is not to move sends them, so no random message is a legal move
        hostile_seat = s1 if mover is s0 else s0

        @settings(max_examples=200, database=None)
        @given(st.lists(MESSAGES, min_size=50, max_size=50))
        def hostile(batch: list[str]) -> None:
            for text in batch:
                hostile_seat.send_text(text)
                reply = next_reply(hostile_seat)
                assert reply["type"] in ("error", "pong"), reply
                sent[0] += 1

        hostile()
        assert sent[0] >= 10_000
        # the server is alive and the table unchanged: a legal move still goes through
        assert client.get(f"/api/tables/{table_id}").json()["moves"] == 0
        hostile_seat.send_json({"type": "ping"})
        assert next_reply(hostile_seat) == {"type": "pong"}
        view = start[mover]["view"]
        mover.send_json({"type": "action", "action": view["legal_actions"][0]})
        assert next_state(mover, 1)["version"] == 1


def test_a_wrong_or_missing_key_cannot_act(client: TestClient) -> None:
    created = client.post(
        "/api/tables", json={"game": "koi-koi", "seats": ["human", "human"]}
    ).json()
    table_id, keys = created["id"], seat_keys(created)
    for query in (
        "seat=0",
        "seat=0&key=",
        f"seat=0&key={keys[1]}",
        "seat=7&key=x",
        "seat=-1&key=x",
    ):
        with client.websocket_connect(f"/ws/tables/{table_id}?{query}") as ws:
            assert ws.receive_json()["code"] == "forbidden", query
    with client.websocket_connect(f"/ws/tables/{table_id}") as spectator:
        view = next_state(spectator, 0)["view"]
        assert "hand" not in view
        spectator.send_json({"type": "action", "action": {"type": "shobu"}})
        assert next_reply(spectator)["code"] == "spectator"
    with client.websocket_connect("/ws/tables/doesnotexist") as ws:
        assert ws.receive_json()["code"] == "not_found"
    assert client.get(f"/api/tables/{table_id}").json()["moves"] == 0


def test_payload_size_and_message_rate_limits(tmp_path: Path) -> None:
    strict = Settings(bot_delay=0, rate_per_second=5, rate_burst=10, rate_strikes=30)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'limits.db'}", strict)) as client:
        created = client.post(
            "/api/tables", json={"game": "koi-koi", "seats": ["human", "human"]}
        ).json()
        with client.websocket_connect(
            f"/ws/tables/{created['id']}?seat=0&key={created['key']}"
        ) as ws:
            next_state(ws, 0)
            ws.send_text(json.dumps({"type": "ping", "pad": "x" * 5000}))
            assert next_reply(ws)["code"] == "too_large"
            codes = []
            for _ in range(60):
                ws.send_text(json.dumps({"type": "ping"}))
                try:
                    codes.append(next_reply(ws).get("code", "pong"))
                except Exception:  # closed by the server after too many strikes
                    break
            assert "rate_limited" in codes
            assert codes.count("pong") <= 12
