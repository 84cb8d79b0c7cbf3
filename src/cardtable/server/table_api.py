"""The tables over HTTP: make one (or a guided first game), list the open ones, look one
up, take a free seat, ask for a rematch."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from cardtable.learn import LESSON_PRESET, ScriptedBot, lesson_of
from cardtable.server.day_clock import DAY
from cardtable.server.http_guards import client_address, too_many
from cardtable.server.hub import Hub, TableRequest
from cardtable.server.limits import ClientLimits
from cardtable.server.tables import LiveTable


class CreateLesson(BaseModel):
    names: list[str] = Field(default_factory=list, max_length=6)


class CreateTable(BaseModel):
    game: str = Field(max_length=40)
    seats: list[str] = Field(min_length=1, max_length=6)
    preset: str | None = Field(default=None, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    names: list[str] = Field(default_factory=list, max_length=6)
    public: bool = True
    # seconds (0: none, at most an hour) or whole days of day_clock.DAYS
    move_seconds: int = Field(default=0, ge=0, le=7 * DAY)
    coach: bool = False


class Claim(BaseModel):
    seat: int | None = None


class SeatKey(BaseModel):
    seat: int
    key: str = Field(max_length=64)


async def live_table(hub: Hub, table_id: str) -> LiveTable:
    """The table, brought back from the store if it sleeps there (a 404 when there is none,
    answered by app.py's handler of refusals)."""
    return await hub.table(table_id)


async def open_table(hub: Hub, body: CreateTable, http: Request) -> dict[str, Any]:
    """Make the table ``body`` asks for, counted against the asker's address: the asker's
    seat and key, and an invite link for every other person's seat. (The address's
    table limit was spent before the body was read: app.py's LimitsFirst.)"""
    address = client_address(http.scope)
    request = TableRequest(
        game=body.game,
        seats=tuple(body.seats),
        preset=body.preset or None,
        options=body.options,
        names=tuple(body.names),
        public=body.public,
        move_seconds=body.move_seconds,
        coach=body.coach,
    )
    table, keys = await hub.create(request, creator=address)
    seat = next(n for n, k in enumerate(keys) if k is not None)
    invites = [
        {"seat": n, "url": f"/t/{table.id}?seat={n}&key={k}"}
        for n, k in enumerate(keys)
        if k is not None and n != seat
    ]
    return {
        "id": table.id,
        "seat": seat,
        "key": keys[seat],
        "url": f"/t/{table.id}?seat={seat}&key={keys[seat]}",
        "invites": invites,
        "commitment": table.row.commitment,
    }


def lesson_table(game_id: str, body: CreateLesson) -> CreateTable:
    """The table of a guided first game of ``game_id``: the learner's seat, the others
    scripted, never public."""
    lesson = lesson_of(game_id)
    seats = [
        "human" if n == lesson.learner else f"bot:{ScriptedBot.name}"
        for n in range(lesson.load().num_players)
    ]
    return CreateTable(
        game=game_id, seats=seats, preset=LESSON_PRESET, names=body.names, public=False
    )


async def rematch_of(
    hub: Hub, limits: ClientLimits, table_id: str, body: SeatKey, address: str
) -> LiveTable:
    """The finished table's rematch, asked by one of its players (their seat key)."""
    if limits.bad_keys.exhausted(address):
        raise too_many("too many wrong seat keys: wait a minute")
    table = await live_table(hub, table_id)
    if not table.roster.key_matches(body.seat, body.key):
        limits.bad_keys.allow(address)  # each wrong key spends one of the address's tries
        raise HTTPException(403, detail={"code": "forbidden", "message": "wrong seat key"})
    if not table.row.rematch_id and not limits.tables.allow(address):
        raise too_many("too many tables made from this address: wait a minute")
    return await hub.rematch(table, creator=address)


def router(hub: Hub, limits: ClientLimits) -> APIRouter:
    api = APIRouter(prefix="/api")

    @api.post("/tables", status_code=201)
    async def create_table(body: CreateTable, http: Request) -> dict[str, Any]:
        if body.preset == LESSON_PRESET:  # its deal is public: only /api/learn makes one
            message = "a guided game is started from its lesson page, /learn/GAME"
            raise HTTPException(400, detail={"code": "bad_preset", "message": message})
        return await open_table(hub, body, http)

    @api.post("/learn/{game_id}", status_code=201)
    async def create_lesson(game_id: str, body: CreateLesson, http: Request) -> dict[str, Any]:
        """A guided first game of ``game_id``: the learner's seat, the others scripted."""
        return await open_table(hub, lesson_table(game_id, body), http)

    @api.get("/tables")
    def lobby() -> list[dict[str, Any]]:
        return hub.lobby()

    @api.get("/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        return (await live_table(hub, table_id)).frames.meta()

    @api.post("/tables/{table_id}/claim")
    async def claim(table_id: str, body: Claim) -> dict[str, Any]:
        table = await live_table(hub, table_id)
        seat, key = table.claim(body.seat)
        await table.seat_taken()
        return {"seat": seat, "key": key, "url": f"/t/{table.id}?seat={seat}&key={key}"}

    @api.post("/tables/{table_id}/rematch")
    async def rematch(table_id: str, body: SeatKey, http: Request) -> dict[str, Any]:
        new = await rematch_of(hub, limits, table_id, body, client_address(http.scope))
        return {"id": new.id, "url": f"/t/{new.id}?seat={body.seat}&key={body.key}"}

    return api
