"""Who sits at a table: its seats (a person's or a bot's), their keys, names and presence.

The roster is plain data with the rules of seating: which seats are free, which still wait
for a person, whose key opens a seat. It keeps no game state and sends nothing; the live
table (server/tables.py) saves it and tells the clients.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.server.errors import TableError
from cardtable.server.seat_names import (
    chosen_name,
    default_name,
    distinct,
    is_default,
    looks_like_bot,
)

JSON = dict[str, Any]


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def new_key() -> str:
    return secrets.token_urlsafe(18)


@dataclass
class SeatInfo:
    kind: str  # "human" or "bot:<name>"
    #: the chosen name, or the English default; readers see :func:`seat_labels`
    name: str
    key_hash: str | None = None
    claimed: bool = False
    connected: int = 0
    coach: bool = False  # the coach speaks to this seat (a table setting, not a house rule)
    #: a person chose the name: everyone reads it as it is; otherwise each reader reads
    #: the seat's default name in their own language
    chosen: bool = True
    #: (in memory) a seat taken from the lobby is held for its taker's socket until then;
    #: it counts as taken only when that socket comes, and is free again after
    held_until: float = 0.0
    #: (in memory) when the seat's last socket closed: a host may give a seat to a bot
    #: only after it stood empty a while (a reload is not leaving)
    empty_since: float = field(default_factory=time.time)

    @property
    def is_bot(self) -> bool:
        return self.kind.startswith("bot:")

    def to_row(self) -> JSON:
        row = {"kind": self.kind, "name": self.name, "chosen": self.chosen}
        row |= {"key": self.key_hash, "claimed": self.claimed}
        return {**row, "coach": True} if self.coach else row

    @classmethod
    def from_row(cls, data: Mapping[str, Any], number: int) -> SeatInfo:
        info = cls(str(data["kind"]), str(data["name"]), data.get("key"), bool(data.get("claimed")))
        info.coach = bool(data.get("coach"))
        # tables saved before names were per reader kept the creator's words: a default
        # in any language is read as unchosen, so it follows each reader again
        info.chosen = bool(data.get("chosen", not is_default(info.name, info.kind, number)))
        return info

    def to_json(self) -> JSON:
        """What a page needs to call the seat (:func:`seat_labels` in the browser)."""
        return {"kind": self.kind, "name": self.name, "chosen": self.chosen}


def named_seat(
    kind: str, given: str, others: Sequence[SeatInfo], number: int | None = None
) -> SeatInfo:
    """Seat ``number`` (after ``others`` when None) of ``kind``: the name given, else its
    default (kept in English; each reader reads the default in their own language)."""
    taken = [s.name for s in others]
    number = len(others) if number is None else number
    name = chosen_name(given)
    if looks_like_bot(name) != kind.startswith("bot:"):
        # a person's seat is not called a bot's, nor a bot's a person's (a host filling
        # seats could pass a bot off as a friend): such a seat keeps its default name
        name = ""
    if name and not is_default(name, kind, number):
        return SeatInfo(kind, distinct(name, taken))
    return SeatInfo(kind, distinct(default_name(kind, number), taken), chosen=False)


class Roster:
    """A table's seats, in seat order."""

    def __init__(self, seats: list[SeatInfo]) -> None:
        self.seats = seats

    @classmethod
    def from_rows(cls, rows: Sequence[Mapping[str, Any]]) -> Roster:
        return cls([SeatInfo.from_row(row, n) for n, row in enumerate(rows)])

    def rows(self) -> list[JSON]:
        """The seats as the store keeps them."""
        return [s.to_row() for s in self.seats]

    def __len__(self) -> int:
        return len(self.seats)

    def is_bot(self, seat: int) -> bool:
        return 0 <= seat < len(self.seats) and self.seats[seat].is_bot

    def key_matches(self, seat: int, key: str | None) -> bool:
        if not (0 <= seat < len(self.seats)) or key is None:
            return False
        stored = self.seats[seat].key_hash
        return stored is not None and hmac.compare_digest(stored, hash_key(key))

    @property
    def host(self) -> int:
        """The seat of the person who made the table (the first human seat)."""
        return next(n for n, s in enumerate(self.seats) if s.kind == "human")

    def humans(self) -> list[int]:
        """The seats people play (taken or not)."""
        return [n for n, s in enumerate(self.seats) if not s.is_bot]

    def free_seats(self) -> list[int]:
        """Human seats nobody has taken, nobody sits at and nobody holds: what the lobby
        offers."""
        now = time.time()
        return [
            n
            for n, s in enumerate(self.seats)
            if s.kind == "human" and not s.claimed and s.connected == 0 and s.held_until <= now
        ]

    def empty_for(self, seat: int) -> float:
        """Seconds since a person last sat at ``seat`` (0 while somebody does)."""
        info = self.seats[seat]
        return 0.0 if info.connected else max(0.0, time.time() - info.empty_since)

    def waiting_for(self) -> list[int]:
        """Human seats nobody has taken yet: the game starts when there are none."""
        return [n for n, s in enumerate(self.seats) if s.kind == "human" and not s.claimed]

    def person_present(self) -> bool:
        """Whether a person sits at the table now (a seat's socket is open)."""
        return any(s.connected > 0 for s in self.seats if not s.is_bot)

    def presence(self) -> JSON:
        """Who sits at the table now: what changes when a seat joins or leaves (a small
        frame instead of the whole state, so many spectators cost linear, not quadratic)."""
        return {
            "type": "presence",
            "seats": [
                {"connected": s.connected > 0, "claimed": s.claimed}
                | ({} if s.is_bot or s.connected else {"empty_for": round(self.empty_for(n), 1)})
                for n, s in enumerate(self.seats)
            ],
        }

    def meta(self) -> list[JSON]:
        """The seats as every client reads them (no keys)."""
        seats = []
        for number, info in enumerate(self.seats):  # every frame of every seat says these
            seat = info.to_json()
            seat["connected"], seat["claimed"] = info.connected > 0, info.claimed
            seat["coach"] = info.coach
            if not (info.connected or info.is_bot):
                seat["empty_for"] = round(self.empty_for(number), 1)
            seats.append(seat)
        return seats

    def free_seat(self, seat: int | None) -> int:
        """``seat`` if it is free, else the first free seat (None: any): a person takes it."""
        free = self.free_seats()
        if seat is None:
            if not free:
                raise TableError("no free seat at this table", "no_seat")
            return free[0]
        if seat not in free:
            raise TableError(f"seat {seat + 1} is not free", "no_seat")
        return seat

    def rename(self, seat: int, name: str) -> str:
        """The person at ``seat`` chose ``name`` (numbered if another seat has it); the name
        given, as the seat now has it."""
        cleaned = chosen_name(name)
        if not cleaned:
            raise TableError("a name needs at least one letter", "bad_name")
        if looks_like_bot(cleaned):
            raise TableError("a person's name may not look like a bot's", "bad_name")
        others = [s for n, s in enumerate(self.seats) if n != seat]
        named = named_seat(self.seats[seat].kind, cleaned, others, number=seat)
        self.seats[seat].name, self.seats[seat].chosen = named.name, named.chosen
        return named.name

    def seat_bot(self, seat: int, bot: str, name: str = "") -> None:
        """``bot`` sits at ``seat`` from now on (called ``name``, or its default)."""
        others = [s for m, s in enumerate(self.seats) if m != seat]
        self.seats[seat] = named_seat(f"bot:{bot}", name, others, number=seat)
