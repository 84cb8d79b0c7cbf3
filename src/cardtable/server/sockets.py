"""WebSocket play: a connection is one listener (a seat or a spectator) of one table.

Everything a client sends is checked here before a table sees it: the per-address socket
cap, wrong seat keys (counted per address), the per-table spectator cap, each message's
size and rate, hints against the address's hint budget, and silence (an idle connection
is closed). A reply to a client that has gone is dropped, never raised.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from cardtable.core.errors import CardtableError
from cardtable.locales import Reason
from cardtable.server.chat import say
from cardtable.server.http_guards import client_address
from cardtable.server.hub import Hub
from cardtable.server.limits import ClientLimits, TokenBucket
from cardtable.server.protocol import ClientMessage, Text, decode, encode, error
from cardtable.server.tables import LiveTable

log = logging.getLogger("cardtable.server")

JSON = dict[str, Any]
GONE = (WebSocketDisconnect, RuntimeError, OSError)  # what sending to a closed socket raises
#: a refusal's close code; the page connects again after any but 4403 and 4404 ("moved":
#: another process of a cluster holds the table now, and nginx sends the page there)
CLOSE_CODES = {"not_found": 4404, "forbidden": 4403, "rate_limited": 4429, "moved": 4409}


class SocketListener:
    """A WebSocket as a table listener."""

    def __init__(self, socket: WebSocket, seat: int | None) -> None:
        self.socket = socket
        self.seat = seat
        #: a table's socket on picows sends orjson's UTF-8 as it is; Starlette's WebSocket
        #: sends only strings as text (a frame's decoding and encoding again cost about
        #: 3 % of a loaded server's CPU)
        self.sends_bytes: bool = getattr(socket, "sends_bytes", False)

    async def send_text(self, text: Text) -> None:
        if isinstance(text, bytes) and not self.sends_bytes:
            text = text.decode()
        await self.socket.send_text(text)  # type: ignore[arg-type]  # bytes: sends_bytes

    async def close(self, code: str) -> None:
        await self.socket.close(code=CLOSE_CODES.get(code, 1011))


async def reply(socket: WebSocket, frame: JSON) -> bool:
    """Send one frame; False (and no exception) when the client has already gone."""
    try:
        await socket.send_text(encode(frame))
    except GONE:
        return False
    return True


async def refuse(socket: WebSocket, code: str, message: str) -> None:
    """Say why, then close (4xxx codes tell the browser whether retrying can help)."""
    if await reply(socket, error(code, message)):
        with contextlib.suppress(*GONE):
            await socket.close(code=CLOSE_CODES.get(code, 1011))


def code_of(exc: CardtableError, default: str) -> str:
    return str(getattr(exc, "code", default))


async def play(
    socket: WebSocket,
    hub: Hub,
    limits: ClientLimits,
    table_id: str,
    seat: int | None,
    key: str | None,
) -> None:
    address = client_address(socket.scope)
    await socket.accept()
    if not limits.sockets.take(address):
        cap = limits.sockets.cap
        await refuse(socket, "rate_limited", f"at most {cap} connections from one address")
        return
    try:
        table = await _admit(socket, hub, limits, address, table_id, seat, key)
        if table is None:
            return
        listener = SocketListener(socket, seat)
        await table.join(listener)
        try:
            await _listen(socket, hub, limits, address, table, seat)
        finally:
            await table.leave(listener)
    finally:
        limits.sockets.give_back(address)


async def _admit(
    socket: WebSocket,
    hub: Hub,
    limits: ClientLimits,
    address: str,
    table_id: str,
    seat: int | None,
    key: str | None,
) -> LiveTable | None:
    """The table this connection may listen to, or None once it has been told why not."""
    try:
        table = await hub.table(table_id)
    except CardtableError as exc:
        await refuse(socket, code_of(exc, "not_found"), exc.public_message())
        return None
    if seat is not None:
        if limits.bad_keys.exhausted(address):
            await refuse(socket, "rate_limited", "too many wrong seat keys: wait a minute")
            return None
        if not table.roster.key_matches(seat, key):
            limits.bad_keys.allow(address)  # each wrong key spends one of the address's tries
            log.info("wrong seat key for table %s seat %s from %s", table.id, seat, address)
            await refuse(socket, "forbidden", "wrong or missing seat key")
            return None
    elif len(table.listeners) >= hub.settings.listeners_per_table:
        await refuse(socket, "rate_limited", "this table has as many spectators as it can take")
        return None
    return table


@dataclass(frozen=True)
class Connection:
    """One listening connection: its socket, where it came from and what it listens to."""

    socket: WebSocket
    hub: Hub
    limits: ClientLimits
    address: str
    table: LiveTable
    seat: int | None
    limiter: TokenBucket  # this connection's message rate


async def _listen(
    socket: WebSocket,
    hub: Hub,
    limits: ClientLimits,
    address: str,
    table: LiveTable,
    seat: int | None,
) -> None:
    settings = hub.settings
    limiter = TokenBucket(settings.rate_per_second, settings.rate_burst)
    connection = Connection(socket, hub, limits, address, table, seat, limiter)
    try:
        async with Silence(settings.socket_idle_seconds) as silence:
            while True:
                silence.listen()
                message = await socket.receive()
                silence.heard()
                answer = await _answer(connection, message)
                if answer is _CLOSE:
                    return
                if answer is not None and not await reply(socket, answer):
                    return
    except TimeoutError:
        log.info("socket from %s closed: silent for %ss", address, settings.socket_idle_seconds)
        with contextlib.suppress(*GONE):
            await socket.close(code=1001)
    except GONE:
        return


class Silence:
    """A deadline on a connection's silence: it raises TimeoutError in the listening task
    once it has waited ``seconds`` for a message. One timer a connection, moved on when it
    comes due, not a deadline made and cancelled for every message; it never fires while
    a message is being answered (a hint may take long)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.deadline = asyncio.timeout(None)
        self.loop = asyncio.get_running_loop()
        self.since = self.loop.time()  # when the wait for the next message began
        self.waiting = False
        self.timer: asyncio.TimerHandle | None = None

    async def __aenter__(self) -> Silence:
        await self.deadline.__aenter__()
        self.timer = self.loop.call_at(self.since + self.seconds, self._due)
        return self

    async def __aexit__(self, *exc: Any) -> None:
        if self.timer is not None:
            self.timer.cancel()
        await self.deadline.__aexit__(*exc)

    def heard(self) -> None:
        """A message came: the wait is over (the next begins when it is answered)."""
        self.waiting = False

    def listen(self) -> None:
        """The wait for the next message begins."""
        self.since = self.loop.time()
        self.waiting = True

    def _due(self) -> None:
        now = self.loop.time()
        due = self.since + self.seconds
        if not self.waiting:  # a message is being answered: look again a limit later
            self.timer = self.loop.call_at(now + self.seconds, self._due)
        elif now >= due:
            self.deadline.reschedule(now)  # expires at once: TimeoutError
        else:
            self.timer = self.loop.call_at(due, self._due)


_CLOSE: JSON = {}  # the answer that closes the connection


async def _answer(connection: Connection, message: Any) -> JSON | None:
    """The answer to one message (None: none; :data:`_CLOSE`: the connection ends)."""
    settings = connection.hub.settings
    if message["type"] == "websocket.disconnect":
        return _CLOSE
    text = message.get("text")
    if text is None:
        return error("bad_message", "send JSON text frames")
    limiter = connection.limiter
    if not limiter.allow():
        if limiter.strikes >= settings.rate_strikes:
            log.info("socket from %s closed: kept flooding", connection.address)
            with contextlib.suppress(*GONE):
                await connection.socket.close(code=1008)
            return _CLOSE
        return error("rate_limited", "too many messages: slow down")
    decoded = decode(text, settings.max_message_bytes)
    return await _handle(
        connection.table, connection.seat, decoded, connection.limits, connection.address
    )


def _refusal(
    seat: int | None, message: ClientMessage | JSON, limits: ClientLimits, address: str
) -> JSON | None:
    """The answer to a message that goes no further: a decoding error, a ping, a spectator
    acting, a hint past the address's budget."""
    if isinstance(message, dict):
        return message
    if message.type == "ping":
        return {"type": "pong"}
    if seat is None:
        return error("spectator", "spectators cannot act")
    if message.type == "hint" and not limits.hints.allow(address):
        return error("rate_limited", "too many hints from this address: wait a little")
    return None


async def _handle(
    table: LiveTable,
    seat: int | None,
    message: ClientMessage | JSON,
    limits: ClientLimits,
    address: str,
) -> JSON | None:
    refused = _refusal(seat, message, limits, address)
    if refused is not None:
        return refused
    assert isinstance(message, ClientMessage) and seat is not None
    try:
        if message.type == "hint":
            return await table.hint(seat, message.lang, address)
        if message.type == "next_round":
            await table.next_round(seat)
            return None
        if message.type == "chat":
            await say(table, seat, message.action)
            return None
        action = table.parse(message.action)
        await table.act(seat, action, expect_version=message.version)
    except CardtableError as exc:
        code = code_of(exc, "no_hint" if message.type == "hint" else "illegal")
        frame = error(code, exc.public_message())
        if exc.args and isinstance(exc.args[0], Reason):  # the rules' refusal, by key
            frame.update(exc.args[0].to_json())
        return frame
    except Exception:  # a bug must cost one reply, never the server
        log.exception("table %s: %s failed", table.id, message.type)
        return error("internal", "the server could not handle this message")
    return None
