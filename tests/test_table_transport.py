"""The tables' sockets on picows (server/table_transport.py): served beside uvicorn on the
same port, speaking the same protocol as the app's own route, and holding against frames a
browser never sends."""

from __future__ import annotations

import asyncio
import json
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from picows import WSMsgType
from picows.picows import _make_test_ws_frame  # type: ignore[attr-defined]

from cardtable.server.app import create_app
from cardtable.server.sockets import SocketListener
from cardtable.server.table_transport import INBOX_HIGH, INBOX_LOW, TableSocket, _Listener

from .raw_socket import BINARY, CLOSE, CONTINUATION, TEXT, RawSocket
from .server_helpers import FAST, http, seat_keys, server_thread


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    with server_thread(f"sqlite:///{tmp_path_factory.mktemp('transport') / 't.db'}") as served:
        yield served


def new_table(url: str) -> tuple[str, dict[int, str]]:
    status, created = http("POST", f"{url}/api/tables", {"game": "koi-koi", "seats": ["human"] * 2})
    assert status == 201, created
    return created["id"], seat_keys(created)


def port_of(url: str) -> int:
    return int(url.rsplit(":", 1)[1])


def closed_with(raw: RawSocket) -> int:
    """The close code the server ends the connection with (after any frames before it)."""
    while True:
        opcode, payload = raw.receive()
        if opcode == 0x8:
            return int.from_bytes(payload[:2], "big")


def test_a_table_socket_is_served_by_picows_and_plays_as_the_route_does(
    served: tuple[str, Any], tmp_path: Path
) -> None:
    url, app = served
    table_id, keys = new_table(url)
    raw = RawSocket(port_of(url), f"/ws/tables/{table_id}?seat=0&key={keys[0]}")
    frame = raw.receive_json()
    table = app.state.hub.tables[table_id]
    (listener,) = [one for one in table.listeners if isinstance(one, SocketListener)]
    assert isinstance(listener.socket, TableSocket)  # not Starlette's WebSocket
    raw.send_frame(b'{"type": "ping"}')
    assert raw.receive_json() == {"type": "pong"}
    raw.close()
    # the same table through the app's own route (an ASGI server of another kind) reads alike
    with TestClient(create_app(f"sqlite:///{tmp_path / 'route.db'}", FAST)) as client:
        created = client.post(
            "/api/tables", json={"game": "koi-koi", "seats": ["human", "human"]}
        ).json()
        path = f"/ws/tables/{created['id']}?seat=0&key={created['key']}"
        with client.websocket_connect(path) as socket:
            routed = socket.receive_json()
    assert routed.keys() == frame.keys()
    assert routed["view"].keys() == frame["view"].keys()


def test_a_message_in_fragments_is_answered_whole(served: tuple[str, Any]) -> None:
    url, _app = served
    table_id, keys = new_table(url)
    raw = RawSocket(port_of(url), f"/ws/tables/{table_id}?seat=1&key={keys[1]}")
    raw.receive_json()
    raw.send_frame(b'{"type":', TEXT, fin=False)
    raw.send_frame(b' "pi', CONTINUATION, fin=False)
    raw.send_frame(b'ng"}', CONTINUATION)
    assert raw.receive_json() == {"type": "pong"}
    raw.send_frame(b"\x00\x01", BINARY)  # binary: told to send text, not closed
    assert raw.receive_json()["code"] == "bad_message"
    raw.close()


@pytest.mark.parametrize(
    ("frames", "code"),
    [
        ([(b"{}", CONTINUATION, True)], 1002),  # a continuation of nothing
        ([(b"x" * 40_000, TEXT, False), (b"x" * 40_000, CONTINUATION, True)], 1009),
        ([(b"x" * 70_000, TEXT, True)], 1009),  # past uvicorn's ws_max_size, as it would
    ],
    ids=["orphan continuation", "fragments past the limit", "one frame past the limit"],
)
def test_frames_no_browser_sends_close_the_connection(
    served: tuple[str, Any], frames: list[tuple[bytes, int, bool]], code: int
) -> None:
    url, _app = served
    table_id, keys = new_table(url)
    raw = RawSocket(port_of(url), f"/ws/tables/{table_id}?seat=0&key={keys[0]}")
    raw.receive_json()
    for payload, opcode, fin in frames:
        raw.send_frame(payload, opcode, fin)
    assert closed_with(raw) == code
    raw.close()
    assert http("GET", f"{url}/api/health")[0] == 200


@pytest.mark.parametrize(
    ("connection", "extra"),
    [("keep-alive, Upgrade", b""), ("Upgrade", b"Cookie: name=\xc3\xa9\xff\r\n")],
    ids=["Firefox's Connection header", "a header byte past ASCII"],
)
def test_handshakes_browsers_send_are_taken(
    served: tuple[str, Any], connection: str, extra: bytes
) -> None:
    url, _app = served
    table_id, keys = new_table(url)
    path = f"/ws/tables/{table_id}?seat=0&key={keys[0]}"
    raw = RawSocket(port_of(url), path, connection=connection, extra=extra)
    assert raw.status == 101
    assert raw.receive_json()["type"] == "state"
    raw.close()


@pytest.mark.parametrize(
    ("sent", "answered"),
    [(b"", 1000), (struct.pack("!H", 4000), 4000), (struct.pack("!H", 5001), 1000)],
    ids=["no code", "a private code", "no such code"],
)
def test_a_close_is_answered_and_nothing_after_it_is_acted_on(
    served: tuple[str, Any], sent: bytes, answered: int
) -> None:
    url, _app = served
    table_id, keys = new_table(url)
    raw = RawSocket(port_of(url), f"/ws/tables/{table_id}?seat=0&key={keys[0]}")
    raw.receive_json()
    raw.send_frame(sent, CLOSE)
    raw.send_frame(b'{"type": "ping"}')  # after its close: no pong
    opcode, payload = raw.receive()
    assert opcode == CLOSE and int.from_bytes(payload[:2], "big") == answered
    with pytest.raises(ConnectionError):
        raw.receive()  # and nothing more
    raw.close()


def test_frames_outside_the_protocol_close_with_1002(served: tuple[str, Any]) -> None:
    url, _app = served
    table_id, keys = new_table(url)
    path = f"/ws/tables/{table_id}?seat=0&key={keys[0]}"
    reserved = RawSocket(port_of(url), path)
    reserved.receive_json()
    reserved.send_frame(b'{"type": "ping"}', rsv=0x40)  # compressed, says the bit: it is not
    assert closed_with(reserved) == 1002
    interrupted = RawSocket(port_of(url), path)
    interrupted.receive_json()
    interrupted.send_frame(b'{"type":', TEXT, fin=False)
    interrupted.send_frame(b'{"type": "ping"}', TEXT)  # a new message before the last ends
    assert closed_with(interrupted) == 1002


def test_a_stopping_server_says_1012_to_every_table_socket(tmp_path: Path) -> None:
    with server_thread(f"sqlite:///{tmp_path / 'stop.db'}") as (url, _app):
        table_id, keys = new_table(url)
        raw = RawSocket(port_of(url), f"/ws/tables/{table_id}?seat=0&key={keys[0]}")
        raw.receive_json()
    assert closed_with(raw) == 1012  # as uvicorn's own protocol says it: come back later
    raw.close()


def test_wrong_keys_and_bad_seats_are_refused_with_the_routes_codes(
    served: tuple[str, Any],
) -> None:
    url, _app = served
    table_id, _keys = new_table(url)
    wrong = RawSocket(port_of(url), f"/ws/tables/{table_id}?seat=0&key=wrong")
    assert wrong.receive_json()["code"] == "forbidden"
    assert closed_with(wrong) == 4403
    missing = RawSocket(port_of(url), "/ws/tables/nosuchtable")
    assert missing.receive_json()["code"] == "not_found"
    assert closed_with(missing) == 4404
    for seat in ("first", ""):
        not_a_seat = RawSocket(port_of(url), f"/ws/tables/{table_id}?seat={seat}")
        assert not_a_seat.status == 403  # refused before the upgrade, as the app's route does


class Wire:
    """picows's transport as a test sees it: what was sent, whether it is closed, and
    whether the socket under it reads."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []
        self.is_disconnected = self.is_close_frame_sent = False
        self.underlying_transport = self
        self.reads = True

    def pause_reading(self) -> None:
        assert self.reads
        self.reads = False

    def resume_reading(self) -> None:
        assert not self.reads
        self.reads = True

    def send(self, kind: WSMsgType, data: bytes) -> None:
        assert kind == WSMsgType.TEXT
        self.sent.append(data)


def test_a_send_waits_while_the_peer_reads_slower_than_the_server_writes() -> None:
    async def scenario() -> list[str]:
        socket = TableSocket({"client": ("10.0.0.1", 1)}, 65536)
        listener = _Listener(socket, None, "t", 0, "key")
        wire = Wire()
        socket.transport = wire  # type: ignore[assignment]
        said: list[str] = []
        await socket.send_text(b'{"n":1}')  # a plain call: done at once
        said.append("first sent")
        listener.pause_writing()  # the peer's buffer is full
        second = asyncio.create_task(socket.send_text('{"n":2}'))
        await asyncio.sleep(0.01)
        said.append(f"second waiting: {not second.done()}")
        listener.resume_writing()
        await second
        said.append(f"both on the wire: {[json.loads(data)['n'] for data in wire.sent]}")
        listener.pause_writing()
        third = asyncio.create_task(socket.send_text(b"{}"))
        await asyncio.sleep(0.01)
        listener.on_ws_disconnected(wire)  # type: ignore[arg-type]  # gone: the wait ends
        await third
        wire.is_disconnected = True
        with pytest.raises(RuntimeError):
            await socket.send_text(b"{}")  # and the next send says it is gone
        said.append(f"then: {(await socket.receive())['type']}")
        return said

    assert asyncio.run(scenario()) == [
        "first sent",
        "second waiting: True",
        "both on the wire: [1, 2]",
        "then: websocket.disconnect",
    ]


def test_a_client_sending_faster_than_it_is_answered_waits_in_tcp() -> None:
    async def scenario() -> list[tuple[int, bool]]:
        socket = TableSocket({}, 65536)
        wire = Wire()
        socket.transport = wire  # type: ignore[assignment]
        seen = []
        for n in range(INBOX_HIGH):
            socket.heard(_make_test_ws_frame(WSMsgType.TEXT, b'{"n":%d}' % n, True, False))
            seen.append((len(socket.inbox), wire.reads))
        while socket.inbox:
            await socket.receive()
            seen.append((len(socket.inbox), wire.reads))
        return seen

    seen = asyncio.run(scenario())
    assert [reads for _, reads in seen[:INBOX_HIGH]] == [True] * (INBOX_HIGH - 1) + [False]
    assert all(count <= INBOX_HIGH for count, _ in seen)
    resumed = next(count for count, reads in seen[INBOX_HIGH:] if reads)
    assert resumed == INBOX_LOW


def test_a_frame_reaches_the_wire_as_the_bytes_it_was_encoded_to() -> None:
    """A table's socket takes orjson's bytes as they are (a listener on Starlette's
    WebSocket is handed a string): nothing decodes and encodes the frame again."""

    class Starlette:
        def __init__(self) -> None:
            self.sent: list[object] = []

        async def send_text(self, text: str) -> None:
            self.sent.append(text)

    async def scenario() -> tuple[list[bytes], list[object]]:
        socket, wire = TableSocket({}, 65536), Wire()
        socket.transport = wire  # type: ignore[assignment]
        frame = '{"name":"Żaneta · 花"}'.encode()
        await SocketListener(socket, 0).send_text(frame)  # type: ignore[arg-type]
        starlette = Starlette()
        await SocketListener(starlette, 0).send_text(frame)  # type: ignore[arg-type]
        assert wire.sent[0] is frame  # the very bytes, not a copy made again
        return wire.sent, starlette.sent

    on_picows, on_starlette = asyncio.run(scenario())
    assert on_picows == ['{"name":"Żaneta · 花"}'.encode()]
    assert on_starlette == ['{"name":"Żaneta · 花"}']


@pytest.mark.parametrize("goes", ["with a close frame", "without one", "mid-frame"])
def test_a_seat_whose_connection_ends_is_told_to_the_other_seat(
    served: tuple[str, Any], goes: str
) -> None:
    """However a person's connection ends (a tab closed, a phone gone off the network),
    the server sees it at once and the other seat hears that the seat is empty."""
    url, app = served
    table_id, keys = new_table(url)
    stays = RawSocket(port_of(url), f"/ws/tables/{table_id}?seat=0&key={keys[0]}")
    leaves = RawSocket(port_of(url), f"/ws/tables/{table_id}?seat=1&key={keys[1]}")
    while (frame := stays.receive_json()).get("type") != "state" or frame["table"]["waiting"]:
        pass  # until both have sat down
    if goes == "with a close frame":
        leaves.send_frame(struct.pack("!H", 1001), opcode=CLOSE)
    elif goes == "mid-frame":
        leaves.sock.sendall(b"\x81\xfe\x01\x00" + b"\x00" * 4 + b"{")  # a text frame begun
    leaves.sock.close()
    while (frame := stays.receive_json()).get("type") != "presence":
        pass
    assert frame["seats"][1]["connected"] is False and frame["seats"][0]["connected"] is True
    table = app.state.hub.tables[table_id]
    assert [seat.connected for seat in table.seats] == [1, 0]
    stays.close()
