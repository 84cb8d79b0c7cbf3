"""``cardtable replay FILE``: step through a saved game, every hand shown."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from rich.rule import Rule
from rich.text import Text

from cardtable.core.record import GameRecord
from cardtable.core.terminal import Renderer, console, show_final
from cardtable.locales import message


def replay_file(path: Path, renderer: Renderer, names: Sequence[str], *, step: bool) -> None:
    record = GameRecord.load_file(path)
    states = list(record.states())
    moves = record.log
    lang = renderer.lang
    head = message("term.replay_head", lang, game=record.game, moves=len(moves), seed=record.seed)
    console.print(head, style="bold")
    interactive = step and sys.stdin.isatty()
    position = 0
    while True:
        state = states[position]
        if position:
            seat, action = moves[position - 1]
            console.print(
                Rule(message("term.replay_move", lang, number=position, count=len(moves)))
            )
            console.print(
                Text(f"{names[seat]}: ", "bold")
                + renderer.describe(states[position - 1], seat, action)
            )
            for line in renderer.narrate(state, renderer.mark(states[position - 1])):
                console.print(line)
        if interactive or position == len(moves):
            console.print(renderer.board(state, None, reveal=True))
        if position == len(moves):
            if state.is_over:
                show_final(state, names, lang)
            return
        if not interactive:
            position += 1
            continue
        try:
            typed = console.input(f"[dim]{message('term.replay_help', lang)}[/] > ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return
        if typed == "q":
            return
        if typed == "b":
            position = max(0, position - 1)
        elif typed == "a":
            interactive = False
            position += 1
        elif typed.isdigit():
            position = max(0, min(len(moves), int(typed)))
        else:
            position += 1
