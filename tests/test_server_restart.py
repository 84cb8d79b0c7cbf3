"""Crash safety: ``kill -9`` the server mid-game, start it again, and every table goes on
with no acknowledged move lost — on SQLite, and on PostgreSQL where one can be started."""

from __future__ import annotations

import json
import random
import tempfile
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

import cardtable
from cardtable.server.local_cluster import postgres_bin, scratch_postgres
from cardtable.server.store import Store

from .server_helpers import ServerProcess, http, seat_keys


def receive_state(socket: Any, version: int) -> dict[str, Any]:
    while True:
        frame = json.loads(socket.recv(timeout=30))
        if frame["type"] == "state" and frame["version"] >= version:
            return frame


def after_break(socket: Any, version: int) -> dict[str, Any]:
    while True:
        frame = receive_state(socket, version)
        if frame["table"]["round_break"] is None:
            return frame


def play_moves(
    url: str, table_id: str, keys: dict[int, str], moves: int, rng: random.Random
) -> list[dict[str, Any]]:
    """Send ``moves`` random legal moves, each acknowledged by the state frame that follows."""
    ws_url = url.replace("http", "ws")
    with ExitStack() as stack:
        sockets = {
            seat: stack.enter_context(
                connect(f"{ws_url}/ws/tables/{table_id}?seat={seat}&key={key}")
            )
            for seat, key in keys.items()
        }
        frames = {seat: receive_state(s, 0) for seat, s in sockets.items()}
        version = next(iter(frames.values()))["version"]
        sent = []
        for _ in range(moves):
            mover = next(s for s, f in frames.items() if f["view"].get("legal_actions"))
            action = rng.choice(frames[mover]["view"]["legal_actions"])
            sockets[mover].send(
                json.dumps({"type": "action", "action": action, "version": version})
            )
            version += 1
            frames = {seat: receive_state(s, version) for seat, s in sockets.items()}
            if frames[mover]["table"]["round_break"]:  # a round ended: everyone goes on
                for socket in sockets.values():
                    socket.send(json.dumps({"type": "next_round"}))
                frames = {seat: after_break(s, version) for seat, s in sockets.items()}
            sent.append({"seat": mover, "action": action})
            if frames[mover]["table"]["status"] == "finished":
                break
        return sent


def acknowledged_state(db_url: str, table_id: str, sent: list[dict[str, Any]]) -> Any:
    """The state the acknowledged moves lead to; the seed is secret until the end, so the
    test reads it from the server's database, as an operator could."""
    store = Store(db_url)
    row = store.table(table_id)
    store.close()
    assert row is not None
    game = cardtable.load(row.game, **row.options)
    state = game.new_state(seed=row.seed)
    for move in sent:
        state.apply(move["seat"], game.parse_action(move["action"]))
    return state


def crash_and_resume(db_url: str) -> None:
    server = ServerProcess(db_url)
    server.start()
    rng = random.Random(9)
    try:
        tables = []
        for game, seats, options in (
            ("koi-koi", ["human", "human"], {"rounds": 3}),
            ("ohanami", ["human", "human", "human"], {}),
            ("hana-awase-88", ["human", "human", "human"], {"rounds": 3}),
        ):
            status, created = http(
                "POST",
                f"{server.url}/api/tables",
                {"game": game, "seats": seats, "options": options},
            )
            assert status == 201, created
            keys = seat_keys(created)
            sent = play_moves(server.url, created["id"], keys, 12, rng)
            tables.append((created["id"], keys, sent))
        server.kill9()  # no shutdown hook runs: only what was committed survives
        server.start()
        for table_id, keys, sent in tables:
            status, meta = http("GET", f"{server.url}/api/tables/{table_id}")
            assert status == 200 and meta["moves"] == len(sent) > 0
            # every seat's view after the restart is the replay of exactly the acknowledged moves
            ws_url = server.url.replace("http", "ws")
            for seat, key in keys.items():
                with connect(f"{ws_url}/ws/tables/{table_id}?seat={seat}&key={key}") as socket:
                    frame = receive_state(socket, 0)
                assert frame["version"] == len(sent)
                assert frame["table"]["commitment"] == meta["commitment"]
                expected = acknowledged_state(db_url, table_id, sent)
                assert frame["view"] == json.loads(json.dumps(expected.view(seat)))
            # and the game goes on to the end, then verifies against its commitment
            play_moves(server.url, table_id, keys, 5000, rng)
            status, record = http("GET", f"{server.url}/api/tables/{table_id}/record")
            assert status == 200
            assert [m["action"] for m in record["log"][:12]] == [m["action"] for m in sent]
            status, verdict = http("POST", f"{server.url}/api/verify", record)
            assert verdict["ok"], verdict
    finally:
        server.stop()


@pytest.mark.slow  # a server process, killed and started again
def test_kill_9_on_sqlite_loses_no_acknowledged_move(tmp_path: Path) -> None:
    crash_and_resume(f"sqlite:///{tmp_path / 'crash.db'}")


@pytest.fixture
def postgres() -> Iterator[str]:
    """A throwaway PostgreSQL cluster on a free port (Debian's postgresql, as user postgres;
    the folder where user postgres can reach it: pytest's tmp_path is private to root)."""
    # make test installs Debian's postgresql (APT_PACKAGES): without it this test must fail
    postgres_bin()
    with (
        tempfile.TemporaryDirectory(prefix="cardtable-pg-") as folder,
        scratch_postgres(Path(folder)) as url,
    ):
        yield url


@pytest.mark.slow  # a PostgreSQL cluster and a server process
def test_kill_9_on_postgresql_loses_no_acknowledged_move(postgres: str) -> None:
    crash_and_resume(postgres)
