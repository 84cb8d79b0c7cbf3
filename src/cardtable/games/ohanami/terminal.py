"""Drawing Ohanami in the terminal: gardens as coloured rows, hands, kept pairs, moves."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardtable.core.actions import Action
from cardtable.core.results import RoundResult
from cardtable.core.state import State
from cardtable.core.terminal import TerminalFrontEnd, score_table
from cardtable.games.ohanami.deck import COLOUR_OF
from cardtable.games.ohanami.game import Keep, OhanamiState, Phase, Place, cards_in
from cardtable.locales import message

STYLE = {
    "blue": "bold white on blue",
    "green": "bold black on green",
    "grey": "bold white on grey42",
    "pink": "bold black on hot_pink",
}
MARK = {"blue": "≈", "green": "♣", "grey": "▲", "pink": "✿"}


def chip(card: int) -> Text:
    colour = COLOUR_OF[card]
    return Text(f" {card:>3}{MARK[colour]} ", STYLE[colour])


def chip_line(cards: Sequence[int], empty: str = "—") -> Text:
    out = Text()
    for card in cards:
        if out:
            out.append(" ")
        out.append_text(chip(card))
    return out or Text(empty, "dim")


def said(key: str, lang: str, **values: object) -> str:
    """A word of the Ohanami terminal (games/ohanami/locales) in ``lang``."""
    return message(f"ohanami.term.{key}", lang, **values)


class OhanamiRenderer:
    help_key = "ohanami.term.help"

    def __init__(self, names: Sequence[str], lang: str = "en") -> None:
        self.names = list(names)
        self.lang = lang

    def board(self, state: State, seat: int | None, reveal: bool = False) -> RenderableType:
        assert isinstance(state, OhanamiState)
        lang = self.lang
        direction = said("left" if state.stage != 2 else "right", lang)
        title = said("title", lang, stage=state.stage, pick=state.pick, direction=direction)
        gardens = Table.grid(padding=(0, 2))
        gardens.add_column(no_wrap=True)
        gardens.add_column(justify="right", no_wrap=True)
        gardens.add_column()
        for other in range(state.n):
            counts = state.colour_counts(other)
            summary = " ".join(f"{MARK[c]}{counts[c]}" for c in counts)
            rows = state.rows[other] or ((),)
            for index, row in enumerate(rows):
                name = (
                    Text(self.names[other], "bold" if other == seat else "")
                    if index == 0
                    else Text("")
                )
                points = f"{state.totals[other]:>3}"
                score = (
                    Text(said("score", lang, points=points, summary=summary))
                    if index == 0
                    else Text("")
                )
                label = Text(said("row", lang, index=index), "dim") if row else Text("")
                gardens.add_row(name, score, label + chip_line(row, said("no_rows", lang)))
        parts: list[RenderableType] = [gardens, Text("")]
        if seat is not None:
            hand = chip_line(cards_in(state.hands[seat]))
            parts.append(Text.assemble((said("hand", lang), "bold"), hand))
            if state.kept[seat]:
                kept = chip_line(cards_in(state.kept[seat]))
                parts.append(Text.assemble((said("kept", lang), "bold"), kept))
        discards = sum(d.bit_count() for d in state.discards)
        parts.append(Text(said("stock", lang, stock=len(state.stock), discards=discards), "dim"))
        if reveal:
            for other in range(state.n):
                if other != seat:
                    parts.append(
                        Text(f"{self.names[other]}: ", "dim")
                        + chip_line(cards_in(state.hands[other]))
                    )
        return Panel(Group(*parts), title=title, title_align="left", border_style="magenta")

    def describe(self, state: State, seat: int, action: Action) -> Text:
        if isinstance(action, Keep):
            return Text(said("keep", self.lang)) + chip_line(action.cards)
        if isinstance(action, Place):
            text = Text()
            for card, target in action.placements:
                if text:
                    text.append(", ")
                text.append_text(chip(card))
                where = {
                    "new": said("new_row", self.lang),
                    "discard": said("discard", self.lang),
                }.get(str(target)) or said("to_row", self.lang, index=target)
                text.append(where, "dim" if target == "discard" else "")
            return text
        return Text(str(action))

    def menu(self, state: State, seat: int, actions: Sequence[Action]) -> list[Text] | None:
        """Keeping lists 45 pairs: ask for the two numbers instead."""
        if actions and isinstance(actions[0], Keep):
            return [Text(said("type_two", self.lang), "cyan")]
        return None

    def match_input(self, state: State, actions: Sequence[Action], typed: str) -> list[int]:
        numbers = [int(n) for n in re.findall(r"\d+", typed)]
        if len(numbers) != 2:
            return []
        wanted = tuple(sorted(numbers))
        return [i for i, a in enumerate(actions) if isinstance(a, Keep) and a.cards == wanted]

    def typed_form(self, state: State, seat: int, action: Action) -> str | None:
        """What a person types for ``action`` where the menu lists no numbers (the two
        cards to keep); None where the menu's number says it."""
        return " ".join(map(str, action.cards)) if isinstance(action, Keep) else None

    def typed_action(self, state: State, seat: int, typed: str) -> Action | None:
        """The two cards typed to keep when they are no legal choice (the CLI then says
        why the rules refuse them)."""
        numbers = [int(n) for n in re.findall(r"\d+", typed)]
        if len(numbers) != 2 or not isinstance(state, OhanamiState):
            return None
        return Keep((min(numbers), max(numbers))) if state.phase == Phase.SELECT else None

    def prompt_title(self, state: State, seat: int) -> str:
        assert isinstance(state, OhanamiState)
        if state.phase == Phase.SELECT:
            return said("prompt_keep", self.lang)
        return said("prompt_place", self.lang)

    def mark(self, state: State) -> tuple[int, int]:
        assert isinstance(state, OhanamiState)
        return (state.stage * 10 + state.pick, len(state.log))

    def narrate(self, state: State, mark: tuple[int, int]) -> list[Text]:
        assert isinstance(state, OhanamiState)
        if state.stage * 10 + state.pick == mark[0] and not state.is_over:
            return []
        lines = []
        for event in state.events:
            text = Text(f"{self.names[event.seat]}: ", "bold")
            placed = event.placements
            text.append_text(
                self.describe(state, event.seat, Place(placed)) if placed else Text("—")
            )
            lines.append(text)
        return lines

    def announce(self, seat: int, action: Action) -> Text | None:
        return None

    def opening(self, state: State) -> list[Text]:
        assert isinstance(state, OhanamiState)
        direction = said("left" if state.stage != 2 else "right", self.lang)
        return [Text(said("opening", self.lang, stage=state.stage, direction=direction), "bold")]

    def round_summary(self, result: RoundResult) -> RenderableType:
        title = said("stage_scoring", self.lang, number=result.number)
        return score_table(result, self.names, title, said("stage_total", self.lang), self.lang)


FRONT_END = TerminalFrontEnd(renderer=OhanamiRenderer)
