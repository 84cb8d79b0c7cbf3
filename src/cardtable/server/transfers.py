"""Continue on another device, with no account: a browser hands the server its seats (each
table's seat number and key) and its record; the server keeps them in memory under a
random token that works once and for ``transfer_seconds``; the other browser opens
``/continue#TOKEN`` (a link, or the QR code of it), is shown what came, and takes it only
when its person says it is theirs.

Only what the server can vouch for travels: a seat whose key opens it, at a table this
server has, and a game of the record that carries the server's proof of its result
(server/record_proofs.py). So a stranger's link cannot slip fake wins or foreign tables
into someone's browser.

Seat keys pass through here, so nothing of a transfer is ever logged, the page's GET
takes nothing (a link preview or a QR scanner's peek does not spend the token: the page
takes it with a POST), and a token is forgotten on first use or when it expires. Links
wait compressed; the store holds at most so many bytes in all and per client address,
and a new link makes room by dropping the oldest links of whoever holds the most, so
nobody is ever refused a link because of other people's.

>>> now = [0.0]
>>> box = TransferBox(seconds=600.0, store_bytes=10_000, address_bytes=1_000, clock=lambda: now[0])
>>> token = box.put({"seats": [], "record": None}, "10.0.0.1")
>>> box.take(token)
{'seats': [], 'record': None}
>>> box.take(token) is None  # once only
True
>>> late = box.put({"seats": []}, "10.0.0.1")
>>> now[0] = 601.0
>>> box.take(late) is None  # expired
True
>>> small = TransferBox(seconds=600.0, store_bytes=10_000, address_bytes=100)
>>> tokens = [small.put({"n": n}, "10.0.0.2") for n in range(20)]  # about 20 bytes each
>>> small.held_by("10.0.0.2") <= 100, small.take(tokens[0]) is None, small.take(tokens[-1])
(True, True, {'n': 19})
"""

from __future__ import annotations

import json
import secrets
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from cardtable.server.fairness import Signer
from cardtable.server.http_guards import client_address, too_many
from cardtable.server.limits import ClientLimits
from cardtable.server.record_proofs import is_proven
from cardtable.server.roster import Roster
from cardtable.server.settings import Settings
from cardtable.server.store import Store

JSON = dict[str, Any]
TOKEN_BYTES = 18  # 144 random bits: no one guesses a live token
MAX_SEATS = 200  # tables one browser hands over (the lobby looks at its newest 30)
#: what a table id is (hub.new_table_id's hex; older ids were URL-safe text too)
TABLE_ID = r"^[A-Za-z0-9_-]{1,32}$"


class HeldSeat(BaseModel):
    table: str = Field(pattern=TABLE_ID)
    seat: int = Field(ge=0, le=16)
    key: str = Field(min_length=1, max_length=64)


class Handover(BaseModel):
    seats: list[HeldSeat] = Field(default_factory=list, max_length=MAX_SEATS)
    record: dict[str, Any] | None = None  # the browser's record file (record.js checks it)


class Token(BaseModel):
    token: str = Field(max_length=64)


@dataclass(frozen=True)
class Waiting:
    """One link's contents, compressed, with who made it and until when it works."""

    expiry: float
    address: str
    packed: bytes


class TransferBox:
    """Transfers waiting to be taken, by token, oldest first."""

    def __init__(
        self,
        seconds: float,
        store_bytes: int,
        address_bytes: int,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.seconds = seconds
        self.store_bytes = store_bytes
        self.address_bytes = address_bytes
        self.clock = clock
        self.waiting: dict[str, Waiting] = {}

    @property
    def bytes_held(self) -> int:
        return sum(len(w.packed) for w in self.waiting.values())

    def held_by(self, address: str) -> int:
        return sum(len(w.packed) for w in self.waiting.values() if w.address == address)

    def put(self, data: JSON, address: str) -> str:
        """Keep ``data`` for a single-use token, making room as the class says."""
        packed = zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 6)
        self._forget_expired()
        self._make_room(len(packed), address)
        token = secrets.token_urlsafe(TOKEN_BYTES)
        self.waiting[token] = Waiting(self.clock() + self.seconds, address, packed)
        return token

    def take(self, token: str) -> JSON | None:
        """What was handed over under ``token``, once; None when unknown, used or expired."""
        held = self.waiting.pop(token, None)
        if held is None or held.expiry <= self.clock():
            return None
        data: JSON = json.loads(zlib.decompress(held.packed))
        return data

    def _forget_expired(self) -> None:
        now = self.clock()
        for token in [t for t, w in self.waiting.items() if w.expiry <= now]:
            del self.waiting[token]

    def _make_room(self, size: int, address: str) -> None:
        """The address's own oldest links go first; past the whole store's bytes, the
        oldest link of whichever address holds the most."""
        while self.waiting and self.held_by(address) + size > self.address_bytes:
            if not self._drop_oldest_of(address):
                break
        while self.waiting and self.bytes_held + size > self.store_bytes:
            held: dict[str, int] = {}
            for w in self.waiting.values():
                held[w.address] = held.get(w.address, 0) + len(w.packed)
            self._drop_oldest_of(max(held, key=held.__getitem__))

    def _drop_oldest_of(self, address: str) -> bool:
        token = next((t for t, w in self.waiting.items() if w.address == address), None)
        if token is not None:
            del self.waiting[token]
        return token is not None


def vouched(data: JSON, store: Store, signer: Signer) -> JSON:
    """What of a handover the server vouches for: the seats whose key opens them at a table
    it has, and the record's games that carry its proof (the rest stays behind)."""
    seats = []
    for held in data["seats"]:
        row = store.table(held["table"])
        if row is not None and Roster.from_rows(row.seats).key_matches(held["seat"], held["key"]):
            seats.append(held)
    record = data.get("record")
    if isinstance(record, dict) and isinstance(record.get("games"), list):
        games = [game for game in record["games"] if is_proven(signer, game)]
        record = {**record, "games": games}
    return {"seats": seats, "record": record}


def router(
    box: TransferBox,
    limits: ClientLimits,
    settings: Settings,
    store: Store,
    signer: Callable[[], Signer],
) -> APIRouter:
    api = APIRouter()

    @api.post("/api/transfers", status_code=201)
    def hand_over(body: Handover, http: Request) -> JSON:
        """Keep this browser's seats and record for another browser: a single-use link.
        (Limited per address before the body is read: app.py's LimitsFirst.)"""
        data = body.model_dump()
        if len(json.dumps(data)) > settings.max_transfer_bytes:
            message = f"a transfer may hold at most {settings.max_transfer_bytes} bytes"
            raise HTTPException(413, detail={"code": "too_large", "message": message})
        token = box.put(vouched(data, store, signer()), client_address(http.scope))
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
