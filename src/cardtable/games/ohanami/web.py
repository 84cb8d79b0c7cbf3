"""Ohanami in the browser (the ``WEB`` capability): the renderer and score pad of web/,
and each card's colour for the card art."""

from __future__ import annotations

from typing import Any

from cardtable.core.web import WebClient
from cardtable.games.ohanami.deck import COLOUR_OF


def card_data() -> dict[str, Any]:
    return {"colours": {str(n): colour for n, colour in sorted(COLOUR_OF.items())}}


CLIENT = WebClient("cardtable.games.ohanami", "ohanami", pad="pad.html", card_data=card_data)
