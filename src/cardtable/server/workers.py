"""One compute pool for every search the server runs: bot moves, the move clock's default
move, hints, coach notes and reviews.

Jobs wait in a :class:`FairQueue`: round-robin over client addresses, then over the tables
of an address, first come first served within a table; so a client that made twenty
tables of strong bots gets one turn in each round like everybody else, and no table
starves. Each job has a deadline: a bot's search stops at what is left of its time budget
when a worker takes it and plays the best move found so far (at least
:data:`FLOOR_SECONDS` of search: the level's floor under load). Jobs run in processes
(:class:`LocalBackend`, one per core by default) or on a Ray cluster
(:class:`RayBackend`), never in the server's own process, so its frames never wait on a
search. Players' hints may wait in a bounded queue (past it a hint is refused as busy);
a review's steps run only while nobody else's job waits.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
import multiprocessing
import os
import pickle
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Protocol, TypeVar, cast

from cardtable.core.actions import Action
from cardtable.core.agent import Agent
from cardtable.core.state import State
from cardtable.core.workers import start_ray
from cardtable.server.settings import Settings

log = logging.getLogger("cardtable.server")

R = TypeVar("R")

#: the least search a bot move gets however late its job starts
FLOOR_SECONDS = 0.05

#: background jobs that may wait at once (each holds its request's body, up to a MiB)
BACKGROUND_QUEUE = 32

#: kinds of job: a move (bots, the move clock), a player's hint, a review's step
MOVE, HINT, BACKGROUND = "move", "hint", "background"
ALL_KINDS = frozenset({MOVE, HINT, BACKGROUND})


def _unpickled(payload: bytes) -> object:
    """Run the work a job was sent as (in a worker)."""
    work, args, kwargs = pickle.loads(payload)
    return work(*args, **kwargs)


def bot_move(bot: str, game_id: str, seed: int, state: State, seat: int, deadline: float) -> Action:
    """``bot``'s move for ``seat``, its search stopped at ``deadline`` (a wall-clock time:
    what is left of the move's budget when a worker takes it, waiting in the queue
    included; at least :data:`FLOOR_SECONDS`). The bot is made here, in the worker, from
    its name and a seed, rather than sent."""
    from cardtable.agents import make_agent  # noqa: PLC0415 - workers import it once

    return within(make_agent(bot, game_id, seed=seed), deadline).choose(state, seat)


def within(agent: Agent, deadline: float) -> Agent:
    """``agent`` on a live table's clock (its level's, ``on_the_clock``), its search (if it
    searches) stopping at ``deadline`` at the latest with its best move found, after at
    least :data:`FLOOR_SECONDS`."""
    from cardtable.agents.base import on_the_clock  # noqa: PLC0415 - as bot_move's import

    return on_the_clock(agent, max(FLOOR_SECONDS, deadline - time.time()))


#: how long each warming job holds its worker, so that every worker gets one
WARM_SECONDS = 0.3


def _warm_up(seconds: float) -> None:
    import cardtable.agents  # noqa: F401, PLC0415 - the engine and the bots, imported once

    time.sleep(seconds)


def _start_worker(niceness: int, server: int) -> None:
    """A worker gives way to the server (niced), and ends when its server has gone, even
    by ``kill -9``: nobody else would ever stop it. (``server`` is the server's pid as the
    server said it: a worker that starts after its server died sees another parent.)"""
    os.nice(niceness)
    threading.Thread(
        target=_exit_when_orphaned, args=(server,), name="orphan-watch", daemon=True
    ).start()


def _exit_when_orphaned(parent: int, every: float = 0.5) -> None:
    while os.getppid() == parent:  # an orphan is handed to another parent (init)
        time.sleep(every)
    os._exit(0)


class HintsBusy(Exception):
    """Too many hints wait already (or, for a review's step, somebody else's job waits)."""


class Backend(Protocol):
    """Where jobs run: ``slots`` at a time."""

    slots: int

    async def run(self, payload: bytes) -> object: ...

    def close(self) -> None: ...


class LocalBackend:
    """A pool of spawned worker processes on this machine."""

    def __init__(self, workers: int, niceness: int) -> None:
        self.slots = workers
        self.niceness = niceness
        self.pool = self._new_pool()

    def _new_pool(self) -> ProcessPoolExecutor:
        # spawned, not forked: a fork of a process with threads may copy a lock held mid-way
        return ProcessPoolExecutor(
            self.slots,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(self.niceness, os.getpid()),
        )

    async def run(self, payload: bytes) -> object:
        pool = self.pool
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, _unpickled, payload)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh
            if self.pool is pool:
                self.pool = self._new_pool()
            raise

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


class RayBackend:
    """Jobs as Ray tasks: a cluster's cores (``address``) or a local Ray started here."""

    def __init__(self, workers: int, address: str | None = None) -> None:
        self.ray, self.started_here = start_ray(workers, address)
        self.slots = max(1, int(self.ray.cluster_resources().get("CPU", workers)))
        self.remote = self.ray.remote(num_cpus=1)(_unpickled)

    async def run(self, payload: bytes) -> object:
        return await self.remote.remote(payload)

    def close(self) -> None:
        if self.started_here:
            self.ray.shutdown()


class ThreadBackend:
    """Threads of the server's own process (tests, one-core machines): the same jobs,
    pickled as for a process, so what works here works on the others."""

    def __init__(self, workers: int) -> None:
        self.slots = workers
        self.pool = ThreadPoolExecutor(workers, thread_name_prefix="compute")

    async def run(self, payload: bytes) -> object:
        return await asyncio.get_running_loop().run_in_executor(self.pool, _unpickled, payload)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


def make_backend(settings: Settings) -> Backend:
    if settings.compute == "ray":
        return RayBackend(settings.bot_workers, settings.compute_address or None)
    if settings.compute == "threads":
        return ThreadBackend(settings.bot_workers)
    return LocalBackend(settings.bot_workers, settings.worker_niceness)


@dataclass
class Job:
    payload: bytes
    kind: str
    address: str
    table: str
    future: asyncio.Future[object]
    number: int = field(default_factory=itertools.count().__next__)


class FairQueue:
    """Jobs by client address, then by table: :meth:`pop` takes the next address in turn,
    the next table of that address in turn, and that table's oldest job.

    >>> queue, loop = FairQueue(), asyncio.new_event_loop()
    >>> job = lambda address, table: Job(b"", MOVE, address, table, loop.create_future())
    >>> for address, table in [("a", "t1"), ("a", "t1"), ("a", "t2"), ("b", "t3")]:
    ...     queue.push(job(address, table))
    >>> [(j.address, j.table) for j in iter(queue.pop, None)]
    [('a', 't1'), ('b', 't3'), ('a', 't2'), ('a', 't1')]
    >>> loop.close()
    """

    def __init__(self) -> None:
        self.addresses: OrderedDict[str, OrderedDict[str, deque[Job]]] = OrderedDict()
        self.waiting: dict[str, int] = {MOVE: 0, HINT: 0, BACKGROUND: 0}

    def push(self, job: Job) -> None:
        tables = self.addresses.setdefault(job.address, OrderedDict())
        tables.setdefault(job.table, deque()).append(job)
        self.waiting[job.kind] += 1

    def pop(self, kinds: frozenset[str] = ALL_KINDS) -> Job | None:
        """The next job of ``kinds`` in turn; a background job only while no other waits."""
        if self.waiting[MOVE] + self.waiting[HINT]:
            kinds -= {BACKGROUND}
        for address, tables in self.addresses.items():
            for table, jobs in tables.items():
                job = next((j for j in jobs if j.kind in kinds), None)
                if job is None:
                    continue
                jobs.remove(job)
                self.waiting[job.kind] -= 1
                tables.move_to_end(table)  # this table's turn is over
                if not jobs:
                    del tables[table]
                self.addresses.move_to_end(address)  # and this address's
                if not tables:
                    del self.addresses[address]
                return job
        return None


class Workers:
    """The server's compute pool: a fair queue in front of a backend's slots."""

    def __init__(self, settings: Settings, backend: Backend | None = None) -> None:
        self.settings = settings
        self.backend = backend or make_backend(settings)
        self.queue = FairQueue()
        self.running: dict[str, int] = {MOVE: 0, HINT: 0, BACKGROUND: 0}
        #: hint and coach jobs at most running at once: moves always keep a slot
        self.hint_workers = max(1, min(settings.hint_workers, self.backend.slots - 1))
        self.hint_slots = settings.hint_workers + settings.hint_queue
        self.closed = False
        self.unpicklable = 0  # jobs run in the server's own threads (their state cannot travel)

    async def warm(self) -> None:
        """Start every worker and import the engine there, so the first bot move after a
        start does not wait a second for a process to spawn."""
        await asyncio.gather(
            *(self.bot(_warm_up, WARM_SECONDS) for _ in range(self.backend.slots)),
            return_exceptions=True,
        )

    @property
    def hints_taken(self) -> int:
        """Hints (and reviews' steps) running or waiting now."""
        waiting = self.queue.waiting[HINT] + self.queue.waiting[BACKGROUND]
        return waiting + self.running[HINT] + self.running[BACKGROUND]

    async def bot(
        self,
        work: Callable[..., R],
        *args: object,
        address: str = "",
        table: str = "",
        **kwargs: object,
    ) -> R:
        """A move (a bot's, the move clock's): always queued, in turn."""
        return await self._submit(MOVE, address, table, work, args, kwargs)

    async def hint(
        self,
        work: Callable[..., R],
        *args: object,
        background: bool = False,
        address: str = "",
        table: str = "",
        **kwargs: object,
    ) -> R:
        """A player's hint or coach note (refused as busy past the hint queue), or a
        ``background`` job (a review's step: runs only while nobody else's job waits, and
        is refused as busy otherwise, for its caller to try again later)."""
        if background:
            if self.queue.waiting[MOVE] + self.queue.waiting[HINT] or not self._idle_slot():
                raise HintsBusy
        elif self.hints_taken >= self.hint_slots:
            raise HintsBusy
        kind = BACKGROUND if background else HINT
        try:
            return await self._submit(kind, address, table, work, args, kwargs)
        except BrokenProcessPool:
            raise HintsBusy from None

    async def background(
        self, work: Callable[..., R], *args: object, address: str = "", **kwargs: object
    ) -> R:
        """Work no game waits for (checking an uploaded record): it waits for an idle slot
        behind every move and hint, in turn by address, and is refused as busy when
        :data:`BACKGROUND_QUEUE` such jobs wait already."""
        if self.queue.waiting[BACKGROUND] >= BACKGROUND_QUEUE:
            raise HintsBusy
        try:
            return await self._submit(BACKGROUND, address, "", work, args, kwargs)
        except BrokenProcessPool:
            raise HintsBusy from None

    def _idle_slot(self) -> bool:
        return sum(self.running.values()) < self.backend.slots

    async def _submit(
        self,
        kind: str,
        address: str,
        table: str,
        work: Callable[..., R],
        args: tuple[object, ...],
        kwargs: dict[str, object],
    ) -> R:
        # pickled now, not later: meanwhile the event loop goes on changing the table
        try:
            payload = pickle.dumps((work, args, kwargs), pickle.HIGHEST_PROTOCOL)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            # work that cannot travel (a lambda, a state holding an open resource): worked
            # out here, in a thread, rather than failing the table's driver
            if not self.unpicklable:
                log.warning("a %s job cannot be sent to a worker, run here: %s", kind, error)
            self.unpicklable += 1
            return await asyncio.to_thread(work, *args, **kwargs)
        future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
        self.queue.push(Job(payload, kind, address, table, future))
        self._dispatch()
        return cast(R, await future)

    def _dispatch(self) -> None:
        while not self.closed and self._idle_slot():
            hints_full = self.running[HINT] + self.running[BACKGROUND] >= self.hint_workers
            job = self.queue.pop(frozenset({MOVE}) if hints_full else ALL_KINDS)
            if job is None:
                return
            if job.future.cancelled():  # its caller stopped waiting (a table stopped)
                continue
            self.running[job.kind] += 1
            asyncio.get_running_loop().create_task(self._execute(job))

    async def _execute(self, job: Job) -> None:
        try:
            result = await self.backend.run(job.payload)
        except BaseException as error:
            if not job.future.done():
                job.future.set_exception(error)
            if isinstance(error, asyncio.CancelledError):
                raise
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            self.running[job.kind] -= 1
            self._dispatch()

    def close(self) -> None:
        self.closed = True
        self.backend.close()
