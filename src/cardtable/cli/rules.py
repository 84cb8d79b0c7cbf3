"""``cardtable rules GAME``: the rules page, the options with their defaults, presets, bots."""

from __future__ import annotations

from importlib import resources

from rich.markdown import Markdown
from rich.table import Table

from cardtable.agents import describe_agents
from cardtable.cli.docs import strip_generated
from cardtable.core.game import spec_of
from cardtable.core.options import describe
from cardtable.core.terminal import console


def rules_text(game_id: str) -> str:
    page = resources.files("cardtable") / "docs" / f"{game_id}.md"
    return strip_generated(page.read_text(encoding="utf-8"))


def show_rules(game_id: str) -> None:
    spec = spec_of(game_id)
    console.print(Markdown(rules_text(game_id)))
    table = Table(title=f"Options of {game_id} (--rule KEY=VALUE)", title_style="bold")
    table.add_column("option", style="cyan")
    table.add_column("default")
    table.add_column("values")
    table.add_column("meaning")
    for info in describe(spec.options_model):
        default = str(info.default).lower() if isinstance(info.default, bool) else str(info.default)
        table.add_row(info.name, default, info.describe_values(), info.description)
    console.print(table)
    presets = Table(title="Presets (--preset NAME)", title_style="bold")
    presets.add_column("preset", style="cyan")
    presets.add_column("sets")
    for name, values in spec.presets.items():
        shown = ", ".join(f"{k}={v}" for k, v in values.items()) or "the defaults above"
        presets.add_row(name, shown)
    console.print(presets)
    bots = Table(title="Bots (--seats human,NAME,...)", title_style="bold")
    bots.add_column("bot", style="cyan")
    bots.add_column("plays")
    for name, text in describe_agents(game_id).items():
        bots.add_row(name, text)
    console.print(bots)
