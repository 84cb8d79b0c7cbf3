"""The card data the browser draws from: declared once in each game, served as JSON under
the folder of its browser client."""

from __future__ import annotations

from typing import Any

from cardtable.core.game import Capability, game_ids, spec_of
from cardtable.core.web import WebClient


def web_clients() -> dict[str, WebClient]:
    """Every game's browser client, by game id (games of a family share one)."""
    clients = {}
    for game_id in game_ids():
        client = spec_of(game_id).optional(Capability.WEB)
        if client is not None:
            clients[game_id] = client
    return clients


def card_data() -> dict[str, Any]:
    return {
        client.folder: client.card_data()
        for client in web_clients().values()
        if client.card_data is not None
    }


def pads_by_game() -> dict[str, WebClient]:
    """The browser client of each game that has a score pad page and a scorer behind it."""
    return {
        game_id: client
        for game_id, client in web_clients().items()
        if client.pad and spec_of(game_id).has(Capability.COMPANION)
    }
