"""The attack suite's tricks (issue 44): records with numbers JSON should not hold, names
that only look like a bot's, settings that leave a useless server, a database file made
immutable under a running server, and answers or logs that repeat what a client sent.
On loopback only; each test bounded in count and time."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server.app import create_app
from cardtable.server.protocol import ClientMessage, decode

from .raw_socket import CLOSE, RawSocket
from .server_helpers import FAST, ServerProcess, eventually, http, people_table
from .test_server_defects import logged_seat
from .test_server_restart import play_moves
from .test_server_storage import refused_move


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'tricks.db'}", FAST)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def finished_record(client: TestClient) -> dict[str, Any]:
    """A signed record of a finished one-round koi-koi game between two people."""
    from .socket_play import play_game

    table_id, _ = play_game(client, "koi-koi", {"rounds": 1}, 2, random.Random(4))
    return dict(client.get(f"/api/tables/{table_id}/record").json())


# -- 2. numbers no record holds --------------------------------------------------------------
@pytest.mark.parametrize("number", ["Infinity", "-Infinity", "1e400", "NaN", "1.5", "true"])
@pytest.mark.parametrize("where", ["seed", "fairness.seed", "log.seat"])
def test_a_record_with_a_number_it_cannot_hold_is_a_400_naming_the_field(
    client: TestClient, number: str, where: str
) -> None:
    """``"seed": Infinity`` answered 500 and dropped the connection (OverflowError)."""
    record = finished_record(client) if where != "log.seat" else None
    record = record or finished_record(client)
    marker = "__NUMBER__"
    if where == "seed":
        record["seed"] = marker
    elif where == "fairness.seed":
        record["fairness"]["seed"] = marker
    else:
        record["log"][0]["seat"] = marker
    body = json.dumps(record).replace(f'"{marker}"', number)
    answer = client.post("/api/verify", content=body, headers={"content-type": "application/json"})
    assert answer.status_code == 400, answer.text
    named = {"seed": "'seed'", "fairness.seed": "'fairness.seed'", "log.seat": "'log[1].seat'"}
    assert named[where] in answer.json()["detail"]["message"]
    assert client.get("/api/health").status_code == 200


# -- 7. look-alike names ---------------------------------------------------------------------
LOOK_ALIKES = [
    "Bоt (hard)",  # Cyrillic о
    "Бoт (сложный)",  # Cyrillic Б and т, Latin o
    "Bót (hard)",
    "Bot\u2800(hard)",  # braille blank
    "Bot [hard]",
    "Ｂｏｔ (medium)",
    "B\u043et (trudny) 2",
    "Bot\u00a0(easy)",
    "BOT {HARD}",
    "bot",
]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_a_person_cannot_take_a_name_that_looks_like_a_bots(client: TestClient, name: str) -> None:
    made = client.post(
        "/api/tables", json={"game": "koi-koi", "seats": ["human", "human"], "names": [name]}
    ).json()
    seats = client.get(f"/api/tables/{made['id']}").json()["seats"]
    assert seats[0]["chosen"] is False and seats[0]["name"] == "Player 1"  # its default
    renamed = client.post(
        f"/api/tables/{made['id']}/name", json={"seat": 0, "key": made["key"], "name": name}
    )
    assert renamed.status_code == 400 and renamed.json()["detail"]["code"] == "bad_name"


@pytest.mark.parametrize("name", ["Bob", "Robot", "Botticelli", "Ania", "Маша"])
def test_names_that_merely_share_letters_stay(client: TestClient, name: str) -> None:
    made = client.post(
        "/api/tables", json={"game": "koi-koi", "seats": ["human", "human"], "names": [name]}
    ).json()
    assert client.get(f"/api/tables/{made['id']}").json()["seats"][0]["name"] == name


def test_a_host_cannot_give_a_bot_a_persons_name(client: TestClient) -> None:
    made = client.post(
        "/api/tables",
        json={"game": "bakappana", "seats": ["human"] * 3, "options": {"players": 3}},
    ).json()
    names = {"1": "Ania", "2": "Bot (Kasia)"}
    filled = client.post(
        f"/api/tables/{made['id']}/fill",
        json={"seat": made["seat"], "key": made["key"], "bot": "hard", "names": names},
    )
    assert filled.status_code == 200, filled.text
    seats = client.get(f"/api/tables/{made['id']}").json()["seats"]
    assert seats[1]["kind"] == "bot:hard" and seats[1]["name"] != "Ania"  # marked as a bot
    assert seats[1]["chosen"] is False
    assert seats[2]["name"] == "Bot (Kasia)"  # a bot's name for a bot may stay


# -- 9. settings that leave a useless server ---------------------------------------------------
@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--limit", "max_message_bytes=1"], "max_message_bytes must be at least 1024"),
        (["--limit", "evict_after_seconds=0.0001"], "evict_after_seconds must be at least 60"),
        (["--limit", "request_seconds=100000"], "request_seconds must be at most 300"),
        (["--trusted-proxy", "0.0.0.0/0"], "--trust-wide-proxy"),
        (["--trusted-proxy", "::/0"], "wider than a /48"),
    ],
)
def test_nonsense_settings_exit_2_with_the_reason(
    tmp_path: Path, options: list[str], said: str
) -> None:
    command = [sys.executable, "-m", "cardtable", "serve", "--db",
               f"sqlite:///{tmp_path / 'x.db'}", "--port", "1", *options]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    assert said in " ".join((done.stdout + done.stderr).split())


def test_a_wide_proxy_range_is_taken_when_asked_for() -> None:
    from dataclasses import replace

    from cardtable.server.settings import Settings, problems

    assert problems(replace(Settings(), trusted_proxies=("10.0.0.0/8",)))
    assert not problems(replace(Settings(), trusted_proxies=("10.0.0.0/8",), trust_wide_proxy=True))
    assert not problems(replace(Settings(), trusted_proxies=("10.1.0.0/16", "fd00::/48")))


# -- 10. a database file made immutable under the server --------------------------------------
def chattr(flag: str, path: Path) -> bool:
    done = subprocess.run(["chattr", flag, str(path)], capture_output=True, check=False)
    return done.returncode == 0


def test_an_immutable_shm_file_refuses_requests_and_never_kills_the_server(
    tmp_path: Path,
) -> None:
    """With the database's -shm made immutable while the server ran, a move was refused but
    the next request killed the server with SIGBUS (it touched SQLite's memory map)."""
    path = tmp_path / "shm.db"
    shm = Path(f"{path}-shm")
    server = ServerProcess(f"sqlite:///{path}", options=("--limit", "storage_retry_seconds=0.2"))
    try:
        server.start()
        table_id, keys = people_table(server.url)
        assert play_moves(server.url, table_id, keys, 2, random.Random(1))
        # make test runs as root on the machine's own file system: the flag is there to set
        assert chattr("+i", shm), "chattr +i needs root, on a file system with the flag"
        try:
            assert refused_move(server.url, table_id, keys)["code"] == "storage_unavailable"
            for _ in range(3):  # reads of every kind, the store's health check, a new table
                http("GET", f"{server.url}/api/tables/{table_id}/record")
                http("GET", f"{server.url}/api/tables")
                http("GET", f"{server.url}/api/health")
                http("POST", f"{server.url}/api/tables", {"game": "koi-koi", "seats": ["human"]})
                assert server.process is not None and server.process.poll() is None
            assert http("GET", f"{server.url}/api/health")[0] == 503
        finally:
            chattr("-i", shm)
        eventually(lambda: http("GET", f"{server.url}/api/health")[0] == 200, 15)
        assert play_moves(server.url, table_id, keys, 1, random.Random(2))
        assert server.process is not None and server.process.poll() is None
    finally:
        chattr("-i", shm)
        server.stop()


# -- 11. answers and logs that repeat what a client sent ---------------------------------------
SCRIPT = "<script>alert(1)</script>"


def test_error_answers_never_repeat_the_input(client: TestClient) -> None:
    pad = client.post("/api/companion", json={"kind": SCRIPT, "game": "koi-koi"})
    assert pad.status_code == 422 and "alert" not in pad.text
    made = client.post("/api/tables", json={"game": "koi-koi", "seats": ["human", "human"]})
    fill = client.post(
        f"/api/tables/{made.json()['id']}/fill",
        json={"seat": 0, "key": made.json()["key"], "names": {SCRIPT: "x"}},
    )
    assert fill.status_code == 422 and "alert" not in fill.text
    for page in (f"/t/{'nosuch'}Please-call-555", f"/replay/{'nosuch'}Please-call-555"):
        missing = client.get(page)
        assert missing.status_code == 404 and "Please-call" not in missing.text


def test_bad_frames_on_a_closing_socket_log_no_traceback(tmp_path: Path) -> None:
    with logged_seat(tmp_path) as (port, _table, path, _app, logs):
        for _ in range(10):
            raw = RawSocket(port, path)
            assert raw.receive_json()["type"] == "state"
            raw.send_frame(b"\xff\xfe{not text")  # the server answers it by closing (1007)...
            raw.send_frame(b"\x03\xe8", opcode=CLOSE)  # ...while the client closes too
            raw.close()
        eventually(lambda: len(logs.records) >= 10, what="every socket said its bad frame")
    tracebacks = [r.getMessage() for r in logs.records if r.exc_info or r.exc_text]
    assert tracebacks == []


# -- 8. messages decoded the fast way and the lenient way -------------------------------------
@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ('{"type": "ping"}', ClientMessage("ping")),
        (
            '{"type": "chat", "text": "\\ud83d"}',
            ClientMessage("chat", {"phrase": None, "text": "\ud83d"}),
        ),
        ('{"type": "action", "version": NaN, "action": {}}', "bad_message"),
        ('{"type": "action", "version": 2.5, "action": {}}', "bad_message"),
        ("[" * 2000 + "]" * 2000, "bad_json"),
        ('{"type": "ping"', "bad_json"),
    ],
    ids=["ping", "lone-surrogate", "nan", "float", "deep", "cut-short"],
)
def test_messages_orjson_refuses_get_the_answers_they_always_had(text: str, answer: Any) -> None:
    """Every seat's message is read by orjson; what it refuses and the standard library
    reads (a chat line cut inside an emoji leaves a lone surrogate; NaN) is read the old
    way, so no client sees a different answer."""
    got = decode(text, 1 << 20)
    if isinstance(answer, str):
        assert isinstance(got, dict) and got["code"] == answer, got
    else:
        assert got == answer
