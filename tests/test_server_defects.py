"""Regressions for the defects of issue 17: each request here once answered 500, opened a
file a client named, or logged a traceback for a client's bad input."""

from __future__ import annotations

import json
import logging
import random
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import cardtable
from cardtable.core.errors import OptionError
from cardtable.core.record import GameRecord
from cardtable.server.app import create_app
from cardtable.server.client_options import game_for_client

from .raw_socket import RawSocket
from .server_helpers import FAST, eventually, http, people_table, server_thread
from .socket_play import play_game


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(f"sqlite:///{tmp_path / 'defects.db'}", FAST)
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def words_record(options: dict[str, object]) -> dict[str, object]:
    state = cardtable.load("siedem-slow", players=2, deck="en").new_state(seed=1)
    record = GameRecord.of(state).to_json()
    record["options"] = {**record["options"], **options}
    record["fairness"] = {"commitment": "0" * 64, "seed": 1, "salt": "00"}
    return record


def test_verify_refuses_a_record_whose_dictionary_names_a_server_file(
    client: TestClient, tmp_path: Path
) -> None:
    """Defect 1: verify opened any path a record named and indexed it into the cache."""
    words = tmp_path / "secret-words.txt"
    words.write_text("apple\nbanana\n")
    cache = Path(str(cardtable.__file__)).parent  # any folder: only the refusal matters
    for path in (str(words), str(tmp_path / "no-such-file.txt"), "/etc/passwd"):
        answer = client.post("/api/verify", json=words_record({"dictionary": path}))
        assert answer.status_code == 400, answer.text
        assert "only be changed on the command line" in answer.json()["detail"]["message"]
    assert not any(p.name.startswith("secret-words") for p in cache.rglob("*"))
    # the default dictionary is no file a client names: such a record is checked as before
    fine = client.post("/api/verify", json=words_record({}))
    assert fine.status_code == 200 and "commitment_ok" in fine.json()


@pytest.mark.parametrize("name", ["preset", "game_id"])
def test_an_option_named_like_a_parameter_of_load_is_refused(client: TestClient, name: str) -> None:
    """Defect 4: these answered 500 (load() got multiple values for an argument)."""
    table = {"game": "koi-koi", "seats": ["human", "human"], "options": {name: "nintendo"}}
    pad = {"kind": "hanafuda", "game": "koi-koi", "options": {name: "koi-koi"}}
    for path, body in (("/api/tables", table), ("/api/companion", pad)):
        answer = client.post(path, json=body)
        assert answer.status_code == 400, (path, answer.text)
        message = answer.json()["detail"]["message"]
        assert message.startswith("unknown option") and repr(name) not in message  # no echo
    record = words_record({})
    record["options"] = {name: "x"}
    assert client.post("/api/verify", json=record).status_code == 400


def test_one_function_decides_what_a_client_may_set() -> None:
    assert game_for_client("ohanami", None, {"players": 3}).num_players == 3
    for game, preset, options in (
        ("koi-koi", None, {"preset": "nintendo"}),
        ("koi-koi", None, {"game_id": "x"}),
        ("siedem-slow", None, {"dictionary": "/etc/passwd"}),
        ("koi-koi", None, ["rounds"]),
        (["koi-koi"], None, {}),
        ("koi-koi", 7, {}),
    ):
        with pytest.raises(OptionError):
            game_for_client(game, preset, options)


@pytest.mark.parametrize(
    "path", ["/api/tables", "/api/verify", "/api/companion", "/api/tables/x/claim"]
)
def test_a_body_that_is_not_utf8_is_refused_without_500(client: TestClient, path: str) -> None:
    """Defect 5: a non-UTF-8 body with a non-JSON content type crashed the error encoder."""
    for content_type in ("text/plain", "application/octet-stream", "application/json"):
        answer = client.post(
            path, content=b"\xff\xfe\x00\x81{", headers={"content-type": content_type}
        )
        assert answer.status_code in (400, 404, 422), (content_type, answer.text)
        assert "\\ufffd" not in answer.text and "Traceback" not in answer.text


def test_replay_refuses_a_seat_that_is_not_at_the_table(client: TestClient) -> None:
    """Defect 6: seat=5 answered 500, seat=-1 gave the last seat's view."""
    table_id, _ = play_game(client, "koi-koi", {"rounds": 1}, 2, random.Random(6))
    assert client.get(f"/api/tables/{table_id}/replay?seat=1").status_code == 200
    for seat in (2, 5, -1, -100, 10**6):
        answer = client.get(f"/api/tables/{table_id}/replay?seat={seat}")
        assert answer.status_code == 400, (seat, answer.text)
        assert "no seat" in answer.json()["detail"]["message"]


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@contextmanager
def server_logs() -> Iterator[Records]:
    """Every record the server and uvicorn log meanwhile (uvicorn sets its loggers up when
    it starts: enter this after the server has started)."""
    handler = Records()
    loggers = [logging.getLogger(n) for n in ("uvicorn.error", "cardtable.server", "asyncio")]
    for logger in loggers:
        logger.addHandler(handler)
    yield handler
    for logger in loggers:
        logger.removeHandler(handler)


@contextmanager
def logged_seat(tmp_path: Path) -> Iterator[tuple[int, str, str, Any, Records]]:
    """A server in a thread with a two-person koi-koi table, and every record it logs
    meanwhile: its port, the table, the path of seat 0's socket, the app, the records."""
    with (
        server_thread(f"sqlite:///{tmp_path / 'frames.db'}") as (url, app),
        server_logs() as logs,
    ):
        table_id, keys = people_table(url)
        path = f"/ws/tables/{table_id}?seat=0&key={keys[0]}"
        yield int(url.rsplit(":", 1)[1]), table_id, path, app, logs


def test_bad_frames_and_vanished_clients_log_one_line_each(tmp_path: Path) -> None:
    """Defect 8: each invalid-UTF-8 frame logged a traceback, and replying to a socket the
    client had closed raised out of the handler."""
    with logged_seat(tmp_path) as (port, table_id, path, app, logs):
        url = f"http://127.0.0.1:{port}"
        for _ in range(5):
            raw = RawSocket(port, path)
            assert raw.receive_json()["type"] == "state"
            raw.send_frame(b"\xff\xfe{not text")
            with pytest.raises(ConnectionError):  # closed with 1007 (invalid data)
                while True:
                    raw.receive_json()
            raw.close()
        for _ in range(20):  # say a lot, then vanish before the answers
            raw = RawSocket(port, path)
            assert raw.receive_json()["type"] == "state"  # it has joined the table
            for _ in range(30):
                raw.send_frame(json.dumps({"type": "ping"}).encode())
                raw.send_frame(json.dumps({"type": "action", "action": {"type": "x"}}).encode())
            raw.close()
        table = app.state.hub.tables[table_id]
        # a socket leaves the table once its handler is done with every frame it sent
        eventually(lambda: not table.listeners, what="every vanished socket left the table")
        status, meta = http("GET", f"{url}/api/tables/{table_id}")
        assert status == 200 and meta["moves"] == 0
        assert meta["seats"][0]["connected"] is False  # every vanished socket left the table
    tracebacks = [r for r in logs.records if r.exc_info or r.exc_text]
    assert tracebacks == [], [r.getMessage() for r in tracebacks]
    undecodable = [r for r in logs.records if "UTF-8" in r.getMessage()]
    assert len(undecodable) == 5
