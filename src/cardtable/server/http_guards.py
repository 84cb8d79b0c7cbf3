"""What stands between the network and the app: a cap on request bodies, a deadline for a
request to arrive, and error answers that never echo what a client sent back at it."""

from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import re
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from fastapi import HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardtable.core.errors import CardtableError

if TYPE_CHECKING:
    from cardtable.server.limits import RequestLimit

log = logging.getLogger("cardtable.server")


STATUS_OF_CODE = {
    "not_found": 404,
    "forbidden": 403,
    "not_finished": 409,
    "no_seat": 409,
    "started": 409,
    "too_early": 409,
    "moved": 409,  # another process of the cluster holds the table now: asked again, it answers
    "rate_limited": 429,
    "unstarted_tables": 429,  # waiting does not help: playing or leaving one of them does
    "storage_unavailable": 503,
}


def http_error(exc: CardtableError) -> HTTPException:
    """A refusal of the engine or a table as an HTTP answer (400 unless its code says)."""
    code = str(getattr(exc, "code", "bad_request"))
    return HTTPException(
        STATUS_OF_CODE.get(code, 400), detail={"code": code, "message": exc.public_message()}
    )


async def refusal_answer(_request: Request, exc: Exception) -> JSONResponse:
    """Any refusal of the engine or a table that reaches the app (an unknown table, an
    illegal option, a seat that is not free): answered by :func:`http_error`, in one
    place for every endpoint."""
    assert isinstance(exc, CardtableError)
    error = http_error(exc)
    return JSONResponse({"detail": error.detail}, status_code=error.status_code)


def too_many(message: str) -> HTTPException:
    return HTTPException(429, detail={"code": "rate_limited", "message": message})


def client_address(scope: Scope) -> str:
    """The peer's address; behind a proxy named by ``--trusted-proxy``, the client it names.
    An IPv6 client counts as its /64 network: one host is handed a whole /64 and could
    take a new address for every request.

    >>> client_address({"client": ("2001:db8::1", 5)}), client_address({"client": ("10.0.0.7", 5)})
    ('2001:db8::/64', '10.0.0.7')
    """
    client = scope.get("client")
    if not client:
        return "unknown"
    host = str(client[0])
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if address.version == 6 and address.ipv4_mapped is None:
        return str(ipaddress.ip_network(f"{host}/64", strict=False))
    return host


async def validation_answer(_request: Request, exc: Exception) -> JSONResponse:
    """422 naming where a request is wrong, without the input itself: the input may be bytes
    that are not text (and echoing a client's bytes back is never needed)."""
    assert isinstance(exc, RequestValidationError)
    problems = [
        {
            "loc": [said_part(part) for part in problem.get("loc", ())],
            "msg": str(problem.get("msg")),
        }
        for problem in exc.errors()[:20]
    ]
    return JSONResponse({"detail": problems}, status_code=422)


#: what a place in a request may be called back as: a field's name or a list's index
FIELD_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,39}|\[key\]")


def said_part(part: object) -> str:
    """A part of where a request is wrong, as the answer says it: a field name or an index
    as it is, anything else (a key the client chose, as in ``{"names": {"<b>": ""}}``) as
    "…".

    >>> [said_part(p) for p in ("body", "names", 3, "<script>alert(1)</script>", "[key]")]
    ['body', 'names', '3', '…', '[key]']
    """
    if isinstance(part, int) or FIELD_NAME.fullmatch(str(part)):
        return str(part)
    return "…"


async def _answer(send: Send, status: int, code: str, message: str) -> None:
    body = json.dumps({"detail": {"code": code, "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class BodyLimit:
    """Reads each HTTP request's body before the app sees it: at most ``max_bytes``, all of
    it within ``seconds`` (a body sent a byte at a time would hold a connection forever)."""

    def __init__(self, app: ASGIApp, max_bytes: int, seconds: float) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await _answer(send, 413, "too_large", f"a request body may have {self.max_bytes} bytes")
            return
        try:
            async with asyncio.timeout(self.seconds):
                body = await self._read(receive)
        except TimeoutError:
            log.info("request from %s: body too slow", client_address(scope))
            await _answer(send, 408, "too_slow", "the request body took too long to arrive")
            return
        if body is None:
            await _answer(send, 413, "too_large", f"a request body may have {self.max_bytes} bytes")
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read(self, receive: Receive) -> bytes | None:
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return b"".join(chunks)  # the client went away: the app finds out by itself
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                return b"".join(chunks)


class LimitsFirst:
    """Per-address limits of the requests that always spend a token (tables made, seats
    claimed, records checked...), checked before the body is read: a refused request costs
    no parsing and no validation, however large or malformed its body. The refusal closes
    the connection, since its body was never read."""

    def __init__(self, app: ASGIApp, limits: Sequence[RequestLimit]) -> None:
        self.app = app
        self.limits = limits
        self.slowed = Slowdown()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            method, path = scope["method"], scope["path"].rstrip("/") or "/"
            for limit in self.limits:
                if limit.matches(method, path):
                    address = client_address(scope)
                    if not limit.buckets.allow(address):
                        # a client that goes on after its refusals waits longer for each
                        # one: a flood of requests sent one after the other slows to a
                        # trickle instead of keeping the event loop busy refusing it
                        await asyncio.sleep(self.slowed.refused(address))
                        await _answer(send, 429, "rate_limited", limit.message)
                        return
                    break
        await self.app(scope, receive, send)


class Slowdown:
    """How long to hold each refusal of an address: 20 ms more for each refusal in a row,
    at most :attr:`most` seconds; an address left alone for :attr:`forgive` seconds starts
    again from nothing.

    >>> slow = Slowdown()
    >>> [round(slow.refused("10.0.0.1", now=float(n)), 2) for n in range(3)]
    [0.02, 0.04, 0.06]
    >>> slow.refused("10.0.0.1", now=100.0), slow.refused("10.0.0.2", now=100.0)
    (0.02, 0.02)
    """

    def __init__(self, most: float = 1.0, forgive: float = 10.0) -> None:
        self.most = most
        self.forgive = forgive
        self.strikes: dict[str, tuple[int, float]] = {}

    def refused(self, address: str, now: float | None = None) -> float:
        now = time.monotonic() if now is None else now
        count, last = self.strikes.get(address, (0, now))
        count = 1 if now - last > self.forgive else count + 1
        if len(self.strikes) > 10_000:  # many addresses: keep only the busy ones
            self.strikes = {a: s for a, s in self.strikes.items() if now - s[1] <= self.forgive}
        self.strikes[address] = (count, now)
        return min(self.most, 0.02 * count)


class NodeHeader:
    """``X-Cardtable-Node: NAME`` on every HTTP answer: which process of a cluster served
    it (an operator's first question behind nginx)."""

    def __init__(self, app: ASGIApp, node: str) -> None:
        self.app = app
        self.header = (b"x-cardtable-node", node.encode())

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def named(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), self.header]
            await send(message)

        await self.app(scope, receive, named)


def _replay(body: bytes, receive: Receive) -> Receive:
    sent = False

    async def replayed() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def with_request_deadline(base: type[asyncio.Protocol], seconds: float) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol, plus: a connection that has not sent a whole request head
    within ``seconds`` of opening is closed (uvicorn times out idle keep-alive connections
    only after a first request; a fresh or half-sent one would stay open for ever)."""

    class RequestDeadline(base):  # type: ignore[misc, valid-type]
        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            self.loop.call_later(seconds, self._close_if_no_request, transport)

        def _close_if_no_request(self, transport: Any) -> None:
            upgraded = transport.get_protocol() is not self  # a WebSocket has it now
            if self.cycle is None and not upgraded and not transport.is_closing():
                log.info("connection from %s closed: no request within %ss", self.client, seconds)
                transport.close()

    return RequestDeadline


class OneLineForUndecodableInput(logging.Filter):
    """uvicorn logs a client's text frame that is not UTF-8 with a whole traceback, and
    when such a frame comes while the socket is closing, its failed close reaches the event
    loop's "fatal error on transport"; it is bad input, not a server fault, so one line
    says enough."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        undecodable = next(
            (e for e in (error, getattr(error, "__context__", None))
             if isinstance(e, UnicodeDecodeError)),
            None,
        )  # fmt: skip
        if undecodable is not None:
            record.msg = f"{record.getMessage()} (a client's frame: {undecodable.reason})"
            record.args = ()
            record.exc_info = record.exc_text = None
        return True


#: the loggers a client's undecodable frame reaches: uvicorn's, and the event loop's
UNDECODABLE_LOGGERS = ("uvicorn.error", "asyncio")


def quiet_client_tracebacks() -> None:
    for name in UNDECODABLE_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(f, OneLineForUndecodableInput) for f in logger.filters):
            logger.addFilter(OneLineForUndecodableInput())
