"""``cardtable rules GAME``: the rules page, the options with their defaults, presets, bots."""

from __future__ import annotations

from importlib import resources

from rich.markdown import Markdown
from rich.table import Table

from cardtable.agents import advanced_agents, describe_agents
from cardtable.cli.docs import option_rows, preset_words, strip_generated
from cardtable.core.game import spec_of
from cardtable.core.terminal import console
from cardtable.locales import bot_help_key, message


def rules_text(game_id: str) -> str:
    page = resources.files("cardtable") / "docs" / f"{game_id}.md"
    return strip_generated(page.read_text(encoding="utf-8"))


def show_rules(game_id: str) -> None:
    spec = spec_of(game_id)
    console.print(Markdown(rules_text(game_id)))
    table = Table(title=f"Options of {game_id} (--rule KEY=VALUE)", title_style="bold")
    table.add_column("group")
    table.add_column("option", style="cyan")
    table.add_column("default")
    table.add_column("values")
    table.add_column("meaning")
    for row in option_rows(game_id):
        table.add_row(*(cell.replace("`", "").replace("**", "") for cell in row))
    console.print(table)
    presets = Table(title="Presets (--preset NAME)", title_style="bold")
    presets.add_column("preset", style="cyan")
    presets.add_column("rule set")
    presets.add_column("sets")
    for name, values in spec.presets.items():
        shown = ", ".join(f"{k}={v}" for k, v in values.items()) or "the defaults above"
        title, help_text = preset_words(game_id, name)
        presets.add_row(name, f"{title}: {help_text}" if help_text else title, shown)
    console.print(presets)
    bots = Table(title="Bots (--seats human,NAME,...)", title_style="bold")
    bots.add_column("bot", style="cyan")
    bots.add_column("plays")
    bots.add_column("how")
    advanced = advanced_agents(game_id)
    for name, text in describe_agents(game_id).items():
        label = f"{name} (advanced)" if name in advanced else name
        bots.add_row(label, message(bot_help_key(game_id, name)), text)
    console.print(bots)
