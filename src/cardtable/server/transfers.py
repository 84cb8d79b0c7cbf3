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

import hashlib
import json
import secrets
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

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
    # the player key (server/player_keys.py): ratings and "your turn" come with the person
    player: str | None = Field(default=None, pattern=r"^[0-9a-f]{32,64}$")


class Token(BaseModel):
    token: str = Field(max_length=64)


@dataclass(frozen=True)
class Waiting:
    """One link's contents, compressed, with who made it and until when it works (its
    bytes only where they are needed: taking it)."""

    expiry: float
    address: str
    size: int
    packed: bytes = b""


class Shelf(Protocol):
    """Where links wait, by the SHA-256 of their token (the token itself is never kept)."""

    def waiting(self) -> list[tuple[str, Waiting]]: ...  # oldest first, without their bytes
    def add(self, key: str, link: Waiting) -> None: ...
    def remove(self, keys: list[str]) -> None: ...
    def pop(self, key: str) -> Waiting | None: ...


class MemoryShelf:
    """Links in this process's memory: one process on its own."""

    def __init__(self) -> None:
        self.links: dict[str, Waiting] = {}

    def waiting(self) -> list[tuple[str, Waiting]]:
        return list(self.links.items())

    def add(self, key: str, link: Waiting) -> None:
        self.links[key] = link

    def remove(self, keys: list[str]) -> None:
        for key in keys:
            self.links.pop(key, None)

    def pop(self, key: str) -> Waiting | None:
        return self.links.pop(key, None)


class StoreShelf:
    """Links in the database: any process of a cluster takes a link another made."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def waiting(self) -> list[tuple[str, Waiting]]:
        return [(key, Waiting(expiry, address, size))
                for key, address, size, expiry in self.store.transfers_waiting()]  # fmt: skip

    def add(self, key: str, link: Waiting) -> None:
        self.store.add_transfer(key, link.address, link.expiry, link.packed)

    def remove(self, keys: list[str]) -> None:
        self.store.drop_transfers(keys)

    def pop(self, key: str) -> Waiting | None:
        taken = self.store.take_transfer(key)
        return None if taken is None else Waiting(taken[0], "", len(taken[1]), taken[1])


def shelf_key(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class TransferBox:
    """Transfers waiting to be taken, on a :class:`Shelf`."""

    def __init__(
        self,
        seconds: float,
        store_bytes: int,
        address_bytes: int,
        clock: Callable[[], float] = time.time,
        shelf: Shelf | None = None,
    ) -> None:
        self.seconds = seconds
        self.store_bytes = store_bytes
        self.address_bytes = address_bytes
        self.clock = clock
        self.shelf: Shelf = shelf or MemoryShelf()

    @property
    def bytes_held(self) -> int:
        return sum(link.size for _, link in self.shelf.waiting())

    def held_by(self, address: str) -> int:
        return sum(link.size for _, link in self.shelf.waiting() if link.address == address)

    def put(self, data: JSON, address: str) -> str:
        """Keep ``data`` for a single-use token, making room as the module says."""
        packed = zlib.compress(json.dumps(data, separators=(",", ":")).encode(), 6)
        self.shelf.remove(self._to_drop(len(packed), address))
        token = secrets.token_urlsafe(TOKEN_BYTES)
        link = Waiting(self.clock() + self.seconds, address, len(packed), packed)
        self.shelf.add(shelf_key(token), link)
        return token

    def take(self, token: str) -> JSON | None:
        """What was handed over under ``token``, once; None when unknown, used or expired."""
        held = self.shelf.pop(shelf_key(token))
        if held is None or held.expiry <= self.clock():
            return None
        data: JSON = json.loads(zlib.decompress(held.packed))
        return data

    def _to_drop(self, size: int, address: str) -> list[str]:
        """The links that go to make room for ``size`` more bytes of ``address``: the
        expired ones; the address's own oldest first; past the whole store's bytes, the
        oldest of whichever address holds the most."""
        now = self.clock()
        kept = [(key, link) for key, link in self.shelf.waiting() if link.expiry > now]
        dropped = [key for key, link in self.shelf.waiting() if link.expiry <= now]

        def drop_oldest_of(holder: str) -> bool:
            index = next((n for n, (_, link) in enumerate(kept) if link.address == holder), None)
            if index is not None:
                dropped.append(kept.pop(index)[0])
            return index is not None

        def held(holder: str) -> int:
            return sum(link.size for _, link in kept if link.address == holder)

        while held(address) + size > self.address_bytes and drop_oldest_of(address):
            pass
        while kept and sum(link.size for _, link in kept) + size > self.store_bytes:
            drop_oldest_of(max({link.address for _, link in kept}, key=held))
        return dropped


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
    player = {"player": data["player"]} if data.get("player") else {}  # the player key
    return {"seats": seats, "record": record, **player}


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
