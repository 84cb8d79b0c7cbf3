"""Continue on another device, with no account: a browser hands the server its seats (each
table's seat number and key) and its record; the server keeps them in memory under a
random token that works once and for ``transfer_seconds``; the other browser opens
``/continue#TOKEN`` (a link, or the QR code of it) and its page takes them.

Seat keys pass through here, so nothing of a transfer is ever logged, the page's GET
takes nothing (a link preview or a QR scanner's peek does not spend the token: the page
takes it with a POST), and a token is forgotten on first use or when it expires. Making
transfers is limited per address, and each one's size and their number are capped.

>>> now = [0.0]
>>> box = TransferBox(seconds=600.0, capacity=2, clock=lambda: now[0])
>>> token = box.put({"seats": [], "record": None})
>>> box.take(token)
{'seats': [], 'record': None}
>>> box.take(token) is None  # once only
True
>>> late = box.put({"seats": []})
>>> now[0] = 601.0
>>> box.take(late) is None  # expired
True
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from cardtable.server.http_guards import client_address, too_many
from cardtable.server.limits import ClientLimits
from cardtable.server.settings import Settings

JSON = dict[str, Any]
TOKEN_BYTES = 18  # 144 random bits: no one guesses a live token
MAX_SEATS = 200  # tables one browser hands over (the lobby looks at its newest 30)


class HeldSeat(BaseModel):
    table: str = Field(min_length=1, max_length=32)
    seat: int = Field(ge=0, le=16)
    key: str = Field(min_length=1, max_length=64)


class Handover(BaseModel):
    seats: list[HeldSeat] = Field(default_factory=list, max_length=MAX_SEATS)
    record: dict[str, Any] | None = None  # the browser's record file (record.js checks it)


class Token(BaseModel):
    token: str = Field(max_length=64)


class TransferBox:
    """Transfers waiting to be taken: token -> (expiry, what was handed over)."""

    def __init__(
        self, seconds: float, capacity: int, clock: Callable[[], float] = time.time
    ) -> None:
        self.seconds = seconds
        self.capacity = capacity
        self.clock = clock
        self.waiting: dict[str, tuple[float, JSON]] = {}

    def full(self) -> bool:
        now = self.clock()
        for token in [t for t, (expiry, _) in self.waiting.items() if expiry <= now]:
            del self.waiting[token]
        return len(self.waiting) >= self.capacity

    def put(self, data: JSON) -> str:
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self.waiting[token] = (self.clock() + self.seconds, data)
        return token

    def take(self, token: str) -> JSON | None:
        """What was handed over under ``token``, once; None when unknown, used or expired."""
        held = self.waiting.pop(token, None)
        if held is None:
            return None
        expiry, data = held
        return data if expiry > self.clock() else None


def router(box: TransferBox, limits: ClientLimits, settings: Settings) -> APIRouter:
    api = APIRouter()

    @api.post("/api/transfers", status_code=201)
    def hand_over(body: Handover, http: Request) -> JSON:
        """Keep this browser's seats and record for another browser: a single-use link."""
        if not limits.transfers.allow(client_address(http.scope)):
            raise too_many("too many transfer links from this address: wait a minute")
        data = body.model_dump()
        if len(json.dumps(data)) > settings.max_transfer_bytes:
            message = f"a transfer may hold at most {settings.max_transfer_bytes} bytes"
            raise HTTPException(413, detail={"code": "too_large", "message": message})
        if box.full():
            message = "too many transfers are waiting: try again in a few minutes"
            raise HTTPException(503, detail={"code": "busy", "message": message})
        token = box.put(data)
        return {"token": token, "url": f"/continue#{token}", "seconds": int(box.seconds)}

    @api.post("/api/transfers/take")
    def take(body: Token, http: Request) -> JSON:
        """The seats and record handed over under the token: once, before it expires. (The
        token comes in the body, out of the address that proxies log.)"""
        address = client_address(http.scope)
        if limits.bad_keys.exhausted(address):
            raise too_many("too many wrong links: wait a minute")
        data = box.take(body.token)
        if data is None:
            limits.bad_keys.allow(address)  # a wrong token spends one of the address's tries
            message = "this link was used already or has expired"
            raise HTTPException(404, detail={"code": "transfer_gone", "message": message})
        return data

    return api
