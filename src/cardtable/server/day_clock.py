"""Games across days: a move clock of 1, 2, 3 or 7 days instead of seconds, and the "Your
turn" list of every table where a browser's seat is to move.

A day-clock table is never let go for want of listeners (a person comes back tomorrow,
not within the half hour after which other tables leave memory): it stays live, and as
an unfinished table it is rebuilt from its log after a restart like any other. When its
clock runs out the move clock plays for the seat, as it does in seconds.

``POST /api/turns {"seats": [{"table": ID, "seat": n, "key": K}, ...]}`` answers, for each
seat whose key opens it at an unfinished table, whether it is that seat's turn and until
when: the lobby lists those (its title counts them), across all of the browser's tables.

>>> move_clock_seconds(86_400), move_clock_seconds(5_000), move_clock_seconds(60)
(86400, 3600, 60)
>>> is_day_clock(2 * DAY), is_day_clock(3600)
(True, False)
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from cardtable.core.errors import CardtableError
from cardtable.server.tables import LiveTable

if TYPE_CHECKING:
    from cardtable.server.hub import Hub

DAY = 86_400
#: the move clocks in days a table may have
DAYS = (1, 2, 3, 7)
#: the longest move clock in seconds (beyond it, days)
MOST_SECONDS = 3600
#: the seats one "Your turn" request may ask about (the lobby asks of its newest 30)
MAX_SEATS = 100


def move_clock_seconds(asked: int) -> int:
    """The move clock a table gets: whole days of :data:`DAYS`, else 0 to an hour."""
    if asked in {days * DAY for days in DAYS}:
        return asked
    return max(0, min(int(asked), MOST_SECONDS))


def is_day_clock(move_seconds: int) -> bool:
    return move_seconds >= DAY


class HeldSeat(BaseModel):
    table: str = Field(max_length=32)
    seat: int = Field(ge=0, le=16)
    key: str = Field(max_length=64)


class Seats(BaseModel):
    seats: list[HeldSeat] = Field(max_length=MAX_SEATS)


async def table_to_read(
    hub: Hub, table_id: str, statuses: tuple[str, ...] = ("playing",)
) -> LiveTable | None:
    """The table, to read its state (whose turn, who won): one this process holds; else,
    if its stored status is one of ``statuses``, rebuilt from the store. Alone, this
    process takes it live (a table left and come back to); in a cluster a copy is only
    read and dropped, so that a request answered here (a lobby's "Your turn", a player's
    ratings) never pulls a table away from the process that holds it."""
    table = hub.tables.get(table_id)
    if table is not None:
        return table
    row = await asyncio.to_thread(hub.store.table, table_id)
    if row is None or row.status not in statuses:  # finished, or left long ago: no turn
        return None
    if hub.cluster is None:
        return await hub.table(table_id)
    return await asyncio.to_thread(LiveTable, row, hub.store.moves(row.id), hub)


def router(hub: Hub) -> APIRouter:
    api = APIRouter(prefix="/api")

    @api.post("/turns")
    async def turns(body: Seats) -> dict[str, Any]:
        """Where each of these seats is to move now (the tables this process holds or can
        rebuild; a wrong key, a finished table or an unknown one says nothing)."""
        found = []
        for held in body.seats:
            try:
                table = await table_to_read(hub, held.table)
            except CardtableError:
                continue
            if table is None:
                continue
            if table.finished or not table.roster.key_matches(held.seat, held.key):
                continue
            waiting = bool(table.roster.waiting_for()) or table.round_break is not None
            to_move = held.seat in table.state.to_move and not waiting
            clock = table.clock()
            found.append({
                "table": table.id, "seat": held.seat, "title": table.game.spec.title,
                "your_turn": to_move, "day_clock": is_day_clock(table.row.move_seconds),
                "deadline": clock["deadline"] if clock and to_move else None,
            })  # fmt: skip
        return {"turns": found}

    return api
