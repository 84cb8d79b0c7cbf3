"""The waiting room over HTTP: an invited person chooses a name, the creator fills the seats
nobody took with bots, and an invite link becomes a QR code for a phone at the same table.
The game starts when every human seat is taken (``LiveTable.waiting_for``). Later the
creator may give the seat of a person who left to a bot."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from typing import Any

import segno
from fastapi import APIRouter, HTTPException, Query, Request, Response
from pydantic import BaseModel, Field

from cardtable.agents import make_agent
from cardtable.server.http_guards import client_address, too_many
from cardtable.server.limits import ClientLimits
from cardtable.server.tables import LiveTable

MAX_QR_TEXT = 300  # an invite link is about 80 characters


class SeatKey(BaseModel):
    seat: int
    key: str = Field(max_length=64)


class Rename(BaseModel):
    seat: int
    key: str = Field(max_length=64)
    name: str = Field(max_length=64)


class Fill(BaseModel):
    seat: int
    key: str = Field(max_length=64)
    bot: str = Field(default="medium", max_length=40)
    names: dict[int, str] = Field(default_factory=dict)


class HandToBot(BaseModel):
    seat: int  # the host's seat and key
    key: str = Field(max_length=64)
    left: int  # the seat its person left
    bot: str = Field(default="medium", max_length=40)


def host_only(table: LiveTable, seat: int, doing: str) -> None:
    """Refuse (403) what only the person who made the table may do."""
    if seat != table.roster.host:
        message = f"only the person who made the table {doing}"
        raise HTTPException(403, detail={"code": "forbidden", "message": message})


def router(live: Callable[[str], Awaitable[LiveTable]], limits: ClientLimits) -> APIRouter:
    api = APIRouter()

    async def seated(table_id: str, seat: int, key: str, http: Request) -> LiveTable:
        """The table, when ``key`` is the key of ``seat`` (wrong keys spend the address's tries)."""
        address = client_address(http.scope)
        if limits.bad_keys.exhausted(address):
            raise too_many("too many wrong seat keys: wait a minute")
        table = await live(table_id)
        if not table.roster.key_matches(seat, key):
            limits.bad_keys.allow(address)
            raise HTTPException(403, detail={"code": "forbidden", "message": "wrong seat key"})
        return table

    @api.post("/api/tables/{table_id}/key")
    async def check_key(table_id: str, body: SeatKey, http: Request) -> dict[str, Any]:
        """Whether an invite's key is its seat's (before the page asks for a name)."""
        await seated(table_id, body.seat, body.key, http)
        return {"seat": body.seat, "ok": True}

    @api.post("/api/tables/{table_id}/name")
    async def rename(table_id: str, body: Rename, http: Request) -> dict[str, Any]:
        table = await seated(table_id, body.seat, body.key, http)
        return {"seat": body.seat, "name": await table.rename(body.seat, body.name)}

    @api.post("/api/tables/{table_id}/fill")
    async def fill(table_id: str, body: Fill, http: Request) -> dict[str, Any]:
        table = await seated(table_id, body.seat, body.key, http)
        host_only(table, body.seat, "fills its seats with bots")
        make_agent(body.bot, table.row.game)  # an unknown bot names the valid ones
        return {"filled": await table.fill_with_bots(body.bot, body.names)}

    @api.post("/api/tables/{table_id}/hand-to-bot")
    async def hand_to_bot(table_id: str, body: HandToBot, http: Request) -> dict[str, Any]:
        """The host gives the seat of a person who left to a bot, so the game goes on."""
        table = await seated(table_id, body.seat, body.key, http)
        host_only(table, body.seat, "gives a seat to a bot")
        make_agent(body.bot, table.row.game)  # an unknown bot names the valid ones
        await table.hand_to_bot(body.left, body.bot)
        return {"seat": body.left, "kind": table.seats[body.left].kind}

    @api.get("/api/qr")
    def qr(text: str = Query(max_length=MAX_QR_TEXT)) -> Response:
        """``text`` (an invite link) as a QR code, in SVG."""
        out = io.BytesIO()
        segno.make(text, error="m").save(out, kind="svg", scale=5, border=2, dark="#231f20")
        return Response(out.getvalue(), media_type="image/svg+xml")

    return api
