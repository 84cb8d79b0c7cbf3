"""Generated parts of the game pages: option, preset and yaku tables from the code.

A page marks each generated block with ``<!-- generated:NAME -->`` ... ``<!-- end -->``.
``make docs`` rewrites the blocks; a test fails when a page differs from the code, so the
docs never drift from the options models and yaku tables they describe.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from importlib import resources
from pathlib import Path

from cardtable.core.game import Capability, spec_of
from cardtable.core.markdown import markdown_table
from cardtable.core.options import describe
from cardtable.locales import TRANSLATED_DOCS, catalogue, message

BLOCK = re.compile(r"(<!-- generated:(\w+) -->\n)(.*?)(<!-- end -->)", re.DOTALL)


def option_meaning(game_id: str, name: str, description: str, lang: str = "en") -> str:
    """An option's description in ``lang``: the catalogue's ``option.GAME.NAME`` (the game
    package's own catalogue), else the English one from the options model."""
    return catalogue(lang).get(f"option.{game_id}.{name}") or description


def bot_description(game_id: str, name: str, description: str, lang: str = "en") -> str:
    """A bot's description in ``lang`` (``bot.GAME.NAME``), else the English one."""
    return catalogue(lang).get(f"bot.{game_id}.{name}") or description


def options_table(game_id: str, lang: str = "en") -> str:
    rows = []
    for info in describe(spec_of(game_id).options_model):
        default = str(info.default).lower() if isinstance(info.default, bool) else info.default
        meaning = option_meaning(game_id, info.name, info.description, lang)
        rows.append([f"`{info.name}`", f"`{default}`", info.describe_values(), meaning])
    words = ["option", "default", "values", "meaning"]
    return markdown_table([message(f"rules.col.{word}", lang) for word in words], rows)


def presets_table(game_id: str, lang: str = "en") -> str:
    rows = []
    for name, values in spec_of(game_id).presets.items():
        shown = ", ".join(f"`{k}={v}`" for k, v in values.items()) or message(
            "rules.defaults", lang
        )
        rows.append([f"`{name}`", shown])
    return markdown_table([message(f"rules.col.{word}", lang) for word in ("preset", "sets")], rows)


#: the blocks every game page may have; a game adds its own (its spec's DOCS)
GENERATORS: dict[str, Callable[[str, str], str]] = {
    "options": options_table,
    "presets": presets_table,
}


def generators(game_id: str) -> dict[str, Callable[[str, str], str]]:
    spec = spec_of(game_id)
    docs = spec.optional(Capability.DOCS)
    return {**GENERATORS, **({} if docs is None else docs.TABLES)}


def page_path(game_id: str, lang: str = "en") -> Path:
    """docs/GAME.md, or its translation docs/LANG/GAME.md."""
    folder = resources.files("cardtable") / "docs"
    if lang != "en":
        folder = folder / lang
    return Path(str(folder / f"{game_id}.md"))


def render(game_id: str, text: str, lang: str = "en") -> str:
    """The page with every generated block filled from the code."""

    def fill(match: re.Match[str]) -> str:
        name = match.group(2)
        return match.group(1) + generators(game_id)[name](game_id, lang) + match.group(4)

    return BLOCK.sub(fill, text)


def strip_generated(text: str, game_id: str | None = None, lang: str = "en") -> str:
    """The page without its options and presets blocks (the CLI shows those as Rich
    tables); the game's own tables (yaku, letter decks) are filled in when ``game_id`` is
    given, else dropped too."""

    def fill(match: re.Match[str]) -> str:
        name = match.group(2)
        if game_id is None or name in GENERATORS:
            return ""
        return generators(game_id)[name](game_id, lang)

    return BLOCK.sub(fill, text)


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
