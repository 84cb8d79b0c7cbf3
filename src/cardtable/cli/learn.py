"""``cardtable learn GAME``: the game's guided first game in the terminal, the coach's
lines printed between moves (the same lesson as ``/learn/GAME`` in the browser)."""

from __future__ import annotations

from rich.text import Text

from cardtable.cli.common import seat_names
from cardtable.cli.play import run_match
from cardtable.core.actions import Action
from cardtable.core.state import State
from cardtable.core.terminal import Describes, Seat, TerminalFrontEnd, console
from cardtable.learn import ScriptedBot, expected, guide, lesson_of, refusal
from cardtable.locales import message, reason_text


class Coach:
    """The lesson as a :class:`cardtable.core.terminal.Guide`."""

    def __init__(self, game_id: str, lang: str) -> None:
        self.lesson = lesson_of(game_id)
        self.lang = lang

    def before(self, state: State, seat: int, renderer: Describes) -> list[Text]:
        said = guide(self.lesson, state, self.lang)
        lines = [Text(f"{message('lesson.coach', self.lang)}: {said['text']}", "bold magenta")]
        target = expected(self.lesson, state, seat)
        if target is not None:  # what to type: the menu's number, or the game's own form
            typed = getattr(renderer, "typed_form", None)
            form = typed(state, seat, target) if typed is not None else None
            wanted = target.to_json()
            legal = [a.to_json() for a in state.legal_actions(seat)]
            if form is not None:
                hint = f"[{form}] "
            else:
                hint = f"{legal.index(wanted) + 1}. " if wanted in legal else ""
            lines.append(
                Text(f"  → {hint}", "bold magenta") + renderer.describe(state, seat, target)
            )
        return lines

    def refuse(self, state: State, seat: int, action: Action) -> str | None:
        why = refusal(self.lesson, state, seat, action)
        if why is None:
            return None
        return message("lesson.wrong", self.lang, reason=reason_text(why, self.lang))

    def after(self, state: State) -> list[Text]:
        said = guide(self.lesson, state, self.lang)
        return [
            Text(f"{message('lesson.coach', self.lang)}: {said['text']}", "bold magenta"),
            Text(f"cardtable play {self.lesson.game} --seats human,easy", "cyan"),
        ]


def run_lesson(game_id: str, terminal: TerminalFrontEnd, lang: str) -> None:
    lesson = lesson_of(game_id)
    state = lesson.new_state()
    players = state.num_players
    seats = [
        Seat(n, "human") if n == lesson.learner else Seat(n, "bot", ScriptedBot(lesson, n))
        for n in range(players)
    ]
    names = seat_names(seats, lang)
    console.print(message("lesson.learn_game", lang, game=lesson.load().spec.title), style="bold")
    if terminal.learn is not None:  # a real-time game: its own loop, the coach hooked in
        terminal.learn(state, seats, names, lang, Coach(game_id, lang))
        return
    assert terminal.renderer is not None, "a lesson runs in the turn loop"
    renderer = terminal.renderer(names, lang)
    run_match(state, seats=seats, renderer=renderer, names=names, guide=Coach(game_id, lang))
