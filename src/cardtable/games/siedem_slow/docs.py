"""The 7 słów page's generated tables: letter decks, bonus boxes, solo targets (the
``DOCS`` capability: ``make docs`` fills each ``<!-- generated:NAME -->`` block)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardtable.core.markdown import markdown_table
from cardtable.games.siedem_slow.tables import (
    BONUS_BY_ROUND,
    DECKS,
    SOLO_FIELDS,
    SOLO_FIELDS_BRUTAL,
    SOLO_TARGET,
)

#: the game's rule pages: GAME.md, and LANG/GAME.md for each translation
PAGES = Path(__file__).parent / "pages"

#: headers and words of the tables, per language of the translated sections
WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "bonus": ["round", "1st box: beat the fastest", "2nd box: fastest wins"],
        "solo": ["difficulty", "target", "SOLO card fields"],
        "red": "red",
        "decks": ["deck", "common cards", "rare +1", "rare +2", "cards"],
        "provisional": "provisional",
    },
    "pl": {
        "bonus": ["runda", "1. kratka: lepsze od najszybszego", "2. kratka: najszybszy wygrywa"],
        "solo": ["poziom", "cel", "pola karty SOLO"],
        "red": "czerwone",
        "decks": ["talia", "karty zwykłe", "rzadkie +1", "rzadkie +2", "kart"],
        "provisional": "tymczasowa",
    },
    "ru": {
        "bonus": ["раунд", "1-я клетка: лучше самого быстрого", "2-я клетка: быстрый побеждает"],
        "solo": ["уровень", "цель", "поля карты SOLO"],
        "red": "красное",
        "decks": ["колода", "обычные карты", "редкие +1", "редкие +2", "карт"],
        "provisional": "предварительная",
    },
}


def decks_table(game_id: str, lang: str = "en") -> str:
    rows = []
    for language, deck in DECKS.items():
        parts: dict[int, list[str]] = {0: [], 1: [], 2: []}
        for letter, pairs in deck.letters.items():
            for count, bonus in pairs:
                parts[bonus].append(f"{letter}×{count}")
        mark = f" ({WORDS[lang]['provisional']})" if deck.provisional else ""
        rows.append([f"`{language}`{mark}", *(" ".join(parts[b]) for b in (0, 1, 2)), deck.size])
    return markdown_table(WORDS[lang]["decks"], rows)


def bonus_table(game_id: str, lang: str = "en") -> str:
    rows = [[n, f"+{first}", f"+{second}"] for n, (first, second) in BONUS_BY_ROUND.items()]
    return markdown_table(WORDS[lang]["bonus"], rows)


def solo_table(game_id: str, lang: str = "en") -> str:
    red = WORDS[lang]["red"]
    rows = []
    for difficulty, target in SOLO_TARGET.items():
        fields = SOLO_FIELDS_BRUTAL if difficulty == "brutal" else SOLO_FIELDS
        shown = " / ".join(red if field == "red" else field for field in fields)
        rows.append([f"`{difficulty}`", target, shown])
    return markdown_table(WORDS[lang]["solo"], rows)


TABLES: dict[str, Callable[[str, str], str]] = {
    "letter_decks": decks_table,
    "bonus_boxes": bonus_table,
    "solo_targets": solo_table,
}
