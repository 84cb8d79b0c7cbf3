"""The terminal front end's contract with the games (the ``TERMINAL`` and ``COMMANDS``
capabilities of a spec) and the widgets both sides share.

A turn-based game hands the CLI a :class:`Renderer` (the CLI's loop asks a person or a bot
for each move); a real-time game runs its own loop (``play``/``replay``). A game may also
add its own commands (the 7 słów solver, the companion score pads).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from cardtable.core.actions import Action
from cardtable.core.agent import Agent
from cardtable.core.results import RoundResult, ScoreLine
from cardtable.core.state import State
from cardtable.locales import SeatRef, message

if TYPE_CHECKING:
    from cardtable.core.record import GameRecord

console = Console(highlight=False)


@dataclass
class Seat:
    """Who plays a seat: a person at this terminal, or a bot."""

    number: int
    kind: str  # "human" or a bot name
    agent: Agent | None = None

    @property
    def is_human(self) -> bool:
        return self.agent is None


class Renderer(Protocol):
    """How a turn-based game shows itself and reads a person's moves in the terminal."""

    lang: str

    def board(self, state: State, seat: int | None, reveal: bool = False) -> RenderableType: ...
    def describe(self, state: State, seat: int, action: Action) -> Text: ...
    def match_input(self, state: State, actions: Sequence[Action], typed: str) -> list[int]: ...
    def menu(self, state: State, seat: int, actions: Sequence[Action]) -> list[Text] | None: ...
    def prompt_title(self, state: State, seat: int) -> str: ...
    def mark(self, state: State) -> tuple[int, int]: ...
    def narrate(self, state: State, mark: tuple[int, int]) -> list[Text]: ...
    def announce(self, seat: int, action: Action) -> Text | None: ...
    def opening(self, state: State) -> list[Text]: ...
    def round_summary(self, result: RoundResult) -> RenderableType: ...


class Describes(Protocol):
    """What a guide needs of a front end: a move named in the reader's language."""

    lang: str

    def describe(self, state: State, seat: int, action: Action) -> Text: ...


class Guide(Protocol):
    """What a guided game (``cardtable learn``) adds to a game's loop: lines said before a
    person's move, and a refusal of a move the guide does not want now."""

    def before(self, state: State, seat: int, renderer: Describes) -> list[Text]: ...

    def refuse(self, state: State, seat: int, action: Action) -> str | None: ...

    def after(self, state: State) -> list[Text]: ...


RealTimePlay = Callable[[State, Sequence[Seat], Sequence[str], float, Path | None, str], None]
RealTimeReplay = Callable[["GameRecord", Sequence[str], str], None]
#: a real-time game's guided first game: ``learn(state, seats, names, lang, guide)``
RealTimeLearn = Callable[[State, Sequence[Seat], Sequence[str], str, Guide], None]


@dataclass(frozen=True)
class TerminalFrontEnd:
    """A game in the terminal: a renderer (``renderer(names, lang)``) that the CLI's turn
    loop drives, or, for a real-time game, its own ``play(state, seats, names,
    think_scale, save, lang)``, ``replay(record, names, lang)`` and, for
    its guided first game, ``learn(state, seats, names, lang, guide)``."""

    renderer: Callable[[Sequence[str], str], Renderer] | None = None
    play: RealTimePlay | None = None
    replay: RealTimeReplay | None = None
    learn: RealTimeLearn | None = None


@dataclass(frozen=True)
class Command:
    """A command a game adds to ``cardtable`` (``group``: under ``cardtable GROUP``). Its
    function is a Typer command; a CardtableError it raises is shown as the error."""

    name: str
    function: Callable[..., Any]
    group: str | None = None


def line_text(line: ScoreLine, names: Sequence[str], lang: str = "en") -> str:
    """A score line's label in ``lang`` with the players it names by their names ("Płaci:
    Gracz 1", not a seat number), as the browser says it."""
    values = {
        key: names[value.seat] if isinstance(value, SeatRef) and value.seat < len(names) else value
        for key, value in line.values
    }
    return message(line.message, lang, **values)


def score_table(
    result: RoundResult, names: Sequence[str], title: str, total_label: str, lang: str = "en"
) -> RenderableType:
    """A round's (or stage's) score lines grouped by player, with each player's total."""
    table = Table(title=title, title_style="bold")
    table.add_column(message("term.col.player", lang))
    table.add_column(message("term.col.line", lang))
    table.add_column(message("term.col.points", lang), justify="right")
    for seat, score in enumerate(result.scores):
        for line in result.lines:
            if line.seat == seat:
                table.add_row(names[seat], line_text(line, names, lang), f"{line.points:+d}")
        table.add_row("", Text(total_label, "bold"), Text(f"{score:+d}", "bold"), end_section=True)
    return table


def show_final(state: State, names: Sequence[str], lang: str = "en") -> None:
    result = state.result()
    console.print(Rule(message("term.game_over", lang)))
    for seat, score in sorted(enumerate(result.scores), key=lambda p: -p[1]):
        star = " " + message("term.winner", lang) if seat in result.winners else ""
        console.print(f"  {names[seat]:<20} {score:+5d}{star}")
