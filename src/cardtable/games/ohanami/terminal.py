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


class OhanamiRenderer:
    def __init__(self, names: Sequence[str], lang: str = "en") -> None:
        self.names = list(names)
        self.lang = lang

    def board(self, state: State, seat: int | None, reveal: bool = False) -> RenderableType:
        assert isinstance(state, OhanamiState)
        direction = "left" if state.stage != 2 else "right"
        title = f"Ohanami · stage {state.stage}/3 · pick {state.pick}/5 · hands pass {direction}"
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
                score = Text(f"{state.totals[other]:>3} pts  {summary}") if index == 0 else Text("")
                label = Text(f"row {index}: ", "dim") if row else Text("")
                gardens.add_row(name, score, label + chip_line(row, "no rows yet"))
        parts: list[RenderableType] = [gardens, Text("")]
        if seat is not None:
            parts.append(Text.assemble(("Hand   ", "bold"), chip_line(cards_in(state.hands[seat]))))
            if state.kept[seat]:
                parts.append(
                    Text.assemble(("Kept   ", "bold"), chip_line(cards_in(state.kept[seat])))
                )
        parts.append(
            Text(
                f"Stock {len(state.stock)} · discards {sum(d.bit_count() for d in state.discards)}",
                "dim",
            )
        )
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
            return Text("keep ") + chip_line(action.cards)
        if isinstance(action, Place):
            text = Text()
            for card, target in action.placements:
                if text:
                    text.append(", ")
                text.append_text(chip(card))
                where = {"new": " → new row", "discard": " → discard"}.get(
                    str(target), f" → row {target}"
                )
                text.append(where, "dim" if target == "discard" else "")
            return text
        return Text(str(action))

    def menu(self, state: State, seat: int, actions: Sequence[Action]) -> list[Text] | None:
        """Keeping lists 45 pairs: ask for the two numbers instead."""
        if actions and isinstance(actions[0], Keep):
            return [Text("Type the two cards to keep, e.g. 49 62 (the rest passes on).", "cyan")]
        return None

    def match_input(self, state: State, actions: Sequence[Action], typed: str) -> list[int]:
        numbers = [int(n) for n in re.findall(r"\d+", typed)]
        if len(numbers) != 2:
            return []
        wanted = tuple(sorted(numbers))
        return [i for i, a in enumerate(actions) if isinstance(a, Keep) and a.cards == wanted]

    def prompt_title(self, state: State, seat: int) -> str:
        assert isinstance(state, OhanamiState)
        if state.phase == Phase.SELECT:
            return "Keep two cards (a secret choice)."
        return "Place your kept cards: above a row's top, below its bottom, a new row, or discard."

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
        direction = "left" if state.stage != 2 else "right"
        return [Text(f"Stage {state.stage}: 10 new cards each; hands pass {direction}.", "bold")]

    def round_summary(self, result: RoundResult) -> RenderableType:
        return score_table(
            result, self.names, f"Stage {result.number} scoring", "stage total", self.lang
        )


FRONT_END = TerminalFrontEnd(renderer=OhanamiRenderer)
