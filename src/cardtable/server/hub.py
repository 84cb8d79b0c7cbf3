"""Every live table of one server: made, found, restored after a restart, rematched, and
let go when nobody plays them; the lobby's list of open tables.

Live state is keyed by table id alone (docs/web.md: what a second server process needs).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardtable.agents import make_agent
from cardtable.core.errors import CardtableError, OptionError
from cardtable.core.game import Game, spec_of
from cardtable.learn import LESSON_PRESET, ScriptedBot, lesson_of
from cardtable.server.client_options import game_for_client
from cardtable.server.cluster import Cluster
from cardtable.server.coaching import Reviews
from cardtable.server.day_clock import is_day_clock, move_clock_seconds
from cardtable.server.errors import TableError
from cardtable.server.fairness import Commitment, Signer
from cardtable.server.roster import SeatInfo, hash_key, named_seat, new_key
from cardtable.server.settings import Settings
from cardtable.server.store import StorageUnavailable, Store, TableRow
from cardtable.server.tables import MOVED, LiveTable
from cardtable.server.workers import Workers

log = logging.getLogger("cardtable.server")

JSON = dict[str, Any]


#: how long a table just made is listed before anybody sits at it (its maker's page opens)
LOBBY_GRACE_SECONDS = 60.0


def new_table_id() -> str:
    return secrets.token_hex(5)


@dataclass(frozen=True)
class TableRequest:
    """What the lobby form asks for."""

    game: str
    seats: tuple[str, ...]
    preset: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    names: tuple[str, ...] = ()
    public: bool = True
    move_seconds: int = 0
    coach: bool = False  # coach the creator's seat (only at a table with bots)


def build_game(request: TableRequest) -> Game:
    """The game a request describes; the number of seats sets ``players`` when it has one."""
    if request.preset == LESSON_PRESET:  # a guided first game: its own options and seats
        return lesson_of(request.game).load()
    spec = spec_of(request.game)
    options = dict(request.options)
    if "players" in spec.options_model.model_fields and "players" not in options:
        options["players"] = len(request.seats)
    game = game_for_client(request.game, request.preset, options)
    if game.num_players and game.num_players != len(request.seats):
        raise OptionError(
            f"{game.id} with these options has {game.num_players} seats, not {len(request.seats)}"
        )
    return game


def seat_infos(request: TableRequest, game_id: str) -> list[SeatInfo]:
    seats: list[SeatInfo] = []
    for number, asked in enumerate(request.seats):
        kind = asked.strip().lower()
        if kind != "human":
            name = kind.removeprefix("bot:")
            if not (request.preset == LESSON_PRESET and name == ScriptedBot.name):
                make_agent(name, game_id)  # an unknown bot raises OptionError naming the valid ones
            kind = f"bot:{name}"
        given = request.names[number] if number < len(request.names) else ""
        seats.append(named_seat(kind, given, seats))
    if not any(s.kind == "human" for s in seats):
        raise OptionError(
            "a table needs at least one human seat (bots-only games: cardtable arena)"
        )
    if request.coach and any(s.is_bot for s in seats):
        next(s for s in seats if s.kind == "human").coach = True
    return seats


class Hub:
    """Every live table of one server, and the store behind them."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.tables: dict[str, LiveTable] = {}
        #: called with each unfinished table about to leave memory as abandoned, while it
        #: still knows who left when (a rated quick match counts its result then)
        self.before_abandon: list[Callable[[LiveTable], Awaitable[None]]] = []
        #: tidied at each sweep beside the tables (the quick-match queue's old tickets)
        self.also_swept: list[Callable[[], Awaitable[None]]] = []
        self.workers = Workers(self.settings)
        self.reviews = Reviews(self)
        #: tables each address is making right now (counted against its unstarted limit, so
        #: requests that arrive together cannot all pass the check before any table exists)
        self.being_made: Counter[str] = Counter()
        #: the rematch being made of each finished table: whoever asks meanwhile waits for it
        self.rematches: dict[str, asyncio.Future[LiveTable]] = {}
        self._signer: Signer | None = None
        self._letting_go: set[asyncio.Task[None]] = set()
        #: this process's part in a cluster of processes (None: a process on its own)
        self.cluster = Cluster(self, self.settings.node) if self.settings.node else None

    def signer(self) -> Signer:
        """The key this server signs records with (made and stored on first use)."""
        if self._signer is None:
            key = self.store.secret("record-signing-key", lambda: Signer.new_key().hex())
            self._signer = Signer(bytes.fromhex(key))
        return self._signer

    async def restore(self) -> int:
        """Rebuild every unfinished table from its log (after a restart or a crash). In a
        cluster none: each table is rebuilt by the process nginx sends it to, when it is
        first asked for (its pages reconnect by themselves)."""
        restored = 0
        if self.cluster is not None:
            return restored
        for row in self.store.unfinished():
            try:
                table = await asyncio.to_thread(LiveTable, row, self.store.moves(row.id), self)
            except CardtableError as error:
                log.error("table %s cannot be restored: %s", row.id, error)
                continue
            self.tables[row.id] = table
            table.start()
            restored += 1
        return restored

    async def close(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()
        self.workers.close()

    def unstarted_by(self, creator: str) -> int:
        """Tables ``creator`` made where no person has moved yet: a deal looked at and left
        (in a cluster, those made through any process, those being made included)."""
        shared = self.cluster.unstarted_by(creator) if self.cluster is not None else None
        if shared is not None:
            return shared
        return self.being_made[creator] + sum(
            1
            for t in self.tables.values()
            if t.creator == creator and not t.human_moved and not t.finished
        )

    async def started(self, table: LiveTable) -> None:
        """A person moved at ``table`` for the first time, or it ended before one did: it no
        longer counts against its maker (in a cluster the store is told, off the event
        loop; the table calls this once its move is sent, so no other table waits)."""
        if self.cluster is not None:
            await asyncio.to_thread(self.cluster.uncount, table.id)

    async def evict_abandoned(self, now: float | None = None) -> list[str]:
        """Tables nobody watched and nobody moved at for ``evict_after_seconds`` leave memory
        (a request for one rebuilds it from the store); an unfinished one is stored as
        abandoned, so tables made only to look at their deal show."""
        now = time.time() if now is None else now
        limit = self.settings.evict_after_seconds
        gone = [
            t
            for t in self.tables.values()
            if not t.frames.listeners
            and now - max(t.last_change, t.last_seen) >= limit
            # a game played across days stays live until it ends (its friend may come
            # tomorrow); a finished one leaves like any other
            and not (is_day_clock(t.row.move_seconds) and not t.finished)
        ]
        for table in gone:
            if not table.finished:
                for hook in self.before_abandon:
                    try:
                        await hook(table)
                    except Exception:  # one hook failing must not keep the table forever
                        log.exception("before abandoning table %s", table.id)
                try:
                    self.store.set_fields(table.id, status="abandoned")
                except StorageUnavailable:
                    continue  # kept in memory until the store can say it was abandoned
                table.row.status = "abandoned"
                log.info(
                    "table %s abandoned after %d moves (a person moved: %s)",
                    table.id, table.version, table.human_moved,
                )  # fmt: skip
                if self.cluster is not None and not table.human_moved:
                    self.cluster.uncount(table.id)  # left: no longer its maker's to count
            await table.stop()
            self.tables.pop(table.id, None)
        return [t.id for t in gone if t.id not in self.tables]

    async def sweep(self) -> None:
        """Evict abandoned tables now and then, and tidy what else asked to be
        (:attr:`also_swept`), for as long as the server runs."""
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            tidies: list[Callable[[], Awaitable[Any]]] = [self.evict_abandoned, *self.also_swept]
            for tidy in tidies:
                try:
                    await tidy()
                except Exception:  # the sweeper must outlive any one bad table
                    log.exception("sweeping failed: %s", getattr(tidy, "__name__", tidy))

    async def create(
        self,
        request: TableRequest,
        *,
        rematch_of: LiveTable | None = None,
        creator: str | None = None,
    ) -> tuple[LiveTable, list[str | None]]:
        """A new table with a committed CSPRNG seed; returns it and each human seat's key.
        ``creator`` (a client address) may hold only so many tables nobody has moved at."""
        if creator is None:
            return await self._create(request, rematch_of)
        table_id = new_table_id()
        # in a cluster the table is counted before the count is read: two processes asked
        # at once cannot both let the address past its limit
        counted = self.cluster is not None and self.cluster.made_by(table_id, creator)
        try:
            self.refuse_over_unstarted(creator, counted)
        except TableError:
            self._uncount(table_id, counted)
            raise
        self.being_made[creator] += 1
        try:
            table, keys = await self._create(request, rematch_of, table_id)
        except BaseException:
            self._uncount(table_id, counted)
            raise
        finally:
            self.being_made[creator] -= 1
            if self.being_made[creator] <= 0:
                del self.being_made[creator]
        table.creator = creator
        return table, keys

    def refuse_over_unstarted(self, creator: str, counted_one: bool = False) -> None:
        """Refuse ``creator`` another table while it has as many as it may where nobody has
        moved (``counted_one``: the one asked for is counted already)."""
        if self.unstarted_by(creator) - counted_one >= self.settings.unstarted_tables:
            raise TableError(
                f"you have {self.settings.unstarted_tables} tables where nobody has moved yet: "
                "play or leave one before making another",
                "unstarted_tables",
            )

    def _uncount(self, table_id: str, counted: bool) -> None:
        if counted and self.cluster is not None:
            self.cluster.uncount(table_id)

    async def _create(
        self, request: TableRequest, rematch_of: LiveTable | None, table_id: str | None = None
    ) -> tuple[LiveTable, list[str | None]]:
        game = build_game(request)
        seats = seat_infos(request, game.id)
        keys: list[str | None] = [None] * len(seats)
        if rematch_of is not None:  # same people, same keys
            for info, old in zip(seats, rematch_of.seats, strict=True):
                info.key_hash, info.claimed, info.coach = old.key_hash, old.claimed, old.coach
        else:
            for number, info in enumerate(seats):
                if info.kind == "human":
                    keys[number] = new_key()
                    info.key_hash = hash_key(keys[number] or "")
            first_human = next(n for n, s in enumerate(seats) if s.kind == "human")
            seats[first_human].claimed = True
        sealed = Commitment.draw()
        if request.preset == LESSON_PRESET:  # the lesson's deal is known: so is its seed
            sealed = Commitment(seed=lesson_of(game.id).seed, salt=sealed.salt)
        row = TableRow(
            id=table_id or new_table_id(),
            game=game.id,
            preset=request.preset,
            options=game.options.model_dump(mode="json"),
            seats=[s.to_row() for s in seats],
            seed=sealed.seed,
            salt=sealed.salt,
            commitment=sealed.digest,
            public=request.public,
            move_seconds=move_clock_seconds(request.move_seconds),
            status="playing",
            created_at=time.time(),
            rematch_of=None if rematch_of is None else rematch_of.id,
        )
        table = await asyncio.to_thread(LiveTable, row, (), self)
        self.store.add_table(row)
        if self.cluster is not None:  # its holder is whichever process nginx sends it to
            self.cluster.handed_on(table)
            return table, keys
        self.tables[row.id] = table
        table.start()
        return table, keys

    async def rematch(self, table: LiveTable, creator: str | None = None) -> LiveTable:
        if not table.finished:
            raise TableError("a rematch starts when the game is over", "not_finished")
        if table.lesson is not None:
            raise TableError(
                "a guided game has no rematch: start a game against the easy bot", "no_rematch"
            )
        if table.row.rematch_id:  # made already (maybe evicted since: rebuilt from the store)
            return await self.table(table.row.rematch_id)
        making = self.rematches.get(table.id)
        if making is not None:  # asked again while it is being made: the same table
            return await asyncio.shield(making)
        making = self.rematches[table.id] = asyncio.get_running_loop().create_future()
        try:
            new = await self._make_rematch(table, creator)
        except BaseException as error:
            making.set_exception(error)
            # marked as seen: asyncio would warn of an exception never retrieved when
            # nobody else was waiting for this rematch
            making.exception()
            raise
        finally:
            del self.rematches[table.id]
        making.set_result(new)
        return new

    async def _make_rematch(self, table: LiveTable, creator: str | None) -> LiveTable:
        request = TableRequest(
            game=table.row.game,
            seats=tuple("human" if s.kind == "human" else s.kind for s in table.seats),
            options=table.game.options.model_dump(mode="json"),
            names=tuple(s.name if s.chosen else "" for s in table.seats),
            public=table.row.public,
            move_seconds=table.row.move_seconds,
            preset=None,
        )
        new, _ = await self.create(request, rematch_of=table, creator=creator)
        table.row.rematch_id = new.id
        self.store.set_fields(table.id, rematch_id=new.id)
        await table.frames.broadcast()
        return new

    async def table(self, table_id: str) -> LiveTable:
        """A live table, or one rebuilt from the store (finished, or left and come back to)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        row = self.store.table(table_id) if len(table_id) <= 32 else None
        if row is None:
            raise TableError(f"no table {table_id!r}", "not_found", given=[table_id])
        if self.cluster is not None:
            # held first, then read again: a seat the last holder wrote before it let go is
            # in the copy, and none it writes after is stored (Store.set_seats)
            self.cluster.took(table_id)
            row = self.store.table(table_id) or row
        if row.status == "abandoned":
            self.store.set_fields(row.id, status="playing")
            row.status = "playing"
        built = await asyncio.to_thread(LiveTable, row, self.store.moves(row.id), self)
        table = self.tables.setdefault(table_id, built)  # another request may have built it
        table.start()
        return table

    def lobby(self) -> list[JSON]:
        """Public tables still being played that a person may join or watch a person at,
        newest first, free seats first (in a cluster, every process's). A table nobody
        sits at is not listed: a game its people left (bots alone), or one still waiting
        for players whose host has gone, would only fill the lobby with tables nobody
        plays (a table just made for people is, for ``LOBBY_GRACE_SECONDS``, before its
        maker's page has connected)."""
        entries = self.cluster.lobby() if self.cluster is not None else self.local_lobby()
        entries.sort(key=lambda entry: -entry["created_at"])
        out = entries[: self.settings.lobby_size]
        out.sort(key=lambda entry: not entry["free_seats"])
        return out

    def local_lobby(self) -> list[JSON]:
        """The lobby's entries of the tables this process holds."""
        now = time.time()

        def fresh(table: LiveTable) -> bool:
            return now - table.row.created_at < LOBBY_GRACE_SECONDS

        return [
            self.lobby_entry(t)
            for t in self.tables.values()
            if t.row.public
            and t.lesson is None
            and not t.finished
            and (t.roster.person_present() or (t.roster.free_seats() and fresh(t)))
        ]

    @staticmethod
    def lobby_entry(table: LiveTable) -> JSON:
        return {**table.frames.meta(), "free_seats": table.roster.free_seats()}

    def moved_elsewhere(self, table: LiveTable) -> None:
        """A write of ``table`` was refused: another process wrote that move (it holds the
        table now). Let this copy go once the move that found it out is over."""
        task = asyncio.get_running_loop().create_task(self.let_go(table))
        self._letting_go.add(task)
        task.add_done_callback(self._letting_go.discard)

    async def let_go(self, table: LiveTable) -> None:
        """Another process holds ``table`` now: this copy goes, and its pages are told to
        connect again (through nginx, to the holder)."""
        if self.tables.get(table.id) is not table:
            return
        del self.tables[table.id]
        await table.stop()
        await table.frames.close_all("moved", MOVED)
