"""Coach notes during play and the review after a game, worked out in the hint workers.

A coached seat's move is judged after it was made (play never waits): the state before
it goes to a hint worker, which searches it from the seat's information set
(:mod:`cardtable.agents.coach`); a clearly worse move gets a note, sent to that seat only
and kept for its next frames. The review of a finished game judges each of a seat's
moves the same way, one worker job per move (so the page can show how far it got),
and is kept per table and seat for as long as the server runs. It answers the curve of the
seat's chances after each of its moves (``points``), the swings among them with the better
move and its reasons (``moves``), and what the curve says of the game (``reading``).
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardtable.agents.coach import (
    Judgement,
    behind,
    coach_budget,
    judge,
    read_curve,
    review_steps,
    reviewed,
)
from cardtable.core.actions import Action
from cardtable.core.game import Capability, Game
from cardtable.core.record import GameRecord
from cardtable.core.state import State
from cardtable.locales import LANGUAGES
from cardtable.server.protocol import Text, encode
from cardtable.server.seat_names import Seat, seat_labels
from cardtable.server.table_facts import Compute, TableFacts
from cardtable.server.workers import HintsBusy


class CoachedSeat(Seat, Protocol):
    @property
    def coach(self) -> bool: ...
    @property
    def is_bot(self) -> bool: ...


class Listener(Protocol):
    """A connected client (a seat or a spectator)."""

    seat: int | None

    async def send_text(self, text: Text) -> None: ...
    async def close(self, code: str) -> None: ...


class CoachedTable(TableFacts, Protocol):
    """What coaching asks of a live table beyond its facts (server.tables.LiveTable is one)."""

    @property
    def game(self) -> Game: ...
    @property
    def hub(self) -> Compute: ...
    @property
    def seats(self) -> Sequence[CoachedSeat]: ...
    @property
    def listeners(self) -> Collection[Listener]: ...
    @property
    def owner(self) -> str: ...
    def record_json(self) -> JSON: ...


log = logging.getLogger("cardtable.server")
JSON = dict[str, Any]
#: how long a review job waits when every hint worker is busy before it asks again
BUSY_WAIT = 0.5
#: how often a coach note is asked of a busy pool before it is given up (waits double)
NOTE_ATTEMPTS = 4
#: judgements whose outcome a table keeps (Coach.outcomes)
OUTCOMES_KEPT = 32
#: reviews kept in memory; past this the oldest finished ones are forgotten (asked again,
#: one is worked out afresh)
KEPT_REVIEWS = 1000


def said(judged: Judgement, seats: Sequence[Seat]) -> JSON:
    """A judgement in every language, the seats called in each (the page picks the
    reader's, and switches)."""
    texts = {lang: judged.to_json(lang, seat_labels(seats, lang)) for lang in LANGUAGES}
    return {**texts["en"], "texts": {lang: t["better_text"] for lang, t in texts.items()},
            "played_texts": {lang: t["played_text"] for lang, t in texts.items()}}  # fmt: skip


def curve_point(number: int, judged: Judgement, swing: bool) -> JSON:
    """One point of the review's curve: the seat's chances before and after move ``number``
    (``swing``: one of the moves the review shows)."""
    return {"move": number, "value": round(judged.value, 3), "before": round(judged.before, 3),
            "swing": swing}  # fmt: skip


class Coach:
    """The notes for a table's coached seats."""

    def __init__(self, table: CoachedTable) -> None:
        self.table = table
        self.notes: dict[int, JSON] = {}  # seat -> its last note
        self.tasks: set[asyncio.Task[None]] = set()
        #: what became of the last moves judged, (version, outcome): a note that did not
        #: come says why here (busy pool, failure, not clearly worse, a later note first)
        self.outcomes: deque[tuple[int, str]] = deque(maxlen=OUTCOMES_KEPT)

    def wants(self, seat: int) -> bool:
        """Whether ``seat``'s moves are judged (a person's, coached, in a game with hints)."""
        seats = self.table.seats
        if not 0 <= seat < len(seats) or not seats[seat].coach or seats[seat].is_bot:
            return False
        return self.table.game.spec.has(Capability.HINTS)  # else there are no reasons to give

    def before(self, seat: int, state: State | None) -> State | None:
        """The state to judge a move from, when ``seat`` is coached (else None)."""
        return state if state is not None and self.wants(seat) else None

    def stop(self) -> None:
        """The table stops (evicted, or the server closes): the notes being worked out go."""
        for task in list(self.tasks):
            task.cancel()

    def judge_later(self, seat: int, before: State, action: Action, version: int) -> None:
        task = asyncio.get_running_loop().create_task(self._judge(seat, before, action, version))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _judge(self, seat: int, before: State, action: Action, version: int) -> None:
        table = self.table
        budget = coach_budget(table.row.game, table.hub.settings.coach_iterations)
        for attempt in range(NOTE_ATTEMPTS):
            try:
                judged = await table.hub.workers.hint(
                    judge, before, seat, action, budget, address=table.owner, table=table.id
                )
                break
            except HintsBusy:  # a full queue, or a worker lost (the pool starts afresh)
                log.info("table %s: no worker free for a coach note (try %d)", table.id, attempt)
                if attempt + 1 < NOTE_ATTEMPTS:
                    await asyncio.sleep(BUSY_WAIT * 2**attempt)
            except Exception as error:  # a note is a nicety: it must never stop the table
                log.exception("table %s: coach note failed", table.id)
                self.outcomes.append((version, f"failed: {error!r}"))
                return
        else:
            self.outcomes.append((version, "no worker free"))
            return
        older = self.notes.get(seat)
        if older is not None and older["version"] > version:
            self.outcomes.append((version, "a later move's note came first"))
            return
        worse = judged.clearly_worse
        self.outcomes.append((version, f"loss {judged.loss:.3f}, clearly worse: {worse}"))
        if not worse:
            return
        note = {"type": "coach", "version": version, **said(judged, table.seats)}
        self.notes[seat] = note
        text = encode(note)
        for listener in [one for one in table.listeners if one.seat == seat]:
            try:
                await listener.send_text(text)
            except Exception as error:  # a socket gone meanwhile
                log.debug("coach note not sent: %r", error)


@dataclass
class ReviewJob:
    """A review being worked out (or done): how far it got, and the moves it found."""

    total: int = 0
    done: int = 0
    moves: list[JSON] = field(default_factory=list)  # the swings, said in every language
    points: list[JSON] = field(default_factory=list)  # the curve: one per judged move
    reading: JSON | None = None  # what the curve says (agents.coach.Reading)
    words: list[JSON] = field(default_factory=list)  # 7 słów: the solver's words per round
    ready: bool = False
    failed: bool = False

    def to_json(self) -> JSON:
        status = "failed" if self.failed else "ready" if self.ready else "working"
        return {
            "status": status,
            "done": self.done,
            "total": self.total,
            "moves": self.moves,
            "points": self.points,
            "reading": self.reading,
            "words": self.words,
        }


class Reviews:
    """Every review of one server, per table and seat."""

    def __init__(self, hub: Compute) -> None:
        self.hub = hub
        self.jobs: dict[tuple[str, int], ReviewJob] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    def running(self, table: CoachedTable, seat: int) -> bool:
        """Whether asking for this review costs nothing new (it is made or being made)."""
        job = self.jobs.get((table.id, seat))
        return job is not None and not job.failed

    def ask(self, table: CoachedTable, seat: int, address: str = "") -> ReviewJob:
        """The review of ``seat``'s game at ``table`` (started on the first ask)."""
        key = (table.id, seat)
        job = self.jobs.get(key)
        if job is None or job.failed:
            self._forget_old()
            job = self.jobs[key] = ReviewJob()
            work = self._work(table, seat, job, address or table.owner)
            task = asyncio.get_running_loop().create_task(work)
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        return job

    def _forget_old(self) -> None:
        done = [key for key, job in self.jobs.items() if job.ready or job.failed]
        for key in done[: max(0, len(self.jobs) - KEPT_REVIEWS + 1)]:
            del self.jobs[key]

    async def _work(self, table: CoachedTable, seat: int, job: ReviewJob, address: str) -> None:
        try:
            record = GameRecord.from_json(table.record_json())
            extras = table.game.spec.optional(Capability.REVIEW)
            if extras is not None:  # what the game itself says of the finished game
                job.words = await asyncio.to_thread(extras, table.state, seat)
            # moves are judged where the game explains them (the hint reasons)
            judges = table.game.spec.has(Capability.HINTS)
            steps = await asyncio.to_thread(review_steps, record, seat) if judges else []
            job.total = len(steps)
            budget = coach_budget(table.row.game, self.hub.settings.coach_iterations)
            judged: list[tuple[int, Judgement]] = []
            for step in steps:
                while True:
                    try:
                        found = await self.hub.workers.hint(
                            judge, step.state, seat, step.action, budget,
                            background=True, address=address, table=table.id,
                        )  # fmt: skip
                        break
                    except HintsBusy:
                        await asyncio.sleep(BUSY_WAIT)
                judged.append((step.number, found))
                job.done += 1
            reading = read_curve(judged, behind(table.state, seat))
            keep = set(reviewed(judged, reading))
            job.points = [curve_point(number, found, number in keep) for number, found in judged]
            job.reading = reading.to_json()
            job.moves = [
                {"move": number, "seat": seat, **said(found, table.seats)}
                for number, found in judged
                if number in keep
            ]
            job.ready = True
        except Exception:
            log.exception("table %s: the review of seat %d failed", table.id, seat)
            job.failed = True
