"""A finished game over HTTP: its record, its replay (every view, with round marks), the
coach's review, and the signatures that let anyone check a record."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, HTTPException, Query, Request
from fastapi.responses import JSONResponse

from cardtable.core.record import GameRecord
from cardtable.server.client_options import check_record_options
from cardtable.server.fairness import field_problems, verdict_json, verify
from cardtable.server.http_guards import client_address, too_many
from cardtable.server.hub import Hub
from cardtable.server.limits import ClientLimits
from cardtable.server.table_api import live_table
from cardtable.server.tables import LiveTable
from cardtable.server.workers import HintsBusy


def replay_views(data: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: spectator) before the first move and after each move,
    and the steps where each round (or stage) begins: the replay's round marks."""
    record = GameRecord.from_json(data)
    views, rounds, scored = [], [0], 0
    for step, state in enumerate(record.states()):
        views.append(state.view(seat, brief=False))
        if state.rounds_finished > scored and not state.is_over:
            rounds.append(step)  # a round was scored by the move before: the next begins
        scored = state.rounds_finished
    return {"views": views, "rounds": rounds}


def checked_record(table: LiveTable) -> dict[str, Any]:
    """The table's record, once its game is over and its options may be shown."""
    data = table.record_json()
    check_record_options(data)
    return data


def review_allowed(limits: ClientLimits, table: LiveTable, seat: int, key: str | None,
                   address: str) -> None:  # fmt: skip
    """A review is of a person's seat in a finished game; a private game's needs the seat
    key (each wrong one spends one of the address's tries)."""
    if not 0 <= seat < len(table.seats) or table.seats[seat].is_bot:
        message = f"seat {seat} is not a person's seat at this table"
        raise HTTPException(400, detail={"code": "bad_request", "message": message})
    if not table.finished:
        message = "the review comes when the game is over"
        raise HTTPException(409, detail={"code": "not_finished", "message": message})
    if table.row.public:
        return
    if limits.bad_keys.exhausted(address):
        raise too_many("too many wrong seat keys: wait a minute")
    if not table.roster.key_matches(seat, key):
        limits.bad_keys.allow(address)
        raise HTTPException(403, detail={"code": "forbidden", "message": "wrong seat key"})


def router(hub: Hub, limits: ClientLimits) -> APIRouter:
    api = APIRouter(prefix="/api")

    @api.get("/tables/{table_id}/record")
    async def record(table_id: str) -> JSONResponse:
        table = await live_table(hub, table_id)
        data = table.record_json()
        headers = {"Content-Disposition": f'attachment; filename="cardtable-{table.id}.json"'}
        return JSONResponse(data, headers=headers)

    @api.get("/tables/{table_id}/replay")
    async def replay(table_id: str, seat: Annotated[int | None, Query()] = None) -> dict[str, Any]:
        table = await live_table(hub, table_id)
        if seat is not None and not 0 <= seat < len(table.seats):
            message = f"no seat {seat} at this table (seats 0 to {len(table.seats) - 1})"
            raise HTTPException(400, detail={"code": "bad_request", "message": message})
        data = checked_record(table)
        return {
            "record": data,
            "verdict": verify(data, trusted_key=hub.signer().public_key).to_json(),
            **replay_views(data, seat),
        }

    @api.get("/tables/{table_id}/review")
    async def review(
        table_id: str,
        http: Request,
        seat: Annotated[int, Query()],
        key: Annotated[str | None, Query(max_length=64)] = None,
    ) -> dict[str, Any]:
        """The moves where ``seat`` lost most against the strong bot (a job: ask again
        while ``status`` is ``working``). A finished public game's review is for anyone;
        a private one's needs the seat key."""
        table = await live_table(hub, table_id)
        address = client_address(http.scope)
        review_allowed(limits, table, seat, key, address)
        # a new review spends one of the address's hints: it runs the same search
        if not hub.reviews.running(table, seat) and not limits.hints.allow(address):
            raise too_many("too many hints and reviews from this address: wait a little")
        return hub.reviews.ask(table, seat, address).to_json()

    @api.get("/signing-key")
    def signing_key() -> dict[str, str]:
        """The public key this server signs game records with (Ed25519, hex)."""
        return {"algorithm": "Ed25519", "key": hub.signer().public_key}

    @api.post("/verify")
    async def verify_upload(
        data: Annotated[dict[str, Any], Body()], http: Request
    ) -> dict[str, Any]:
        """Check an uploaded record: its fields first (a 400 names the wrong ones), then
        its whole replay in a compute worker's idle slot, never in the server's own
        process (a busy server says so: 503, try again). Limited per address before the
        body is read (app.py's LimitsFirst)."""
        log_length = len(data.get("log") or ()) if isinstance(data.get("log"), list) else 0
        if log_length > hub.settings.max_verify_moves:
            message = f"a game record may have at most {hub.settings.max_verify_moves} moves"
            raise HTTPException(413, detail={"code": "too_large", "message": message})
        problems = field_problems(data)
        if problems:
            message = "not a valid game record: " + "; ".join(problems)
            raise HTTPException(400, detail={"code": "bad_record", "message": message})
        check_record_options(data)
        key = hub.signer().public_key
        try:
            return await hub.workers.background(
                verdict_json, data, key, address=client_address(http.scope)
            )
        except HintsBusy:
            message = "the server is busy: check the record again in a moment"
            raise HTTPException(503, detail={"code": "busy", "message": message}) from None

    return api
