"""Games across days: a move clock of 1, 2, 3 or 7 days instead of seconds, and the "Your
turn" list of every table where a browser's seat is to move.

A day-clock table is never let go for want of listeners (a person comes back tomorrow,
not within the half hour after which other tables leave memory): it stays live, and as
an unfinished table it is rebuilt from its log after a restart like any other. When its
clock runs out the move clock plays for the seat, as it does in seconds.

``POST /api/turns {"seats": [{"table": ID, "seat": n, "key": K}, ...]}`` answers, for each
seat whose key opens it at an unfinished table, whether it is that seat's turn and until
when: the lobby lists those (its title counts them), across all of the browser's tables.
With the player key (``"player": P``) the list follows the player rather than the
browser: the seats asked about are remembered for that key (their seat keys wrapped with
it, player_keys.wrap_seat_key), and the answer adds every other seat remembered for it,
with its key, so a device that took the player key by "Continue on another device" lists
(and opens) the tables joined since on the first one.

>>> move_clock_seconds(86_400), move_clock_seconds(5_000), move_clock_seconds(60)
(86400, 3600, 60)
>>> is_day_clock(2 * DAY), is_day_clock(3600)
(True, False)
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from cardtable.core.errors import CardtableError
from cardtable.server import match_store as kept
from cardtable.server.match_store import PlayerSeatRow
from cardtable.server.player_keys import player_hash, unwrap_seat_key, wrap_seat_key
from cardtable.server.roster import Roster
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
    player: str | None = Field(default=None, max_length=64)


async def table_to_read(
    hub: Hub,
    table_id: str,
    statuses: tuple[str, ...] = ("playing",),
    opens: tuple[int, str] | None = None,
) -> LiveTable | None:
    """The table, to read its state (whose turn, who won): one this process holds; else,
    if its stored status is one of ``statuses`` (and, given ``opens`` = (seat, key), that
    key opens that seat: nobody makes the server replay a table with a made-up key),
    rebuilt from the store. Alone, this process takes it live (a table left and come back
    to); in a cluster a copy is only read and dropped, so that a request answered here (a
    lobby's "Your turn", a player's ratings) never pulls a table away from the process
    that holds it."""
    table = hub.tables.get(table_id)
    if table is not None and not (hub.cluster and await hub.cluster.held_elsewhere(table_id)):
        return table
    row = await asyncio.to_thread(hub.store.table, table_id)
    if row is None or row.status not in statuses:  # finished, or left long ago: no turn
        return None
    if opens is not None and not Roster.from_rows(row.seats).key_matches(*opens):
        return None
    if hub.cluster is None:
        return await hub.table(table_id)
    return await asyncio.to_thread(LiveTable, row, hub.store.moves(row.id), hub)


async def turn_of(hub: Hub, held: HeldSeat) -> dict[str, Any] | None:
    """Whether ``held`` is to move and until when; None for a seat its key does not open,
    at a finished or unknown table."""
    try:
        table = await table_to_read(hub, held.table, opens=(held.seat, held.key))
    except CardtableError:
        return None
    if table is None or table.finished or not table.roster.key_matches(held.seat, held.key):
        return None
    waiting = bool(table.roster.waiting_for()) or table.round_break is not None
    to_move = held.seat in table.state.to_move and not waiting
    clock = table.clock()
    return {
        "table": table.id, "seat": held.seat, "game": table.row.game,
        "title": table.game.spec.title,
        "your_turn": to_move, "day_clock": is_day_clock(table.row.move_seconds),
        "deadline": clock["deadline"] if clock and to_move else None,
    }  # fmt: skip


async def players_turns(hub: Hub, key: str, asked: list[HeldSeat], found: list[Any]) -> list[Any]:
    """The turns at the player's remembered seats beyond ``asked`` (each with its key, to
    open it here); the open seats of ``found`` are remembered, the ended ones let go."""
    player = player_hash(key)
    now = time.time()
    opened = {(turn["table"], turn["seat"]) for turn in found}
    held = [
        PlayerSeatRow(player=player, table_id=seat.table, seat=seat.seat,
                      wrapped=wrap_seat_key(key, seat.table, seat.seat, seat.key), at=now)
        for seat in asked if (seat.table, seat.seat) in opened
    ]  # fmt: skip
    await asyncio.to_thread(kept.hold_seats, hub.store, held)
    rows = await asyncio.to_thread(kept.player_seats, hub.store, player, MAX_SEATS)
    asked_here = {(seat.table, seat.seat) for seat in asked}
    more, ended = [], []
    for row in rows:
        if (row.table_id, row.seat) in asked_here:
            continue
        seat_key = unwrap_seat_key(key, row.table_id, row.seat, row.wrapped)
        turn = await turn_of(hub, HeldSeat(table=row.table_id, seat=row.seat, key=seat_key[:64]))
        if turn is not None:
            more.append({**turn, "key": seat_key})
        elif await ended_or_gone(hub, row.table_id):  # not one still waiting for people
            ended.append(row.table_id)
    if ended:
        await asyncio.to_thread(kept.let_go_seats, hub.store, player, ended)
    return more


async def over_for_good(hub: Hub, table_id: str) -> bool:
    """Whether the table is over: finished (held here or stored), abandoned, or unknown."""
    live = hub.tables.get(table_id)
    return live.finished if live is not None else await ended_or_gone(hub, table_id)


async def ended_or_gone(hub: Hub, table_id: str) -> bool:
    row = await asyncio.to_thread(hub.store.table, table_id)
    return row is None or row.status in ("finished", "abandoned")


def router(hub: Hub) -> APIRouter:
    api = APIRouter(prefix="/api")

    @api.post("/turns")
    async def turns(body: Seats) -> dict[str, Any]:
        """Where each of these seats is to move now (the tables this process holds or can
        rebuild; a wrong key, a finished table or an unknown one says nothing), and, with
        the player key, where the player's other seats are. ``ended``: the tables asked
        about that are over, abandoned or unknown (the page asks about them no more)."""
        found, ended = [], []
        for held in body.seats:
            turn = await turn_of(hub, held)
            if turn is not None:
                found.append(turn)
            elif await over_for_good(hub, held.table):
                ended.append(held.table)
        if body.player:
            found += await players_turns(hub, body.player, body.seats, found)
        return {"turns": found, "ended": ended}

    return api
