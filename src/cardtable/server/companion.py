"""Companion pads over HTTP: a pad is its game, options and the rounds entered so far,
kept in the app's database so a closed tab loses nothing. Scores are always computed
on the server by the engine's own scoring (see :mod:`cardtable.companion`)."""

from __future__ import annotations

import secrets
import time
from typing import Any

from fastapi import APIRouter, HTTPException
from pydantic import BaseModel, Field

from cardtable.companion import pad_games, results
from cardtable.core.errors import CardtableError
from cardtable.core.game import load, spec_of
from cardtable.core.rule_pages import anchors
from cardtable.server.client_options import game_for_client
from cardtable.server.limits import ClientLimits
from cardtable.server.store import CompanionRow, Store

MAX_ROUNDS = 64


class NewPad(BaseModel):
    kind: str = Field(max_length=40)
    game: str = Field(max_length=40)
    preset: str | None = Field(default=None, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)


class PadData(BaseModel):
    rounds: list[Any] = Field(default_factory=list, max_length=MAX_ROUNDS)
    current: Any = None


def _bad(error: Exception) -> HTTPException:
    message = error.public_message() if isinstance(error, CardtableError) else str(error)
    return HTTPException(400, detail={"code": "bad_request", "message": message})


def router(store: Store, limits: ClientLimits) -> APIRouter:
    api = APIRouter(prefix="/api/companion")

    def pad(pad_id: str) -> CompanionRow:
        row = store.companion(pad_id) if len(pad_id) <= 32 else None
        if row is None:
            raise HTTPException(404, detail={"code": "not_found", "message": "no such pad"})
        return row

    def answer(row: CompanionRow) -> dict[str, Any]:
        return {
            "id": row.id,
            "kind": row.kind,
            "game": row.game,
            "title": spec_of(row.game).title,
            "options": row.options,
            "players": load(row.game, **row.options).num_players,
            "rule_sections": anchors(row.game),
            "data": row.data,
            "results": results(row.game, row.options, row.data),
        }

    @api.post("", status_code=201)
    def create(body: NewPad) -> dict[str, Any]:
        """A new pad (limited per address with the tables: app.py's LimitsFirst)."""
        known = pad_games(body.kind)
        if not known:
            message = "there is no such pad"  # never the kind asked: it is the client's text
            raise HTTPException(422, detail={"code": "bad_request", "message": message})
        if body.game not in known:
            raise _bad(ValueError(f"the {body.kind} pad knows {', '.join(known)}"))
        try:
            game = game_for_client(body.game, body.preset or None, body.options)
        except CardtableError as error:
            raise _bad(error) from None
        now = time.time()
        row = CompanionRow(
            id=secrets.token_urlsafe(12),
            kind=body.kind,
            game=game.id,
            options=game.options.model_dump(mode="json"),
            data={"rounds": [], "current": None},
            created_at=now,
            updated_at=now,
        )
        store.add_companion(row)
        return answer(row)

    @api.get("/{pad_id}")
    def read(pad_id: str) -> dict[str, Any]:
        return answer(pad(pad_id))

    @api.put("/{pad_id}")
    def write(pad_id: str, body: PadData) -> dict[str, Any]:
        row = pad(pad_id)
        data = body.model_dump()
        try:  # nothing unreadable is stored: every saved round must score
            results(row.game, row.options, {**data, "current": None})
        except (CardtableError, TypeError, AttributeError, KeyError) as error:
            raise _bad(error) from None
        store.save_companion(row.id, data)
        row.data = data
        return answer(row)

    return api
