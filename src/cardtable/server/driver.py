"""A table's driver: what happens at a table without a client's message.

One task per table runs the bots (their search in the compute pool, on a copy of the state,
so other tables keep playing), the 7 słów hourglass and soft cap, the optional move clock
(whose default move is the ``greedy`` bot's choice) and the end of a round break. It waits
on the table's ``changed`` event between things to do, and thinks only while a person sits
at the table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from cardtable.agents import make_agent
from cardtable.agents.base import Agent, Thinking
from cardtable.core.actions import Action
from cardtable.core.errors import CardtableError
from cardtable.core.protocols import Timed
from cardtable.core.state import CLOCK
from cardtable.learn import ScriptedBot
from cardtable.server.store import StorageUnavailable
from cardtable.server.table_facts import Compute, TableFacts
from cardtable.server.workers import bot_move

log = logging.getLogger("cardtable.server")

#: whether a state class is Timed: a runtime protocol check looks up every member each
#: time, and every frame asks (the members are the class's, so one answer per class)
_TIMED: dict[type, bool] = {}


def timed(state: object) -> Timed | None:
    """``state`` as a :class:`Timed` one, or None when its game runs no clock."""
    kind = type(state)
    known = _TIMED.get(kind)
    if known is None:
        known = _TIMED[kind] = isinstance(state, Timed)
    return state if known else None  # type: ignore[return-value]


JSON = dict[str, Any]
Due = Callable[[], Awaitable[None]]

#: the move clock's move for a person whose time ran out: what a careful player would play
DEFAULT_MOVE_BOT = "greedy"


class DrivenTable(TableFacts, Protocol):
    """What the driver reads of a live table beyond its facts, and the moves it makes."""

    @property
    def hub(self) -> Compute: ...
    @property
    def last_change(self) -> float: ...
    @property
    def owner(self) -> str: ...
    async def act(
        self, seat: int, action: Action, expect_version: int | None = None, exact: bool = False
    ) -> None: ...
    async def round_break_over(self) -> None: ...


class Driver:
    """The task that plays a table's bots and runs its clocks."""

    def __init__(self, table: DrivenTable) -> None:
        self.table = table
        self.changed = asyncio.Event()  # set whenever something a bot or clock waits on moved
        self.task: asyncio.Task[None] | None = None
        self.agents: dict[int, Agent] = {
            n: self._agent(s.kind, n) for n, s in enumerate(table.roster.seats) if s.is_bot
        }
        self.timer_key: tuple[Any, ...] | None = None
        self.timer_started = table.last_change
        self.bot_ready: dict[int, float] = {}
        self.round_key: Any = None

    def _agent(self, kind: str, seat: int) -> Agent:
        lesson = self.table.lesson
        if lesson is not None and kind == f"bot:{ScriptedBot.name}":
            return ScriptedBot(lesson, seat)
        return self.new_agent(kind.removeprefix("bot:"), seat)

    def new_agent(self, bot: str, seat: int) -> Agent:
        """``bot`` for ``seat``, seeded by the table's deal and the seat."""
        row = self.table.row
        return make_agent(bot, row.game, seed=(row.seed + 7919 * seat) % 2**31)

    def seat_bot(self, seat: int, bot: str) -> None:
        self.agents[seat] = self.new_agent(bot, seat)

    def poke(self) -> None:
        """Something changed: look again at what to do next (at a table of people alone,
        with no clock, nothing ever is: its task sleeps on, and a move costs no wake)."""
        if self.may_have_work():
            self.changed.set()

    def may_have_work(self) -> bool:
        """Whether anything could be due: a bot, a clock (the game's or the move clock), or
        a round break's countdown. A table's bots, clock and breaks come only with a change
        that pokes it, so a poke skipped here is never one the task was waiting for."""
        table = self.table
        return bool(
            self.agents
            or table.row.move_seconds
            or table.round_break is not None
            or timed(table.state) is not None
        )

    def new_round(self) -> None:
        """The next round starts now: clocks count from this moment."""
        self.timer_key = None
        self.round_key = None

    # -- the task --------------------------------------------------------------------------
    def start(self) -> None:
        if self.task is None and not self.table.finished:
            self.task = asyncio.get_running_loop().create_task(
                self._drive(), name=f"table-{self.table.id}"
            )

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None

    async def _drive(self) -> None:
        table = self.table
        while not table.finished:
            self.changed.clear()
            due, when = self.next_event()
            if when is None:
                await self.changed.wait()
                continue
            wait = when - time.time()
            if wait > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.changed.wait(), wait)
                if self.changed.is_set():
                    continue
            assert due is not None
            try:
                await due()
            except StorageUnavailable:  # the move was not made: try again a little later
                await asyncio.sleep(table.hub.settings.storage_retry_seconds)
            except CardtableError as error:  # the game moved on meanwhile: look again
                log.debug("table %s: %s", table.id, error)
            except Exception:  # a bot bug must not stop the table
                log.exception("table %s: driver step failed", table.id)
                await asyncio.sleep(1.0)

    # -- what is due, and when ---------------------------------------------------------------
    def humans_to_move(self) -> list[int]:
        roster = self.table.roster
        return [s for s in sorted(self.table.state.to_move) if s >= 0 and not roster.is_bot(s)]

    def timer(self) -> tuple[str, int] | None:
        """The clock that runs now, in a game whose spec declares one."""
        state = timed(self.table.state)
        return state.timer if state is not None else None

    def real_time(self) -> bool:
        """Play runs in real time (7 słów's writing): bots take their own time, and the
        move clock stays off."""
        state = timed(self.table.state)
        return state is not None and state.real_time

    def timer_deadline(self) -> float | None:
        timer = self.timer()
        state = timed(self.table.state)
        if timer is None or state is None:
            self.timer_key = None
            return None
        key = (self.table.state.rounds_finished, timer)  # a new round or a new kind: a new timer
        if key != self.timer_key:
            self.timer_key, self.timer_started = key, self.table.last_change
        return self.timer_started + timer[1] + state.grace_seconds(timer[0])

    def clock(self) -> JSON | None:
        """The clock a page shows: the game's own timer, else the move clock."""
        table = self.table
        if table.round_break is not None:  # no clock runs between rounds
            return None
        deadline = self.timer_deadline()
        timer = self.timer()
        if deadline is not None and timer is not None:
            kind, seconds = timer
            return {"kind": kind, "seconds": seconds, "deadline": deadline}
        if table.row.move_seconds and self.humans_to_move():
            return {
                "kind": "move",
                "seconds": table.row.move_seconds,
                "deadline": table.last_change + table.row.move_seconds,
            }
        return None

    def _real_time_bot_ready(self, seat: int, deadline: float | None) -> float:
        table = self.table
        round_key = table.state.rounds_finished
        if round_key != self.round_key:
            self.round_key, self.bot_ready = round_key, {}
        if seat not in self.bot_ready:
            agent = self.agents[seat]
            think = agent.think_seconds() if isinstance(agent, Thinking) else 1.0
            self.bot_ready[seat] = table.last_change + think * table.hub.settings.think_scale
        ready = self.bot_ready[seat]
        if deadline is not None:  # a bot finishes before the clock runs out
            ready = min(ready, deadline - 2 * table.hub.settings.think_scale)
        return ready

    def next_event(self) -> tuple[Due | None, float | None]:
        """The next thing to do without a client, and when."""
        table = self.table
        if table.round_break is not None:  # nothing runs until people have seen the round
            return table.round_break_over, table.round_break.deadline
        if table.roster.waiting_for():  # nor before everyone invited has sat down
            return None, None
        events: list[tuple[float, Due]] = []
        deadline = self.timer_deadline()
        if deadline is not None:
            events.append((deadline, self._time_up))
        writing = self.real_time()
        # bots think only for people: a table made and left (or made by a script to keep
        # the bots busy) costs no search until a person sits at it
        thinking = table.roster.person_present()
        for seat in sorted(table.state.to_move):
            if seat < 0 or not table.roster.is_bot(seat) or not thinking:
                continue
            agent = self.agents.get(seat)
            if isinstance(agent, ScriptedBot) and agent.waits(table.state):
                continue  # a lesson's opponent waits for the learner
            if writing:
                when = self._real_time_bot_ready(seat, deadline)
            else:
                when = table.last_change + table.hub.settings.bot_delay
            events.append((when, self._bot_move_for(seat)))
        humans = self.humans_to_move()
        if table.row.move_seconds and humans and not writing:
            when = table.last_change + table.row.move_seconds
            events.append((when, self._default_move_for(humans[0])))
        if not events:
            return None, None
        when, due = min(events, key=lambda e: e[0])
        return due, when

    # -- moves without a client ----------------------------------------------------------------
    async def _time_up(self) -> None:
        table = self.table
        assert isinstance(table.state, Timed)
        await table.act(CLOCK, table.state.time_up(), expect_version=table.version)

    async def compute_move(self, bot: str, seat: int) -> tuple[int, Action]:
        """``bot``'s move for ``seat`` from the compute pool, and the version it is for."""
        table = self.table
        agent = self.agents.get(seat)
        version, snapshot = table.version, table.state.clone()
        if isinstance(agent, ScriptedBot):  # a lesson's script: no search, nothing to send
            return version, agent.choose(snapshot, seat)
        seed = (table.row.seed + 7919 * seat + 104729 * version) % 2**31
        deadline = time.time() + table.hub.settings.bot_seconds
        work = (bot, table.row.game, seed, snapshot, seat, deadline)
        action = await table.hub.workers.bot(bot_move, *work, address=table.owner, table=table.id)
        return version, action

    def _bot_move_for(self, seat: int) -> Due:
        async def move() -> None:
            writing = self.real_time()
            bot = self.table.roster.seats[seat].kind.removeprefix("bot:")
            # a word bot writes, then flips or locks in the same breath
            while True:
                version, action = await self.compute_move(bot, seat)
                await self.table.act(seat, action, expect_version=version)
                if not (writing and seat in self.table.state.to_move and self.real_time()):
                    return

        return move

    def _default_move_for(self, seat: int) -> Due:
        async def move() -> None:
            version, action = await self.compute_move(DEFAULT_MOVE_BOT, seat)
            # another seat's move meanwhile restarted this seat's clock: then it is not due
            await self.table.act(seat, action, expect_version=version, exact=True)

        return move
