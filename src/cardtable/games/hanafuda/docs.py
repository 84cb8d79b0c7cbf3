"""The yaku tables of the hanafuda pages, generated from the yaku rows (the ``DOCS``
capability: ``make docs`` fills each ``<!-- generated:NAME -->`` block)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from cardtable.core.game import load
from cardtable.core.markdown import markdown_table
from cardtable.games.hanafuda.deck import CARDS, Kind, card_index, codes
from cardtable.games.hanafuda.yaku import HANA_AWASE_ROWS, KOIKOI_ROWS, YakuDef, table_for
from cardtable.locales import message

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


#: "5 of ...", "with ...": how a row's count and its required cards are said
CARD_WORDS = {"en": ("of", "with"), "pl": ("z", "w tym"), "ru": ("из", "включая")}


def card_in_words(code: str, lang: str) -> str:
    """A card as a reader of the rules knows it: its name, with its plant where another
    card bears the same name ("Pine: Poetry ribbon"); a plain card by its plant."""
    card = CARDS[card_index(code)]
    name, plant = card.name(lang), card.plant.name(lang)
    if sum(other.name(lang) == name for other in CARDS) == 1:
        return name
    if name == plant:  # a plain card: "Pine"
        return plant
    return message("hanafuda.card", lang, plant=plant, name=name)


def cards_in_words(codes_: list[str], lang: str) -> str:
    """Cards by name for a reader of the rules (their codes are the terminal's): a whole
    kind by the kind's name ("plains"), the others one by one, two alike as "Pine ×2"."""
    left = list(codes_)
    said = []
    for kind in Kind:
        whole = [card.code for card in CARDS if card.kind == kind]
        if set(whole) <= set(left):
            said.append(message(f"kinds.{kind.name.lower()}", lang).lower())
            left = [code for code in left if code not in whole]
    named = Counter(card_in_words(code, lang) for code in left)
    said += [name if n == 1 else f"{name} ×{n}" for name, n in named.items()]
    return ", ".join(said)


def row_cards(row: YakuDef, lang: str) -> str:
    """What the yaku needs, in words: "3 of: Crane, Curtain, Moon, with Rain man"."""
    counted = codes(row.counts)
    if row.requires == row.counts:
        return cards_in_words(counted, lang)
    of, including = CARD_WORDS.get(lang, CARD_WORDS["en"])
    text = f"{row.need} {of}: {cards_in_words(counted, lang)}"
    if row.requires:
        text += f"; {including}: {cards_in_words(codes(row.requires), lang)}"
    return text


def yaku_table(rows_data: tuple[YakuDef, ...], lang: str = "en") -> str:
    words = WORDS[lang]
    rows = []
    for row in rows_data:
        extra = ", " + words["extra"].format(extra=row.extra) if row.extra else ""
        points = f"{row.points}{extra}"
        native = f" ({row.native})" if row.native else ""
        names = [row.meaning("en"), row.meaning("pl")] if lang == "en" else [row.meaning(lang)]
        rows.append([f"{row.name}{native}", *names, row_cards(row, lang), points])
    return markdown_table(words["yaku"], rows)


def game_yaku_table(game_id: str, lang: str = "en") -> str:
    """The yaku a game scores under its default options (its options model's table): a
    page of a game with yaku of its own fills its ``yaku`` block with it."""
    table = table_for(load(game_id).options)
    return yaku_table(() if table is None else table.rows, lang)


TABLES: dict[str, Callable[[str, str], str]] = {
    "koikoi_yaku": lambda game_id, lang: yaku_table(KOIKOI_ROWS, lang),
    "hana_awase_yaku": lambda game_id, lang: yaku_table(HANA_AWASE_ROWS, lang),
    "yaku": game_yaku_table,
}
