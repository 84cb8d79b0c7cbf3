"""The attack suite of issue 17, bounded in count and time, on loopback (127.0.0.1) only:
fuzzed WebSocket frames and HTTP requests against a real server, names written to inject
script, and ``kill -9`` while several tables are being played at once.

Counts (asserted below): 3 000 WebSocket messages and 2 500 HTTP requests of fuzz, eight
sockets racing for one move, and two kill -9 runs under load of six tables each."""

from __future__ import annotations

import json
import random
import threading
import time
from contextlib import ExitStack
from http.client import HTTPConnection
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from websockets.sync.client import connect

from cardtable.server.store import Store

from .raw_socket import BINARY, RawSocket
from .server_helpers import ServerProcess, http, seat_keys, server_thread
from .test_server_defects import server_logs
from .test_server_restart import after_break, receive_state

WS_MESSAGES = 3000
HTTP_REQUESTS = 2500
KILL_RUNS = 2

XSS = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>', "</title><svg onload=x>"]


def junk_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(8 if depth < 3 else 5)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False, 0, -1, 2**64, 1e308, -0.0, 3.5])
    if kind == 2:
        return rng.choice(["", "x" * rng.randrange(300), "\u0000", "\ud800", "<script>", "01-1"])
    if kind in (3, 4):
        return rng.choice(["action", "hint", "ping", "play", "take", "koi-koi", "place", "a"])
    if kind == 5:
        return [junk_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["type", "action", "version", "lang", "card", "take", "cards", "word", "seat", "x"]
    return {rng.choice(keys): junk_json(rng, depth + 1) for _ in range(rng.randrange(5))}


def junk_frame(rng: random.Random) -> tuple[bytes, int, bool]:
    """A frame's payload, opcode, and whether the server must close the socket for it."""
    kind = rng.randrange(10)
    if kind == 0:
        return bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))), BINARY, False
    if kind == 1:
        return b"\xff\xfe" + rng.randbytes(8), 1, True  # not UTF-8: closed with 1007
    if kind == 2:
        return b"[" * 3000 + b"]" * 3000, 1, False
    if kind == 3:
        big = {"type": "action", "action": {"type": "play", "card": "x" * 6000}}
        return json.dumps(big).encode(), 1, False
    message = {"type": rng.choice(["action", "hint", "ping", "x"]), "action": junk_json(rng)}
    if rng.random() < 0.3:
        message["version"] = junk_json(rng)
    text = json.dumps(junk_json(rng) if kind == 4 else message, ensure_ascii=rng.random() < 0.5)
    return text.encode("utf-8", "surrogatepass"), 1, False


def is_utf8(payload: bytes) -> bool:
    try:
        payload.decode()
    except UnicodeDecodeError:
        return False
    return True


def fuzz_sockets(port: int, path: str, rng: random.Random, count: int = WS_MESSAGES) -> int:
    """Send the fuzz frames; every one gets an error or a pong, or (not UTF-8) a close."""
    sent = 0
    raw = RawSocket(port, path)
    raw.receive_json()  # its state
    while sent < count:
        payload, opcode, closes = junk_frame(rng)
        closes = closes or (opcode != BINARY and not is_utf8(payload))
        raw.send_frame(payload, opcode)
        sent += 1
        if closes:
            with pytest.raises(ConnectionError):
                while True:
                    raw.receive_json()
            raw.close()
            raw = RawSocket(port, path)
            raw.receive_json()
            continue
        while True:
            reply = raw.receive_json()
            if reply["type"] not in ("state", "presence"):
                break
        assert reply["type"] in ("error", "pong", "hint"), reply
        assert "Traceback" not in json.dumps(reply)
    raw.close()
    return sent


def junk_request(rng: random.Random, table_id: str) -> tuple[str, str, bytes, str]:
    paths = [
        "/api/tables", f"/api/tables/{table_id}", f"/api/tables/{table_id}/claim",
        f"/api/tables/{table_id}/rematch", f"/api/tables/{table_id}/record",
        f"/api/tables/{table_id}/replay?seat={rng.choice(['0', '-1', '99', 'x', ''])}",
        "/api/verify", "/api/companion", "/api/companion/abc", "/api/games", "/api/health",
        f"/rules/koi-koi?lang={rng.choice(XSS)}", "/api/locales/..%2f..%2fetc", "/t/%00",
        "/api/tables/" + "x" * 300, "/static/../../etc/passwd", "/ws/tables/x",
    ]  # fmt: skip
    method = rng.choice(["GET", "POST", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
    kind = rng.randrange(4)
    if kind == 0:
        body = rng.randbytes(rng.randrange(200))
    elif kind == 1:
        body = json.dumps(junk_json(rng)).encode()
    elif kind == 2:
        game = rng.choice(["koi-koi", "siedem-slow", "ohanami", "x"])
        options = {
            rng.choice(["preset", "game_id", "dictionary", "rounds", "players"]): junk_json(rng)
        }
        seats = rng.choice([["human", "bot:random"], ["bot:x"], [], "human"])
        body = json.dumps({"game": game, "seats": seats, "options": options, "names": XSS}).encode()
    else:
        body = b""
    content_type = rng.choice(["application/json", "text/plain", "multipart/form-data", "x/y"])
    return method, rng.choice(paths), body, content_type


def fuzz_http(port: int, table_id: str, rng: random.Random, count: int = HTTP_REQUESTS) -> int:
    connection = HTTPConnection("127.0.0.1", port, timeout=30)
    for _ in range(count):
        method, path, body, content_type = junk_request(rng, table_id)
        connection.request(
            method, quote(path, safe="/?=&%"), body=body, headers={"Content-Type": content_type}
        )
        response = connection.getresponse()
        text = response.read()
        assert response.status < 500, (method, path, body[:100], response.status, text[:300])
        assert b"Traceback" not in text and b'File "' not in text
        if response.getheader("connection", "").lower() == "close":
            connection.close()
            connection = HTTPConnection("127.0.0.1", port, timeout=30)
    connection.close()
    return count


def fuzz_table(
    url: str, rng: random.Random, messages: int = WS_MESSAGES, requests: int = HTTP_REQUESTS
) -> tuple[int, int]:
    """Fuzz a koi-koi table of two people from the seat not to move, then check nothing
    moved and the mover still moves. Returns the frames and requests sent."""
    port = int(url.rsplit(":", 1)[1])
    _, created = http("POST", f"{url}/api/tables", {"game": "koi-koi", "seats": ["human", "human"]})
    table_id, keys = created["id"], seat_keys(created)
    seat_url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}?seat={{}}&key={{}}"
    with connect(seat_url.format(0, keys[0])) as s0:
        view = json.loads(s0.recv(timeout=10))["view"]
    idle = 1 if view["legal_actions"] else 0  # the seat not to move sends the fuzz
    mover = 1 - idle
    # the mover stays connected, so a fuzzed claim cannot take its seat (and key) away
    with connect(seat_url.format(mover, keys[mover])) as ws:
        frame = json.loads(ws.recv(timeout=10))
        path = f"/ws/tables/{table_id}?seat={idle}&key={keys[idle]}"
        sent = fuzz_sockets(port, path, rng, messages)
        asked = fuzz_http(port, table_id, rng, requests)
        # state consistent afterwards: nothing moved, the mover still moves
        status, meta = http("GET", f"{url}/api/tables/{table_id}")
        assert status == 200 and meta["moves"] == 0
        ws.send(json.dumps({"type": "action", "action": frame["view"]["legal_actions"][0]}))
        while frame["type"] != "state" or frame["version"] < 1:
            frame = json.loads(ws.recv(timeout=10))
    assert http("GET", f"{url}/api/health")[0] == 200
    return sent, asked


@pytest.mark.slow
def test_fuzzed_sockets_and_requests_get_answers_not_errors(tmp_path: Path) -> None:
    with (
        server_thread(f"sqlite:///{tmp_path / 'fuzz.db'}") as (url, _app),
        server_logs() as logs,
    ):
        started = time.monotonic()
        sent, requests = fuzz_table(url, random.Random(17))
        assert sent + requests >= 5000 and time.monotonic() - started < 240
    tracebacks = [r.getMessage() for r in logs.records if r.exc_info or r.exc_text]
    assert tracebacks == []


def test_names_that_carry_script_stay_data(tmp_path: Path) -> None:
    with server_thread(f"sqlite:///{tmp_path / 'xss.db'}") as (url, _app):
        status, created = http(
            "POST",
            f"{url}/api/tables",
            {"game": "ohanami", "seats": ["human"] * 3, "names": XSS},
        )
        assert status == 201
        status, meta = http("GET", f"{url}/api/tables/{created['id']}")
        assert [s["name"] for s in meta["seats"]] == [x[:24] for x in XSS]  # data, as given
        import urllib.request

        for page in (f"/t/{created['id']}", "/", f"/replay/{created['id']}",
                     f"/rules/ohanami?lang={XSS[0]}"):  # fmt: skip
            with urllib.request.urlopen(url + page.replace(" ", "%20"), timeout=10) as answer:
                html = answer.read().decode()
            assert "alert(1)" not in html and "onload=x" not in html, page
    # the browser writes names as text nodes (api.js h()), never as markup
    api_js = (Path(__file__).parent.parent / "src/cardtable/web/js/api.js").read_text()
    assert "document.createTextNode(String(child))" in api_js


def play_until_stopped(url: str, table_id: str, keys: dict[int, str], stop: threading.Event,
                       acknowledged: list[dict[str, Any]]) -> None:  # fmt: skip
    """Random legal moves; a move counts once every seat's socket has seen it."""
    rng = random.Random(table_id)
    ws_url = url.replace("http", "ws")
    try:
        with ExitStack() as stack:
            sockets = {
                seat: stack.enter_context(
                    connect(f"{ws_url}/ws/tables/{table_id}?seat={seat}&key={key}")
                )
                for seat, key in keys.items()
            }
            frames = {seat: receive_state(s, 0) for seat, s in sockets.items()}
            version = frames[0]["version"]
            while not stop.is_set():
                mover = next(s for s, f in frames.items() if f["view"].get("legal_actions"))
                action = rng.choice(frames[mover]["view"]["legal_actions"])
                sockets[mover].send(
                    json.dumps({"type": "action", "action": action, "version": version})
                )
                version += 1
                frames = {seat: receive_state(s, version) for seat, s in sockets.items()}
                acknowledged.append({"seat": mover, "action": action})
                if frames[mover]["table"]["status"] == "finished":
                    return
                if frames[mover]["table"]["round_break"]:  # both people go on to the next
                    for socket in sockets.values():
                        socket.send(json.dumps({"type": "next_round"}))
                    frames = {seat: after_break(s, version) for seat, s in sockets.items()}
    except Exception:  # the server was killed under us: what was acknowledged stands
        return


def kill_run(server: ServerProcess, tables: int = 6, seconds: float = 0.7) -> tuple[int, int]:
    """Tables played as fast as their sockets go; the server is killed mid-flight and
    started again; each stored log starts with exactly the acknowledged moves (at most one
    more, in flight). Returns the tables checked and the acknowledged moves kept."""
    played = []
    for _ in range(tables):  # fresh tables each run: a random koi-koi match is short
        status, created = http(
            "POST", f"{server.url}/api/tables", {"game": "koi-koi", "seats": ["human"] * 2}
        )
        assert status == 201
        played.append((created["id"], seat_keys(created), []))
    stop = threading.Event()
    players = [
        threading.Thread(target=play_until_stopped, args=(server.url, t, k, stop, acked))
        for t, k, acked in played
    ]
    for player in players:
        player.start()
    time.sleep(seconds)
    server.kill9()  # mid-flight: moves are being sent and written right now
    stop.set()
    for player in players:
        player.join(60)
    assert all(acked for _, _, acked in played)  # every table was being played
    server.start()  # started again, it replays each log
    store = Store(server.db_url)
    kept = 0
    for table_id, _keys, acked in played:
        stored = [{"seat": m.seat, "action": m.action} for m in store.moves(table_id)]
        # every acknowledged move is there, in order; at most the one in flight is extra
        assert stored[: len(acked)] == acked, table_id
        assert len(stored) - len(acked) in (0, 1)
        status, meta = http("GET", f"{server.url}/api/tables/{table_id}")
        assert meta["moves"] == len(stored)
        kept += len(acked)
    store.close()
    return len(played), kept


@pytest.mark.slow
def test_kill_9_under_load_loses_no_acknowledged_move(tmp_path: Path) -> None:
    """Six tables a run, killed mid-flight: no acknowledged move is lost."""
    server = ServerProcess(f"sqlite:///{tmp_path / 'load.db'}", options=("--no-address-limits",))
    checked = 0
    try:
        server.start()
        for _run in range(KILL_RUNS):
            checked += kill_run(server)[0]
    finally:
        server.stop()
    assert checked == KILL_RUNS * 6


def test_races_and_replayed_moves_count_once(tmp_path: Path) -> None:
    """The mover's key on eight sockets at once, all sending the same move for the same
    version: exactly one is played and seven are stale; sent again later it is stale; the
    other seat cannot play the mover's card."""
    with server_thread(f"sqlite:///{tmp_path / 'race.db'}") as (url, _app):
        port = int(url.rsplit(":", 1)[1])
        status, created = http(
            "POST", f"{url}/api/tables", {"game": "koi-koi", "seats": ["human", "human"]}
        )
        table_id, keys = created["id"], seat_keys(created)
        address = f"ws://127.0.0.1:{port}/ws/tables/{table_id}?seat={{}}&key={{}}"
        with connect(address.format(1, keys[1])), connect(address.format(0, keys[0])) as probe:
            # both people sat down (the game starts then): the mover's first state
            frame = json.loads(probe.recv(timeout=10))
            while frame["type"] != "state" or frame["table"]["waiting"]:
                frame = json.loads(probe.recv(timeout=10))
            view = frame["view"]
        mover = 0 if view["legal_actions"] else 1
        with ExitStack() as stack:
            sockets = [
                stack.enter_context(connect(address.format(mover, keys[mover]))) for _ in range(8)
            ]
            frames = [json.loads(socket.recv(timeout=10)) for socket in sockets]
            action = frames[0]["view"]["legal_actions"][0]
            move = json.dumps({"type": "action", "action": action, "version": 0})
            go = threading.Barrier(len(sockets))

            def send(socket: Any) -> None:
                go.wait()
                socket.send(move)

            senders = [threading.Thread(target=send, args=(s,)) for s in sockets]
            for sender in senders:
                sender.start()
            for sender in senders:
                sender.join(10)
            refusals = [code for socket in sockets for code in errors_until_quiet(socket)]
            assert refusals == ["stale"] * (len(sockets) - 1)
            sockets[0].send(move)  # the same frame replayed later
            assert errors_until_quiet(sockets[0]) == ["stale"]
        other = 1 - mover
        with connect(address.format(other, keys[other])) as intruder:
            intruder.recv(timeout=10)
            intruder.send(json.dumps({"type": "action", "action": action}))
            assert errors_until_quiet(intruder) == ["illegal"]
        status, meta = http("GET", f"{url}/api/tables/{table_id}")
        assert status == 200 and meta["moves"] == 1


def errors_until_quiet(socket: Any) -> list[str]:
    """The codes of the error frames a socket gets until it has been quiet for half a second."""
    codes = []
    while True:
        try:
            frame = json.loads(socket.recv(timeout=0.5))
        except TimeoutError:
            return codes
        if frame["type"] == "error":
            codes.append(frame["code"])
