"""Live tables: the server owns each game's state; seats and spectators get computed views.

A :class:`LiveTable` validates every action with the engine, writes it to the store, applies
it, then sends each listener ``state.view(seat)`` (spectators: ``view(None)``). One driver
task per table runs what no client sends: bots (in a worker thread, on a copy of the state,
so other tables keep playing), the 7 słów hourglass and soft cap, and the optional move
clock, whose default move is the ``greedy`` bot's choice.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.agents import bot_levels, make_agent
from cardtable.agents.base import Agent, Thinking
from cardtable.agents.hints import hint
from cardtable.core.actions import Action
from cardtable.core.errors import CardtableError, IllegalAction, OptionError
from cardtable.core.game import Capability, Game, load, spec_of
from cardtable.core.state import CLOCK, State, Timed
from cardtable.learn import LESSON_PRESET, ScriptedBot, coach, lesson_of, refusal
from cardtable.server.client_options import game_for_client
from cardtable.server.coaching import Coach, Listener, Reviews
from cardtable.server.fairness import Commitment, Signer, chain_start, next_link, seal
from cardtable.server.fanout import Fanout
from cardtable.server.protocol import encode
from cardtable.server.round_break import RoundBreak
from cardtable.server.seat_names import (
    chosen_name,
    default_name,
    distinct,
    is_default,
    looks_like_bot,
    seat_labels,
)
from cardtable.server.settings import Settings
from cardtable.server.store import StorageUnavailable, Store, StoredMove, TableRow
from cardtable.server.workers import HintsBusy, Workers, bot_move

log = logging.getLogger("cardtable.server")

JSON = dict[str, Any]


#: the move clock's move for a person whose time ran out: what a careful player would play
DEFAULT_MOVE_BOT = "greedy"


class TableError(CardtableError):
    """A request about a table that cannot be honoured (the message says why)."""

    def __init__(
        self, message: str, code: str = "bad_request", given: Iterable[object] = ()
    ) -> None:
        super().__init__(message, given=given)
        self.code = code


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def new_key() -> str:
    return secrets.token_urlsafe(18)


def new_table_id() -> str:
    return secrets.token_hex(5)


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
    if kind == "human" and looks_like_bot(name):
        name = ""  # a person's seat is not called a bot's: it keeps its default
    if name and not is_default(name, kind, number):
        return SeatInfo(kind, distinct(name, taken))
    return SeatInfo(kind, distinct(default_name(kind, number), taken), chosen=False)


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


class LiveTable:
    """One game in progress (or finished) held in memory, rebuilt from the store."""

    def __init__(self, row: TableRow, moves: Sequence[StoredMove], hub: Hub) -> None:
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
        self.seats = [SeatInfo.from_row(s, n) for n, s in enumerate(row.seats)]
        self.last_change = moves[-1].at if moves else row.created_at
        self.last_seen = time.time()  # when the last listener left (eviction counts from it)
        self.human_moved = any(m.seat >= 0 and not self.seats[m.seat].is_bot for m in moves)
        self.listeners: set[Listener] = set()
        self.lock = asyncio.Lock()
        self.changed = asyncio.Event()
        self.agents: dict[int, Agent] = {
            n: self._agent(s.kind, n) for n, s in enumerate(self.seats) if s.is_bot
        }
        self.timer_key: tuple[Any, ...] | None = None
        self.timer_started = self.last_change
        self.bot_ready: dict[int, float] = {}
        self.round_key: Any = None
        self.task: asyncio.Task[None] | None = None
        self.creator: str | None = None  # the client address that made it (in memory only)
        self.hinting: set[int] = set()
        self.coach = Coach(self)
        self.round_break: RoundBreak | None = None  # a round just ended: waiting for people
        self._links: list[str] = []  # each move's link of the hash chain (fairness.py)
        self.fanout = Fanout()  # the spectators' frames, sent after the players'

    def _agent(self, kind: str, seat: int) -> Agent:
        if self.lesson is not None and kind == f"bot:{ScriptedBot.name}":
            return ScriptedBot(self.lesson, seat)
        return make_agent(kind, self.row.game, seed=(self.row.seed + 7919 * seat) % 2**31)

    # -- what clients see ----------------------------------------------------------------
    @property
    def finished(self) -> bool:
        return self.state.is_over

    def meta(self) -> JSON:
        row = self.row
        meta: JSON = {
            "id": self.id,
            "game": row.game,
            "title": spec_of(row.game).title,
            "family": spec_of(row.game).family,
            "preset": row.preset,
            "options": self.game.options.model_dump(mode="json"),
            "bot_levels": bot_levels(row.game),  # what "fill the seats" offers
            "seats": [
                {
                    **s.to_json(),
                    "connected": s.connected > 0,
                    "claimed": s.claimed,
                    "coach": s.coach,
                }
                for s in self.seats
            ],
            "status": "finished" if self.finished else "playing",
            "round_break": self.round_break.to_json() if self.round_break else None,
            "waiting": self.waiting_for(),
            "host": self.host,  # who may fill the seats with bots
            "commitment": row.commitment,
            "move_seconds": row.move_seconds,
            "moves": self.version,
            "created_at": row.created_at,
            "rematch_id": row.rematch_id,
            "public": row.public,
        }
        if self.finished:
            meta["reveal"] = {"seed": row.seed, "salt": row.salt}
            # the game's own tie-break decides (an Ohanami points tie goes to more pinks)
            meta["winners"] = list(self.state.result().winners)
        return meta

    def clock(self) -> JSON | None:
        if self.round_break is not None:  # no clock runs between rounds
            return None
        deadline = self._timer_deadline()
        if deadline is not None:
            kind, seconds = self._timer()  # type: ignore[misc]
            return {"kind": kind, "seconds": seconds, "deadline": deadline}
        if self.row.move_seconds and self._humans_to_move():
            return {
                "kind": "move",
                "seconds": self.row.move_seconds,
                "deadline": self.last_change + self.row.move_seconds,
            }
        return None

    def frame(self, seat: int | None) -> JSON:
        frame: JSON = {
            "type": "state",
            "version": self.version,
            "seat": seat,
            "table": self.meta(),
            "view": self.round_break.view(seat) if self.round_break else self.state.view(seat),
            "clock": self.clock(),
            "now": time.time(),
        }
        if self.lesson is not None and seat == self.lesson.learner:
            frame["lesson"] = coach(self.lesson, self.state, "en")  # the client says it
        extras = self.game.spec.optional(Capability.FRAME)
        if extras is not None:  # what the game adds for everyone at the table
            frame.update(extras(self.state))
        if seat is not None and self.seats[seat].coach:
            frame["coach"] = self.coach.notes.get(seat)
        frame["chain"] = {"moves": len(self.state.log), "head": self.chain_head()}
        return frame

    def chain_head(self) -> str:
        """The hash chain's head over every move so far (extended as moves come)."""
        log = self.state.log
        previous = self._links[-1] if self._links else chain_start(self.row.commitment)
        for move in log[len(self._links) :]:
            previous = next_link(previous, move.to_json(), self.row.salt)
            self._links.append(previous)
        return previous

    def record_json(self) -> JSON:
        """The finished game as a downloadable file (seed and salt revealed)."""
        if not self.finished:
            raise TableError("the game is still being played: its seed is secret", "not_finished")
        data = self.state.record().to_json()
        data["table"] = {
            "id": self.id,
            "seats": [s.to_json() for s in self.seats],
        }
        sealed = Commitment(seed=self.row.seed, salt=self.row.salt)
        return seal(data, sealed, self.hub.signer())

    # -- seats ---------------------------------------------------------------------------
    def key_matches(self, seat: int, key: str | None) -> bool:
        if not (0 <= seat < len(self.seats)) or key is None:
            return False
        stored = self.seats[seat].key_hash
        return stored is not None and hmac.compare_digest(stored, hash_key(key))

    @property
    def host(self) -> int:
        """The seat of the person who made the table (the first human seat)."""
        return next(n for n, s in enumerate(self.seats) if s.kind == "human")

    def claim(self, seat: int | None) -> tuple[int, str]:
        """Give a free human seat of a public table to whoever asks first: a fresh key.
        A private table's seats are invitations: only their invite keys take them."""
        if not self.row.public:
            raise TableError("this table's seats are taken with their invite links", "forbidden")
        free = self.free_seats()
        if seat is None:
            if not free:
                raise TableError("no free seat at this table", "no_seat")
            seat = free[0]
        if seat not in free:
            raise TableError(f"seat {seat + 1} is not free", "no_seat")
        key = new_key()
        rows = [s.to_row() for s in self.seats]
        rows[seat] = {**rows[seat], "key": hash_key(key), "claimed": True}
        self.hub.store.set_fields(self.id, seats=rows)  # saved first: a refused write gives no key
        self.seats[seat].key_hash, self.seats[seat].claimed = hash_key(key), True
        return seat, key

    def free_seats(self) -> list[int]:
        """Human seats nobody has taken and nobody sits at: what the lobby offers."""
        return [
            n
            for n, s in enumerate(self.seats)
            if s.kind == "human" and not s.claimed and s.connected == 0
        ]

    # -- the waiting room ----------------------------------------------------------------
    def waiting_for(self) -> list[int]:
        """Human seats nobody has taken yet: the game starts when there are none."""
        return [n for n, s in enumerate(self.seats) if s.kind == "human" and not s.claimed]

    async def seat_taken(self) -> None:
        """A seat was taken from the lobby: everyone hears; the last one starts the game."""
        if self.waiting_for():
            await self.broadcast_presence()
            return
        self.last_change = time.time()
        self.changed.set()
        await self.broadcast()

    def _save_seats(self) -> None:
        self.hub.store.set_fields(self.id, seats=[s.to_row() for s in self.seats])

    async def rename(self, seat: int, name: str) -> str:
        """The person at ``seat`` chose a name (numbered if another seat has it)."""
        if not self.waiting_for():
            raise TableError("names are chosen before the game starts", "started")
        cleaned = chosen_name(name)
        if not cleaned:
            raise TableError("a name needs at least one letter", "bad_name")
        if looks_like_bot(cleaned):
            raise TableError("a person's name may not look like a bot's", "bad_name")
        others = [s for n, s in enumerate(self.seats) if n != seat]
        named = named_seat(self.seats[seat].kind, cleaned, others, number=seat)
        self.seats[seat].name, self.seats[seat].chosen = named.name, named.chosen
        self._save_seats()
        await self.broadcast()
        return self.seats[seat].name

    def _seat_bot(self, seat: int, bot: str, name: str = "") -> None:
        """``bot`` sits at ``seat`` from now on (called ``name``, or its default)."""
        agent = make_agent(bot, self.row.game, seed=(self.row.seed + 7919 * seat) % 2**31)
        others = [s for m, s in enumerate(self.seats) if m != seat]
        self.seats[seat] = named_seat(f"bot:{bot}", name, others, number=seat)
        self.agents[seat] = agent

    async def fill_with_bots(self, bot: str, names: Mapping[int, str]) -> list[int]:
        """The seats still waiting for a person get bots (``names``: what to call each, if
        not its default), and the game starts."""
        filled = self.waiting_for()
        for n in filled:
            self._seat_bot(n, bot, names.get(n, ""))
        if filled:
            self._save_seats()
            self.last_change = time.time()  # the bots' delay counts from the start
            self.changed.set()
            await self.broadcast()
        return filled

    async def hand_to_bot(self, seat: int, bot: str) -> None:
        """The person at ``seat`` has left the game: ``bot`` plays on in their place (the
        host's choice; their seat key no longer opens the seat). Only a seat a person took
        and nobody holds now, never the host's own."""
        if self.finished:
            raise TableError("the game is over", "finished")
        info = self.seats[seat] if 0 <= seat < len(self.seats) else None
        if info is None or info.is_bot or not info.claimed or seat == self.host:
            raise TableError(f"seat {seat + 1} is not a seat a person left", "no_seat")
        if info.connected:
            raise TableError(f"the person at seat {seat + 1} is still at the table", "no_seat")
        async with self.lock:
            self._seat_bot(seat, bot)
            if self.round_break is not None:  # a bot has no round result to look at
                self.round_break.press(seat)
                if self.round_break.over:
                    self._end_round_break()
        self._save_seats()
        self.changed.set()
        await self.broadcast()

    def presence(self) -> JSON:
        """Who sits at the table now: what changes when a seat joins or leaves (a small
        frame instead of the whole state, so many spectators cost linear, not quadratic)."""
        return {
            "type": "presence",
            "seats": [{"connected": s.connected > 0, "claimed": s.claimed} for s in self.seats],
        }

    async def join(self, listener: Listener) -> None:
        """The new listener gets the whole state; the others hear only of a seat that came."""
        self.listeners.add(listener)
        waited = bool(self.waiting_for())
        seat_came = False
        if listener.seat is not None:
            info = self.seats[listener.seat]
            info.connected += 1
            seat_came = info.connected == 1
            if not info.claimed:
                info.claimed = True
                try:
                    self.hub.store.set_fields(self.id, seats=[s.to_row() for s in self.seats])
                except StorageUnavailable:  # taken in memory; saved with the next seat write
                    log.warning("table %s: seat %d claimed but not saved", self.id, listener.seat)
        if waited and not self.waiting_for():  # the last person sat down: the game starts
            self.last_change = time.time()
            self.changed.set()
            await self.broadcast()
            return
        if seat_came:  # the bots may think again (they wait for a person)
            self.changed.set()
        await self._send_all([listener], self.frame)
        if seat_came:
            await self.broadcast_presence(besides=listener)

    async def leave(self, listener: Listener) -> None:
        self.listeners.discard(listener)
        if not self.listeners:
            self.last_seen = time.time()
        if listener.seat is not None:
            self.seats[listener.seat].connected -= 1
            if self.seats[listener.seat].connected == 0:
                await self.broadcast_presence()

    async def broadcast(self) -> None:
        """Every listener gets its seat's state: the players' first, so a crowd of
        spectators does not stand between a move and the next player's turn."""
        listeners = sorted(self.listeners, key=lambda listener: listener.seat is None)
        await self._send_all(listeners, self.frame)

    async def broadcast_presence(self, besides: Listener | None = None) -> None:
        presence = self.presence()
        others = [listener for listener in self.listeners if listener is not besides]
        await self._send_all(others, lambda _seat: presence, is_state=False)

    async def _send_all(
        self,
        listeners: Sequence[Listener],
        frame_for: Callable[[int | None], JSON],
        is_state: bool = True,
    ) -> None:
        """One encoding per seat's view, shared by every listener of that seat; the
        players' sent now, the spectators' handed to the table's fan-out."""
        texts: dict[int | None, str] = {}
        sends: list[Awaitable[None]] = []
        spectators = [listener for listener in listeners if listener.seat is None]
        if spectators:
            self.fanout.offer(encode(frame_for(None)), spectators, is_state)
        for listener in listeners:
            if listener.seat is None:
                continue
            if listener.seat not in texts:
                texts[listener.seat] = encode(frame_for(listener.seat))
            sends.append(listener.send_text(texts[listener.seat]))
        results = await asyncio.gather(*sends, return_exceptions=True)
        for result in results:
            if isinstance(result, Exception):
                log.debug("send failed: %r", result)

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

    async def act(self, seat: int, action: Action, expect_version: int | None = None) -> None:
        """Validate, persist, apply, broadcast. An illegal action raises and changes nothing."""
        async with self.lock:
            if expect_version is not None and expect_version != self.version:
                raise TableError("the game moved on before this action", "stale")
            if self.waiting_for():
                raise TableError("the game starts when every player has sat down", "waiting")
            if self.round_break is not None:
                raise TableError(
                    f"round {self.round_break.round} is over: the next one starts when "
                    "every player has pressed Next round",
                    "round_break",
                )
            if self.lesson is not None:  # the engine's reason first, then the coach's
                reason = refusal(self.lesson, self.state, seat, action)
            else:
                reason = self.state.illegal_reason(seat, action)
            if reason is not None:
                raise IllegalAction(reason)
            self.last_change = self.hub.store.append_move(
                self.id, self.version, seat, action.to_json()
            )
            before, rounds = self._copy_if_people_wait(), self.state.rounds_finished
            coached = self.coach.before(seat, before)
            self.state.apply(seat, action)
            if before is not None and self.state.rounds_finished > rounds and not self.finished:
                self.round_break = RoundBreak.after(
                    before, self.state, seat, action, self._human_seats(), self.last_change,
                    self.hub.settings.round_break_seconds,
                )  # fmt: skip
            self.version += 1
            self.human_moved = self.human_moved or (seat >= 0 and not self.seats[seat].is_bot)
            if self.finished:
                self.row.status, self.row.finished_at = "finished", self.last_change
                self.hub.store.set_fields(self.id, status="finished", finished_at=self.last_change)
        if coached is not None:
            self.coach.judge_later(seat, coached, action, self.version)
        self.changed.set()
        await self.broadcast()

    def _human_seats(self) -> list[int]:
        return [n for n, s in enumerate(self.seats) if not s.is_bot]

    def _copy_if_people_wait(self) -> State | None:
        """A copy to stop on the final board, should this move end a round (people look at
        it before the next round; bots alone need no break)."""
        return self.state.clone() if self._human_seats() else None

    async def next_round(self, seat: int) -> None:
        """``seat`` has seen the round's end; the last human to press starts the next round
        (a press with no break on is a late double click: nothing happens)."""
        async with self.lock:
            if self.round_break is None:
                return
            self.round_break.press(seat)
            if self.round_break.over:
                self._end_round_break()
        self.changed.set()
        await self.broadcast()

    def _end_round_break(self) -> None:
        """The next round starts now: bots' delays and clocks count from this moment."""
        self.round_break = None
        self.last_change = time.time()
        self.timer_key = None
        self.round_key = None

    async def _round_break_over(self) -> None:
        async with self.lock:
            if self.round_break is None:
                return
            self._end_round_break()
        await self.broadcast()

    async def hint(self, seat: int, lang: str, address: str = "") -> JSON:
        """What the hard bot would play for ``seat`` now, with its reasons (one at a time)."""
        if seat not in self.state.to_move or self.finished or self.round_break is not None:
            raise TableError("a hint is for the seat to move", "no_hint")
        if not self.game.spec.has(Capability.HINTS):
            raise TableError(f"{self.game.spec.title} gives no hints during play", "no_hint")
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
        return {
            "type": "hint",
            "version": version,
            **found.to_json(lang, seat_labels(self.seats, lang)),
        }

    # -- the driver: bots and clocks -----------------------------------------------------
    def start(self) -> None:
        if self.task is None and not self.finished:
            self.task = asyncio.get_running_loop().create_task(
                self._drive(), name=f"table-{self.id}"
            )

    async def stop(self) -> None:
        await self.fanout.stop()
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None

    async def _drive(self) -> None:
        while not self.finished:
            self.changed.clear()
            due, when = self._next_event()
            if when is not None:
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
                    await asyncio.sleep(self.hub.settings.storage_retry_seconds)
                except CardtableError as error:  # the game moved on meanwhile: look again
                    log.debug("table %s: %s", self.id, error)
                except Exception:  # a bot bug must not stop the table
                    log.exception("table %s: driver step failed", self.id)
                    await asyncio.sleep(1.0)
            else:
                await self.changed.wait()

    def person_present(self) -> bool:
        """Whether a person sits at the table now (a seat's socket is open)."""
        return any(s.connected > 0 for s in self.seats if not s.is_bot)

    def _humans_to_move(self) -> list[int]:
        return [s for s in sorted(self.state.to_move) if s >= 0 and not self.seats[s].is_bot]

    def _timer(self) -> tuple[str, int] | None:
        """The clock that runs now, in a game whose spec declares one."""
        return self.state.timer if isinstance(self.state, Timed) else None

    def _real_time(self) -> bool:
        """Play runs in real time (7 słów's writing): bots take their own time, and the
        move clock stays off."""
        return isinstance(self.state, Timed) and self.state.real_time

    def _timer_deadline(self) -> float | None:
        timer = self._timer()
        if timer is None:
            self.timer_key = None
            return None
        assert isinstance(self.state, Timed)
        key = (self.state.rounds_finished, timer)  # a new round or a new kind: a new timer
        if key != self.timer_key:
            self.timer_key, self.timer_started = key, self.last_change
        return self.timer_started + timer[1] + self.state.grace_seconds(timer[0])

    def _real_time_bot_ready(self, seat: int, deadline: float | None) -> float:
        round_key = self.state.rounds_finished
        if round_key != self.round_key:
            self.round_key, self.bot_ready = round_key, {}
        if seat not in self.bot_ready:
            agent = self.agents[seat]
            think = agent.think_seconds() if isinstance(agent, Thinking) else 1.0
            self.bot_ready[seat] = self.last_change + think * self.hub.settings.think_scale
        ready = self.bot_ready[seat]
        if deadline is not None:  # a bot finishes before the clock runs out
            ready = min(ready, deadline - 2 * self.hub.settings.think_scale)
        return ready

    def _next_event(self) -> tuple[Callable[[], Awaitable[None]] | None, float | None]:
        """The next thing to do without a client, and when."""
        if self.round_break is not None:  # nothing runs until people have seen the round
            return self._round_break_over, self.round_break.deadline
        if self.waiting_for():  # nor before everyone invited has sat down
            return None, None
        events: list[tuple[float, Callable[[], Awaitable[None]]]] = []
        deadline = self._timer_deadline()
        if deadline is not None:
            events.append((deadline, self._time_up))
        writing = self._real_time()
        # bots think only for people: a table made and left (or made by a script to keep
        # the bots busy) costs no search until a person sits at it
        thinking = self.person_present()
        for seat in sorted(self.state.to_move):
            if seat < 0 or not self.seats[seat].is_bot or not thinking:
                continue
            agent = self.agents.get(seat)
            if isinstance(agent, ScriptedBot) and agent.waits(self.state):
                continue  # a lesson's opponent waits for the learner
            if writing:
                when = self._real_time_bot_ready(seat, deadline)
            else:
                when = self.last_change + self.hub.settings.bot_delay
            events.append((when, self._bot_move_for(seat)))
        humans = self._humans_to_move()
        if self.row.move_seconds and humans and not writing:
            when = self.last_change + self.row.move_seconds
            events.append((when, self._default_move_for(humans[0])))
        if not events:
            return None, None
        when, due = min(events, key=lambda e: e[0])
        return due, when

    async def _time_up(self) -> None:
        assert isinstance(self.state, Timed)
        await self.act(CLOCK, self.state.time_up(), expect_version=self.version)

    @property
    def owner(self) -> str:
        """Whose turn a job of this table takes in the compute pool: the address that made
        it (a table restored after a restart stands for itself)."""
        return self.creator or self.id

    async def compute_move(self, bot: str, seat: int) -> tuple[int, Action]:
        """``bot``'s move for ``seat`` from the compute pool, and the version it is for."""
        agent = self.agents.get(seat)
        version, snapshot = self.version, self.state.clone()
        if isinstance(agent, ScriptedBot):  # a lesson's script: no search, nothing to send
            return version, agent.choose(snapshot, seat)
        seed = (self.row.seed + 7919 * seat + 104729 * version) % 2**31
        deadline = time.time() + self.hub.settings.bot_seconds
        work = (bot, self.row.game, seed, snapshot, seat, deadline)
        action = await self.hub.workers.bot(bot_move, *work, address=self.owner, table=self.id)
        return version, action

    def _bot_move_for(self, seat: int) -> Callable[[], Awaitable[None]]:
        async def move() -> None:
            writing = self._real_time()
            bot = self.seats[seat].kind.removeprefix("bot:")
            # a word bot writes, then flips or locks in the same breath
            while True:
                version, action = await self.compute_move(bot, seat)
                await self.act(seat, action, expect_version=version)
                if not (writing and seat in self.state.to_move and self._real_time()):
                    return

        return move

    def _default_move_for(self, seat: int) -> Callable[[], Awaitable[None]]:
        async def move() -> None:
            version, action = await self.compute_move(DEFAULT_MOVE_BOT, seat)
            await self.act(seat, action, expect_version=version)

        return move


class Hub:
    """Every live table of one server, and the store behind them."""

    def __init__(self, store: Store, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.tables: dict[str, LiveTable] = {}
        self.workers = Workers(self.settings)
        self.reviews = Reviews(self)
        #: tables each address is making right now (counted against its unstarted limit, so
        #: requests that arrive together cannot all pass the check before any table exists)
        self.being_made: Counter[str] = Counter()
        #: the rematch being made of each finished table: whoever asks meanwhile waits for it
        self.rematches: dict[str, asyncio.Future[LiveTable]] = {}
        self._signer: Signer | None = None

    def signer(self) -> Signer:
        """The key this server signs records with (made and stored on first use)."""
        if self._signer is None:
            key = self.store.secret("record-signing-key", lambda: Signer.new_key().hex())
            self._signer = Signer(bytes.fromhex(key))
        return self._signer

    async def restore(self) -> int:
        """Rebuild every unfinished table from its log (after a restart or a crash)."""
        restored = 0
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
        """Tables ``creator`` made where no person has moved yet: a deal looked at and left."""
        return self.being_made[creator] + sum(
            1
            for t in self.tables.values()
            if t.creator == creator and not t.human_moved and not t.finished
        )

    async def evict_abandoned(self, now: float | None = None) -> list[str]:
        """Tables nobody watched and nobody moved at for ``evict_after_seconds`` leave memory
        (a request for one rebuilds it from the store); an unfinished one is stored as
        abandoned, so tables made only to look at their deal show."""
        now = time.time() if now is None else now
        limit = self.settings.evict_after_seconds
        gone = [
            t
            for t in self.tables.values()
            if not t.listeners and now - max(t.last_change, t.last_seen) >= limit
        ]
        for table in gone:
            if not table.finished:
                try:
                    self.store.set_fields(table.id, status="abandoned")
                except StorageUnavailable:
                    continue  # kept in memory until the store can say it was abandoned
                table.row.status = "abandoned"
                log.info(
                    "table %s abandoned after %d moves (a person moved: %s)",
                    table.id, table.version, table.human_moved,
                )  # fmt: skip
            await table.stop()
            self.tables.pop(table.id, None)
        return [t.id for t in gone if t.id not in self.tables]

    async def sweep(self) -> None:
        """Evict abandoned tables now and then, for as long as the server runs."""
        while True:
            await asyncio.sleep(self.settings.sweep_seconds)
            try:
                await self.evict_abandoned()
            except Exception:  # the sweeper must outlive any one bad table
                log.exception("sweeping tables failed")

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
        if self.unstarted_by(creator) >= self.settings.unstarted_tables:
            raise TableError(
                f"you have {self.settings.unstarted_tables} tables where nobody has moved yet: "
                "play or leave one before making another",
                "unstarted_tables",
            )
        self.being_made[creator] += 1
        try:
            table, keys = await self._create(request, rematch_of)
            table.creator = creator
        finally:
            self.being_made[creator] -= 1
            if self.being_made[creator] <= 0:
                del self.being_made[creator]
        return table, keys

    async def _create(
        self, request: TableRequest, rematch_of: LiveTable | None
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
            id=new_table_id(),
            game=game.id,
            preset=request.preset,
            options=game.options.model_dump(mode="json"),
            seats=[s.to_row() for s in seats],
            seed=sealed.seed,
            salt=sealed.salt,
            commitment=sealed.digest,
            public=request.public,
            move_seconds=max(0, min(int(request.move_seconds), 3600)),
            status="playing",
            created_at=time.time(),
            rematch_of=None if rematch_of is None else rematch_of.id,
        )
        table = await asyncio.to_thread(LiveTable, row, (), self)
        self.store.add_table(row)
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
        await table.broadcast()
        return new

    async def table(self, table_id: str) -> LiveTable:
        """A live table, or one rebuilt from the store (finished, or left and come back to)."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        row = self.store.table(table_id) if len(table_id) <= 32 else None
        if row is None:
            raise TableError(f"no table {table_id!r}", "not_found", given=[table_id])
        if row.status == "abandoned":
            self.store.set_fields(row.id, status="playing")
            row.status = "playing"
        built = await asyncio.to_thread(LiveTable, row, self.store.moves(row.id), self)
        table = self.tables.setdefault(table_id, built)  # another request may have built it
        table.start()
        return table

    def lobby(self) -> list[JSON]:
        """Public tables still being played that a person may join or watch a person at,
        newest first, free seats first. A game its people left (bots alone, or nobody)
        is not listed: it would only fill the lobby with tables nobody plays."""
        rows = [
            t
            for t in self.tables.values()
            if t.row.public
            and t.lesson is None
            and not t.finished
            and (t.free_seats() or t.person_present())
        ]
        rows.sort(key=lambda t: -t.row.created_at)
        out = []
        for table in rows[: self.settings.lobby_size]:
            meta = table.meta()
            meta["free_seats"] = table.free_seats()
            out.append(meta)
        out.sort(key=lambda m: not m["free_seats"])
        return out
