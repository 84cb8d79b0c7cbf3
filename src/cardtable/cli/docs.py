"""Generated parts of the game pages: option, preset and yaku tables from the code.

A page marks each generated block with ``<!-- generated:NAME -->`` ... ``<!-- end -->``.
``make docs`` rewrites the blocks; a test fails when a page differs from the code, so the
docs never drift from the options models and yaku tables they describe.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from cardtable.core.game import spec_of
from cardtable.core.options import describe
from cardtable.games.hanafuda.yaku import HANA_AWASE_ROWS, KOIKOI_ROWS, YakuDef
from cardtable.games.siedem_slow.tables import (
    BONUS_BY_ROUND,
    DECKS,
    SOLO_FIELDS,
    SOLO_FIELDS_BRUTAL,
    SOLO_TARGET,
)
from cardtable.locales import TRANSLATED_DOCS

BLOCK = re.compile(r"(<!-- generated:(\w+) -->\n)(.*?)(<!-- end -->)", re.DOTALL)


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|")


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A Markdown table; cells are escaped, code spans are the caller's."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


#: table headers and words of the generated blocks in the translated sections (docs/LANG/)
WORDS: dict[str, dict[str, Any]] = {
    "en": {
        "yaku": ["yaku", "English", "Polish", "cards", "points"],
        "extra": "+{extra} per extra card",
        "bonus": ["round", "1st box: beat the fastest", "2nd box: fastest wins"],
        "solo": ["difficulty", "target", "SOLO card fields"],
        "red": "red",
    },
    "pl": {
        "yaku": ["yaku", "po polsku", "karty", "punkty"],
        "extra": "+{extra} za każdą kolejną kartę",
        "bonus": ["runda", "1. kratka: lepsze od najszybszego", "2. kratka: najszybszy wygrywa"],
        "solo": ["poziom", "cel", "pola karty SOLO"],
        "red": "czerwone",
    },
    "ru": {
        "yaku": ["яку", "по-русски", "карты", "очки"],
        "extra": "+{extra} за каждую лишнюю карту",
        "bonus": ["раунд", "1-я клетка: лучше самого быстрого", "2-я клетка: быстрый побеждает"],
        "solo": ["уровень", "цель", "поля карты SOLO"],
        "red": "красное",
    },
}


def options_table(game_id: str, lang: str = "en") -> str:
    rows = []
    for info in describe(spec_of(game_id).options_model):
        default = str(info.default).lower() if isinstance(info.default, bool) else info.default
        rows.append([f"`{info.name}`", f"`{default}`", info.describe_values(), info.description])
    return markdown_table(["option", "default", "values", "meaning"], rows)


def presets_table(game_id: str, lang: str = "en") -> str:
    rows = []
    for name, values in spec_of(game_id).presets.items():
        shown = ", ".join(f"`{k}={v}`" for k, v in values.items()) or "the defaults"
        rows.append([f"`{name}`", shown])
    return markdown_table(["preset", "sets"], rows)


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


def decks_table(game_id: str, lang: str = "en") -> str:
    rows = []
    for language, deck in DECKS.items():
        parts: dict[int, list[str]] = {0: [], 1: [], 2: []}
        for letter, pairs in deck.letters.items():
            for count, bonus in pairs:
                parts[bonus].append(f"{letter}×{count}")
        mark = " (provisional)" if deck.provisional else ""
        rows.append([f"`{language}`{mark}", *(" ".join(parts[b]) for b in (0, 1, 2)), deck.size])
    return markdown_table(["deck", "common cards", "rare +1", "rare +2", "cards"], rows)


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


GENERATORS: dict[str, Callable[[str, str], str]] = {
    "letter_decks": decks_table,
    "bonus_boxes": bonus_table,
    "solo_targets": solo_table,
    "options": options_table,
    "presets": presets_table,
    "koikoi_yaku": lambda game_id, lang: yaku_table(KOIKOI_ROWS, lang),
    "hana_awase_yaku": lambda game_id, lang: yaku_table(HANA_AWASE_ROWS, lang),
}


def page_path(game_id: str, lang: str = "en") -> Path:
    """docs/GAME.md, or its translated sections docs/LANG/GAME.md."""
    folder = resources.files("cardtable") / "docs"
    if lang != "en":
        folder = folder / lang
    return Path(str(folder / f"{game_id}.md"))


def render(game_id: str, text: str, lang: str = "en") -> str:
    """The page with every generated block filled from the code."""

    def fill(match: re.Match[str]) -> str:
        name = match.group(2)
        return match.group(1) + GENERATORS[name](game_id, lang) + match.group(4)

    return BLOCK.sub(fill, text)


def strip_generated(text: str) -> str:
    """The page without its generated blocks (the CLI shows those as Rich tables)."""
    return BLOCK.sub("", text)


def write_all(game_ids: list[str]) -> list[str]:
    """Rewrite the generated blocks of every page and translation; the pages that changed."""
    changed = []
    for game_id in game_ids:
        for lang in ("en", *TRANSLATED_DOCS):
            path = page_path(game_id, lang)
            if not path.exists():
                continue
            text = path.read_text(encoding="utf-8")
            new = render(game_id, text, lang)
            if new != text:
                path.write_text(new, encoding="utf-8")
                changed.append(game_id if lang == "en" else f"{lang}/{game_id}")
    return changed
