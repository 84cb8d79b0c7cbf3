"""The server's knobs: delays, limits and worker pools (``cardtable serve`` sets them;
tests shorten the delays and widen the limits). docs/web.md lists every limit."""

from __future__ import annotations

import ipaddress
import math
import os
import re
from dataclasses import dataclass, field, fields, replace

from cardtable.core.errors import OptionError


@dataclass(frozen=True)
class Settings:
    """Server knobs; every limit is per server process."""

    bot_delay: float = 0.7  # seconds a bot waits before moving, so people can follow
    think_scale: float = 1.0  # scales the 7 słów word bots' writing time
    # after a round the table waits for every human's "Next round"; with two or more
    # humans a countdown moves it on, so nobody stalls the others
    round_break_seconds: float = 45.0
    lobby_size: int = 50
    # one WebSocket: message size and rate (a token bucket), and how long it may stay silent
    max_message_bytes: int = 4096
    rate_per_second: float = 20.0
    rate_burst: float = 40.0
    rate_strikes: int = 200  # messages refused for rate before the socket is closed
    socket_idle_seconds: float = 900.0
    # HTTP: body size, how long a request may take to arrive, how many moves a verified log has
    max_body_bytes: int = 1 << 20
    request_seconds: float = 10.0
    max_verify_moves: int = 20_000
    # records checked (POST /api/verify: a whole replay each, in the compute pool's idle slots)
    verifies_burst: int = 10
    verifies_per_minute: float = 10.0
    # "Your turn" lists asked (POST /api/turns: up to 200 seats each; a lobby asks twice a
    # minute and when its tab comes to the front)
    turns_burst: int = 20
    turns_per_minute: float = 20.0
    # per client address: token buckets (a burst, then so many a minute) and open sockets
    tables_burst: int = 10
    tables_per_minute: float = 10.0
    unstarted_tables: int = 5  # tables made by one address where nobody has moved yet
    hints_burst: int = 5
    hints_per_minute: float = 30.0
    bad_keys_burst: int = 10
    bad_keys_per_minute: float = 5.0
    sockets_per_address: int = 64
    ratings_burst: int = 10
    ratings_per_minute: float = 20.0
    qr_burst: int = 30  # a waiting room shows one code per invite
    qr_per_minute: float = 60.0
    renames_burst: int = 10
    renames_per_minute: float = 10.0
    # seats taken from the lobby: a claimed seat is held this long for its socket, then freed
    claims_burst: int = 10
    claims_per_minute: float = 10.0
    claim_hold_seconds: float = 30.0
    # how long a person's seat must have stood empty before the host may give it to a bot
    # (a reload or a dropped line is back within seconds)
    hand_to_bot_seconds: float = 60.0
    # "continue on another device": links made per address, how long one lives, how big
    # one may be (seats and the record, before it is compressed)
    transfers_burst: int = 5
    transfers_per_minute: float = 5.0
    transfer_seconds: float = 600.0
    max_transfer_bytes: int = 512 * 1024
    # what waiting links may hold (compressed), all together and per client address: past
    # either, the oldest links of whoever holds the most make room (nobody is refused)
    transfer_store_bytes: int = 16 << 20
    transfer_address_bytes: int = 1 << 20
    listeners_per_table: int = 500
    # the compute pool (server/workers.py): every bot move, hint, coach note and review
    # runs there, in turn by client address and table. compute: "local" (worker
    # processes), "ray" (a Ray cluster at compute_address, or a local Ray), or "threads"
    # (in the server's own process: tests, and machines with one core)
    compute: str = "local"
    compute_address: str = ""
    bot_workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    # how far the local workers give way to the server's own process (their nice value):
    # a search never delays a frame. 0 where other work on the machine must not starve them
    worker_niceness: int = 10
    hint_workers: int = 1  # hints and coach notes running at once (moves keep the rest)
    hint_queue: int = 4  # hints waiting for a worker beyond this are refused as busy
    bot_seconds: float = 3.0  # a bot move's budget, waiting included; then the best found
    # a table nobody watches and nobody moved at for this long leaves memory (it stays stored)
    evict_after_seconds: float = 1800.0
    sweep_seconds: float = 60.0
    storage_retry_seconds: float = 2.0
    # the coach and the review: search iterations per judged move (0: the game's hard-bot
    # budget); they run in the hint workers, so play never waits for them
    coach_iterations: int = 0
    # the reverse proxies whose X-Forwarded-For names the client (``--trusted-proxy``):
    # from anyone else the header is a client choosing its own address, so by default none
    trusted_proxies: tuple[str, ...] = ()
    #: a trusted proxy range wider than a /16 (IPv4) or /48 (IPv6) is almost always a
    #: mistake (0.0.0.0/0 lets every client choose its address): it needs this too
    trust_wide_proxy: bool = False
    #: this process's name in a cluster of processes behind one address (``--node``; the
    #: docs' "Many processes"): every answer says it, and the processes share the lobby,
    #: the limits and the tables through the database. "" : one process on its own
    node: str = ""
    # quick match (server/matchmaking.py): when a waiting person is offered a bot, when a
    # ticket nobody polls leaves the queue, the matched table's move clock, and how long a
    # rated game's seat may stand empty past that clock before the game counts as lost
    match_bot_offer_seconds: float = 20.0
    match_drop_seconds: float = 30.0
    match_move_seconds: int = 60
    abandon_grace_seconds: float = 120.0

    def relaxed(self) -> Settings:
        """The same settings without the per-address limits (benchmarks and tests that make
        hundreds of tables from one address)."""
        huge = 10**9
        return replace(
            self,
            rate_per_second=1e6,
            rate_burst=1e6,
            tables_burst=huge,
            tables_per_minute=1e9,
            unstarted_tables=huge,
            hints_burst=huge,
            hints_per_minute=1e9,
            bad_keys_burst=huge,
            bad_keys_per_minute=1e9,
            sockets_per_address=huge,
            ratings_burst=huge,
            ratings_per_minute=1e9,
            qr_burst=huge,
            qr_per_minute=1e9,
            renames_burst=huge,
            renames_per_minute=1e9,
            verifies_burst=huge,
            verifies_per_minute=1e9,
            turns_burst=huge,
            turns_per_minute=1e9,
            claims_burst=huge,
            claims_per_minute=1e9,
            transfers_burst=huge,
            transfers_per_minute=1e9,
            listeners_per_table=huge,
            hint_queue=huge,
        )


#: knobs where 0 (or less) would stop the server working: no worker, no body, no lobby
POSITIVE = frozenset(
    {
        "max_message_bytes", "rate_per_second", "rate_burst", "rate_strikes",
        "socket_idle_seconds", "max_body_bytes", "request_seconds", "max_verify_moves",
        "tables_burst", "hints_burst", "bad_keys_burst", "ratings_burst", "qr_burst",
        "renames_burst", "sockets_per_address", "listeners_per_table", "bot_workers",
        "hint_workers", "lobby_size", "evict_after_seconds", "sweep_seconds",
        "storage_retry_seconds", "think_scale", "unstarted_tables", "bot_seconds",
        "transfers_burst", "transfer_seconds", "max_transfer_bytes",
        "verifies_burst", "turns_burst", "claims_burst", "transfer_store_bytes",
        "transfer_address_bytes",
        "match_drop_seconds", "match_move_seconds",
    }
)  # fmt: skip

#: knobs where a value past these bounds leaves a server that cannot serve anybody: a
#: message too small for a move, a table evicted while its players think, a body too small
#: for a name. (low, high); None: no bound that side
SANE_RANGE: dict[str, tuple[float | None, float | None]] = {
    "max_message_bytes": (1024, 1 << 20),
    "max_body_bytes": (16 * 1024, 64 << 20),
    "request_seconds": (1.0, 300.0),
    "socket_idle_seconds": (30.0, None),
    "evict_after_seconds": (60.0, None),
    "sweep_seconds": (1.0, 3600.0),
    "storage_retry_seconds": (0.1, 600.0),
    "bot_seconds": (0.05, 600.0),
    "worker_niceness": (0, 19),
    "round_break_seconds": (1.0, None),
    "transfer_seconds": (10.0, 86_400.0),
    "max_transfer_bytes": (16 * 1024, None),
    "claim_hold_seconds": (1.0, 3600.0),
    "rate_per_second": (1.0, None),
    "rate_burst": (1.0, None),
    "max_verify_moves": (100, None),
    "lobby_size": (1, 10_000),
}

#: the widest proxy range trusted without ``trust_wide_proxy``, by IP version
WIDEST_PROXY_PREFIX = {4: 16, 6: 48}

COMPUTE = ("local", "ray", "threads")


def problems(settings: Settings) -> list[str]:
    """What is wrong with ``settings``: every knob a finite number, none below zero, and
    the :data:`POSITIVE` ones above it.

    >>> problems(replace(Settings(), bot_workers=0, bot_delay=float("nan")))
    ['bot_delay must be a finite number, not nan', 'bot_workers must be above 0, not 0']
    >>> for problem in problems(replace(Settings(), max_message_bytes=1,
    ...                                 trusted_proxies=("0.0.0.0/0",))):
    ...     print(problem)
    --trusted-proxy 0.0.0.0/0 is wider than a /16: add --trust-wide-proxy if that is meant
    max_message_bytes must be at least 1024, not 1
    """
    found = proxy_problems(settings)
    if settings.node and not re.fullmatch(r"[A-Za-z0-9_.-]{1,40}", settings.node):
        found.append(
            f"--node takes a name of letters, digits, '.', '_' and '-', not {settings.node!r}"
        )
    if settings.compute not in COMPUTE:
        found.append(f"compute must be one of {', '.join(COMPUTE)}, not {settings.compute!r}")
    for knob in fields(Settings):
        value = getattr(settings, knob.name)
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        if not math.isfinite(value):
            found.append(f"{knob.name} must be a finite number, not {value}")
        elif knob.name in POSITIVE and value <= 0:
            found.append(f"{knob.name} must be above 0, not {value}")
        elif value < 0:
            found.append(f"{knob.name} may not be below 0, not {value}")
        else:
            found.extend(range_problem(knob.name, value))
    return found


def range_problem(name: str, value: float) -> list[str]:
    """``name=value`` outside its :data:`SANE_RANGE`, said as a sentence (else nothing)."""
    low, high = SANE_RANGE.get(name, (None, None))
    if low is not None and value < low:
        return [f"{name} must be at least {low:g}, not {value:g}"]
    if high is not None and value > high:
        return [f"{name} must be at most {high:g}, not {value:g}"]
    return []


def proxy_problems(settings: Settings) -> list[str]:
    """Trusted proxies that are not addresses, or that are wide ranges nobody asked for."""
    found = []
    for proxy in settings.trusted_proxies:
        try:
            network = ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            found.append(f"--trusted-proxy takes an IP address or network, not {proxy!r}")
            continue
        widest = WIDEST_PROXY_PREFIX[network.version]
        if network.prefixlen < widest and not settings.trust_wide_proxy:
            found.append(
                f"--trusted-proxy {proxy} is wider than a /{widest}: "
                "add --trust-wide-proxy if that is meant"
            )
    return found


def checked(settings: Settings) -> Settings:
    """``settings`` when they make sense; else an :class:`OptionError` naming each problem."""
    found = problems(settings)
    if found:
        raise OptionError("; ".join(found))
    return settings


def with_overrides(settings: Settings, assignments: list[str]) -> Settings:
    """``settings`` with ``NAME=VALUE`` overrides (``cardtable serve --limit``).

    >>> with_overrides(Settings(), ["tables_per_minute=3", "hint_workers=2"]).tables_per_minute
    3.0
    """
    names = {f.name: f for f in fields(Settings)}
    changes: dict[str, float | int] = {}
    for assignment in assignments:
        name, _, text = assignment.partition("=")
        name = name.strip().replace("-", "_")
        if name not in names or not text:
            valid = ", ".join(names)
            raise OptionError(f"--limit takes NAME=VALUE; NAME is one of: {valid}")
        kind = int if isinstance(getattr(settings, name), int) else float
        try:
            changes[name] = kind(text)
        except ValueError:
            raise OptionError(f"--limit {name} needs a number, not {text!r}") from None
    return checked(replace(settings, **changes))  # type: ignore[arg-type]
