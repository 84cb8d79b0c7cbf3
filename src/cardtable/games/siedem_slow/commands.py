"""7 słów's own commands (the ``COMMANDS`` capability): the solver and the score pad of a
game played with the box."""

from __future__ import annotations

from typing import Annotated

import typer

from cardtable.core.errors import OptionError
from cardtable.core.terminal import Command, console, score_table
from cardtable.games.siedem_slow.area import Area
from cardtable.games.siedem_slow.companion import WordRound, play_pad
from cardtable.games.siedem_slow.dictionary import load_dictionary
from cardtable.games.siedem_slow.solver import solve


def solve_command(
    area: Annotated[
        str, typer.Argument(help="The area, columns 5|4|3|2 left to right, e.g. DS|PH+2|LN|KR.")
    ],
    top: Annotated[int, typer.Option(help="How many words to show.")] = 10,
    deck: Annotated[str, typer.Option(help="Deck and language: pl or en.")] = "pl",
    dictionary: Annotated[
        str, typer.Option(help="A word list file (default: the language's system list).")
    ] = "default",
    veteran: Annotated[bool, typer.Option(help="Score with the veteran handicap.")] = False,
) -> None:
    """The best words of the dictionary for a 7 słów area."""
    parsed = Area.parse(area, deck)
    words = load_dictionary(dictionary, deck, progress=_building)
    found = solve(parsed, words, top=top, veteran_letters=4 if veteran else None)
    console.print(
        f"Area {parsed} · {len(words):,} words · the most a word can score: {parsed.total}"
    )
    for rank, solution in enumerate(found, 1):
        console.print(f"{rank:>3}. {solution.word.upper():<28} {solution.points:>3}")


def _building(message: str) -> None:
    console.print(f"[dim]building the dictionary index (once): {message}[/]")


def companion_words(
    round_: Annotated[
        list[str],
        typer.Option(
            "--round",
            help="One round: 'AREA;word1,word2,...;fastest;challenges;votes' e.g. "
            "'MD|SS|J+2L|J+1Y;misjudges,;1'. fastest: who flipped first (empty: nobody; "
            "solo: 'late' when the sand ran out first). challenges: 'A>B' for player A "
            "challenging B's word, comma separated. votes: y or n per player on a family "
            "challenge.",
        ),
    ],
    players: Annotated[int, typer.Option(help="Number of players (1 = solo, 2-6).")] = 2,
    deck: Annotated[str, typer.Option(help="pl (7 słów) or en (Wordsy).")] = "pl",
    validation: Annotated[str, typer.Option(help="auto or challenge.")] = "auto",
    difficulty: Annotated[
        str, typer.Option(help="Solo target: normal, medium, hard or brutal.")
    ] = "normal",
) -> None:
    """Keep the 7 słów score sheet of a game played with the box: every word checked (and
    why one is refused), scored, bonus boxes, challenges and votes, totals, and at the end
    the strike-out; with one player, the solo game on its SOLO card."""
    options: dict[str, object] = {"deck": deck, "validation": validation}
    if players == 1:
        options["difficulty"] = difficulty
    try:
        rounds = [WordRound.from_text(text, players) for text in round_]
    except ValueError as error:
        raise OptionError(str(error)) from None
    state = play_pad(players, options, rounds)
    names = [f"Player {k + 1}" for k in range(players)]
    for result in state.results:
        title = "Strike-out" if result.outcome == "strike-out" else f"Round {result.number}"
        console.print(score_table(result, names, title, "Round"))
    console.print(
        "Totals: " + ", ".join(f"{n} {s}" for n, s in zip(names, state.scores(), strict=True))
    )
    if state.solo and not state.is_over:
        console.print(f"The hourglass stands on SOLO field {state.field_name}.")
    if state.is_over:
        console.print("Winner: " + ", ".join(names[k] for k in state.result().winners))


COMMANDS = (
    Command("solve", solve_command),
    Command("siedem-slow", companion_words, group="companion"),
)
