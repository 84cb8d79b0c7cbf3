"""The addresses a person types or follows: the lobby, a table, a lesson, a replay, a rules
page, a score pad, the deck page; an unknown one answers the "not found" page."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse, HTMLResponse, RedirectResponse

from cardtable.companion import pad_aliases, pad_of
from cardtable.core.game import game_ids, spec_of
from cardtable.core.web import WebClient
from cardtable.server.cards import pads_by_game, web_clients
from cardtable.server.hub import Hub
from cardtable.server.pages import language_of, not_found_html
from cardtable.server.rules_pages import page_html
from cardtable.server.store import Store

WEB_ROOT = Path(str(resources.files("cardtable") / "web"))


def not_found(request: Request, table: bool = False) -> HTMLResponse:
    """The "not found" page in the reader's language (saying so of a table, when one was
    asked)."""
    lang = language_of(request.headers.get("accept-language"))
    return HTMLResponse(not_found_html(lang, table), status_code=404)


def pad_page_for(
    kind: str, request: Request, pads: dict[str, WebClient], aliases: dict[str, str]
) -> FileResponse | RedirectResponse:
    """A score pad's page, by its name or one of the names people say for it."""
    if kind in aliases:
        query = f"?{request.url.query}" if request.url.query else ""
        return RedirectResponse(f"/companion/{aliases[kind]}{query}")
    client = pads.get(kind)
    if client is None or client.pad is None:
        raise HTTPException(404, detail={"code": "not_found", "message": "no such pad"})
    return FileResponse(client.root / client.pad)


def router(hub: Hub, store: Store) -> APIRouter:
    pages = APIRouter(include_in_schema=False)
    # the registry is fixed once the server starts: its pads and deck pages are read once
    pads = {pad_of(game_id): client for game_id, client in pads_by_game().items()}
    aliases = pad_aliases()
    decks = [client.root / client.deck for client in web_clients().values() if client.deck]

    def known_table(table_id: str) -> bool:
        return table_id in hub.tables or (len(table_id) <= 32 and store.table(table_id) is not None)

    def table_file(table_id: str, request: Request, page: str) -> FileResponse | HTMLResponse:
        found = known_table(table_id)
        return FileResponse(WEB_ROOT / page) if found else not_found(request, table=True)

    @pages.get("/")
    def index() -> FileResponse:
        return FileResponse(WEB_ROOT / "index.html")

    @pages.get("/t/{table_id}", response_model=None)
    def table_page(table_id: str, request: Request) -> FileResponse | HTMLResponse:
        return table_file(table_id, request, "table.html")

    @pages.get("/replay/{table_id}", response_model=None)
    def replay_page(table_id: str, request: Request) -> FileResponse | HTMLResponse:
        return table_file(table_id, request, "replay.html")

    @pages.get("/learn/{game_id}", response_model=None)
    def learn_page(game_id: str, request: Request) -> FileResponse | HTMLResponse:
        if game_id not in game_ids():  # a page, as every address a person types
            return not_found(request)
        return FileResponse(WEB_ROOT / "learn.html")

    @pages.get("/continue")
    def continue_page() -> FileResponse:
        """Where a "continue on another device" link lands: its page takes the token from
        the address's fragment (``/continue#TOKEN``: never sent to a server, so no proxy or
        access log holds it), and a GET spends nothing, so a link preview cannot use it up."""
        return FileResponse(WEB_ROOT / "continue.html")

    @pages.get("/verify")
    def verify_page() -> FileResponse:
        return FileResponse(WEB_ROOT / "replay.html")

    @pages.get("/rules/{game_id}", response_model=None)
    def rules_page(game_id: str, request: Request, lang: str | None = None) -> HTMLResponse:
        if game_id not in game_ids() or not spec_of(game_id).has_rule_page():
            return not_found(request)  # no such game, or a game whose page is not written
        # no ?lang= (a link typed or shared): the browser's language
        chosen = lang or language_of(request.headers.get("accept-language"))
        return HTMLResponse(page_html(game_id, chosen))

    @pages.get("/companion/{kind}", response_model=None)
    def pad_page(kind: str, request: Request) -> FileResponse | RedirectResponse:
        return pad_page_for(kind, request, pads, aliases)

    @pages.get("/cards")
    def deck_page() -> FileResponse:
        """The deck page of the game family that has one (the hanafuda deck)."""
        if not decks:
            raise HTTPException(404, detail={"code": "not_found", "message": "no deck page"})
        return FileResponse(decks[0])

    return pages
