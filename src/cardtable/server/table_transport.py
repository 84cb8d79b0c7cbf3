"""The tables' WebSockets served by picows, off the general ASGI stack.

A move's frames are most of what the server writes, and each one went through Starlette's
WebSocket, the app's middleware, uvicorn's WebSocket protocol and the websockets library's
frame code, every layer a coroutine (``benchmarks/web_floor.py``: the stack alone cost
0.14 ms an action that way, 0.06 ms on picows). uvicorn
still accepts every connection and parses every HTTP request; when a request upgrades to
a WebSocket, :class:`TablePathFirst` (uvicorn's ``ws`` protocol class here) looks at its
path. ``/ws/tables/ID`` goes to picows (frames parsed and written in compiled code, a send
a plain call); any other path to uvicorn's own protocol and the app's routes (where a
table's socket is also served, for another ASGI server and the tests' client). Both end
in the same :func:`sockets.play`: a :class:`TableSocket` is the small part of Starlette's
WebSocket it uses, so every guard (keys, limits, silence, sizes) is one code either way.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import deque
from http import HTTPStatus
from typing import Any, cast
from urllib.parse import parse_qs, unquote

import picows.picows
from picows import (
    WSAutoPingStrategy,
    WSCloseCode,
    WSFrame,
    WSListener,
    WSMsgType,
    WSTransport,
    WSUpgradeRequest,
    WSUpgradeResponse,
    WSUpgradeResponseWithListener,
)
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from cardtable.server.protocol import Text
from cardtable.server.sockets import play

log = logging.getLogger("cardtable.server")
#: picows's protocol, as its ``ws_create_server`` makes it (its stub leaves it out)
WSProtocol: Any = picows.picows.WSProtocol  # type: ignore[attr-defined]
Message = dict[str, Any]
TABLE_PATH = "/ws/tables/"
HANDSHAKE_SECONDS = 5.0
#: messages heard and not yet answered past which the connection stops reading (and
#: below which it reads again): the same flood protection as uvicorn's queue
INBOX_HIGH, INBOX_LOW = 4, 1
#: how long a send waits for a peer whose buffer is full before the connection is cut
STALLED_SECONDS = 30.0
#: close codes a peer may send and have answered with (RFC 6455 7.4): others get 1000
_CLOSE_CODES = frozenset((1000, 1001, 1002, 1003, *range(1007, 1015), *range(3000, 5000)))


def _answered(code: int) -> int:
    """The close code a peer's close is answered with."""
    return code if code in _CLOSE_CODES else 1000


_DISCONNECT: Message = {"type": "websocket.disconnect", "code": 1006}


class TableSocket:
    """A picows connection as :func:`sockets.play` reads and writes a WebSocket: messages
    in order as ASGI's ``websocket.receive`` (a disconnect last), text sent by a plain call
    that waits only while the peer reads slower than the server writes."""

    #: :meth:`send_text` takes a frame's UTF-8 bytes as they are (see SocketListener)
    sends_bytes = True

    def __init__(self, scope: dict[str, Any], max_bytes: int) -> None:
        self.scope = scope
        self.max_bytes = max_bytes
        self.transport: WSTransport | None = None
        self.inbox: deque[Message] = deque()  # heard, not yet read
        self._reader: asyncio.Future[None] | None = None  # the read waiting for a message
        self._held = False  # reading paused while the inbox is full
        self.writable = asyncio.Event()
        self.writable.set()
        self._parts: list[bytes] = []  # a fragmented message so far
        self._size = 0
        self._kind = WSMsgType.TEXT

    async def accept(self) -> None:
        """The upgrade was answered before the connection was handed over."""

    async def receive(self) -> Message:
        """The next message (one reader at a time: the connection's task)."""
        while not self.inbox:
            self._reader = asyncio.get_running_loop().create_future()
            try:
                await self._reader
            finally:
                self._reader = None
        message = self.inbox.popleft()
        if self._held and len(self.inbox) <= INBOX_LOW:
            self._held = False
            self._reading(True)
        return message

    def _deliver(self, message: Message) -> None:
        self.inbox.append(message)
        if not self._held and len(self.inbox) >= INBOX_HIGH:
            self._held = True  # a client sending faster than it is answered waits in TCP
            self._reading(False)
        reader = self._reader
        if reader is not None and not reader.done():
            reader.set_result(None)

    async def send_text(self, text: Text) -> None:
        transport = self.transport
        if transport is None or transport.is_disconnected or transport.is_close_frame_sent:
            raise RuntimeError("the connection is closed")
        transport.send(WSMsgType.TEXT, text if isinstance(text, bytes) else text.encode())
        if not self.writable.is_set():  # the peer's buffer is full: wait till it reads
            try:
                await asyncio.wait_for(self.writable.wait(), STALLED_SECONDS)
            except TimeoutError:  # a peer that reads nothing holds no table up
                transport.disconnect(graceful=False)
                raise RuntimeError("the peer stopped reading") from None

    async def close(self, code: int = 1000) -> None:
        self._end(code)

    def _end(self, code: int | WSCloseCode) -> None:
        """Say the close code and let the connection go (once)."""
        transport = self.transport
        if transport is None or transport.is_disconnected or transport.is_close_frame_sent:
            return
        transport.send_close(code)  # type: ignore[arg-type]  # picows takes any close code
        # a peer that reads nothing would never take a graceful close
        transport.disconnect(graceful=self.writable.is_set())

    def _reading(self, on: bool) -> None:
        transport = self.transport
        if transport is None or transport.is_disconnected:
            return
        underlying = transport.underlying_transport
        if on:
            underlying.resume_reading()
        else:
            underlying.pause_reading()

    # -- what picows says ----------------------------------------------------------------
    def heard(self, frame: WSFrame) -> None:
        transport = self.transport
        if transport is None or transport.is_close_frame_sent:
            return  # nothing after a close is acted on
        kind = frame.msg_type
        if kind == WSMsgType.CLOSE:  # the peer's close, answered with its code if it is one
            self._end(_answered(frame.get_close_code().value))
            self._deliver(_DISCONNECT)
        elif kind in (WSMsgType.TEXT, WSMsgType.BINARY, WSMsgType.CONTINUATION):
            problem = self._misframed(frame)
            if problem is not None:
                self._refuse(problem)
            else:
                self._gather(frame)
        # pings are answered by picows; pongs need nothing

    def _misframed(self, frame: WSFrame) -> WSCloseCode | None:
        """Why a data frame ends the connection, as uvicorn's protocol would end it."""
        if frame.rsv1 or frame.rsv2 or frame.rsv3:  # no extension was agreed
            return WSCloseCode.PROTOCOL_ERROR
        continues = frame.msg_type == WSMsgType.CONTINUATION
        if continues != bool(self._parts):  # a continuation of nothing, or a new message
            return WSCloseCode.PROTOCOL_ERROR  # before the last one's end
        if self._size + frame.payload_size > self.max_bytes:
            return WSCloseCode.MESSAGE_TOO_BIG
        return None

    def _gather(self, frame: WSFrame) -> None:
        """A message's frame; the message goes to the inbox with its last."""
        if frame.msg_type != WSMsgType.CONTINUATION:
            self._kind = frame.msg_type
        if frame.fin and not self._parts:  # a message in one frame: nearly every one
            payload = frame.get_payload_as_bytes()
        else:
            self._size += frame.payload_size
            self._parts.append(frame.get_payload_as_bytes())
            if not frame.fin:
                return
            payload = b"".join(self._parts)
            self._parts.clear()
            self._size = 0
        if self._kind == WSMsgType.BINARY:
            self._deliver({"type": "websocket.receive", "bytes": payload})
            return
        try:
            text = payload.decode()
        except UnicodeDecodeError:
            client = self.scope.get("client")
            log.warning("socket from %s closed: a text frame not in UTF-8", client and client[0])
            self._refuse(WSCloseCode.INVALID_TEXT)
            return
        self._deliver({"type": "websocket.receive", "text": text})

    def _refuse(self, code: WSCloseCode) -> None:
        self._end(code)
        self._parts.clear()
        self._size = 0

    def gone(self) -> None:
        self.writable.set()  # a send waiting on a full buffer ends (and the next raises)
        self._deliver(_DISCONNECT)


class _Listener(WSListener):
    """picows's callbacks for one table connection, handed on to its :class:`TableSocket`;
    the connection's task (``sockets.play``) starts once the upgrade is answered."""

    def __init__(
        self,
        socket: TableSocket,
        app_state: Any,
        table_id: str,
        seat: int | None,
        key: str | None,
        server_state: Any = None,
    ) -> None:
        self.server_state = server_state
        self.socket = socket
        self.app_state = app_state
        self.table_id = table_id
        self.seat, self.key = seat, key
        self.task: asyncio.Task[None] | None = None

    def on_ws_connected(self, transport: WSTransport) -> None:
        self.socket.transport = transport
        self.task = asyncio.get_running_loop().create_task(self._play())
        if self.server_state is not None:  # uvicorn closes it and waits for it at shutdown
            self.server_state.connections.add(self)
            self.server_state.tasks.add(self.task)
            self.task.add_done_callback(self.server_state.tasks.discard)

    def shutdown(self) -> None:
        """The server is stopping (uvicorn's call to each connection): 1012, as uvicorn's
        own protocol says it."""
        self.socket._end(1012)

    async def _play(self) -> None:
        try:
            await play(
                self.socket,  # type: ignore[arg-type]  # the part of WebSocket play uses
                self.app_state.hub, self.app_state.limits, self.table_id, self.seat, self.key,
            )  # fmt: skip
        except Exception:
            log.exception("table socket %s failed", self.table_id)
        finally:
            await self.socket.close(1000)

    def on_ws_frame(self, transport: WSTransport, frame: WSFrame) -> None:
        try:
            self.socket.heard(frame)
        except Exception:  # picows's own log is quiet (a client's bad frame is not news)
            log.exception("table socket %s: a frame failed", self.table_id)
            transport.disconnect(graceful=False)

    def on_ws_disconnected(self, transport: WSTransport) -> None:
        if self.server_state is not None:
            self.server_state.connections.discard(self)
        self.socket.gone()

    def pause_writing(self) -> None:
        self.socket.writable.clear()

    def resume_writing(self) -> None:
        self.socket.writable.set()


def _seat_and_key(query: str) -> tuple[int | None, str | None]:
    """``?seat=N&key=K`` as the app's route reads them (ValueError: a seat that is not a
    whole number)."""
    fields = parse_qs(query, keep_blank_values=True)
    key = fields.get("key", [None])[-1]
    seat = fields.get("seat", [None])[-1]
    return (None if seat is None else int(seat)), key


class TablePathFirst(asyncio.Protocol):
    """uvicorn's WebSocket protocol class: each upgrade goes to picows when it is a table's
    socket, to uvicorn's own protocol otherwise (the first bytes it is handed are the
    request, which names the path). It stays the connection's protocol only for the
    moment it takes uvicorn to hand over: then the chosen protocol is the transport's own."""

    #: the app's state (its hub and limits), set by :meth:`serving`
    tables: Any = None

    @classmethod
    def serving(cls, tables: Any) -> type[TablePathFirst]:
        """This protocol for the app whose state (``hub``, ``limits``) is ``tables``."""
        return type(cls.__name__, (cls,), {"tables": tables})

    def __init__(self, config: Any, server_state: Any, app_state: dict[str, Any]) -> None:
        self.config = config
        self.server_state = server_state
        self.app_state = app_state
        self.transport: asyncio.Transport | None = None
        self.inner: Any = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        first = self.inner is None
        if first:
            self.inner = self._choose(data)
            self.inner.connection_made(self.transport)
            # uvicorn makes this object the transport's protocol after this call returns
            asyncio.get_running_loop().call_soon(self._hand_over)
        if isinstance(self.inner, asyncio.BufferedProtocol):
            _feed(self.inner, _one_connection_token(data) if first else data)
        else:
            self.inner.data_received(data)

    def _hand_over(self) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.set_protocol(self.inner)

    def _choose(self, request: bytes) -> Any:
        target = request.split(b" ", 2)[1].decode("latin-1") if b" " in request else ""
        path, _, query = target.partition("?")
        state = self.tables
        if not path.startswith(TABLE_PATH) or state is None:
            return WebSocketsSansIOProtocol(
                config=self.config, server_state=self.server_state, app_state=self.app_state
            )
        table_id = unquote(path[len(TABLE_PATH) :])
        max_bytes = self.config.ws_max_size  # a message past it closes, as uvicorn's does

        def listener(upgrade: WSUpgradeRequest) -> _Listener | WSUpgradeResponseWithListener:
            try:
                seat, key = _seat_and_key(query)
            except ValueError:  # refused before the upgrade, as the app's route refuses it
                refusal = WSUpgradeResponse.create_error_response(HTTPStatus.FORBIDDEN)
                return WSUpgradeResponseWithListener(refusal, None)
            scope = self._scope(upgrade, path, query)
            socket = TableSocket(scope, max_bytes)
            return _Listener(socket, state, table_id, seat, key, self.server_state)

        # by name: a picows whose (private) constructor changed fails here, not quietly
        return WSProtocol(
            host_port=None, ws_path=None, is_client_side=False,
            ws_listener_factory=listener, logger=_PICOWS_LOG,
            disconnect_on_exception=True,  # a listener's exception closes its connection
            websocket_handshake_timeout=HANDSHAKE_SECONDS,
            enable_auto_ping=True,  # pings when the peer is quiet; its pongs answered
            auto_ping_idle_timeout=self.config.ws_ping_interval or 20.0,
            auto_ping_reply_timeout=self.config.ws_ping_timeout or 20.0,
            auto_ping_strategy=WSAutoPingStrategy.PING_WHEN_IDLE, enable_auto_pong=True,
            max_frame_size=self.config.ws_max_size, extra_headers=None,
            read_buffer_init_size=16384,
        )  # fmt: skip

    def _scope(self, upgrade: WSUpgradeRequest, path: str, query: str) -> dict[str, Any]:
        """What ``client_address`` reads: the peer, or behind a trusted proxy the client it
        names (uvicorn's own middleware decides, as it does for the app's routes)."""
        assert self.transport is not None
        peer = self.transport.get_extra_info("peername")
        scope: dict[str, Any] = {
            "type": "websocket",
            "path": path,
            "query_string": query.encode("latin-1"),
            "client": tuple(peer[:2]) if peer else None,
            "headers": [
                # picows read them as ASCII, keeping any other byte as a surrogate
                (
                    name.lower().encode("ascii", "surrogateescape"),
                    value.encode("ascii", "surrogateescape"),
                )
                for name, value in upgrade.headers.items()
            ],
        }
        if self.config.proxy_headers:
            _forwarded(scope, self.config.forwarded_allow_ips)
        return scope

    # -- the rest goes where the connection went -----------------------------------------
    def connection_lost(self, exc: Exception | None) -> None:
        if self.inner is not None:
            self.inner.connection_lost(exc)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()


#: picows logs each bad frame a client sends as an error: a client's mistake, not the server's
_PICOWS_LOG = logging.getLogger("cardtable.server.picows")
_PICOWS_LOG.setLevel(logging.CRITICAL)
_CONNECTION = re.compile(rb"^connection:[^\r\n]*", re.IGNORECASE | re.MULTILINE)


def _one_connection_token(request: bytes) -> bytes:
    """The upgrade request with its Connection header as picows reads it: uvicorn has
    already found the ``upgrade`` token in it, and Firefox sends ``keep-alive, Upgrade``."""
    head, separator, rest = request.partition(b"\r\n\r\n")
    return _CONNECTION.sub(b"connection: upgrade", head) + separator + rest


def _feed(protocol: asyncio.BufferedProtocol, data: bytes) -> None:
    """Hand bytes already read to a protocol that reads into its own buffer."""
    view = memoryview(data)
    while view:
        buffer = memoryview(protocol.get_buffer(len(view)))
        size = min(len(buffer), len(view))
        buffer[:size] = view[:size]
        protocol.buffer_updated(size)
        view = view[size:]


def _forwarded(scope: dict[str, Any], trusted: list[str] | str) -> None:
    """Rewrite ``scope``'s client from X-Forwarded-For as uvicorn's middleware would."""

    async def keep(_scope: Any, _receive: Any, _send: Any) -> None:
        return None

    middleware = ProxyHeadersMiddleware(keep, trusted_hosts=trusted)
    coroutine = middleware(scope, _never, _never)  # type: ignore[arg-type]
    try:
        coroutine.send(None)  # it awaits nothing before calling the app
    except StopIteration:
        return
    coroutine.close()
    raise RuntimeError("uvicorn's proxy-header middleware awaited")


async def _never() -> Message:
    raise RuntimeError("never called")
