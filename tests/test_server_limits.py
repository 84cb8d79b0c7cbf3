"""The limits a public server needs (issue 17), each with its setting turned down so the
test reaches it quickly: body size, verified log length, tables and hints per address,
wrong seat keys, sockets per address and per table, silent sockets, slow requests, seed
shopping, separate bot and hint workers, presence deltas, and abandoned tables."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardtable.server.app import create_app
from cardtable.server.workers import HintsBusy, LocalBackend, Workers

from .server_helpers import FAST, seat_keys, server_thread
from .socket_play import next_reply, next_state

TWO_HUMANS = {"game": "koi-koi", "seats": ["human", "human"]}


@contextmanager
def app_with(tmp_path: Path, **limits: Any) -> Iterator[TestClient]:
    settings = replace(FAST, **limits)
    with TestClient(create_app(f"sqlite:///{tmp_path / 'limits.db'}", settings)) as client:
        yield client


def socket_of(client: TestClient, created: dict[str, Any], seat: int | None) -> Any:
    if seat is None:
        return client.websocket_connect(f"/ws/tables/{created['id']}")
    key = seat_keys(created)[seat]
    return client.websocket_connect(f"/ws/tables/{created['id']}?seat={seat}&key={key}")


def test_request_bodies_and_verified_logs_are_capped(tmp_path: Path) -> None:
    with app_with(tmp_path, max_body_bytes=2000, max_verify_moves=5) as client:
        big = {**TWO_HUMANS, "names": ["x" * 3000]}
        assert client.post("/api/tables", json=big).json()["detail"]["code"] == "too_large"

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
            yield b'{"game": "koi-koi", "seats": ["human"], "pad": "'
            for _ in range(10):
                yield b"y" * 500
            yield b'"}'

        answer = client.post(
            "/api/verify", content=chunks(), headers={"content-type": "application/json"}
        )
        assert answer.status_code == 413
        record = {"format": "cardtable-game/1", "game": "koi-koi", "log": [{}] * 6}
        answer = client.post("/api/verify", json=record)
        assert answer.status_code == 413 and "at most 5 moves" in answer.text
        assert client.post("/api/tables", json=TWO_HUMANS).status_code == 201


def test_tables_per_address_and_seed_shopping(tmp_path: Path) -> None:
    with app_with(tmp_path, tables_burst=4, tables_per_minute=0.001, unstarted_tables=2) as client:
        first = client.post("/api/tables", json=TWO_HUMANS).json()
        client.post("/api/tables", json=TWO_HUMANS)
        # two tables nobody has moved at: a third deal to look at is refused ...
        shopping = client.post("/api/tables", json=TWO_HUMANS)
        assert shopping.status_code == 429 and "nobody has moved" in shopping.text
        assert shopping.json()["detail"]["code"] == "unstarted_tables"
        # ... until a person plays at one of them
        with socket_of(client, first, 0) as s0, socket_of(client, first, 1) as s1:
            frames = {0: next_state(s0, 0), 1: next_state(s1, 0)}
            mover = 0 if frames[0]["view"]["legal_actions"] else 1
            sockets = {0: s0, 1: s1}
            action = frames[mover]["view"]["legal_actions"][0]
            sockets[mover].send_json({"type": "action", "action": action})
            next_state(sockets[mover], 1)
        assert client.post("/api/tables", json=TWO_HUMANS).status_code == 201
        # the bucket: four tables (and pads) at once, then no more this minute
        pad = client.post("/api/companion", json={"kind": "hanafuda", "game": "koi-koi"})
        assert pad.status_code == 429
        refused = client.post("/api/tables", json=TWO_HUMANS)
        assert refused.status_code == 429 and "too many tables" in refused.text


def test_wrong_seat_keys_are_counted_per_address(tmp_path: Path) -> None:
    with app_with(tmp_path, bad_keys_burst=3, bad_keys_per_minute=0.001) as client:
        created = client.post("/api/tables", json=TWO_HUMANS).json()
        for guess in ("a", "b", "c"):
            with client.websocket_connect(f"/ws/tables/{created['id']}?seat=1&key={guess}") as ws:
                assert ws.receive_json()["code"] == "forbidden"
        # the right key now waits too: guessing has to slow down, whoever guesses
        with socket_of(client, created, 1) as ws:
            assert ws.receive_json()["code"] == "rate_limited"
        rematch = client.post(
            f"/api/tables/{created['id']}/rematch", json={"seat": 0, "key": created["key"]}
        )
        assert rematch.status_code == 429


def test_sockets_per_address_and_spectators_per_table(tmp_path: Path) -> None:
    with app_with(tmp_path, sockets_per_address=4, listeners_per_table=2) as client:
        created = client.post("/api/tables", json=TWO_HUMANS).json()
        with socket_of(client, created, None) as a, socket_of(client, created, None) as b:
            next_state(a, 0), next_state(b, 0)
            with socket_of(client, created, None) as c:
                assert c.receive_json()["code"] == "rate_limited"  # the table is full ...
            with socket_of(client, created, 0) as seat, socket_of(client, created, 1) as other:
                assert next_state(seat, 0)["seat"] == 0  # ... but a seat always gets in
                next_state(other, 0)
                with socket_of(client, created, None) as fifth:
                    assert "connections from one address" in fifth.receive_json()["message"]
        with socket_of(client, created, None) as again:  # closed ones were given back
            next_state(again, 0)


def test_hints_per_address_and_a_silent_socket_is_closed(tmp_path: Path) -> None:
    with app_with(tmp_path, hints_burst=2, hints_per_minute=0.001, socket_idle_seconds=1) as client:
        created = client.post("/api/tables", json=TWO_HUMANS).json()
        with socket_of(client, created, 0) as s0, socket_of(client, created, 1) as s1:
            frame = next_state(s0, 0)
            mover = s0 if frame["view"]["legal_actions"] else s1
            replies = []
            for _ in range(3):
                mover.send_json({"type": "hint"})
                replies.append(next_reply(mover))
            assert [r["type"] for r in replies[:2]] == ["hint", "hint"]
            assert replies[2]["code"] == "rate_limited"
            started = time.monotonic()
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    next_reply(s1)
            assert closed.value.code == 1001 and time.monotonic() - started < 10


def test_a_socket_that_keeps_talking_outlives_the_silence_limit(tmp_path: Path) -> None:
    """The silence limit counts from the last message heard, not from the first."""
    with app_with(tmp_path, socket_idle_seconds=1) as client:
        created = client.post("/api/tables", json=TWO_HUMANS).json()
        with socket_of(client, created, 0) as talker:
            next_state(talker, 0)
            started = time.monotonic()
            while time.monotonic() - started < 2.5:  # 2.5 limits long, a ping every 0.4 s
                time.sleep(0.4)
                talker.send_json({"type": "ping"})
                assert next_reply(talker)["type"] == "pong"
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    next_reply(talker)
            assert closed.value.code == 1001


def test_a_connection_that_sends_no_request_is_closed(tmp_path: Path) -> None:
    settings = replace(FAST, request_seconds=0.5)
    with server_thread(f"sqlite:///{tmp_path / 'slow.db'}", settings) as (url, _app):
        port = int(url.rsplit(":", 1)[1])
        silent = socket.create_connection(("127.0.0.1", port), timeout=10)
        half = socket.create_connection(("127.0.0.1", port), timeout=10)
        half.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")  # and never the blank line
        started = time.monotonic()
        assert silent.recv(100) == b"" and half.recv(100) == b""  # closed by the server
        assert time.monotonic() - started < 5
        slow_body = socket.create_connection(("127.0.0.1", port), timeout=10)
        slow_body.sendall(
            b"POST /api/verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        assert b" 408 " in slow_body.recv(1000).split(b"\r\n")[0] + b" "
        for connection in (silent, half, slow_body):
            connection.close()


def test_bots_never_wait_behind_hints() -> None:
    """Hints running on their share of the compute pool (and their queue full) leave a
    slot for the bots."""

    async def scenario() -> None:
        workers = Workers(replace(FAST, hint_workers=1, hint_queue=1, bot_workers=2))
        hints = [asyncio.create_task(workers.hint(time.sleep, 1)) for _ in range(2)]
        while workers.hints_taken < 2:  # both have their slot: the worker's and the queue's
            await asyncio.sleep(0.01)
        with pytest.raises(HintsBusy):  # a third hint is refused, not queued
            await workers.hint(time.sleep, 1)
        assert await asyncio.wait_for(workers.bot(sum, [1, 2, 3]), 2) == 6
        assert not any(h.done() for h in hints)  # the bot went while both hints waited
        assert await asyncio.gather(*hints) == [None, None]
        workers.close()

    asyncio.run(scenario())


def started_then_sleep(path: str, seconds: float) -> None:
    """A hint's work that says it has begun (it makes the file ``path``), then runs long."""
    Path(path).touch()
    time.sleep(seconds)


def test_a_killed_hint_worker_is_replaced(tmp_path: Path) -> None:
    started = tmp_path / "started"

    async def scenario() -> None:
        workers = Workers(replace(FAST, compute="local", bot_workers=1, hint_workers=1))
        assert isinstance(workers.backend, LocalBackend)
        running = asyncio.create_task(workers.hint(started_then_sleep, str(started), 30))
        while not started.exists():  # killed only once the worker runs the hint
            await asyncio.sleep(0.05)
        for pid in list(workers.backend.pool._processes):
            os.kill(pid, signal.SIGKILL)
        with pytest.raises(HintsBusy):
            await asyncio.wait_for(running, 20)
        assert await asyncio.wait_for(workers.hint(sum, [1, 2]), 30) == 3
        workers.close()

    asyncio.run(scenario())


def test_spectators_coming_and_going_send_nobody_the_whole_state(tmp_path: Path) -> None:
    with app_with(tmp_path) as client:
        created = client.post("/api/tables", json=TWO_HUMANS).json()
        with socket_of(client, created, 0) as seat:
            next_state(seat, 0)
            # someone takes the other seat from the lobby and comes: the game starts, the
            # whole state once
            claimed = client.post(f"/api/tables/{created['id']}/claim", json={"seat": 1}).json()
            address = f"/ws/tables/{created['id']}?seat=1&key={claimed['key']}"
            with client.websocket_connect(address) as other:
                next_state(other, 0)
                assert next_state(seat, 0)["table"]["waiting"] == []
            for _ in range(20):
                with socket_of(client, created, None) as spectator:
                    assert next_state(spectator, 0)["seat"] is None
            with client.websocket_connect(address) as other:  # a seat coming back: a delta
                next_state(other, 0)
                seat.send_json({"type": "ping"})
                frames = [seat.receive_json()]
                while frames[-1]["type"] != "pong":
                    frames.append(seat.receive_json())
            assert {frame["type"] for frame in frames} == {"presence", "pong"}
            assert frames[-2] == {
                "type": "presence",
                "seats": [{"connected": True, "claimed": True}] * 2,
            }


def test_abandoned_tables_leave_memory_and_come_back(tmp_path: Path) -> None:
    with app_with(tmp_path, evict_after_seconds=60) as client:
        created = client.post("/api/tables", json=TWO_HUMANS).json()
        hub = client.app.state.hub  # type: ignore[attr-defined]
        with socket_of(client, created, 0) as s0, socket_of(client, created, 1) as s1:
            frames = {0: next_state(s0, 0), 1: next_state(s1, 0)}
            mover = 0 if frames[0]["view"]["legal_actions"] else 1
            action = frames[mover]["view"]["legal_actions"][0]
            (s0, s1)[mover].send_json({"type": "action", "action": action})
            view_before = next_state((s0, s1)[mover], 1)["view"]
            gone = client.portal.call(hub.evict_abandoned, time.time() + 120)  # type: ignore[union-attr]
            assert gone == []  # watched tables stay
        gone = client.portal.call(hub.evict_abandoned, time.time() + 30)  # type: ignore[union-attr]
        assert gone == []  # not idle long enough
        gone = client.portal.call(hub.evict_abandoned, time.time() + 120)  # type: ignore[union-attr]
        assert gone == [created["id"]] and created["id"] not in hub.tables
        assert hub.store.table(created["id"]).status == "abandoned"  # it shows
        assert client.get("/api/health").json()["tables_abandoned"] == 1
        meta = client.get(f"/api/tables/{created['id']}").json()  # someone comes back
        assert meta["moves"] == 1 and meta["status"] == "playing"
        assert hub.store.table(created["id"]).status == "playing"
        with socket_of(client, created, mover) as back:
            assert next_state(back, 1)["view"] == view_before
