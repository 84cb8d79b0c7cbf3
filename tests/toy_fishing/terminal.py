"""The toy game in the terminal: a plain board and card codes as input."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import RenderableType
from rich.text import Text

from cardtable.core.actions import Action
from cardtable.core.results import RoundResult
from cardtable.core.state import State
from cardtable.core.terminal import TerminalFrontEnd, score_table


class ToyRenderer:
    def __init__(self, names: Sequence[str], lang: str = "en") -> None:
        self.names, self.lang = list(names), lang

    def board(self, state: State, seat: int | None, reveal: bool = False) -> RenderableType:
        view = state.view(seat)
        hand = " ".join(view.get("hand", []))
        return Text(f"table: {' '.join(view['table'])}   your hand: {hand}")

    def describe(self, state: State, seat: int, action: Action) -> Text:
        return Text(str(action))

    def match_input(self, state: State, actions: Sequence[Action], typed: str) -> list[int]:
        return [k for k, a in enumerate(actions) if a.to_json().get("card") == typed]

    def menu(self, state: State, seat: int, actions: Sequence[Action]) -> list[Text] | None:
        return None

    def prompt_title(self, state: State, seat: int) -> str:
        return "play a card"

    def mark(self, state: State) -> tuple[int, int]:
        return (len(state.log), 0)

    def narrate(self, state: State, mark: tuple[int, int]) -> list[Text]:
        return []

    def announce(self, seat: int, action: Action) -> Text | None:
        return Text(f"{self.names[seat]}: {action}")

    def opening(self, state: State) -> list[Text]:
        return []

    def round_summary(self, result: RoundResult) -> RenderableType:
        return score_table(result, self.names, f"Round {result.number}", "round total")


FRONT_END = TerminalFrontEnd(renderer=ToyRenderer)
