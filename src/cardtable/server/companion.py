"""Companion pads over HTTP: a pad is its game, options and the rounds entered so far,
kept in the app's database so a closed tab loses nothing. Scores are always computed
on the server by the engine's own scoring (see :mod:`cardtable.companion`)."""

from __future__ import annotations

import secrets
import time
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, Field

from cardtable.companion.hanafuda import GAMES, RoundFacts, score_round, settlement
from cardtable.companion.ohanami import STAGES, Garden, OhanamiPad, stage_result
from cardtable.companion.siedem import PadProblem, WordRound, play_pad, play_round
from cardtable.core.errors import CardtableError
from cardtable.core.game import load, spec_of
from cardtable.games.siedem_slow import SiedemSlowState
from cardtable.games.siedem_slow.scoring import normalize
from cardtable.games.siedem_slow.tables import SOLO_TARGET
from cardtable.server.client_options import game_for_client
from cardtable.server.http_guards import client_address
from cardtable.server.limits import ClientLimits
from cardtable.server.rules_pages import anchors
from cardtable.server.store import CompanionRow, Store

MAX_ROUNDS = 64


class NewPad(BaseModel):
    kind: str = Field(pattern="^(hanafuda|ohanami|siedem-slow)$")
    game: str = Field(max_length=40)
    preset: str | None = Field(default=None, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)


class PadData(BaseModel):
    rounds: list[Any] = Field(default_factory=list, max_length=MAX_ROUNDS)
    current: Any = None


def _bad(error: Exception) -> HTTPException:
    return HTTPException(400, detail={"code": "bad_request", "message": str(error)})


def hanafuda_results(game: str, options: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """Every saved round scored, the running totals and who pays whom, and the round being
    entered (or why it cannot be scored yet)."""
    start = load(game, **options).new_state(seed=0).scores()
    totals = list(start)
    rounds = []
    for entry in data.get("rounds", []):
        result = score_round(game, options, RoundFacts.from_json(entry))
        rounds.append(result.to_json())
        totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
    out: dict[str, Any] = {"rounds": rounds, "totals": totals}
    change = [t - s for t, s in zip(totals, start, strict=True)]
    out["settlement"] = [list(p) for p in settlement(change)] if sum(change) == 0 else []
    current = data.get("current")
    if current:
        try:
            result = score_round(game, options, RoundFacts.from_json(current))
            out["current"] = result.to_json()
            out["current_settlement"] = [list(p) for p in settlement(result.scores)]
            # scores that do not add up to zero cannot be settled in full: say so
            out["current_balance"] = sum(result.scores)
        except CardtableError as error:
            out["current_error"] = str(error)
    return out


def ohanami_results(options: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """Every finished stage scored, totals, who leads after the tie break, and the stage
    being entered."""
    pad = OhanamiPad(players=int(options.get("players", 2)), options=options)
    for gardens in data.get("rounds", []):
        pad.add_stage([Garden.from_json(g) for g in gardens])
    out: dict[str, Any] = {
        "rounds": [r.to_json() for r in pad.stages],
        "totals": list(pad.totals),
        "leaders": pad.leaders() if pad.stages else [],
        "settlement": [],
    }
    current = data.get("current")
    if current and len(pad.stages) < STAGES:
        try:
            stage = len(pad.stages) + 1
            result = stage_result(
                pad.players, stage, [Garden.from_json(g) for g in current], options
            )
            out["current"] = result.to_json()
        except CardtableError as error:
            out["current_error"] = str(error)
    return out


def words_results(options: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """Every saved round replayed through the engine: lines, bonus boxes, totals; at the end
    the strike-out and the winners; and the round being entered, or why it is refused."""
    players = int(options.get("players", 2))
    state = play_pad(players, options, [WordRound.from_json(r) for r in data.get("rounds", [])])
    out: dict[str, Any] = {
        "rounds": [r.to_json() for r in state.results],
        "totals": list(state.scores()),
        "marks": [
            [{"round": m.round, "box": m.box, "value": m.value} for m in marks]
            for marks in state.marks
        ],
        "over": state.is_over,
        "leaders": list(state.result().winners),
        "settlement": [],
    }
    if state.solo:
        target = SOLO_TARGET[state.options.difficulty]
        out["solo"] = {"field": state.field_name, "target": target}
    current = data.get("current")
    if current and not state.is_over:
        preview = state.clone()
        assert isinstance(preview, SiedemSlowState)
        try:
            entry = WordRound.from_json(current)
            out["warnings"] = [
                state.family_warning(seat, normalize(word)) if word.strip() else None
                for seat, word in enumerate(entry.words[: state.n])
            ]
            play_round(preview, entry)
            out["current"] = preview.results[len(state.results)].to_json()
        except PadProblem as problem:
            out["current_error"] = str(problem)
            out["current_error_seat"] = problem.seat
        except CardtableError as error:
            out["current_error"] = str(error)
    return out


def results_of(
    kind: str, game: str, options: dict[str, Any], data: dict[str, Any]
) -> dict[str, Any]:
    if kind == "ohanami":
        return ohanami_results(options, data)
    if kind == "siedem-slow":
        return words_results(options, data)
    return hanafuda_results(game, options, data)


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
            "players": load(row.game, **row.options).players,
            "rule_sections": anchors(row.game),
            "data": row.data,
            "results": results_of(row.kind, row.game, row.options, row.data),
        }

    @api.post("", status_code=201)
    def create(body: NewPad, request: Request) -> dict[str, Any]:
        if not limits.tables.allow(client_address(request.scope)):
            message = "too many pads made from this address: wait a minute"
            raise HTTPException(429, detail={"code": "rate_limited", "message": message})
        known = {"hanafuda": GAMES, "ohanami": ("ohanami",), "siedem-slow": ("siedem-slow",)}[
            body.kind
        ]
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
            results_of(row.kind, row.game, row.options, {**data, "current": None})
        except (CardtableError, TypeError, AttributeError, KeyError) as error:
            raise _bad(error) from None
        store.save_companion(row.id, data)
        row.data = data
        return answer(row)

    return api
