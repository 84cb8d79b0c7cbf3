"""Generated parts of the game pages: option, preset and yaku tables from the code.

A page marks each generated block with ``<!-- generated:NAME -->`` ... ``<!-- end -->``.
``make docs`` rewrites the blocks; a test fails when a page differs from the code, so the
docs never drift from the options models and yaku tables they describe.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def value_said(game_id: str, name: str, value: Any, lang: str = "en") -> str:
    """One value of an option as a player reads it: yes or no, a choice's words, a number,
    a list's items (an empty list: a dash)."""
    if isinstance(value, bool):
        return _said("rules.yes" if value else "rules.no", lang, str(value).lower())
    if isinstance(value, str):
        return _said(f"option.{game_id}.{name}.{value}", lang, value)
    if isinstance(value, list | tuple):
        return ", ".join(value_said(game_id, name, item, lang) for item in value) or "—"
    return str(value)


def value_words(game_id: str, info: OptionInfo, lang: str = "en", codes: bool = True) -> str:
    """An option's values: each named choice with its words (after its code name, with
    ``codes``), yes and no for a switch without codes, else the range."""
    named = [c for c in info.choices or () if isinstance(c, str)]
    if not codes and info.choices == (False, True):
        return ", ".join(value_said(game_id, info.name, v, lang) for v in (True, False))
    if not named:
        return info.describe_values()
    if not codes:
        return "; ".join(value_said(game_id, info.name, c, lang) for c in named)
    base = f"option.{game_id}.{info.name}"
    return "; ".join(f"`{c}`: {_said(f'{base}.{c}', lang, c)}" for c in named)


def setting_words(game_id: str, name: str, value: Any, lang: str = "en") -> str:
    """An option set to a value, in words: "Gra o stawkę (suma zerowa): nie"."""
    label = _said(f"option.{game_id}.{name}", lang, name)
    return f"{label}: {value_said(game_id, name, value, lang)}"


def option_rows(game_id: str, lang: str = "en", codes: bool = True) -> list[list[str]]:
    """Group, option, default, values and meaning of every option, in the order of the
    groups (the docs' table and ``cardtable rules``). With ``codes`` the option and its
    values also go by their code names, in backquotes (what ``--rule NAME=VALUE`` takes);
    without, only in the reader's words (the translated pages)."""
    model = spec_of(game_id).options_model
    order = {group: n for n, group in enumerate(model.GROUPS)}
    infos = sorted(describe(model), key=lambda info: order.get(info.group or "", -1))
    rows = []
    for info in infos:
        group, label, help_text = option_words(game_id, info, lang)
        values = value_words(game_id, info, lang, codes)
        if not codes:
            default = value_said(game_id, info.name, info.default, lang)
            rows.append([group, f"**{label}**", default, values, help_text])
            continue
        default = str(info.default).lower() if isinstance(info.default, bool) else info.default
        meaning = f"**{label}.** {help_text}" if label != info.name else help_text
        rows.append([group, f"`{info.name}`", f"`{default}`", values, meaning])
    return rows


def _codes(lang: str) -> bool:
    """Whether a page in ``lang`` names options by their code names: the English one,
    which the command line's ``--rule NAME=VALUE`` users read; a translation says words."""
    return lang == "en"


def options_table(game_id: str, lang: str = "en") -> str:
    """The options in the order of their groups, each in a player's words."""
    return markdown_table(HEADERS[lang]["options"], option_rows(game_id, lang, _codes(lang)))


def preset_words(game_id: str, name: str, lang: str = "en") -> tuple[str, str]:
    """A rule set's name and one line about it (its own name where no words are given)."""
    key = f"preset.{game_id}.{name}"
    return _said(key, lang, name), _said(f"{key}.help", lang)


def presets_table(game_id: str, lang: str = "en") -> str:
    rows = []
    codes = _codes(lang)
    for name, values in spec_of(game_id).presets.items():
        defaults = HEADERS[lang]["defaults"][0]
        title, help_text = preset_words(game_id, name, lang)
        if codes:
            shown = ", ".join(f"`{k}={v}`" for k, v in values.items()) or defaults
            rows.append([f"`{name}`", f"**{title}.** {help_text}" if help_text else title, shown])
        else:
            shown = "; ".join(setting_words(game_id, k, v, lang) for k, v in values.items())
            rows.append([f"**{title}**", help_text, shown or defaults])
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
    """The game's rule page GAME.md, or its translation LANG/GAME.md (its DOCS capability's
    PAGES folder)."""
    return spec_of(game_id).rule_page(lang)


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
