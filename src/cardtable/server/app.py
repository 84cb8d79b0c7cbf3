"""The FastAPI application: HTTP API, WebSocket play and the static browser client.

>>> from cardtable.server.app import create_app
>>> app = create_app("sqlite:///:memory:")
>>> paths = sorted(app.openapi()["paths"])
>>> [path for path in paths if path.startswith("/api/tables")][:3]
['/api/tables', '/api/tables/{table_id}', '/api/tables/{table_id}/chat']
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import threading
from collections.abc import AsyncIterator
from functools import partial
from typing import Annotated

from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from cardtable.core.errors import CardtableError
from cardtable.core.game import prepare_games
from cardtable.server.cards import web_clients
from cardtable.server.chat import router as chat_router
from cardtable.server.companion import router as companion_router
from cardtable.server.day_clock import router as turns_router
from cardtable.server.http_guards import (
    BodyLimit,
    LimitsFirst,
    NodeHeader,
    quiet_client_tracebacks,
    refusal_answer,
    validation_answer,
)
from cardtable.server.hub import Hub
from cardtable.server.limits import ClientLimits
from cardtable.server.matchmaking import Matchmaker
from cardtable.server.matchmaking import router as match_router
from cardtable.server.page_routes import WEB_ROOT
from cardtable.server.page_routes import router as pages_router
from cardtable.server.rating import router as rating_router
from cardtable.server.record_api import router as records_router
from cardtable.server.seating import router as seating_router
from cardtable.server.service_api import router as service_router
from cardtable.server.settings import Settings
from cardtable.server.sockets import play as play_socket
from cardtable.server.store import StorageUnavailable, Store
from cardtable.server.table_api import live_table
from cardtable.server.table_api import router as tables_router
from cardtable.server.transfers import StoreShelf, TransferBox
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


async def _storage_answer(_request: Request, exc: Exception) -> JSONResponse:
    detail = {"code": "storage_unavailable", "message": str(exc)}
    return JSONResponse({"detail": detail}, status_code=503)


def create_app(db_url: str = "sqlite:///cardtable.db", settings: Settings | None = None) -> FastAPI:
    """The whole web app on one database."""
    store = Store(db_url)
    hub = Hub(store, settings)
    limits = ClientLimits(hub.settings, hub.cluster.buckets if hub.cluster else None)
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
        if hub.cluster is not None:
            chores.append(asyncio.create_task(hub.cluster.watch(), name="cluster"))
        yield
        for chore in chores:
            chore.cancel()
        await hub.close()
        store.close()

    app = FastAPI(title="cardtable", version="0.1.0", lifespan=lifespan)
    app.state.hub = hub
    app.state.limits = limits
    app.state.matchmaker = Matchmaker(hub)
    app.state.transfers = TransferBox(
        hub.settings.transfer_seconds,
        store_bytes=hub.settings.transfer_store_bytes,
        address_bytes=hub.settings.transfer_address_bytes,
        # a cluster's processes share the links: one made here may be taken at another
        shelf=StoreShelf(store) if hub.cluster is not None else None,
    )
    app.add_middleware(
        BodyLimit, max_bytes=hub.settings.max_body_bytes, seconds=hub.settings.request_seconds
    )
    app.add_middleware(LimitsFirst, limits=limits.before_parsing())  # outside: before the body
    if hub.settings.node:  # which process of a cluster answered: on every HTTP answer
        app.add_middleware(NodeHeader, node=hub.settings.node)
    app.add_exception_handler(RequestValidationError, validation_answer)
    app.add_exception_handler(CardtableError, refusal_answer)  # a table's or engine's refusal
    app.add_exception_handler(StorageUnavailable, _storage_answer)

    @app.websocket("/ws/tables/{table_id}")
    async def play(
        socket: WebSocket,
        table_id: str,
        seat: Annotated[int | None, Query()] = None,
        key: Annotated[str | None, Query()] = None,
    ) -> None:
        await play_socket(socket, hub, limits, table_id, seat, key)

    for router in (
        service_router(hub, store),
        tables_router(hub, limits),
        records_router(hub, limits),
        pages_router(hub, store),
        companion_router(store, limits),
        seating_router(partial(live_table, hub), limits),
        rating_router(limits),
        match_router(app.state.matchmaker, limits),
        chat_router(hub),
        turns_router(hub),
        transfers_router(app.state.transfers, limits, hub.settings, store, hub.signer),
    ):
        app.include_router(router)
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
