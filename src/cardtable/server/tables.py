"""Live tables: the server owns each game's state; seats and spectators get computed views.

A :class:`LiveTable` is the table's authority: it validates every action with the engine,
writes it to the store, applies it and has every listener told. What it delegates, each
part knowing no particular game (boardgame.io's master, flow and transport):

- :class:`~cardtable.server.roster.Roster`: who sits where, their keys and presence;
- :class:`~cardtable.server.driver.Driver`: what happens without a client (bots, clocks);
- :class:`~cardtable.server.frames.Frames`: each seat's view, and sending it;
- :class:`~cardtable.server.coaching.Coach`: notes on a coached seat's moves.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from sqlalchemy.exc import IntegrityError

from cardtable.agents.hints import hint
from cardtable.core.actions import Action
from cardtable.core.errors import CardtableError, IllegalAction
from cardtable.core.game import Capability, load
from cardtable.core.state import State
from cardtable.learn import LESSON_PRESET, lesson_of, refusal
from cardtable.locales import LANGUAGES
from cardtable.server.coaching import Coach, Listener
from cardtable.server.driver import Driver
from cardtable.server.errors import TableError
from cardtable.server.fairness import Signer
from cardtable.server.frames import Frames
from cardtable.server.roster import Roster, SeatInfo, hash_key, new_key
from cardtable.server.round_break import RoundBreak
from cardtable.server.seat_names import seat_labels
from cardtable.server.store import StorageUnavailable, Store, StoredMove, TableRow
from cardtable.server.table_facts import Compute
from cardtable.server.workers import HintsBusy

log = logging.getLogger("cardtable.server")

JSON = dict[str, Any]
#: what a copy of a table that another process of a cluster took over answers
MOVED = "this table moved to another server process"

__all__ = ["MOVED", "LiveTable", "SeatInfo", "TableError"]


class TableHub(Compute, Protocol):
    """What a table asks of the server that holds it beyond its compute (server.hub.Hub is
    one)."""

    @property
    def store(self) -> Store: ...
    def signer(self) -> Signer: ...
    def moved_elsewhere(self, table: LiveTable) -> None: ...
    async def started(self, table: LiveTable) -> None: ...


async def durable(written: asyncio.Future[float]) -> tuple[float, bool]:
    """A move's time once its write is committed, and whether this task was cancelled
    meanwhile: the write goes on regardless, so the move is applied all the same (a table
    never parts from its log) and the cancellation raised after."""
    cancelled = False
    while True:
        try:
            return await asyncio.shield(written), cancelled
        except asyncio.CancelledError:
            if written.cancelled():
                raise
            cancelled = True


class LiveTable:
    """One game in progress (or finished) held in memory, rebuilt from the store."""

    def __init__(self, row: TableRow, moves: Sequence[StoredMove], hub: TableHub) -> None:
        self.hub = hub
        self.id = row.id
        self.row = row
        self.game = load(row.game, **row.options)
        #: a guided first game (``/learn/GAME``): its fixed deal, scripted bots, its coach
        self.lesson = lesson_of(row.game) if row.preset == LESSON_PRESET else None
        if self.lesson is not None:
            self.state: State = self.lesson.new_state()
        else:
            self.state = self.game.new_state(seed=row.seed)
        for move in moves:
            self.state.apply(move.seat, self.game.parse_action(move.action))
        self.version = len(moves)
        self.roster = Roster.from_rows(row.seats)
        self._choice_since = [self.version] * len(self.roster)  # see choice_since()
        self.last_change = moves[-1].at if moves else row.created_at
        self.last_seen = time.time()  # when the last listener left (eviction counts from it)
        self.human_moved = any(m.seat >= 0 and not self.roster.is_bot(m.seat) for m in moves)
        self.lock = asyncio.Lock()
        self.creator: str | None = None  # the client address that made it (in memory only)
        self.hinting: set[int] = set()
        self.round_break: RoundBreak | None = None  # a round just ended: waiting for people
        self.coach = Coach(self)
        self.frames = Frames(self)
        self.driver = Driver(self)

    @property
    def seats(self) -> list[SeatInfo]:
        return self.roster.seats

    @property
    def listeners(self) -> set[Listener]:
        return self.frames.listeners

    @property
    def finished(self) -> bool:
        return self.state.is_over

    @property
    def owner(self) -> str:
        """Whose turn a job of this table takes in the compute pool: the address that made
        it (a table restored after a restart stands for itself)."""
        return self.creator or self.id

    def clock(self) -> JSON | None:
        return self.driver.clock()

    def record_json(self) -> JSON:
        return self.frames.record_json()

    def start(self) -> None:
        self.driver.start()

    async def stop(self) -> None:
        self.coach.stop()
        await self.frames.stop()
        await self.driver.stop()

    async def _changed(self) -> None:
        """Something everyone sees changed: the driver looks again, every listener hears."""
        self.driver.poke()
        await self.frames.broadcast()

    # -- seats ---------------------------------------------------------------------------
    def claim(self, seat: int | None) -> tuple[int, str]:
        """Give a free human seat of a public table to whoever asks first: a fresh key,
        and the seat held for that key's socket for ``claim_hold_seconds``. The seat is
        taken when the socket comes (a claim alone starts no game); a claim whose socket
        never comes frees the seat again. A private table's seats are invitations: only
        their invite keys take them."""
        if not self.row.public:
            raise TableError("this table's seats are taken with their invite links", "forbidden")
        seat = self.roster.free_seat(seat)
        key = new_key()
        rows = self.roster.rows()
        rows[seat] = {**rows[seat], "key": hash_key(key)}
        self._store_seats(rows)  # saved first: a refused write gives no key
        self.seats[seat].key_hash = hash_key(key)
        self.seats[seat].held_until = time.time() + self.hub.settings.claim_hold_seconds
        return seat, key

    async def seat_taken(self) -> None:
        """A seat was taken from the lobby: everyone hears; the last one starts the game."""
        if self.roster.waiting_for():
            await self.frames.broadcast_presence()
            return
        self.last_change = time.time()
        await self._changed()

    def _save_seats(self) -> None:
        self._store_seats(self.roster.rows())

    def _store_seats(self, rows: list[dict[str, Any]]) -> None:
        """Stores ``rows`` as the seats; in a cluster only while this process holds the
        table: a copy another process took over raises "moved" (nothing it changed was
        stored) and goes, as after a refused move."""
        node = self.hub.settings.node
        if not self.hub.store.set_seats(self.id, rows, node) and node:
            raise self._moved_elsewhere()

    def _moved_elsewhere(self) -> TableError:
        """Another process holds this table now: this copy goes; the error to answer."""
        self.hub.moved_elsewhere(self)
        return TableError(MOVED, "moved")

    async def rename(self, seat: int, name: str) -> str:
        """The person at ``seat`` chose a name (numbered if another seat has it)."""
        if not self.roster.waiting_for():
            raise TableError("names are chosen before the game starts", "started")
        named = self.roster.rename(seat, name)
        self._save_seats()
        await self.frames.broadcast()
        return named

    def _seat_bot(self, seat: int, bot: str, name: str = "") -> None:
        self.driver.seat_bot(seat, bot)  # first: an unknown bot raises and changes no seat
        self.roster.seat_bot(seat, bot, name)

    async def fill_with_bots(self, bot: str, names: Mapping[int, str]) -> list[int]:
        """The seats still waiting for a person get bots (``names``: what to call each, if
        not its default), and the game starts."""
        filled = self.roster.waiting_for()
        for n in filled:
            self._seat_bot(n, bot, names.get(n, ""))
        if filled:
            self._save_seats()
            self.last_change = time.time()  # the bots' delay counts from the start
            await self._changed()
        return filled

    async def hand_to_bot(self, seat: int, bot: str) -> None:
        """The person at ``seat`` has left the game: ``bot`` plays on in their place (the
        host's choice; their seat key no longer opens the seat). Only a seat a person took
        and nobody holds now, never the host's own."""
        if self.finished:
            raise TableError("the game is over", "finished")
        info = self.seats[seat] if 0 <= seat < len(self.seats) else None
        if info is None or info.is_bot or not info.claimed or seat == self.roster.host:
            raise TableError(f"seat {seat + 1} is not a seat a person left", "no_seat")
        if info.connected:
            raise TableError(f"the person at seat {seat + 1} is still at the table", "no_seat")
        wait = self.hub.settings.hand_to_bot_seconds - self.roster.empty_for(seat)
        if wait > 0:
            raise TableError(
                f"seat {seat + 1} may be given to a bot in {math.ceil(wait)} s: its person may "
                "be coming back",
                "too_early",
            )
        async with self.lock:
            self._seat_bot(seat, bot)
            if self.round_break is not None:  # a bot has no round result to look at
                self.round_break.press(seat)
                if self.round_break.over:
                    self._end_round_break()
        self._save_seats()
        await self._changed()

    # -- listeners -----------------------------------------------------------------------
    async def join(self, listener: Listener) -> None:
        """The new listener gets the whole state; the others hear only of a seat that came."""
        self.frames.listeners.add(listener)
        waited = bool(self.roster.waiting_for())
        seat_came = False
        if listener.seat is not None:
            info = self.seats[listener.seat]
            info.connected += 1
            seat_came = info.connected == 1
            if not info.claimed:
                info.claimed = True
                try:
                    self._save_seats()
                except StorageUnavailable:  # taken in memory; saved with the next seat write
                    log.warning("table %s: seat %d claimed but not saved", self.id, listener.seat)
                except TableError:  # another process holds it: this copy and socket go
                    return
        if waited and not self.roster.waiting_for():  # the last person sat down: it starts
            self.last_change = time.time()
            await self._changed()
            return
        if seat_came:  # the bots may think again (they wait for a person)
            self.driver.poke()
        await self.frames.send([listener], self.frames.frames())
        if seat_came:
            await self.frames.broadcast_presence(besides=listener)

    async def leave(self, listener: Listener) -> None:
        self.frames.listeners.discard(listener)
        if not self.frames.listeners:
            self.last_seen = time.time()
        if listener.seat is not None:
            self.seats[listener.seat].connected -= 1
            if self.seats[listener.seat].connected == 0:
                self.seats[listener.seat].empty_since = time.time()
                await self.frames.broadcast_presence()

    # -- moves ---------------------------------------------------------------------------
    def parse(self, data: Any) -> Action:
        if not isinstance(data, Mapping):
            raise IllegalAction("an action must be a JSON object with a 'type'")
        try:
            return self.game.parse_action(data)
        except CardtableError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as error:
            raise IllegalAction(f"malformed action: {error!r}") from None

    async def act(
        self, seat: int, action: Action, expect_version: int | None = None, exact: bool = False
    ) -> None:
        """Validate, persist, apply, broadcast. An illegal action raises and changes nothing.
        ``expect_version``: the frame the move was chosen from (see :meth:`choice_since`);
        ``exact``: only that very frame will do (the move clock's move for a person, which
        a move of anyone's since has restarted)."""
        async with self.lock:
            if expect_version is not None:
                oldest = self.version if exact else self.choice_since(seat)
                if not oldest <= expect_version <= self.version:
                    raise TableError("the game moved on before this action", "stale")
            self._refuse_unless_playing()
            if self.lesson is not None:  # the engine's reason first, then the coach's
                reason = refusal(self.lesson, self.state, seat, action)
            else:
                reason = self.state.illegal_reason(seat, action)
            if reason is not None:
                if expect_version is not None and expect_version < self.version:
                    # chosen on an older frame and refused now: a race (two flips at once),
                    # no mistake of the player's to tell them about
                    raise TableError("the game moved on before this action", "stale")
                raise IllegalAction(reason)
            written = self.hub.store.append_move(self.id, self.version, seat, action.to_json())
            try:
                self.last_change, cancelled = await durable(written)
            except IntegrityError:  # another process wrote this move: it holds the table
                raise self._moved_elsewhere() from None
            before, rounds = self._copy_if_needed(seat, action), self.state.rounds_finished
            coached = self.coach.before(seat, before)
            movers = self.state.to_move
            self.state.apply(seat, action)
            new_round = self.state.rounds_finished > rounds
            if before is not None and new_round and not self.finished:
                self.round_break = RoundBreak.after(
                    before, self.state, seat, action, self.roster.humans(), self.last_change,
                    self.hub.settings.round_break_seconds,
                )  # fmt: skip
            self.version += 1
            if coached is not None and not cancelled:
                # in the move's own step: whoever sees the new version sees the judgement
                # pending (or done), never a moment with neither
                self.coach.judge_later(seat, coached, action, self.version)
            self._note_choices(seat, movers, new_round)
            by_person = seat >= 0 and not self.roster.is_bot(seat)
            # the first move of a person, or the end of a game no person moved in
            started = not self.human_moved and (by_person or self.finished)
            self.human_moved = self.human_moved or by_person
            if self.finished:
                self.row.status, self.row.finished_at = "finished", self.last_change
                self.hub.store.set_fields(self.id, status="finished", finished_at=self.last_change)
        if cancelled:  # the table is being stopped: the move stands, in the log and here
            raise asyncio.CancelledError
        await self._changed()
        if started:  # after the frames: its maker may make another table now
            await self.hub.started(self)

    def _refuse_unless_playing(self) -> None:
        if self.roster.waiting_for():
            raise TableError("the game starts when every player has sat down", "waiting")
        if self.round_break is not None:
            raise TableError(
                f"round {self.round_break.round} is over: the next one starts when "
                "every player has pressed Next round",
                "round_break",
            )

    def choice_since(self, seat: int) -> int:
        """The oldest version a move of ``seat`` may have been chosen from: one sent from an
        older frame answers a situation that has changed for that seat and is stale."""
        return self._choice_since[seat] if 0 <= seat < len(self._choice_since) else self.version

    def _note_choices(self, mover: int, movers: frozenset[int], new_round: bool) -> None:
        """After a move: the seats whose situation it changed choose afresh from now on. In
        a simultaneous step (Ohanami's placing, a 7 słów race) another seat's move leaves a
        seat's own choice standing, so a move sent meanwhile is not refused as stale; the
        mover itself, a seat whose turn has just come, and everyone after the clock acted
        or a round ended do choose again (a double click stays a stale click).

        This rests on a property of every game here: in a simultaneous step, a move legal
        for a seat before and after another seat's move means the same for that seat (no
        seat takes from what another may take at once). A game with such shared choices
        must end its simultaneous step there, or this rule must learn of it."""
        everyone = mover < 0 or new_round
        for seat in range(len(self._choice_since)):
            if everyone or seat == mover or seat not in movers:
                self._choice_since[seat] = self.version

    def _copy_if_needed(self, seat: int, action: Action) -> State | None:
        """The game before ``action``, where something will look at it: the final board
        of a round the move may end, when people are at the table to see it (bots alone
        need no break), or the coach's judgement of a coached seat's move."""
        if not self.roster.humans():
            return None
        if self.coach.wants(seat) or self.state.round_may_end(seat, action):
            return self.state.clone()
        return None

    # -- round breaks --------------------------------------------------------------------
    async def next_round(self, seat: int) -> None:
        """``seat`` has seen the round's end; the last human to press starts the next round
        (a press with no break on is a late double click: nothing happens)."""
        async with self.lock:
            if self.round_break is None:
                return
            self.round_break.press(seat)
            if self.round_break.over:
                self._end_round_break()
        await self._changed()

    def _end_round_break(self) -> None:
        """The next round starts now: bots' delays and clocks count from this moment."""
        self.round_break = None
        self.last_change = time.time()
        self.driver.new_round()

    async def round_break_over(self) -> None:
        """The break's time ran out: the next round starts for everyone."""
        async with self.lock:
            if self.round_break is None:
                return
            self._end_round_break()
        await self.frames.broadcast()

    # -- hints ---------------------------------------------------------------------------
    async def practice_hint(self, seat: int) -> JSON:
        """A game without the hard bot's hints may still answer a seat practising alone (no
        other person at the table): its ``PRACTICE_HINT`` (7 słów: the solver's words)."""
        practice = self.game.spec.optional(Capability.PRACTICE_HINT)
        if practice is None:
            raise TableError(f"{self.game.spec.title} gives no hints during play", "no_hint")
        if any(s.kind == "human" for n, s in enumerate(self.seats) if n != seat):
            raise TableError("a hint here is for practice: no other person at the table", "no_hint")
        version = self.version
        found = await asyncio.to_thread(practice, self.state.clone(), seat)
        return {"type": "hint", "version": version, "action": None, "reasons": [], **found}

    async def hint(self, seat: int, lang: str, address: str = "") -> JSON:
        """What the hard bot would play for ``seat`` now, with its reasons (one at a time)."""
        if seat not in self.state.to_move or self.finished or self.round_break is not None:
            raise TableError("a hint is for the seat to move", "no_hint")
        if not self.game.spec.has(Capability.HINTS):
            return await self.practice_hint(seat)
        if seat in self.hinting:
            raise TableError("a hint is already being worked out", "busy")
        self.hinting.add(seat)
        try:
            version, snapshot = self.version, self.state.clone()
            found = await self.hub.workers.hint(
                hint, snapshot, seat, seed=version, address=address, table=self.id
            )
        except HintsBusy:
            raise TableError("every hint worker is busy: ask again in a moment", "busy") from None
        finally:
            self.hinting.discard(seat)
        # in every language too: a reader who switches language while it comes, or after,
        # reads it in the new one (the page asked in the one it had when the button was pressed)
        texts = {code: found.text(code, seat_labels(self.seats, code)) for code in LANGUAGES}
        return {
            "type": "hint",
            "version": version,
            **found.to_json(lang, seat_labels(self.seats, lang)),
            "texts": texts,
        }
