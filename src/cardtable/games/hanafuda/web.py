"""The hanafuda games in the browser (the ``WEB`` capability): the renderer, score pad and
deck page of web/, and the deck as the card art and the deck page draw it."""

from __future__ import annotations

from typing import Any

from cardtable.core.game import game_ids, spec_of
from cardtable.core.options import build_options
from cardtable.core.web import WebClient
from cardtable.games.hanafuda.deck import CARDS, KIND_NAMES, MONTHS, codes
from cardtable.games.hanafuda.options import card_points_score
from cardtable.games.hanafuda.yaku import table_for


def game_data() -> dict[str, dict[str, Any]]:
    """What each hanafuda game makes of the cards, from its rules under the default options:
    whether card points count (the games scored by card values) and its yaku rows (the
    catalogue key of the name, the points, the cards it counts and those it requires),
    whether the lobby offers it first (the deck page lists it first too), and what its
    scoring reads of a round beyond the piles (the score pad asks for those)."""
    out: dict[str, dict[str, Any]] = {}
    for game_id in game_ids():
        spec = spec_of(game_id)
        if spec.family != "hanafuda":
            continue
        options = build_options(spec.options_model, game_id, spec.presets, None, {})
        table = table_for(options)
        out[game_id] = {
            "title": spec.title,
            "featured": spec.info.featured,
            "round_facts": list(getattr(spec.options_model, "ROUND_FACTS", ())),
            "card_points": card_points_score(spec.options_model),
            "yaku": [
                {
                    "key": row.message_key,
                    "points": row.points,
                    "extra": row.extra,
                    "need": row.need,
                    "counts": codes(row.counts | row.doubles),
                    "requires": codes(row.requires),
                }
                for row in (table.rows if table is not None else ())
            ],
        }
    return out


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
        "games": game_data(),
    }


CLIENT = WebClient(
    "cardtable.games.hanafuda", "hanafuda", pad="pad.html", deck="deck.html", card_data=card_data
)
