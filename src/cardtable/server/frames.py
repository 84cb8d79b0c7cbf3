"""What a table's clients see, and how it reaches them.

Each seat gets its own state frame (``state.view(seat)``: nothing of another's hidden cards),
spectators ``view(None)``. What every seat's frame says alike (the table's meta, the shared
part of the view) is encoded once a moment and joined into each seat's text as it is
(:class:`~cardtable.server.protocol.Encoded`); a seat's frame is encoded once and shared by
every socket of that seat; the spectators' one frame goes through the table's fan-out, after the
players', so a crowd never stands between a move and the next player's turn.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, cast

from cardtable.agents import bot_levels
from cardtable.core.game import Capability, Game, spec_of
from cardtable.core.record import GameRecord
from cardtable.learn import guide
from cardtable.server.coaching import Coach, Listener
from cardtable.server.eager import start_eagerly
from cardtable.server.errors import TableError
from cardtable.server.fairness import ChainKey, Commitment, Signer, chain_start, seal
from cardtable.server.fanout import Fanout
from cardtable.server.protocol import Encoded, Text, encode, encoded, joined
from cardtable.server.record_proofs import proof_of, record_entry
from cardtable.server.settings import Settings
from cardtable.server.table_facts import TableFacts

log = logging.getLogger("cardtable.server")
JSON = dict[str, Any]


class Signing(Protocol):
    def signer(self) -> Signer: ...
    @property
    def settings(self) -> Settings: ...


class FramedTable(TableFacts, Protocol):
    """What a frame reads of a live table beyond its facts."""

    @property
    def game(self) -> Game: ...
    @property
    def coach(self) -> Coach: ...
    @property
    def hub(self) -> Signing: ...
    def clock(self) -> JSON | None: ...


@dataclass(slots=True)  # not frozen: made for every move, and a frozen one's __init__ costs
class Moment:  # about four times as much
    """What every seat's frame says alike at one moment, worked out once."""

    table: Encoded  # the meta
    winners: list[int] | None
    shared_view: Encoded | None  # None during a round break (each seat's break view is its own)
    clock: JSON | None
    now: float
    extras: JSON | None
    chain: JSON


class Frames:
    """A table's listeners and the frames they are sent."""

    def __init__(self, table: FramedTable) -> None:
        self.table = table
        self.listeners: set[Listener] = set()
        self.fanout = Fanout()  # the spectators' frames, sent after the players'
        self._links: list[str] = []  # each move's link of the hash chain (fairness.py)
        self._chain_key: ChainKey | None = None
        self._fixed: JSON | None = None  # the meta that never changes (see fixed_meta)
        self._fixed_encoded: Encoded | None = None
        self._round: tuple[object, Encoded] | None = None  # (State.round_key, round_view)

    # -- what clients see ----------------------------------------------------------------
    def fixed_meta(self) -> JSON:
        """The part of the meta set when the table was made (its options never change):
        worked out once a table, not for every frame of every seat."""
        if self._fixed is None:
            row, spec = self.table.row, spec_of(self.table.row.game)
            self._fixed = {
                "id": self.table.id,
                "game": row.game,
                "title": spec.title,
                "family": spec.family,
                "preset": row.preset,
                "options": self.table.game.options.model_dump(mode="json"),
                "bot_levels": bot_levels(row.game),  # what "fill the seats" offers
                "commitment": row.commitment,
                "move_seconds": row.move_seconds,
                "created_at": row.created_at,
                # how long a person's seat stands empty before the host may give it to a bot
                "hand_to_bot_seconds": self.table.hub.settings.hand_to_bot_seconds,
            }
        return self._fixed

    def fixed_encoded(self) -> Encoded:
        """:meth:`fixed_meta`, encoded once a table."""
        if self._fixed_encoded is None:
            self._fixed_encoded = Encoded.of(self.fixed_meta())
        return self._fixed_encoded

    def meta(self) -> JSON:
        return {**self.fixed_meta(), **self.changing_meta()}

    def changing_meta(self) -> JSON:
        """The meta's part that moves and seats change."""
        table, row = self.table, self.table.row
        roster = table.roster
        meta: JSON = {
            "seats": roster.meta(),
            "status": "finished" if table.finished else "playing",
            "round_break": table.round_break.to_json() if table.round_break else None,
            "waiting": roster.waiting_for(),
            "host": roster.host,  # who may fill the seats with bots
            "moves": table.version,
            "rematch_id": row.rematch_id,
            "public": row.public,
        }
        if table.finished:
            meta["reveal"] = {"seed": row.seed, "salt": row.salt}
            # the game's own tie-break decides (an Ohanami points tie goes to more pinks)
            meta["winners"] = list(table.state.result().winners)
        return meta

    def frame(self, seat: int | None) -> JSON:
        """``seat``'s frame of this moment as its client reads it."""
        return cast(JSON, json.loads(encoded(self.frames()(seat))))

    def frames(self) -> Callable[[int | None], JSON]:
        """Each seat's frame of this moment: what every seat sees alike (the meta, the
        clock, the game's extras, the chain, the shared part of the view) worked out and
        encoded once, on the first frame asked."""
        moments: list[Moment] = []

        def frame(seat: int | None) -> JSON:
            if not moments:
                moments.append(self.moment())
            return self.seat_frame(seat, moments[0])

        return frame

    def moment(self) -> Moment:
        """What a frame says alike to every seat now."""
        table, state = self.table, self.table.state
        extras = table.game.spec.optional(Capability.FRAME)
        changing = self.changing_meta()
        shared_view = None
        if table.round_break is None:
            shared_view = joined(self.round_part(), Encoded.of(state.moving_view()))
        return Moment(
            table=joined(self.fixed_encoded(), Encoded.of(changing)),
            winners=changing.get("winners"),
            shared_view=shared_view,
            clock=table.clock(),
            now=time.time(),
            # what the game adds for everyone at the table
            extras=extras(state) if extras is not None else None,
            chain={"moves": len(state.log), "head": self.chain_head()},
        )

    def round_part(self) -> Encoded:
        """The shared view's part that changes only between rounds (``State.round_view``),
        encoded once a round: a koi-koi round's previous captures and result are half of
        what every move sends."""
        state = self.table.state
        key = state.round_key()
        if self._round is None or self._round[0] != key:
            self._round = (key, Encoded.of(state.round_view()))
        return self._round[1]

    def seat_frame(self, seat: int | None, moment: Moment) -> JSON:
        """``seat``'s frame: its own view, lesson and coach's note, and the ``moment``'s
        shared parts, already encoded."""
        table = self.table
        round_break, state = table.round_break, table.state
        if moment.shared_view is not None:
            view = joined(moment.shared_view, Encoded.of(state.own_view(seat)))
        else:  # a round break: the final board, each seat's own
            assert round_break is not None
            view = round_break.encoded_view(seat)
        frame: JSON = {
            "type": "state",
            "version": table.version,
            "seat": seat,
            "table": moment.table,
            "view": view,
            "clock": moment.clock,
            "now": moment.now,
        }
        if table.lesson is not None and seat == table.lesson.learner:
            frame["lesson"] = guide(table.lesson, state, "en")  # the client says it
        if moment.extras is not None:
            frame.update(moment.extras)
        if seat is not None and table.roster.seats[seat].coach:
            frame["coach"] = table.coach.notes.get(seat)
        if seat is not None and table.finished:
            scores = state.view(seat).get("scores") or []  # once the game is over: rare
            frame["record_proof"] = self.record_proof(seat, scores, moment.winners or [])
        frame["chain"] = moment.chain
        return frame

    def record_proof(self, seat: int, scores: list[int], winners: list[int]) -> str | None:
        """The server's proof of the game as ``seat``'s record keeps it (record.js), which
        lets the game travel to another browser of theirs; None where the record keeps
        nothing (a table with another person)."""
        table = self.table
        kinds = [info.kind for info in table.roster.seats]
        entry = record_entry(table.row.game, seat, kinds, scores, winners)
        return None if entry is None else proof_of(table.hub.signer(), table.id, entry)

    def chain_head(self) -> str:
        """The hash chain's head over every move so far (extended as moves come)."""
        row, log_ = self.table.row, self.table.state.log
        previous = self._links[-1] if self._links else chain_start(row.commitment)
        if self._chain_key is None:
            self._chain_key = ChainKey(row.salt)
        for move in log_[len(self._links) :]:
            previous = self._chain_key.link(previous, move.to_json())
            self._links.append(previous)
        return previous

    def record_json(self) -> JSON:
        """The finished game as a downloadable file (seed and salt revealed)."""
        table = self.table
        if not table.finished:
            raise TableError("the game is still being played: its seed is secret", "not_finished")
        data = GameRecord.of(table.state).to_json()
        data["table"] = {"id": table.id, "seats": [s.to_json() for s in table.roster.seats]}
        sealed = Commitment(seed=table.row.seed, salt=table.row.salt)
        return seal(data, sealed, table.hub.signer())

    # -- sending -------------------------------------------------------------------------
    async def broadcast(self) -> None:
        """Every listener gets its seat's state: the players' first."""
        listeners = sorted(self.listeners, key=lambda listener: listener.seat is None)
        await self.send(listeners, self.frames())

    async def broadcast_presence(self, besides: Listener | None = None) -> None:
        presence = self.table.roster.presence()
        others = [listener for listener in self.listeners if listener is not besides]
        await self.send(others, lambda _seat: presence, is_state=False)

    async def send(
        self,
        listeners: Sequence[Listener],
        frame_for: Callable[[int | None], JSON],
        is_state: bool = True,
    ) -> None:
        """One encoding per seat's view, shared by every listener of that seat; the
        players' sent now, the spectators' handed to the table's fan-out."""
        texts: dict[int | None, Text] = {}
        waiting: list[asyncio.Task[None]] = []  # the sends that could not finish at once
        spectators = [listener for listener in listeners if listener.seat is None]
        if spectators:
            self.fanout.offer(encoded(frame_for(None)), spectators, is_state)
        for listener in listeners:
            if listener.seat is None:
                continue
            if listener.seat not in texts:
                texts[listener.seat] = encoded(frame_for(listener.seat))
            try:
                rest = start_eagerly(listener.send_text(texts[listener.seat]))
            except Exception as error:  # a listener gone: the others are sent all the same
                log.debug("send failed: %r", error)
                continue
            if rest is not None:
                waiting.append(rest)
        if not waiting:
            return
        for result in await asyncio.gather(*waiting, return_exceptions=True):
            if isinstance(result, Exception):
                log.debug("send failed: %r", result)

    async def stop(self) -> None:
        await self.fanout.stop()

    async def close_all(self, code: str, message: str) -> None:
        """Tell every listener why, and close its connection (the page then connects
        again by itself: see sockets.CLOSE_CODES)."""
        said = encode({"type": "error", "code": code, "message": message})
        for listener in list(self.listeners):
            with contextlib.suppress(Exception):  # a listener already gone
                await listener.send_text(said)
                await listener.close(code)
        self.listeners.clear()
