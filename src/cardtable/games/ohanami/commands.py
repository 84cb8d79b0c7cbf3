"""Ohanami's own command (the ``COMMANDS`` capability): the score pad of a game played
with the box."""

from __future__ import annotations

from typing import Annotated

import typer

from cardtable.core.errors import OptionError
from cardtable.core.terminal import Command, console, score_table
from cardtable.games.ohanami.companion import Garden, stage_result


def companion_ohanami(
    garden: Annotated[
        list[str],
        typer.Option(
            help="One garden after the stage: card numbers '3 14 62' or counts "
            "'blue=3,green=2,pink=1' (once a player)."
        ),
    ],
    stage: Annotated[int, typer.Option(help="The stage just finished (1-3).")] = 1,
) -> None:
    """Score an Ohanami stage played with the box: each garden's lines and points."""

    def read(text: str) -> Garden:
        if "=" in text:
            pairs = (part.split("=", 1) for part in text.replace(" ", "").split(",") if part)
            return Garden(counts={colour: int(count) for colour, count in pairs})
        return Garden(cards=tuple(int(n) for n in text.replace(",", " ").split()))

    try:
        gardens = [read(g) for g in garden]
    except ValueError as error:
        raise OptionError(str(error)) from None
    result = stage_result(len(garden), stage, gardens)
    names = [f"Player {k + 1}" for k in range(len(garden))]
    console.print(score_table(result, names, f"Ohanami: stage {stage}", "Stage"))


COMMANDS = (Command("ohanami", companion_ohanami, group="companion"),)
