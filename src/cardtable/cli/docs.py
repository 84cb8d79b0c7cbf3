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

BLOCK = re.compile(r"(<!-- generated:(\w+) -->\n)(.*?)(<!-- end -->)", re.DOTALL)


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|")


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A Markdown table; cells are escaped, code spans are the caller's."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def options_table(game_id: str) -> str:
    rows = []
    for info in describe(spec_of(game_id).options_model):
        default = str(info.default).lower() if isinstance(info.default, bool) else info.default
        rows.append([f"`{info.name}`", f"`{default}`", info.describe_values(), info.description])
    return markdown_table(["option", "default", "values", "meaning"], rows)


def presets_table(game_id: str) -> str:
    rows = []
    for name, values in spec_of(game_id).presets.items():
        shown = ", ".join(f"`{k}={v}`" for k, v in values.items()) or "the defaults"
        rows.append([f"`{name}`", shown])
    return markdown_table(["preset", "sets"], rows)


def yaku_table(rows_data: tuple[YakuDef, ...]) -> str:
    rows = []
    for row in rows_data:
        points = f"{row.points}" + (f", +{row.extra} per extra card" if row.extra else "")
        native = f" ({row.ja})" if row.ja else ""
        rows.append([f"{row.name}{native}", row.en, row.pl, row.describe_cards(), points])
    return markdown_table(["yaku", "English", "Polish", "cards", "points"], rows)


def decks_table(game_id: str) -> str:
    rows = []
    for language, deck in DECKS.items():
        parts: dict[int, list[str]] = {0: [], 1: [], 2: []}
        for letter, pairs in deck.letters.items():
            for count, bonus in pairs:
                parts[bonus].append(f"{letter}×{count}")
        mark = " (provisional)" if deck.provisional else ""
        rows.append([f"`{language}`{mark}", *(" ".join(parts[b]) for b in (0, 1, 2)), deck.size])
    return markdown_table(["deck", "common cards", "rare +1", "rare +2", "cards"], rows)


def bonus_table(game_id: str) -> str:
    rows = [[n, f"+{first}", f"+{second}"] for n, (first, second) in BONUS_BY_ROUND.items()]
    return markdown_table(["round", "1st box: beat the fastest", "2nd box: fastest wins"], rows)


def solo_table(game_id: str) -> str:
    rows = []
    for difficulty, target in SOLO_TARGET.items():
        fields = SOLO_FIELDS_BRUTAL if difficulty == "brutal" else SOLO_FIELDS
        rows.append([f"`{difficulty}`", target, " / ".join(fields)])
    return markdown_table(["difficulty", "target", "SOLO card fields"], rows)


GENERATORS: dict[str, Callable[[str], str]] = {
    "letter_decks": decks_table,
    "bonus_boxes": bonus_table,
    "solo_targets": solo_table,
    "options": options_table,
    "presets": presets_table,
    "koikoi_yaku": lambda game_id: yaku_table(KOIKOI_ROWS),
    "hana_awase_yaku": lambda game_id: yaku_table(HANA_AWASE_ROWS),
}


def page_path(game_id: str) -> Path:
    return Path(str(resources.files("cardtable") / "docs" / f"{game_id}.md"))


def render(game_id: str, text: str) -> str:
    """The page with every generated block filled from the code."""

    def fill(match: re.Match[str]) -> str:
        name = match.group(2)
        return match.group(1) + GENERATORS[name](game_id) + match.group(4)

    return BLOCK.sub(fill, text)


def strip_generated(text: str) -> str:
    """The page without its generated blocks (the CLI shows those as Rich tables)."""
    return BLOCK.sub("", text)


def write_all(game_ids: list[str]) -> list[str]:
    """Rewrite the generated blocks of every page; the pages that changed."""
    changed = []
    for game_id in game_ids:
        path = page_path(game_id)
        text = path.read_text(encoding="utf-8")
        new = render(game_id, text)
        if new != text:
            path.write_text(new, encoding="utf-8")
            changed.append(game_id)
    return changed
