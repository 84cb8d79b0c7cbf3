"""The FastAPI application: HTTP API, WebSocket play and the static browser client.

>>> from cardtable.server.app import create_app
>>> app = create_app("sqlite:///:memory:")
>>> paths = sorted({getattr(route, "path", "") for route in app.routes})
>>> [path for path in paths if path.startswith("/api/tables")][:3]
['/api/tables', '/api/tables/{table_id}', '/api/tables/{table_id}/claim']
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import threading
from collections.abc import AsyncIterator
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, HTTPException, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import (
    FileResponse,
    HTMLResponse,
    JSONResponse,
    RedirectResponse,
    Response,
)
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field

from cardtable.agents import advanced_agents, agent_names, bot_levels, describe_agents
from cardtable.companion import pad_aliases, pad_of, scorer
from cardtable.core.errors import CardtableError
from cardtable.core.game import Capability, game_ids, load, prepare_games, spec_of
from cardtable.core.record import GameRecord
from cardtable.core.web import WebClient
from cardtable.learn import LESSON_PRESET, ScriptedBot, lesson_of
from cardtable.locales import LANGUAGES, bot_help_key
from cardtable.locales import catalogue as messages
from cardtable.server.cards import card_data, web_clients
from cardtable.server.client_options import check_record_options
from cardtable.server.companion import router as companion_router
from cardtable.server.fairness import verify
from cardtable.server.http_guards import (
    BodyLimit,
    client_address,
    http_error,
    quiet_client_tracebacks,
    too_many,
    validation_answer,
)
from cardtable.server.limits import ClientLimits
from cardtable.server.pages import language_of, not_found_html
from cardtable.server.rating import router as rating_router
from cardtable.server.rules_pages import anchors, page_html
from cardtable.server.seating import router as seating_router
from cardtable.server.settings import Settings
from cardtable.server.sockets import play as play_socket
from cardtable.server.store import StorageUnavailable, Store
from cardtable.server.tables import Hub, LiveTable, TableRequest
from cardtable.server.transfers import TransferBox
from cardtable.server.transfers import router as transfers_router

log = logging.getLogger("cardtable.server")


def prepare_in_background() -> None:
    """Each game's slow first-use work (7 słów's dictionary index), done while the server
    already serves; a table that needs it meanwhile waits for the same work."""
    for game_id, made in prepare_games():
        if isinstance(made, Exception):  # that game's first table will say what is wrong
            log.error("%s: preparing failed", game_id, exc_info=made)
        else:
            log.info("%s ready: %s", game_id, "; ".join(made) or "nothing to prepare")


WEB_ROOT = Path(str(resources.files("cardtable") / "web"))


class CreateLesson(BaseModel):
    names: list[str] = Field(default_factory=list, max_length=6)


class CreateTable(BaseModel):
    game: str = Field(max_length=40)
    seats: list[str] = Field(min_length=1, max_length=6)
    preset: str | None = Field(default=None, max_length=40)
    options: dict[str, Any] = Field(default_factory=dict)
    names: list[str] = Field(default_factory=list, max_length=6)
    public: bool = True
    move_seconds: int = Field(default=0, ge=0, le=3600)
    coach: bool = False


class Claim(BaseModel):
    seat: int | None = None


class SeatKey(BaseModel):
    seat: int
    key: str = Field(max_length=64)


async def _storage_answer(_request: Request, exc: Exception) -> JSONResponse:
    detail = {"code": "storage_unavailable", "message": str(exc)}
    return JSONResponse({"detail": detail}, status_code=503)


def pads_by_game() -> dict[str, WebClient]:
    """The browser client of each game that has a score pad page and a scorer behind it."""
    return {
        game_id: client
        for game_id, client in web_clients().items()
        if client.pad and spec_of(game_id).has(Capability.COMPANION)
    }


def game_catalogue() -> list[dict[str, Any]]:
    """Every game as the browser needs it: options, bots, where its client lives, its pad."""
    clients, pads = web_clients(), pads_by_game()
    out = []
    for game_id in game_ids():
        spec = spec_of(game_id)
        entry: dict[str, Any] = {
            "id": game_id,
            "title": spec.title,
            "summary": spec.summary,
            "family": spec.family,
            "players": list(spec.info.players),
            "default_players": load(game_id).num_players,
            "presets": list(spec.presets),
            "schema": spec.options_model.model_json_schema(),
            "bots": agent_names(game_id),
            "bot_descriptions": describe_agents(game_id),
            # the levels a player picks from (weakest first); the other bots are technical
            "bot_levels": bot_levels(game_id),
            "bots_advanced": advanced_agents(game_id),
            # each bot's explanation in the catalogue (a game's own words where it has them)
            "bot_help": {name: bot_help_key(game_id, name) for name in agent_names(game_id)},
            "rule_sections": anchors(game_id),
            "hints": spec.has(Capability.HINTS),
            "lesson": spec.has(Capability.LESSON),  # a guided first game at /learn/GAME
        }
        client = clients.get(game_id)
        if client is not None:
            entry["renderer"] = client.url(client.renderer)
            if client.has_style:
                entry["style"] = client.url(client.style)
        if game_id in pads:
            pad = scorer(game_id)
            entry["pad"] = {"kind": pad.PAD, "url": f"/companion/{pad.PAD}", "label": pad.LINK}
        out.append(entry)
    # the featured game first (the lobby's default), then the registry's order
    return sorted(out, key=lambda entry: not spec_of(entry["id"]).info.featured)


def create_app(db_url: str = "sqlite:///cardtable.db", settings: Settings | None = None) -> FastAPI:
    """The whole web app on one database."""
    store = Store(db_url)
    hub = Hub(store, settings)
    limits = ClientLimits(hub.settings)
    quiet_client_tracebacks()

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # the signing key, before any record is asked for (made and kept on the first start)
        with contextlib.suppress(StorageUnavailable):
            await asyncio.to_thread(hub.signer)
        restored = await hub.restore()
        if restored:
            log.info("restored %d unfinished tables", restored)
        # what exists at start lives as long as the server: keep it out of every collection,
        # and collect the young generation less often (many small frames, few cycles)
        gc.freeze()
        gc.set_threshold(20_000, 20, 100)
        # a daemon thread: a server stopped while a dictionary builds does not wait for it
        threading.Thread(target=prepare_in_background, name="prepare-games", daemon=True).start()
        chores = [
            asyncio.create_task(hub.workers.warm(), name="warm"),
            asyncio.create_task(hub.sweep(), name="sweep"),
            asyncio.create_task(watch_storage(store, hub.settings), name="storage"),
        ]
        yield
        for chore in chores:
            chore.cancel()
        await hub.close()
        store.close()

    app = FastAPI(title="cardtable", version="0.1.0", lifespan=lifespan)
    app.state.hub = hub
    app.state.limits = limits
    app.add_middleware(
        BodyLimit, max_bytes=hub.settings.max_body_bytes, seconds=hub.settings.request_seconds
    )
    app.add_exception_handler(RequestValidationError, validation_answer)
    app.add_exception_handler(StorageUnavailable, _storage_answer)
    catalogue = game_catalogue()

    async def live(table_id: str) -> LiveTable:
        try:
            return await hub.table(table_id)
        except CardtableError as exc:
            raise http_error(exc) from None

    # -- API -----------------------------------------------------------------------------
    @app.get("/api/games")
    def games() -> list[dict[str, Any]]:
        return catalogue

    @app.get("/api/cards")
    def cards() -> dict[str, Any]:
        return card_data()

    @app.get("/api/locales/{lang}")
    def locale(lang: str) -> Response:
        if lang not in LANGUAGES:
            raise HTTPException(
                404, detail={"code": "not_found", "message": f"no language {lang!r}"}
            )
        return JSONResponse(messages(lang))

    @app.get("/api/health")
    def health() -> JSONResponse:
        """Whether the server can store moves now (503 while its storage is unavailable)."""
        answer: dict[str, Any] = {"tables_in_memory": len(hub.tables)}
        with contextlib.suppress(StorageUnavailable):
            # tables made, looked at and left (seed shopping shows here)
            answer["tables_abandoned"] = store.count("abandoned")
        storage = store.health.to_json()
        answer["status"] = "ok" if storage["ok"] else "storage_unavailable"
        answer["storage"] = storage
        return JSONResponse(answer, status_code=200 if storage["ok"] else 503)

    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateTable, http: Request) -> dict[str, Any]:
        if body.preset == LESSON_PRESET:  # its deal is public: only /api/learn makes one
            message = "a guided game is started from its lesson page, /learn/GAME"
            raise HTTPException(400, detail={"code": "bad_preset", "message": message})
        return await open_table(body, http)

    async def open_table(body: CreateTable, http: Request) -> dict[str, Any]:
        address = client_address(http.scope)
        if not limits.tables.allow(address):
            raise too_many("too many tables made from this address: wait a minute")
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
        try:
            table, keys = await hub.create(request, creator=address)
        except CardtableError as exc:
            raise http_error(exc) from None
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

    @app.post("/api/learn/{game_id}", status_code=201)
    async def create_lesson(game_id: str, body: CreateLesson, http: Request) -> dict[str, Any]:
        """A guided first game of ``game_id``: the learner's seat, the others scripted."""
        try:
            lesson = lesson_of(game_id)
        except CardtableError as exc:
            raise http_error(exc) from None
        seats = tuple(
            "human" if n == lesson.learner else f"bot:{ScriptedBot.name}"
            for n in range(lesson.load().num_players)
        )
        table = CreateTable(
            game=game_id, seats=list(seats), preset=LESSON_PRESET, names=body.names, public=False
        )
        return await open_table(table, http)

    @app.get("/api/tables")
    def lobby() -> list[dict[str, Any]]:
        return hub.lobby()

    @app.get("/api/tables/{table_id}")
    async def table_info(table_id: str) -> dict[str, Any]:
        return (await live(table_id)).meta()

    @app.post("/api/tables/{table_id}/claim")
    async def claim(table_id: str, body: Claim) -> dict[str, Any]:
        table = await live(table_id)
        try:
            seat, key = table.claim(body.seat)
        except CardtableError as exc:
            raise http_error(exc) from None
        await table.seat_taken()
        return {"seat": seat, "key": key, "url": f"/t/{table.id}?seat={seat}&key={key}"}

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, body: SeatKey, http: Request) -> dict[str, Any]:
        address = client_address(http.scope)
        if limits.bad_keys.exhausted(address):
            raise too_many("too many wrong seat keys: wait a minute")
        table = await live(table_id)
        if not table.key_matches(body.seat, body.key):
            limits.bad_keys.allow(address)  # each wrong key spends one of the address's tries
            raise HTTPException(403, detail={"code": "forbidden", "message": "wrong seat key"})
        if not table.row.rematch_id and not limits.tables.allow(address):
            raise too_many("too many tables made from this address: wait a minute")
        try:
            new = await hub.rematch(table, creator=address)
        except CardtableError as exc:
            raise http_error(exc) from None
        return {"id": new.id, "url": f"/t/{new.id}?seat={body.seat}&key={body.key}"}

    @app.get("/api/tables/{table_id}/record")
    async def record(table_id: str) -> JSONResponse:
        table = await live(table_id)
        try:
            data = table.record_json()
        except CardtableError as exc:
            raise http_error(exc) from None
        headers = {"Content-Disposition": f'attachment; filename="cardtable-{table.id}.json"'}
        return JSONResponse(data, headers=headers)

    @app.get("/api/tables/{table_id}/replay")
    async def replay(table_id: str, seat: Annotated[int | None, Query()] = None) -> dict[str, Any]:
        table = await live(table_id)
        if seat is not None and not 0 <= seat < len(table.seats):
            message = f"no seat {seat} at this table (seats 0 to {len(table.seats) - 1})"
            raise HTTPException(400, detail={"code": "bad_request", "message": message})
        try:
            data = table.record_json()
            check_record_options(data)
        except CardtableError as exc:
            raise http_error(exc) from None
        return {
            "record": data,
            "verdict": verify(data, trusted_key=hub.signer().public_key).to_json(),
            **replay_views(data, seat),
        }

    @app.get("/api/tables/{table_id}/review")
    async def review(
        table_id: str,
        http: Request,
        seat: Annotated[int, Query()],
        key: Annotated[str | None, Query(max_length=64)] = None,
    ) -> dict[str, Any]:
        """The moves where ``seat`` lost most against the strong bot (a job: ask again
        while ``status`` is ``working``). A finished public game's review is for anyone;
        a private one's needs the seat key."""
        table = await live(table_id)
        if not 0 <= seat < len(table.seats) or table.seats[seat].is_bot:
            message = f"seat {seat} is not a person's seat at this table"
            raise HTTPException(400, detail={"code": "bad_request", "message": message})
        if not table.finished:
            message = "the review comes when the game is over"
            raise HTTPException(409, detail={"code": "not_finished", "message": message})
        address = client_address(http.scope)
        if not table.row.public:
            if limits.bad_keys.exhausted(address):
                raise too_many("too many wrong seat keys: wait a minute")
            if not table.key_matches(seat, key):
                limits.bad_keys.allow(address)
                raise HTTPException(403, detail={"code": "forbidden", "message": "wrong seat key"})
        # a new review spends one of the address's hints: it runs the same search
        if not hub.reviews.running(table, seat) and not limits.hints.allow(address):
            raise too_many("too many hints and reviews from this address: wait a little")
        return hub.reviews.ask(table, seat, address).to_json()

    @app.get("/api/signing-key")
    def signing_key() -> dict[str, str]:
        """The public key this server signs game records with (Ed25519, hex)."""
        return {"algorithm": "Ed25519", "key": hub.signer().public_key}

    @app.post("/api/verify")
    def verify_upload(data: Annotated[dict[str, Any], Body()]) -> dict[str, Any]:
        log_length = len(data.get("log") or ()) if isinstance(data.get("log"), list) else 0
        if log_length > hub.settings.max_verify_moves:
            message = f"a game record may have at most {hub.settings.max_verify_moves} moves"
            raise HTTPException(413, detail={"code": "too_large", "message": message})
        try:
            check_record_options(data)
        except CardtableError as exc:
            raise http_error(exc) from None
        return verify(data, trusted_key=hub.signer().public_key).to_json()

    # -- play ----------------------------------------------------------------------------
    @app.websocket("/ws/tables/{table_id}")
    async def play(
        socket: WebSocket,
        table_id: str,
        seat: Annotated[int | None, Query()] = None,
        key: Annotated[str | None, Query()] = None,
    ) -> None:
        await play_socket(socket, hub, limits, table_id, seat, key)

    # -- pages ---------------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(WEB_ROOT / "index.html")

    def known_table(table_id: str) -> bool:
        return table_id in hub.tables or (len(table_id) <= 32 and store.table(table_id) is not None)

    def missing(request: Request, table_id: str) -> HTMLResponse:
        lang = language_of(request.headers.get("accept-language"))
        return HTMLResponse(not_found_html(lang, table_id), status_code=404)

    @app.get("/t/{table_id}", include_in_schema=False, response_model=None)
    def table_page(table_id: str, request: Request) -> FileResponse | HTMLResponse:
        if not known_table(table_id):
            return missing(request, table_id)
        return FileResponse(WEB_ROOT / "table.html")

    def no_page(request: Request) -> HTMLResponse:
        lang = language_of(request.headers.get("accept-language"))
        return HTMLResponse(not_found_html(lang), status_code=404)

    @app.get("/learn/{game_id}", include_in_schema=False, response_model=None)
    def learn_page(game_id: str, request: Request) -> FileResponse | HTMLResponse:
        if game_id not in game_ids():  # a page, as every address a person types
            return no_page(request)
        return FileResponse(WEB_ROOT / "learn.html")

    @app.get("/replay/{table_id}", include_in_schema=False, response_model=None)
    def replay_page(table_id: str, request: Request) -> FileResponse | HTMLResponse:
        if not known_table(table_id):
            return missing(request, table_id)
        return FileResponse(WEB_ROOT / "replay.html")

    @app.get("/continue/{token}", include_in_schema=False)
    def continue_page(token: str) -> FileResponse:
        """Where a "continue on another device" link lands: its page takes the token (a
        GET spends nothing, so a link preview cannot use it up)."""
        return FileResponse(WEB_ROOT / "continue.html")

    @app.get("/verify", include_in_schema=False)
    def verify_page() -> FileResponse:
        return FileResponse(WEB_ROOT / "replay.html")

    @app.get("/rules/{game_id}", include_in_schema=False)
    def rules_page(game_id: str, request: Request, lang: str = "en") -> HTMLResponse:
        if game_id not in game_ids():
            return no_page(request)
        return HTMLResponse(page_html(game_id, lang))

    pads = {pad_of(game_id): client for game_id, client in pads_by_game().items()}
    aliases = pad_aliases()

    @app.get("/companion/{kind}", include_in_schema=False, response_model=None)
    def pad_page(kind: str, request: Request) -> FileResponse | RedirectResponse:
        if kind in aliases:  # the names people say (each game's PAD_ALIASES)
            query = f"?{request.url.query}" if request.url.query else ""
            return RedirectResponse(f"/companion/{aliases[kind]}{query}")
        client = pads.get(kind)
        if client is None or client.pad is None:
            raise HTTPException(404, detail={"code": "not_found", "message": f"no pad {kind!r}"})
        return FileResponse(client.root / client.pad)

    decks = [client.root / client.deck for client in web_clients().values() if client.deck]

    @app.get("/cards", include_in_schema=False)
    def deck_page() -> FileResponse:
        """The deck page of the game family that has one (the hanafuda deck)."""
        if not decks:
            raise HTTPException(404, detail={"code": "not_found", "message": "no deck page"})
        return FileResponse(decks[0])

    app.include_router(companion_router(store, limits))
    app.include_router(seating_router(live, limits))
    app.include_router(rating_router(limits))
    app.state.transfers = TransferBox(hub.settings.transfer_seconds, hub.settings.max_transfers)
    app.include_router(transfers_router(app.state.transfers, limits, hub.settings))
    app.mount("/static", StaticFiles(directory=WEB_ROOT), name="static")
    for client in {c.folder: c for c in web_clients().values()}.values():
        app.mount(f"/games/{client.folder}", StaticFiles(directory=client.root))
    return app


async def watch_storage(store: Store, settings: Settings) -> None:
    """While the store is unavailable, try it now and then, so that health comes back by
    itself when storage does (writes also try it on their own)."""
    while True:
        await asyncio.sleep(settings.storage_retry_seconds)
        if not store.health.ok:
            with contextlib.suppress(StorageUnavailable):
                await asyncio.to_thread(store.probe)


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
