"""7 słów in the browser (the ``WEB`` capability): the renderer and score pad of web/, and
the columns and decks the letter cards draw from."""

from __future__ import annotations

from typing import Any

from cardtable.core.web import WebClient
from cardtable.games.siedem_slow.tables import COLUMN_VALUES, DECKS


def card_data() -> dict[str, Any]:
    return {
        "column_values": list(COLUMN_VALUES),
        "decks": {
            lang: {"vowels": sorted(spec.vowels), "provisional": spec.provisional}
            for lang, spec in DECKS.items()
        },
    }


CLIENT = WebClient(
    "cardtable.games.siedem_slow", "siedem-slow", pad="pad.html", card_data=card_data
)
