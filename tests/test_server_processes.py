"""The attack suite on real `cardtable serve` processes (issue 37): database files made
immutable under a running server, worker processes of a killed server, and bad text frames
in the log of the process itself. Loopback only; each test is bounded in time."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path

import pytest
from websockets.sync.client import connect

from .raw_socket import RawSocket
from .server_helpers import ServerProcess, eventually, http, seat_keys
from .test_server_restart import play_moves
from .test_server_storage import healed, refused_move


def children_of(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` now (from /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.add(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def chattr(flag: str, files: list[Path]) -> None:
    subprocess.run(["chattr", flag, *map(str, files)], check=True, capture_output=True)


def can_make_immutable(folder: Path) -> bool:
    probe = folder / "probe"
    probe.touch()
    try:
        chattr("+i", [probe])
    except (OSError, subprocess.CalledProcessError):
        return False
    chattr("-i", [probe])
    return True


def test_immutable_database_files_refuse_moves_without_killing_the_server(
    tmp_path: Path,
) -> None:
    """With the database, its -wal and -shm made immutable under a running server, the next
    move killed it with SIGBUS (the -shm file is memory-mapped): now the move is refused as
    storage_unavailable, the server stays up and heals when the files are writable again."""
    # make test runs as root on the machine's own file system: the flag is there to set
    assert shutil.which("chattr") is not None and can_make_immutable(tmp_path), (
        "chattr +i needs root, on a file system with the immutable flag"
    )
    path = tmp_path / "imm.db"
    server = ServerProcess(f"sqlite:///{path}", options=("--limit", "storage_retry_seconds=0.2"))
    files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
    try:
        server.start()
        status, created = http(
            "POST", f"{server.url}/api/tables", {"game": "koi-koi", "seats": ["human"] * 2}
        )
        assert status == 201
        keys = seat_keys(created)
        assert play_moves(server.url, created["id"], keys, 2, random.Random(1))
        chattr("+i", [f for f in files if f.exists()])
        for _ in range(3):
            refused = refused_move(server.url, created["id"], keys)
            assert refused["code"] == "storage_unavailable", refused
        assert server.process is not None and server.process.poll() is None  # still up
        chattr("-i", [f for f in files if f.exists()])
        healed(server.url)
        assert play_moves(server.url, created["id"], keys, 1, random.Random(2))
        assert http("GET", f"{server.url}/api/tables/{created['id']}")[1]["moves"] == 3
    finally:
        chattr("-i", [f for f in files if f.exists()])
        server.stop()


def ask_hint(url: str, table_id: str, seat: int, key: str) -> dict[str, object]:
    ws_url = url.replace("http", "ws")
    with connect(f"{ws_url}/ws/tables/{table_id}?seat={seat}&key={key}") as socket:
        while True:  # a hint is for the seat to move
            frame = json.loads(socket.recv(timeout=60))
            if frame["type"] == "state" and seat in frame["view"]["to_move"]:
                break
        socket.send(json.dumps({"type": "hint", "lang": "en"}))
        while True:
            reply = json.loads(socket.recv(timeout=60))
            if reply["type"] not in ("state", "presence"):
                return dict(reply)


@pytest.mark.parametrize("ending", ["kill -9", "stop"])
def test_a_servers_worker_processes_end_with_it(tmp_path: Path, ending: str) -> None:
    """The compute pool's processes (a bot's moves and a hint ran there) are gone once
    their server is, killed or stopped."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'w.db'}")
    try:
        server.start()
        assert server.process is not None
        _, created = http(
            "POST", f"{server.url}/api/tables", {"game": "koi-koi", "seats": ["human", "bot:easy"]}
        )
        answer = ask_hint(server.url, created["id"], 0, created["key"])
        assert answer["type"] == "hint", answer
        workers = children_of(server.process.pid)
        assert workers, "the hint ran in no worker process"
        if ending == "stop":
            server.stop()
        else:
            server.kill9()
        eventually(lambda: not any(alive(pid) for pid in workers), 15, "every worker ends")
    finally:
        server.stop()


def test_bad_text_frames_leave_one_line_each_in_the_servers_log(tmp_path: Path) -> None:
    """The process's own log (every logger, not only uvicorn's): frames that are not UTF-8,
    whole or split across fragments, are one line each and never a traceback."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'u.db'}")
    payloads = [b"\xff\xfe", b"\xed\xa0\x80", b'{"type":"ping","x":"\xc3"}', b"\xf4\x90\x80\x80"]
    try:
        server.start()
        _, created = http(
            "POST", f"{server.url}/api/tables", {"game": "koi-koi", "seats": ["human"] * 2}
        )
        keys = seat_keys(created)
        paths = [f"/ws/tables/{created['id']}?seat=0&key={keys[0]}", f"/ws/tables/{created['id']}"]
        for path in paths:
            for payload in payloads:
                raw = RawSocket(server.port, path)
                raw.receive_json()
                raw.send_frame(payload, 1)
                with pytest.raises(ConnectionError):
                    while True:
                        raw.receive_json()
                raw.close()
        assert http("GET", f"{server.url}/api/health")[0] == 200
    finally:
        server.stop()
    log = server.said()
    assert "Traceback" not in log, log
    assert log.count("UTF-8") == len(paths) * len(payloads), log
    assert os.linesep.join(line for line in log.splitlines() if "UTF-8" in line)
