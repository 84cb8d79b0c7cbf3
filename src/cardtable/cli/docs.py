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
from cardtable.core.options import OptionInfo, describe
from cardtable.locales import TRANSLATED_DOCS, catalogue

BLOCK = re.compile(r"(<!-- generated:(\w+) -->\n)(.*?)(<!-- end -->)", re.DOTALL)


#: headers of the generated option and preset tables, per language
HEADERS: dict[str, dict[str, list[str]]] = {
    "en": {
        "options": ["group", "option", "default", "values", "meaning"],
        "presets": ["preset", "rule set", "sets"],
        "defaults": ["the defaults"],
    },
    "pl": {
        "options": ["grupa", "opcja", "domyślnie", "wartości", "znaczenie"],
        "presets": ["zestaw", "zasady", "ustawia"],
        "defaults": ["wartości domyślne"],
    },
    "ru": {
        "options": ["группа", "опция", "по умолчанию", "значения", "смысл"],
        "presets": ["набор", "правила", "задаёт"],
        "defaults": ["значения по умолчанию"],
    },
}


def _said(key: str, lang: str, fallback: str = "") -> str:
    return catalogue(lang).get(key) or catalogue("en").get(key) or fallback


def option_words(game_id: str, info: OptionInfo, lang: str = "en") -> tuple[str, str, str]:
    """An option's group, label and help as a player reads them (the game's catalogue;
    the model's own description where the catalogue has none)."""
    base = f"option.{game_id}.{info.name}"
    group = _said(f"group.{info.group}", lang, info.group or "")
    return group, _said(base, lang, info.name), _said(f"{base}.help", lang, info.description)


def value_words(game_id: str, info: OptionInfo, lang: str = "en") -> str:
    """An option's values: each named choice with its words, else the range."""
    named = [c for c in info.choices or () if isinstance(c, str)]
    if not named:
        return info.describe_values()
    base = f"option.{game_id}.{info.name}"
    return "; ".join(f"`{c}`: {_said(f'{base}.{c}', lang, c)}" for c in named)


def option_rows(game_id: str, lang: str = "en") -> list[list[str]]:
    """Group, option, default, values and meaning of every option, in the order of the
    groups (the docs' table and ``cardtable rules``); code spans in backquotes."""
    model = spec_of(game_id).options_model
    order = {group: n for n, group in enumerate(model.GROUPS)}
    infos = sorted(describe(model), key=lambda info: order.get(info.group or "", -1))
    rows = []
    for info in infos:
        default = str(info.default).lower() if isinstance(info.default, bool) else info.default
        group, label, help_text = option_words(game_id, info, lang)
        meaning = f"**{label}.** {help_text}" if label != info.name else help_text
        values = value_words(game_id, info, lang)
        rows.append([group, f"`{info.name}`", f"`{default}`", values, meaning])
    return rows


def options_table(game_id: str, lang: str = "en") -> str:
    """The options in the order of their groups, each in a player's words."""
    return markdown_table(HEADERS[lang]["options"], option_rows(game_id, lang))


def preset_words(game_id: str, name: str, lang: str = "en") -> tuple[str, str]:
    """A rule set's name and one line about it (its own name where no words are given)."""
    key = f"preset.{game_id}.{name}"
    return _said(key, lang, name), _said(f"{key}.help", lang)


def presets_table(game_id: str, lang: str = "en") -> str:
    rows = []
    for name, values in spec_of(game_id).presets.items():
        defaults = HEADERS[lang]["defaults"][0]
        shown = ", ".join(f"`{k}={v}`" for k, v in values.items()) or defaults
        title, help_text = preset_words(game_id, name, lang)
        rows.append([f"`{name}`", f"**{title}.** {help_text}" if help_text else title, shown])
    return markdown_table(HEADERS[lang]["presets"], rows)


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
