"""Quick match: "Play now" seats a person with the next one who asks for the same game,
preset and kind (rated or casual), nearest rating first, the window widening with the
wait. The queue lives in the store (server/match_store.py), so every process of a
cluster pairs from the same one; a pair is made by the request that finds it (the
second person's POST, or either one's next poll), within a poll of the second ticket.

- ``POST /api/match`` → 202 ``{"ticket": T}``
- ``GET /api/match/T`` → ``{"status": "waiting", "waited", "waiting", "bot_offer"}`` or
  ``{"status": "matched", "table", "seat", "key", "url"}``
- ``DELETE /api/match/T`` leaves the queue; ``POST /api/match/T/bot`` takes the bot offered
  after ``match_bot_offer_seconds`` instead (the place in the queue is kept until then)
- ``GET /api/match`` → how many people wait, per game

Ratings (Glicko-2, server/glicko.py) of rated tables are counted when somebody next asks
for them (``POST /api/players/ratings``, a table's ``/ratings``): no hook in the hot path,
and in a cluster whichever process asks first counts a table, once.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from cardtable.agents import bot_levels
from cardtable.core.game import spec_of
from cardtable.server import match_store as kept
from cardtable.server.day_clock import DAY, DAYS, table_to_read
from cardtable.server.errors import TableError
from cardtable.server.glicko import PROVISIONAL_GAMES, Glicko
from cardtable.server.http_guards import client_address, too_many
from cardtable.server.hub import Hub, TableRequest
from cardtable.server.limits import ClientLimits
from cardtable.server.match_store import Queue, QuickTableRow, RatingRow, TicketRow
from cardtable.server.player_keys import maybe_player_hash, player_hash
from cardtable.server.tables import LiveTable

log = logging.getLogger("cardtable.server")
JSON = dict[str, Any]

#: how many people quick match seats at a table
PAIR = 2
#: tickets not polled for this long are forgotten altogether (they stopped counting long ago)
FORGET_SECONDS = 3600.0


class MatchRequest(BaseModel):
    game: str = Field(max_length=40)
    preset: str | None = Field(default=None, max_length=40)
    rated: bool = False
    days: int = Field(default=0, ge=0, le=7)  # a game across days (day_clock.DAYS), 0: live
    name: str = Field(default="", max_length=24)
    player: str | None = Field(default=None, max_length=64)


class PlayerQuery(BaseModel):
    player: str = Field(max_length=64)


def rating_json(row: RatingRow | None) -> JSON:
    """A rating as pages show it: "1 512 ± 180", provisional until enough rated games."""
    glicko = row.glicko() if row is not None else Glicko()
    games = row.games if row is not None else 0
    return {
        "rating": round(glicko.rating),
        "deviation": round(glicko.deviation),
        "shown": glicko.shown(),
        "games": games,
        "provisional": games < PROVISIONAL_GAMES,
    }


class Matchmaker:
    """The queue's rules, on the hub's store."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = hub.store
        self.queue = Queue(hub.settings.match_drop_seconds)
        kept.make_tables(self.store)
        hub.before_abandon.append(self.settle_leaving)
        hub.also_swept.append(self.tidy)

    # -- the queue ---------------------------------------------------------------------------
    async def enqueue(self, body: MatchRequest, address: str, player: str | None) -> str:
        spec = spec_of(body.game)  # an unknown game is refused here, naming the known ones
        fewest, most = spec.info.players
        if not fewest <= PAIR <= most:
            raise TableError(
                f"quick match seats two people; {spec.title} is played by {fewest}", "bad_game"
            )
        if body.preset is not None and body.preset not in spec.presets:
            raise TableError(f"{spec.title} has no preset {body.preset!r}", "bad_preset")
        if body.rated and not player:
            raise TableError("a rated game needs the player key", "bad_player")
        if body.days and body.days not in DAYS:
            raise TableError(f"a game across days has a move clock of {DAYS} days", "bad_days")
        rating = 1500.0
        if player:
            rows = await asyncio.to_thread(kept.ratings, self.store, [player], body.game)
            rating = rows[0].rating if rows else rating
        now = time.time()
        row = TicketRow(
            id=secrets.token_hex(16), game=body.game, preset=body.preset or "",
            rated=body.rated, move_seconds=body.days * DAY, name=body.name.strip(),
            player=player or "", address=address,
            rating=rating, created_at=now, polled_at=now, status="waiting",
            table_id="", seat=-1, seat_key="",
        )  # fmt: skip
        await asyncio.to_thread(kept.add_ticket, self.store, row)
        await self.try_pair(row)
        return row.id

    async def try_pair(self, row: TicketRow) -> None:
        """Pair the waiting ``row`` if somebody fits, and seat both at a new table."""
        now = time.time()
        window = kept.window_after(now - row.created_at)
        partner = await asyncio.to_thread(kept.pair, self.store, row, now, self.queue, window)
        if partner is None:
            return
        pair = [row, partner]
        random.shuffle(pair)  # who sits first (and so, often, who moves first) is luck
        try:
            table, keys = await self._table_for(pair)
        except Exception:
            await asyncio.to_thread(kept.unpair, self.store, [row.id, partner.id])
            raise
        seats = [(ticket.id, n, keys[n] or "") for n, ticket in enumerate(pair)]
        try:
            await asyncio.to_thread(kept.seat_pair, self.store, seats, table.id, time.time())
        except Exception:  # the store failed: both wait again (the empty table lapses)
            await asyncio.to_thread(kept.unpair, self.store, [row.id, partner.id])
            raise
        log.info("quick match: %s for %s", table.id, row.game)

    async def _table_for(self, pair: list[TicketRow]) -> tuple[LiveTable, list[str | None]]:
        first = pair[0]
        request = TableRequest(
            game=first.game,
            seats=("human",) * PAIR,
            preset=first.preset or None,
            names=tuple(t.name for t in pair),
            public=False,  # nobody else may take a seat; people watch it from their link
            move_seconds=first.move_seconds or self.hub.settings.match_move_seconds,
        )
        table, keys = await self.hub.create(request)
        for info in table.seats:  # both are here already: nobody is invited
            info.claimed = True
        await asyncio.to_thread(self.store.set_fields, table.id, seats=table.roster.rows())
        await asyncio.to_thread(
            kept.add_quick_table,
            self.store,
            QuickTableRow(
                table_id=table.id, game=first.game, rated=first.rated,
                players=[t.player for t in pair], settled=False, created_at=time.time(),
            ),
        )  # fmt: skip
        if table.id in self.hub.tables:
            await table.seat_taken()  # the game starts: everyone is seated
        return table, keys

    async def look(self, ticket_id: str) -> JSON:
        row = await self._ticket(ticket_id)
        now = time.time()
        if row.status == "waiting":
            await asyncio.to_thread(kept.polled, self.store, row.id, now)
            await self.try_pair(row)
            row = await self._ticket(ticket_id)
        if row.status == "matched":
            url = f"/t/{row.table_id}?seat={row.seat}&key={row.seat_key}"
            return {"status": "matched", "table": row.table_id, "seat": row.seat,
                    "key": row.seat_key, "url": url}  # fmt: skip
        if row.status not in ("waiting", "pairing"):
            return {"status": row.status}
        counts = await asyncio.to_thread(kept.waiting_counts, self.store, now, self.queue)
        waited = now - row.created_at
        return {
            "status": "waiting",
            "waited": round(waited, 1),
            "waiting": counts.get(row.game, 0),
            "bot_offer": waited >= self.hub.settings.match_bot_offer_seconds,
        }

    async def leave(self, ticket_id: str) -> None:
        row = await self._ticket(ticket_id)
        await asyncio.to_thread(kept.take, self.store, row.id, "left")

    async def play_bot(self, ticket_id: str, address: str) -> JSON:
        """The person takes the bot offered: out of the queue, to a table with the bot the
        lobby offers first (medium, where the game has it)."""
        row = await self._ticket(ticket_id)
        if time.time() - row.created_at < self.hub.settings.match_bot_offer_seconds:
            raise TableError("the bot is offered after a wait: keep waiting a little", "too_early")
        # before the ticket is taken: refused by the table limit, the person stays queued
        self.hub.refuse_over_unstarted(address)
        if not await asyncio.to_thread(kept.take, self.store, row.id, "bot"):
            raise TableError("this ticket is no longer waiting (matched?)", "no_seat")
        levels = bot_levels(row.game)
        bot = "medium" if "medium" in levels else (levels or ["random"])[0]
        request = TableRequest(
            game=row.game, seats=("human", f"bot:{bot}"), preset=row.preset or None,
            names=(row.name,), public=False,
        )  # fmt: skip
        table, keys = await self.hub.create(request, creator=address)
        return {"table": table.id, "seat": 0, "key": keys[0],
                "url": f"/t/{table.id}?seat=0&key={keys[0]}"}  # fmt: skip

    async def counts(self) -> JSON:
        now = time.time()
        counts = await asyncio.to_thread(kept.waiting_counts, self.store, now, self.queue)
        return {"waiting": dict(sorted(counts.items()))}

    async def tidy(self) -> None:
        """At each sweep (not at each lobby's poll): old tickets forgotten, matched ones'
        seat keys dropped, stuck pairs back in the queue."""
        now = time.time()
        await asyncio.to_thread(kept.tidy_tickets, self.store, now, now - FORGET_SECONDS)

    async def _ticket(self, ticket_id: str) -> TicketRow:
        row = await asyncio.to_thread(kept.ticket, self.store, ticket_id[:40])
        if row is None:
            raise TableError("no such ticket (it may have been forgotten)", "not_found")
        return row

    # -- ratings -----------------------------------------------------------------------------
    async def settle_due(self, players: list[str] | None = None) -> None:
        """Count every rated table of ``players`` that has a result now: finished, or
        abandoned (a seat away past the move clock and the grace period loses)."""
        for row in await asyncio.to_thread(kept.unsettled, self.store, players):
            scores = await self._result(row)
            if scores is not None:
                await asyncio.to_thread(kept.settle, self.store, row, scores)

    async def settle_leaving(self, table: LiveTable) -> None:
        """A rated quick-match table leaves memory unfinished: count it now, while it knows
        who left first (once stored as abandoned, it would only be a draw)."""
        row = await asyncio.to_thread(kept.quick_table, self.store, table.id)
        if row is None or not row.rated or row.settled:
            return
        scores = await self._result(row, leaving=table)
        if scores is not None:
            await asyncio.to_thread(kept.settle, self.store, row, scores)

    async def _result(
        self, row: QuickTableRow, leaving: LiveTable | None = None
    ) -> list[float] | None:
        """Per seat 1 a win, 0.5 a draw or a shared win, 0 a loss; None while the game goes
        on. ``leaving``: the table is leaving memory, nobody at it; whoever left a whole
        patience (the move clock and the grace) before the last one lost, else a draw."""
        stored = await asyncio.to_thread(self.store.table, row.table_id)
        if stored is None:
            return None
        seats = range(len(row.players))
        draw = [0.5 for _ in seats]
        if stored.status == "finished":
            table = await table_to_read(self.hub, row.table_id, ("finished",))
            if table is None:
                return None
            winners = set(table.state.result().winners)
            return [(1.0 / len(winners) if n in winners else 0.0) for n in seats]
        held = leaving or self.hub.tables.get(row.table_id)
        patience = stored.move_seconds + self.hub.settings.abandon_grace_seconds
        if held is None:  # abandoned before this process could tell who left: a draw
            return draw if stored.status == "abandoned" else None
        away = [held.roster.empty_for(n) for n in seats]
        if leaving is not None:
            gone = {n for n in seats if away[n] - min(away) >= patience}
            if not gone:
                return draw  # everyone left within a patience of each other
        else:
            gone = {n for n in seats if away[n] >= patience}
            if not gone or len(gone) == len(row.players):
                return None  # everyone away from a live table: it may yet go on
        return [0.0 if n in gone else 1.0 for n in seats]

    async def player_ratings(self, player: str) -> JSON:
        await self.settle_due([player])
        rows = await asyncio.to_thread(kept.ratings, self.store, [player])
        past = await asyncio.to_thread(kept.history, self.store, player)
        return {
            "ratings": {r.game: rating_json(r) for r in rows},
            "history": [
                {
                    "game": h.game,
                    "at": h.at,
                    "rating": round(h.rating),
                    "table": h.table_id,
                    "deviation": round(h.deviation),
                }
                for h in past
            ],
        }

    async def table_ratings(self, table_id: str) -> JSON:
        """Each seat's rating at a rated quick-match table (none at any other table)."""
        row = await asyncio.to_thread(kept.quick_table, self.store, table_id[:32])
        if row is None or not row.rated:
            return {"rated": False, "seats": []}
        await self.settle_due(row.players)
        rows = {
            r.player: r
            for r in await asyncio.to_thread(kept.ratings, self.store, row.players, row.game)
        }
        return {"rated": True, "seats": [rating_json(rows.get(p)) for p in row.players]}


def router(matchmaker: Matchmaker, limits: ClientLimits) -> APIRouter:
    api = APIRouter(prefix="/api")

    @api.post("/match", status_code=202)
    async def join(body: MatchRequest, http: Request) -> JSON:
        """Limited per address before the body is read (app.py's LimitsFirst), and per
        player here, from the same buckets as tables made."""
        player = maybe_player_hash(body.player)
        if player and not limits.tables.allow(f"player:{player}"):
            raise too_many("too many quick matches for this player: wait a minute")
        return {"ticket": await matchmaker.enqueue(body, client_address(http.scope), player)}

    @api.get("/match")
    async def counts() -> JSON:
        return await matchmaker.counts()

    @api.get("/match/{ticket_id}")
    async def look(ticket_id: str) -> JSON:
        return await matchmaker.look(ticket_id)

    @api.delete("/match/{ticket_id}", status_code=204)
    async def leave(ticket_id: str) -> Response:
        await matchmaker.leave(ticket_id)
        return Response(status_code=204)

    @api.post("/match/{ticket_id}/bot", status_code=201)
    async def play_bot(ticket_id: str, http: Request) -> JSON:
        if not limits.tables.allow(client_address(http.scope)):
            raise too_many("too many tables made from this address: wait a minute")
        return await matchmaker.play_bot(ticket_id, client_address(http.scope))

    @api.post("/players/ratings")
    async def player_ratings(body: PlayerQuery) -> JSON:
        return await matchmaker.player_ratings(player_hash(body.player))

    @api.get("/tables/{table_id}/ratings")
    async def table_ratings(table_id: str) -> JSON:
        return await matchmaker.table_ratings(table_id)

    return api
