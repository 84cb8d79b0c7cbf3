"""``cardtable rules GAME``: the rules page, the options with their defaults, presets, bots,
in the reader's language (docs/LANG/GAME.md and the message catalogues)."""

from __future__ import annotations

from importlib import resources

from rich.markdown import Markdown
from rich.table import Table

from cardtable.agents import describe_agents
from cardtable.cli.docs import bot_description, option_meaning, strip_generated
from cardtable.core.game import spec_of
from cardtable.core.options import describe
from cardtable.core.terminal import console
from cardtable.locales import message
from cardtable.server.rules_pages import merged_source


def rules_text(game_id: str, lang: str = "en") -> str:
    """The page's Markdown in ``lang`` without its generated blocks."""
    spec_of(game_id)  # an unknown game raises its error before any file is read
    if lang == "en":
        page = resources.files("cardtable") / "docs" / f"{game_id}.md"
        return strip_generated(page.read_text(encoding="utf-8"), game_id, lang)
    return strip_generated(merged_source(game_id, lang)[0], game_id, lang)


def show_rules(game_id: str, lang: str = "en") -> None:
    spec = spec_of(game_id)
    console.print(Markdown(rules_text(game_id, lang)))

    def said(word: str) -> str:
        return message(f"rules.col.{word}", lang)

    table = Table(title=message("rules.options_title", lang, game=game_id), title_style="bold")
    table.add_column(said("option"), style="cyan")
    table.add_column(said("default"))
    table.add_column(said("values"))
    table.add_column(said("meaning"))
    for info in describe(spec.options_model):
        default = str(info.default).lower() if isinstance(info.default, bool) else str(info.default)
        meaning = option_meaning(game_id, info.name, info.description, lang)
        table.add_row(info.name, default, info.describe_values(), meaning)
    console.print(table)
    presets = Table(title=message("rules.presets_title", lang), title_style="bold")
    presets.add_column(said("preset"), style="cyan")
    presets.add_column(said("sets"))
    for name, values in spec.presets.items():
        shown = ", ".join(f"{k}={v}" for k, v in values.items())
        presets.add_row(name, shown or message("rules.defaults_above", lang))
    console.print(presets)
    bots = Table(title=message("rules.bots_title", lang), title_style="bold")
    bots.add_column(said("bot"), style="cyan")
    bots.add_column(said("plays"))
    for name, text in describe_agents(game_id).items():
        bots.add_row(name, bot_description(game_id, name, text, lang))
    console.print(bots)
