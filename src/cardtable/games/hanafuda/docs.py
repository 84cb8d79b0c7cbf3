"""The yaku tables of the hanafuda pages, generated from the yaku rows (the ``DOCS``
capability: ``make docs`` fills each ``<!-- generated:NAME -->`` block)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardtable.core.markdown import markdown_table
from cardtable.games.hanafuda.yaku import HANA_AWASE_ROWS, KOIKOI_ROWS, YakuDef

#: the game's rule pages: GAME.md, and LANG/GAME.md for each translation
PAGES = Path(__file__).parent / "pages"

#: headers and words of the tables, per language of the translated sections
WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "yaku": ["yaku", "English", "Polish", "cards", "points"],
        "extra": "+{extra} per extra card",
    },
    "pl": {
        "yaku": ["yaku", "po polsku", "karty", "punkty"],
        "extra": "+{extra} za każdą kolejną kartę",
    },
    "ru": {
        "yaku": ["яку", "по-русски", "карты", "очки"],
        "extra": "+{extra} за каждую лишнюю карту",
    },
}


def yaku_table(rows_data: tuple[YakuDef, ...], lang: str = "en") -> str:
    words = WORDS[lang]
    rows = []
    for row in rows_data:
        extra = ", " + words["extra"].format(extra=row.extra) if row.extra else ""
        points = f"{row.points}{extra}"
        native = f" ({row.native})" if row.native else ""
        names = [row.meaning("en"), row.meaning("pl")] if lang == "en" else [row.meaning(lang)]
        rows.append([f"{row.name}{native}", *names, row.describe_cards(lang), points])
    return markdown_table(words["yaku"], rows)


#: rule-key prefix of a score line -> the heading of the game's page that explains it
SECTIONS: dict[str, dict[str, str]] = {
    "bakappana": {"cards": "Scoring", "par": "Scoring"},
    "koi-koi": {
        "yaku": "Yaku",
        "opponent_yaku": "Yaku",
        "multiplier": "Scoring",
        "pays": "Scoring",
        "koikoi_bonus": "Scoring",
        "lucky": "Deals, lucky hands and misdeals",
        "oya_ken": "Draws (exhaustion)",
    },
    "hana-awase": {
        "cards": "Scoring",
        "par": "Scoring",
        "yaku": "Scoring",
        "teyaku": "The Russian rules as options",
        "few_cards": "The Russian rules as options",
        "fuke": "The Russian rules as options",
        "willow_row_cancels": "The Russian rules as options",
    },
    "hana-awase-88": {
        "cards": "Settlement",
        "par": "Settlement",
        "yaku": "Settlement",
        "teyaku": "Before play: teyaku",
        "few_cards": "Optional rules (off unless the players agree)",
        "fuke": "Optional rules (off unless the players agree)",
        "willow_row_cancels": "Optional rules (off unless the players agree)",
    },
}

TABLES: dict[str, Callable[[str, str], str]] = {
    "koikoi_yaku": lambda game_id, lang: yaku_table(KOIKOI_ROWS, lang),
    "hana_awase_yaku": lambda game_id, lang: yaku_table(HANA_AWASE_ROWS, lang),
}
