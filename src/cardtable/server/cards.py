"""The card data the browser draws from: declared once in the games, served as JSON."""

from __future__ import annotations

from typing import Any

from cardtable.games.hanafuda.deck import CARDS, KIND_NAMES, MONTHS
from cardtable.games.ohanami.deck import COLOUR_OF
from cardtable.games.siedem_slow.tables import COLUMN_VALUES, DECKS


def card_data() -> dict[str, Any]:
    return {
        "hanafuda": {
            "cards": [
                {
                    "code": c.code,
                    "month": c.month,
                    "kind": c.kind.name.lower(),
                    "value": c.value,
                    "tags": sorted(c.tags),
                    "name": {"en": c.name_en, "pl": c.name_pl},
                }
                for c in CARDS
            ],
            "months": [
                {"number": m.number, "ja": m.plant_ja, "en": m.plant_en, "pl": m.plant_pl}
                for m in MONTHS
            ],
            "kinds": {
                lang: {k.name.lower(): v for k, v in names.items()}
                for lang, names in KIND_NAMES.items()
            },
        },
        "ohanami": {"colours": {str(n): colour for n, colour in sorted(COLOUR_OF.items())}},
        "siedem-slow": {
            "column_values": list(COLUMN_VALUES),
            "decks": {
                lang: {"vowels": sorted(spec.vowels), "provisional": spec.provisional}
                for lang, spec in DECKS.items()
            },
        },
    }
