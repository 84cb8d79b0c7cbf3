"""Storage faults (issue 17, defect 7): a database that turns read-only or full leaves the
server up, refuses writes with a clear "storage unavailable", shows it on /api/health, and
recovers by itself when storage comes back, with no acknowledged move lost.

The faults are real ones: ``PRAGMA query_only`` makes every write fail as on a read-only
file, and a file-size limit (RLIMIT_FSIZE) at the write-ahead log's size makes the next
commit fail as on a full disk (Python ignores SIGXFSZ, so the write fails instead of
killing the process)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import resource
import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event
from websockets.sync.client import connect

from cardtable.server.app import create_app
from cardtable.server.store import Store

from .server_helpers import FAST, ServerProcess, eventually, http, people_table, seat_keys
from .socket_play import next_reply, next_state
from .test_server_restart import play_moves, receive_state

SETTINGS = replace(FAST, storage_retry_seconds=0.1)


class Faults:
    """Turns an SQLite store read-only or full, and back."""

    def __init__(self, store: Store, path: Path) -> None:
        self._mode: str | None = None
        self.store = store
        self.wal = Path(f"{path}-wal")
        # another connection holds the file open, as a backup or an operator's shell would:
        # the server reopening its own connections does not checkpoint the log away
        self.bystander = sqlite3.connect(path)
        self.bystander.execute("SELECT count(*) FROM tables").fetchone()  # it opens the log
        self.limit = resource.getrlimit(resource.RLIMIT_FSIZE)
        event.listen(store.engine, "checkout", self._apply)

    @property
    def mode(self) -> str | None:
        return self._mode

    @mode.setter
    def mode(self, mode: str | None) -> None:
        self._mode = mode
        if mode == "full":
            resource.setrlimit(resource.RLIMIT_FSIZE, (self.wal.stat().st_size, self.limit[1]))
        else:
            resource.setrlimit(resource.RLIMIT_FSIZE, self.limit)
        kept = self.store.move_writer.connection  # the moves' connection, checked out once
        if kept is not None:
            self._apply(kept.dbapi_connection, None, None)

    def _apply(self, connection: Any, _record: Any, _proxy: Any) -> None:
        cursor = connection.cursor()
        cursor.execute(f"PRAGMA query_only = {int(self._mode == 'read-only')}")
        cursor.close()


@pytest.fixture
def path(tmp_path: Path) -> Iterator[Path]:
    limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    yield tmp_path / "faults.db"
    resource.setrlimit(resource.RLIMIT_FSIZE, limit)  # whatever the test did


def wait_for_health(client: TestClient, status: int) -> dict[str, Any]:
    """The health answer once its status is ``status`` (the last one after 10 s: the
    caller's assertion then says what it was)."""
    answers: list[Any] = []

    def has_status() -> bool:
        answers.append(client.get("/api/health"))
        return bool(answers[-1].status_code == status)

    with contextlib.suppress(AssertionError):
        eventually(has_status, 10, f"health {status}")
    return dict(answers[-1].json())


@pytest.mark.parametrize(("mode", "problem"), [("read-only", "readonly"), ("full", "I/O")])
def test_a_storage_fault_refuses_writes_and_heals_by_itself(
    path: Path, mode: str, problem: str
) -> None:
    db = f"sqlite:///{path}"
    acknowledged: list[dict[str, Any]] = []
    with TestClient(create_app(db, SETTINGS)) as client:
        faults = Faults(client.app.state.hub.store, path)  # type: ignore[attr-defined]
        created = client.post("/api/tables", json={"game": "koi-koi", "seats": ["human"] * 2})
        table_id, keys = created.json()["id"], seat_keys(created.json())
        with (
            client.websocket_connect(f"/ws/tables/{table_id}?seat=0&key={keys[0]}") as s0,
            client.websocket_connect(f"/ws/tables/{table_id}?seat=1&key={keys[1]}") as s1,
        ):
            sockets = (s0, s1)
            frames = [next_state(s, 0) for s in sockets]

            def move(version: int) -> tuple[int, dict[str, Any]]:
                mover = 0 if frames[0]["view"]["legal_actions"] else 1
                action = frames[mover]["view"]["legal_actions"][0]
                sockets[mover].send_json({"type": "action", "action": action, "version": version})
                return mover, action

            for version in range(2):
                move(version)
                frames = [next_state(s, version + 1) for s in sockets]
                acknowledged.append(frames[0]["view"])
            faults.mode = mode
            mover, _ = move(2)
            refused = next_reply(sockets[mover])
            assert refused["code"] == "storage_unavailable"
            assert "storage unavailable" in refused["message"]
            health = wait_for_health(client, 503)
            assert health["status"] == "storage_unavailable"
            assert problem in health["storage"]["problem"]
            table = client.post("/api/tables", json={"game": "koi-koi", "seats": ["human"] * 2})
            assert table.status_code == 503
            assert table.json()["detail"]["code"] == "storage_unavailable"
            pad = client.post("/api/companion", json={"kind": "hanafuda", "game": "koi-koi"})
            assert pad.status_code == 503
            assert client.get(f"/api/tables/{table_id}").json()["moves"] == 2  # nothing half-made
            faults.mode = None  # storage is back: health says so with no write asked of it
            assert wait_for_health(client, 200)["storage"]["ok"] is True
            move(2)
            frames = [next_state(s, 3) for s in sockets]
            acknowledged.append(frames[0]["view"])
        faults.bystander.close()
    # a fresh server on the same file has every acknowledged move, and only those
    with TestClient(create_app(db, SETTINGS)) as client:
        assert client.get(f"/api/tables/{table_id}").json()["moves"] == 3
        with client.websocket_connect(f"/ws/tables/{table_id}?seat=0&key={keys[0]}") as s0:
            assert next_state(s0, 3)["view"] == acknowledged[-1]


# root writes to read-only files anyway: the server runs without that capability
AS_FILE_OWNER = (
    ("setpriv", "--inh-caps=-dac_override", "--bounding-set=-dac_override", "--")
    if os.getuid() == 0
    else ()
)


def test_read_only_database_files_leave_the_server_up_and_heal(tmp_path: Path) -> None:
    """The database, its WAL and its -shm file made read-only (with no capability to write
    them anyway) while the server is down; it starts, reads, refuses moves, and takes them
    again once the files are writable."""
    path = tmp_path / "ro.db"
    server = ServerProcess(
        f"sqlite:///{path}", options=("--limit", "storage_retry_seconds=0.2"), wrapper=AS_FILE_OWNER
    )
    files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
    try:
        server.start()
        table_id, keys = people_table(server.url)
        assert play_moves(server.url, table_id, keys, 2, random.Random(1))
        server.kill9()
        for file in files:
            file.chmod(0o444)
        server.start()
        refused = refused_move(server.url, table_id, keys)
        assert refused["code"] == "storage_unavailable", refused
        status, health = http("GET", f"{server.url}/api/health")
        assert status == 503 and "readonly" in health["storage"]["problem"]
        assert server.process is not None and server.process.poll() is None  # still up
        for file in files:
            file.chmod(0o644)
        healed(server.url)
        assert play_moves(server.url, table_id, keys, 1, random.Random(2))
        assert http("GET", f"{server.url}/api/tables/{table_id}")[1]["moves"] == 3
    finally:
        for file in files:
            if file.exists():
                file.chmod(0o644)
        server.stop()


def healed(url: str, seconds: float = 30) -> None:
    """Until the server's health is back by itself (it retries its storage)."""
    eventually(lambda: http("GET", f"{url}/api/health")[0] == 200, seconds,
               "storage comes back by itself")  # fmt: skip


def refused_move(url: str, table_id: str, keys: dict[int, str]) -> dict[str, Any]:
    """The answer to the first legal move of the seat to move."""
    ws_url = url.replace("http", "ws")
    for seat, key in keys.items():
        with connect(f"{ws_url}/ws/tables/{table_id}?seat={seat}&key={key}") as socket:
            frame = receive_state(socket, 0)
            if frame["view"]["legal_actions"]:
                action = frame["view"]["legal_actions"][0]
                socket.send(json.dumps({"type": "action", "action": action}))
                while True:
                    reply = json.loads(socket.recv(timeout=30))
                    if reply["type"] != "presence":
                        return dict(reply)
    raise AssertionError("nobody to move")
