"""Many server processes behind one address (docs/web.md, "Many processes"): what one
process of a cluster shares with the others through the database they all use.

nginx sends every request about a table to one process (consistent hashing on its id),
so a table lives in one process at a time. The processes share, through the store:

- **who holds each table**: a process that builds a table says so (:meth:`Cluster.took`);
  a process that finds another named for a table it holds lets its copy go and closes its
  sockets with "moved" (the pages reconnect, through nginx, to the holder). Behind that,
  the move log's (table, number) key refuses a second writer of the same move, and the
  refused process lets its copy go the same way: no table ever takes moves in two.
- **the lobby**: each process writes the open tables it holds (and those it made and
  handed on) every :data:`PUBLISH_SECONDS`; any process lists everyone's, a process that
  stopped writing (it died) drops out after :data:`LISTED_SECONDS`;
- **per-address limits** that must not multiply with the processes (tables made, wrong
  seat keys): token buckets kept in the store (:class:`SharedBuckets`); and the tables an
  address made where nobody has moved yet, a row each until a person moves, the table
  ends or is abandoned (:meth:`Cluster.unstarted_by`).

A process made with a ``node`` name is in a cluster; without one nothing here runs.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Any

from cardtable.server.limits import AddressBuckets
from cardtable.server.store import StorageUnavailable, Store

if TYPE_CHECKING:
    from cardtable.server.hub import Hub
    from cardtable.server.tables import LiveTable

log = logging.getLogger("cardtable.server")

JSON = dict[str, Any]
#: how often a process writes its lobby and looks for tables another process took
PUBLISH_SECONDS = 1.0
#: a lobby row older than this is a process that stopped writing: not listed
LISTED_SECONDS = 10.0
#: a table made here and handed on is listed this long, until its holder lists it
MADE_SECONDS = 60.0
#: how often shared buckets nobody used for an hour are forgotten
FORGET_SECONDS = 600.0


class SharedBuckets(AddressBuckets):
    """Per-address token buckets every process spends from (rows of the store); while the
    store is down, each process counts on its own, as a single process does."""

    def __init__(self, store: Store, kind: str, per_minute: float, burst: float) -> None:
        super().__init__(per_minute, burst)
        self.store = store
        self.kind = kind

    def _shared(self, address: str, take: bool) -> bool | None:
        try:
            return self.store.spend(f"{self.kind}:{address}", self.rate, self.burst, take)
        except StorageUnavailable:
            return None

    def allow(self, address: str) -> bool:
        shared = self._shared(address, take=True)
        return super().allow(address) if shared is None else shared

    def exhausted(self, address: str) -> bool:
        shared = self._shared(address, take=False)
        return super().exhausted(address) if shared is None else not shared


class Cluster:
    """This process's part in a cluster named ``node``."""

    def __init__(self, hub: Hub, node: str) -> None:
        self.hub = hub
        self.node = node
        #: tables made here and handed on to their holder: (entry, made at)
        self.made: dict[str, tuple[JSON, float]] = {}

    def buckets(self, kind: str, per_minute: float, burst: float) -> AddressBuckets:
        return SharedBuckets(self.hub.store, kind, per_minute, burst)

    def unstarted_since(self) -> float:
        """A table made before this that nobody has moved at has been abandoned (or its
        process died before it could say so): no longer counted against its maker."""
        return time.time() - self.hub.settings.evict_after_seconds

    def unstarted_by(self, creator: str) -> int | None:
        """Tables ``creator`` made through any process where nobody has moved yet (None
        while the store is down: the caller counts this process's own)."""
        try:
            return self.hub.store.unstarted_count(creator, self.unstarted_since())
        except StorageUnavailable:
            return None

    def made_by(self, table_id: str, creator: str) -> bool:
        """Count ``table_id`` (about to be made) against ``creator``: whether it was."""
        try:
            self.hub.store.add_unstarted(table_id, creator)
        except StorageUnavailable:
            log.warning("table %s: could not count it against its maker", table_id)
            return False
        return True

    def uncount(self, table_id: str) -> None:
        """A person moved at ``table_id`` (or it ended, left memory, or was never made):
        its maker may make another. A row left behind is dropped by :meth:`watch`."""
        try:
            self.hub.store.drop_unstarted(table_id)
        except Exception:  # never more than a warning: the row ages out
            log.warning("table %s: could not uncount it from its maker", table_id)

    def took(self, table_id: str) -> None:
        """This process holds ``table_id`` from now on: any other lets its copy go."""
        try:
            self.hub.store.hold(table_id, self.node)
        except StorageUnavailable:  # the move log's key still keeps a second writer out
            log.warning("table %s: could not say this process holds it", table_id)

    def handed_on(self, table: LiveTable) -> None:
        """A table made here that its holder (nginx's choice) will build: listed meanwhile."""
        if table.row.public and table.lesson is None:
            self.made[table.id] = (self.hub.lobby_entry(table), time.time())

    async def watch(self) -> None:
        """For as long as the server runs: the lobby written, tables others took let go."""
        forgotten = time.time()
        while True:
            await asyncio.sleep(PUBLISH_SECONDS)
            try:
                await self.look()
                if time.time() - forgotten > FORGET_SECONDS:
                    forgotten = time.time()
                    await asyncio.to_thread(self.hub.store.forget_buckets, forgotten - 3600)
                    await asyncio.to_thread(self.hub.store.forget_unstarted, self.unstarted_since())
            except StorageUnavailable:
                pass  # the store says so on /api/health; the next turn tries again
            except Exception:  # the watcher must outlive any one bad table
                log.exception("cluster: looking at the shared state failed")

    async def look(self) -> None:
        held = list(self.hub.tables)
        holders = await asyncio.to_thread(self.hub.store.holders, held) if held else {}
        for table_id, node in holders.items():
            await self._let_go_unless_mine(table_id, node)
        now = time.time()
        for table_id in [t for t, (_, at) in self.made.items() if now - at > MADE_SECONDS]:
            del self.made[table_id]
        entries = {entry["id"]: entry for entry, _ in self.made.values()}
        entries |= {entry["id"]: {**entry, "held": True} for entry in self.hub.local_lobby()}
        await asyncio.to_thread(self.hub.store.publish_lobby, self.node, entries)

    async def held_elsewhere(self, table_id: str) -> bool:
        """Whether another process holds ``table_id`` now (this one's copy, if any, goes at
        once: a read answered here must say what the holder wrote, not wait for
        :meth:`look`). With the store away, the copy here is the best answer: False."""
        try:
            holders = await asyncio.to_thread(self.hub.store.holders, [table_id])
        except StorageUnavailable:
            return False
        return await self._let_go_unless_mine(table_id, holders.get(table_id, self.node))

    async def _let_go_unless_mine(self, table_id: str, node: str) -> bool:
        """Let this process's copy of ``table_id`` go if ``node`` holds it; whether it does."""
        if node == self.node:
            return False
        table = self.hub.tables.get(table_id)
        if table is not None:
            log.info("table %s: node %s holds it now, letting it go", table_id, node)
            await self.hub.let_go(table)
        return True

    def lobby(self) -> list[JSON]:
        """Every process's open tables: a held table's entry over a made one's."""
        listed = self.hub.store.lobby_since(time.time() - LISTED_SECONDS)
        chosen: dict[str, JSON] = {}
        for _node, entry in listed:
            known = chosen.get(entry["id"])
            if known is None or (entry.get("held") and not known.get("held")):
                chosen[entry["id"]] = entry
        mine = {entry["id"]: {**entry, "held": True} for entry in self.hub.local_lobby()}
        return list((chosen | mine).values())
