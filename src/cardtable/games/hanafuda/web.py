"""The hanafuda games in the browser (the ``WEB`` capability): the renderer and score pad
of web/, and the deck as the card art draws it."""

from __future__ import annotations

from typing import Any

from cardtable.core.web import WebClient
from cardtable.games.hanafuda.deck import CARDS, KIND_NAMES, MONTHS


def card_data() -> dict[str, Any]:
    return {
        "cards": [
            {
                "code": c.code,
                "month": c.month,
                "kind": c.kind.name.lower(),
                "value": c.value,
                "tags": sorted(c.tags),
                "name": {"en": c.name_en, "pl": c.name_pl, "ru": c.name_ru},
            }
            for c in CARDS
        ],
        "months": [
            {
                "number": m.number,
                "ja": m.plant_ja,
                "en": m.plant_en,
                "pl": m.plant_pl,
                "ru": m.plant_ru,
            }
            for m in MONTHS
        ],
        "kinds": {
            lang: {k.name.lower(): v for k, v in names.items()}
            for lang, names in KIND_NAMES.items()
        },
    }


CLIENT = WebClient("cardtable.games.hanafuda", "hanafuda", pad="pad.html", card_data=card_data)
