"""``cardtable play``: a match in the terminal against bots, or hot-seat between people."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from rich.rule import Rule
from rich.text import Text

from cardtable.agents.hints import hint
from cardtable.core.actions import Action
from cardtable.core.record import GameRecord
from cardtable.core.state import State
from cardtable.core.terminal import Guide, Renderer, Seat, console, show_final
from cardtable.locales import message, reason_text


class Quit(Exception):
    """The person at the terminal asked to stop."""


def show_menu(state: State, seat: int, actions: Sequence[Action], renderer: Renderer) -> None:
    lines = renderer.menu(state, seat, actions)
    if lines is not None:
        for line in lines:
            console.print(line)
        return
    for number, action in enumerate(actions, 1):
        console.print(Text(f"{number:>3}. ") + renderer.describe(state, seat, action))


def refusal(state: State, seat: int, renderer: Renderer, typed: str) -> str | None:
    """Why the rules refuse the move ``typed``, in the player's language, where the game's
    renderer reads it as a move (its optional ``typed_action``); None otherwise."""
    read = getattr(renderer, "typed_action", None)
    action = read(state, seat, typed) if read is not None and typed else None
    if action is None:
        return None
    why = state.illegal_reason(seat, action)
    return None if why is None else reason_text(why, renderer.lang)


def ask_human(state: State, seat: int, renderer: Renderer, names: Sequence[str]) -> Action:
    actions = state.legal_actions(seat)
    console.print(renderer.board(state, seat))
    lang = renderer.lang
    console.print(Text(f"{names[seat]} — {renderer.prompt_title(state, seat)}", "bold cyan"))
    show_menu(state, seat, actions, renderer)
    custom_menu = renderer.menu(state, seat, actions) is not None
    asked = message(
        "term.your_choice" if custom_menu else "term.move_range", lang, count=len(actions)
    )
    # a game may word the help itself (Ohanami's moves are card numbers, not codes)
    help_text = message(getattr(renderer, "help_key", "term.help"), lang)
    while True:
        try:
            typed = console.input(f"[bold]{asked}[/] ({message('term.help_key', lang)}): ").strip()
        except (EOFError, KeyboardInterrupt):
            console.print()
            raise Quit from None
        lowered = typed.lower()
        if lowered in ("q", "quit", "exit"):
            raise Quit
        if lowered in ("h", "help"):
            console.print(help_text, style="dim")
            continue
        if lowered in ("?", "hint"):
            with console.status(message("term.thinking", lang)):
                suggestion = hint(state, seat)
            said = suggestion.text(lang, names, codes=True)  # the codes the player types
            console.print(message("term.hint", lang, text=said), style="cyan", markup=False)
            continue
        if lowered in ("b", "board"):
            console.print(renderer.board(state, seat))
            show_menu(state, seat, actions, renderer)
            continue
        if typed.isdigit() and not custom_menu:
            number = int(typed)
            if 1 <= number <= len(actions):
                return actions[number - 1]
            console.print(
                message("term.no_move", lang, number=number, count=len(actions)), style="red"
            )
            continue
        found = renderer.match_input(state, actions, typed)
        if len(found) == 1:
            return actions[found[0]]
        if len(found) > 1:
            listed = ", ".join(str(i + 1) for i in found)
            console.print(
                message("term.fits", lang, typed=typed, listed=listed),
                style="yellow",
                markup=False,
            )
            continue
        why = refusal(state, seat, renderer, typed)
        if why is not None:
            console.print(f"✗ {why}", style="red", markup=False)
            continue
        console.print(
            message("term.not_a_move", lang, typed=repr(typed), help=help_text)
            if typed
            else message("term.type_number", lang),
            style="red",
            markup=False,
        )


def run_match(
    state: State,
    *,
    seats: Sequence[Seat],
    renderer: Renderer,
    names: Sequence[str],
    save: Path | None = None,
    delay: float = 0.0,
    guide: Guide | None = None,
) -> None:
    """Play until the game is over or the person quits; save after every move (a
    ``guide`` speaks before each of a person's moves and may refuse one)."""
    lang = renderer.lang
    results_shown = len(state.result().rounds)
    _print_all(renderer.opening(state))
    try:
        while not state.is_over:
            seat = min(state.to_move)
            controller = seats[seat]
            mark = renderer.mark(state)
            action = (
                _human_move(state, seat, seats, renderer, names, guide)
                if controller.agent is None
                else controller.agent.choose(state, seat)
            )
            if action is None:  # refused by the guide: asked again
                continue
            state.apply(seat, action)
            said = renderer.announce(seat, action)
            if said is not None:
                console.print(said)
            for line in renderer.narrate(state, mark):
                console.print(line)
                if delay and controller.agent is not None:
                    time.sleep(delay)
            if save is not None:
                GameRecord.of(state).save(save)
            results_shown = _show_finished_rounds(state, renderer, results_shown)
    except Quit:
        console.print(message("term.stopped", lang), style="yellow")
        if save is not None:
            GameRecord.of(state).save(save)
            console.print(message("term.saved", lang, path=save), markup=False)
        return
    show_final(state, names, lang)
    if guide is not None:
        for line in guide.after(state):
            console.print(line)
    if save is not None:
        console.print(message("term.saved", lang, path=save), markup=False)


def _print_all(lines: Iterable[Any]) -> None:
    for line in lines:
        console.print(line)


def _human_move(
    state: State,
    seat: int,
    seats: Sequence[Seat],
    renderer: Renderer,
    names: Sequence[str],
    guide: Guide | None,
) -> Action | None:
    """A person's move (the screen turned away first when several people share it), or
    None when the guide refuses it and says why."""
    if sum(s.is_human for s in seats) > 1:
        console.print(Rule(message("term.look_away", renderer.lang, name=names[seat])))
    if guide is not None:
        _print_all(guide.before(state, seat, renderer))
    action = ask_human(state, seat, renderer, names)
    why = guide.refuse(state, seat, action) if guide is not None else None
    if why is not None:
        console.print(f"✗ {why}", style="red", markup=False)
        return None
    return action


def _show_finished_rounds(state: State, renderer: Renderer, shown: int) -> int:
    """Each round that finished since ``shown`` rounds were summed up, then the next
    round's opening; how many are shown now."""
    finished = state.result().rounds
    while shown < len(finished):
        console.print(renderer.round_summary(finished[shown]))
        shown += 1
        if not state.is_over:
            _print_all(renderer.opening(state))
    return shown
