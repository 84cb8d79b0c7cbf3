"""Storage faults (issue 17, defect 7): a database that turns read-only or full leaves the
server up, refuses writes with a clear "storage unavailable", shows it on /api/health, and
recovers by itself when storage comes back, with no acknowledged move lost.

The faults are real ones: ``PRAGMA query_only`` makes every write fail as on a read-only
file, and a file-size limit (RLIMIT_FSIZE) at the write-ahead log's size makes the next
commit fail as on a full disk (Python ignores SIGXFSZ, so the write fails instead of
killing the process)."""

from __future__ import annotations

import resource
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from cardtable.server.app import create_app
from cardtable.server.store import Store

from .server_helpers import FAST, seat_keys
from .socket_play import next_reply, next_state

SETTINGS = replace(FAST, storage_retry_seconds=0.1)


class Faults:
    """Turns an SQLite store read-only or full, and back."""

    def __init__(self, store: Store, path: Path) -> None:
        self._mode: str | None = None
        self.wal = Path(f"{path}-wal")
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
    deadline = time.monotonic() + 10
    while True:
        answer = client.get("/api/health")
        if answer.status_code == status or time.monotonic() > deadline:
            return dict(answer.json())
        time.sleep(0.05)


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
    # a fresh server on the same file has every acknowledged move, and only those
    with TestClient(create_app(db, SETTINGS)) as client:
        assert client.get(f"/api/tables/{table_id}").json()["moves"] == 3
        with client.websocket_connect(f"/ws/tables/{table_id}?seat=0&key={keys[0]}") as s0:
            assert next_state(s0, 3)["view"] == acknowledged[-1]
