"""Token buckets: one per WebSocket for its message rate, and one per client address and
kind of request (tables made, hints and reviews, wrong seat keys, ratings, QR codes,
renames, transfer links), all the same small class.

>>> bucket = TokenBucket(rate=0.0, burst=2)
>>> [bucket.allow(), bucket.allow(), bucket.allow()]
[True, True, False]
>>> per_address = AddressBuckets(per_minute=0.0, burst=1)
>>> [per_address.allow("10.0.0.1"), per_address.allow("10.0.0.1"), per_address.allow("10.0.0.2")]
[True, False, True]
"""

from __future__ import annotations

import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from cardtable.server.settings import Settings


@dataclass
class TokenBucket:
    """``rate`` tokens a second, at most ``burst`` saved up; each allowed request takes one."""

    rate: float
    burst: float
    tokens: float = field(init=False)
    stamp: float = field(default_factory=time.monotonic)
    strikes: int = 0  # requests refused so far

    def __post_init__(self) -> None:
        self.tokens = self.burst

    def _refill(self) -> float:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return now

    def allow(self) -> bool:
        self._refill()
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.strikes += 1
        return False

    def empty(self) -> bool:
        """No token left (without taking one): for limits that count failures only."""
        self._refill()
        return self.tokens < 1

    def full(self) -> bool:
        self._refill()
        return self.tokens >= self.burst


class AddressBuckets:
    """A token bucket per client address; full buckets are forgotten, so the table stays
    as small as the set of addresses that were busy lately."""

    def __init__(self, per_minute: float, burst: float) -> None:
        self.rate = per_minute / 60.0
        self.burst = burst
        self.buckets: dict[str, TokenBucket] = {}

    def _bucket(self, address: str) -> TokenBucket:
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) > 10_000:
                self.forget_idle()
            bucket = self.buckets[address] = TokenBucket(self.rate, self.burst)
        return bucket

    def allow(self, address: str) -> bool:
        return self._bucket(address).allow()

    def exhausted(self, address: str) -> bool:
        return self._bucket(address).empty()

    def forget_idle(self) -> None:
        for address in [a for a, b in self.buckets.items() if b.full()]:
            del self.buckets[address]


class OpenCounts:
    """How many things (sockets) each key holds open now, against a cap."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.counts: Counter[str] = Counter()

    def take(self, key: str) -> bool:
        if self.counts[key] >= self.cap:
            return False
        self.counts[key] += 1
        return True

    def give_back(self, key: str) -> None:
        self.counts[key] -= 1
        if self.counts[key] <= 0:
            del self.counts[key]


class ClientLimits:
    """Every per-address limit of one server, built from its settings. ``shared`` makes
    the buckets that every process of a cluster spends from (tables made, wrong seat keys:
    those a client could otherwise multiply by the processes); the others count per
    process, since nginx sends a table's requests to one."""

    def __init__(
        self,
        settings: Settings,
        shared: Callable[[str, float, float], AddressBuckets] | None = None,
    ) -> None:
        def buckets(kind: str, per_minute: float, burst: float) -> AddressBuckets:
            make = shared or (lambda _kind, rate, most: AddressBuckets(rate, most))
            return make(kind, per_minute, burst)

        self.tables = buckets("tables", settings.tables_per_minute, settings.tables_burst)
        self.hints = AddressBuckets(settings.hints_per_minute, settings.hints_burst)
        self.bad_keys = buckets("bad_keys", settings.bad_keys_per_minute, settings.bad_keys_burst)
        self.sockets = OpenCounts(settings.sockets_per_address)
        self.ratings = AddressBuckets(settings.ratings_per_minute, settings.ratings_burst)
        self.qr_codes = AddressBuckets(settings.qr_per_minute, settings.qr_burst)
        self.renames = AddressBuckets(settings.renames_per_minute, settings.renames_burst)
        self.transfers = AddressBuckets(settings.transfers_per_minute, settings.transfers_burst)
        self.verifies = AddressBuckets(settings.verifies_per_minute, settings.verifies_burst)
        self.turns = AddressBuckets(settings.turns_per_minute, settings.turns_burst)
        self.claims = AddressBuckets(settings.claims_per_minute, settings.claims_burst)

    def before_parsing(self) -> list[RequestLimit]:
        """The requests that spend a token whatever they carry: counted as they arrive,
        before their body is read, so a flood of bodies that would fail validation (or
        that are costly to validate) is refused as cheaply as the first byte allows."""
        table = r"/api/tables/[^/]+"
        return [
            RequestLimit("POST", r"/api/tables", self.tables, "too many tables made"),
            RequestLimit("POST", r"/api/learn/[^/]+", self.tables, "too many tables made"),
            RequestLimit("POST", r"/api/match", self.tables, "too many quick matches"),
            RequestLimit("POST", r"/api/companion", self.tables, "too many pads made"),
            RequestLimit("POST", table + "/claim", self.claims, "too many seats taken"),
            RequestLimit("POST", table + "/name", self.renames, "too many renames"),
            RequestLimit("POST", r"/api/rating", self.ratings, "too many ratings asked"),
            RequestLimit("POST", r"/api/verify", self.verifies, "too many records checked"),
            RequestLimit("POST", r"/api/turns", self.turns, "too many turn lists asked"),
            RequestLimit("POST", r"/api/transfers", self.transfers, "too many transfer links"),
            RequestLimit("GET", r"/api/qr", self.qr_codes, "too many QR codes"),
        ]


@dataclass(frozen=True)
class RequestLimit:
    """Requests of one method and path pattern, each spending a token of ``buckets``."""

    method: str
    pattern: str
    buckets: AddressBuckets
    what: str  # "too many tables made": the start of the refusal

    def matches(self, method: str, path: str) -> bool:
        return method == self.method and re.fullmatch(self.pattern, path) is not None

    @property
    def message(self) -> str:
        return f"{self.what} from this address: wait a minute"
