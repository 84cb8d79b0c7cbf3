"""``cardtable rules GAME``: the rules page, the options by group with their defaults, rule
sets, bots, in the reader's language (docs/LANG/GAME.md and the message catalogues)."""

from __future__ import annotations

from rich.markdown import Markdown
from rich.table import Table

from cardtable.agents import advanced_agents, describe_agents
from cardtable.cli.docs import HEADERS, option_rows, preset_words, strip_generated
from cardtable.core.game import spec_of
from cardtable.core.rule_pages import merged_source
from cardtable.core.terminal import console
from cardtable.locales import bot_help_key, message


def rules_text(game_id: str, lang: str = "en") -> str:
    """The page's Markdown in ``lang`` without its options and presets blocks."""
    spec_of(game_id)  # an unknown game raises its error before any file is read
    if lang == "en":
        page = spec_of(game_id).rule_page()
        return strip_generated(page.read_text(encoding="utf-8"), game_id, lang)
    return strip_generated(merged_source(game_id, lang)[0], game_id, lang)


def show_rules(game_id: str, lang: str = "en") -> None:
    spec = spec_of(game_id)
    console.print(Markdown(rules_text(game_id, lang)))
    headers = HEADERS.get(lang, HEADERS["en"])
    table = Table(title=message("rules.options_title", lang, game=game_id), title_style="bold")
    for n, column in enumerate(headers["options"]):
        table.add_column(column, style="cyan" if n == 1 else None)
    for row in option_rows(game_id, lang):
        table.add_row(*(cell.replace("`", "").replace("**", "") for cell in row))
    console.print(table)
    presets = Table(title=message("rules.presets_title", lang), title_style="bold")
    for n, column in enumerate(headers["presets"]):
        presets.add_column(column, style="cyan" if n == 0 else None)
    for name, values in spec.presets.items():
        shown = ", ".join(f"{k}={v}" for k, v in values.items())
        title, help_text = preset_words(game_id, name, lang)
        presets.add_row(
            name,
            f"{title}: {help_text}" if help_text else title,
            shown or message("rules.defaults_above", lang),
        )
    console.print(presets)
    bots = Table(title=message("rules.bots_title", lang), title_style="bold")
    bots.add_column(message("rules.col.bot", lang), style="cyan")
    bots.add_column(message("rules.col.plays", lang))
    # the code's own technical description of each bot is English: shown in English only
    if lang == "en":
        bots.add_column(message("rules.col.how", lang))
    advanced = advanced_agents(game_id)
    for name, text in describe_agents(game_id).items():
        label = f"{name} ({message('rules.advanced', lang)})" if name in advanced else name
        plays = message(bot_help_key(game_id, name), lang)
        bots.add_row(label, plays, *([text] if lang == "en" else []))
    console.print(bots)
