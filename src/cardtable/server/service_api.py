"""What the server says about itself and its games: the game catalogue the forms are built
from, the card data, the message catalogues, and whether it can store moves now."""

from __future__ import annotations

import contextlib
from typing import Any

from fastapi import APIRouter, HTTPException
from fastapi.responses import JSONResponse, Response

from cardtable.agents import advanced_agents, agent_names, bot_levels, describe_agents
from cardtable.companion import scorer
from cardtable.core.game import Capability, game_ids, load, spec_of
from cardtable.core.rule_pages import anchors
from cardtable.locales import LANGUAGES, bot_help_key
from cardtable.locales import catalogue as messages
from cardtable.server.cards import card_data, pads_by_game, web_clients
from cardtable.server.hub import Hub
from cardtable.server.store import StorageUnavailable, Store


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
            # a hint only where no other person plays (7 słów: the solver's words)
            "practice_hints": spec.has(Capability.PRACTICE_HINT),
            "lesson": spec.has(Capability.LESSON),  # a guided first game at /learn/GAME
            "rules": spec.has_rule_page(),  # the whole rule page at /rules/GAME
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


def router(hub: Hub, store: Store) -> APIRouter:
    api = APIRouter(prefix="/api")
    catalogue = game_catalogue()

    @api.get("/games")
    def games() -> list[dict[str, Any]]:
        return catalogue

    @api.get("/cards")
    def cards() -> dict[str, Any]:
        return card_data()

    @api.get("/locales/{lang}")
    def locale(lang: str) -> Response:
        if lang not in LANGUAGES:
            raise HTTPException(
                404, detail={"code": "not_found", "message": f"no language {lang!r}"}
            )
        return JSONResponse(messages(lang))

    @api.get("/health")
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

    return api
