"""Workers for the engine's slow calls: threads for bots (and the move clock's default move),
processes for players' hints. The pools never share a queue, so a bot's move never waits
behind hints; hints run in their own processes, so a flood of them does not hold the
interpreter lock the bots and the event loop need either (the state is sent pickled, a few
KB); and the hint pool is bounded: past its queue a hint is refused, not queued."""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
import os
import pickle
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar, cast

from cardtable.server.settings import Settings

R = TypeVar("R")


def _unpickled(payload: bytes) -> object:
    """Run the work a hint was sent as (in the hint process)."""
    work, args, kwargs = pickle.loads(payload)
    return work(*args, **kwargs)


def _start_hint_worker(niceness: int) -> None:
    """A hint process gives way to the server and its bots (niced), and ends when its
    server has gone, even by ``kill -9``: nobody else would ever stop it."""
    os.nice(niceness)
    threading.Thread(
        target=_exit_when_orphaned, args=(os.getppid(),), name="orphan-watch", daemon=True
    ).start()


def _exit_when_orphaned(parent: int, every: float = 0.5) -> None:
    while os.getppid() == parent:  # an orphan is handed to another parent (init)
        time.sleep(every)
    os._exit(0)


class HintsBusy(Exception):
    """Every hint worker is busy and the queue is full."""


class Workers:
    def __init__(self, settings: Settings) -> None:
        self.bots = ThreadPoolExecutor(settings.bot_workers, thread_name_prefix="bot")
        self.hint_workers = settings.hint_workers
        self.hints = self._hint_pool()
        self.hint_slots = settings.hint_workers + settings.hint_queue
        self.hints_taken = 0

    def _hint_pool(self) -> ProcessPoolExecutor:
        # spawned, not forked: a fork of a process with threads may copy a lock held mid-way;
        # niced, and watching their server (_start_hint_worker)
        return ProcessPoolExecutor(
            self.hint_workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_hint_worker,
            initargs=(10,),
        )

    async def bot(self, work: Callable[..., R], *args: object) -> R:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.bots, functools.partial(work, *args))

    async def hint(
        self, work: Callable[..., R], *args: object, background: bool = False, **kwargs: object
    ) -> R:
        """``work`` in a hint process. A ``background`` job (a review's step) runs only on
        a worker nobody waits for and never queues: the queue is kept for players' hints."""
        if self.hints_taken >= (self.hint_workers if background else self.hint_slots):
            raise HintsBusy
        self.hints_taken += 1
        pool = self.hints
        try:
            # Pickled here, not by the pool's feeder thread: meanwhile the event loop and the
            # bot threads go on changing the table, and a state shares its game with them.
            payload = pickle.dumps((work, args, kwargs), pickle.HIGHEST_PROTOCOL)
            loop = asyncio.get_running_loop()
            result = await loop.run_in_executor(pool, _unpickled, payload)
            return cast(R, result)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh, once
            if self.hints is pool:
                self.hints = self._hint_pool()
            raise HintsBusy from None
        finally:
            self.hints_taken -= 1

    def close(self) -> None:
        for pool in (self.bots, self.hints):
            pool.shutdown(wait=False, cancel_futures=True)
