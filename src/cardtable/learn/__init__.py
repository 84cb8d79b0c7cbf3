"""The lesson runner: drives a game's guided first game (``Capability.LESSON``, a
:class:`cardtable.core.lesson.Lesson`) for the browser and the terminal, knowing no game.

The real engine referees every move: :func:`refusal` says why a move is refused, the
engine's reason first, and, for a legal move that is not the one the coach points at, the
coach's own. The other seats play their scripted moves (:class:`ScriptedBot`). Once the
learner's script is played out, the coach points at the ``greedy`` bot's choice until the
game ends, so a lesson may stop scripting once its ideas have come up.

>>> lesson = lesson_of("koi-koi")
>>> state = lesson.new_state()
>>> guide(lesson, state, "en")["target"]
{'type': 'play', 'card': '01-1', 'take': None}
"""

from __future__ import annotations

from typing import Any

from cardtable.agents import make_agent
from cardtable.core.actions import Action
from cardtable.core.errors import OptionError
from cardtable.core.game import Capability, game_ids, spec_of
from cardtable.core.lesson import Lesson, Step
from cardtable.core.state import State
from cardtable.locales import LANGUAGES, Reason, message, reason

__all__ = [
    "LESSON_PRESET",
    "Lesson",
    "ScriptedBot",
    "Step",
    "expected",
    "games_with_lessons",
    "guide",
    "has_lesson",
    "lesson_of",
    "refusal",
]

JSON = dict[str, Any]

#: the preset name a lesson's table carries (a lesson is no rule set of its own)
LESSON_PRESET = "lesson"


def expected(lesson: Lesson, state: State, seat: int) -> Action | None:
    """The move the coach points at for ``seat`` now (None when it is not to move)."""
    if state.is_over or seat not in state.to_move:
        return None
    step = lesson.step(state, seat)
    if step is not None:
        return state.game.parse_action(step.action)
    return make_agent("greedy", lesson.game, seed=lesson.seed).choose(state.clone(), seat)


def refusal(lesson: Lesson, state: State, seat: int, action: Action) -> Reason | str | None:
    """Why ``action`` is refused in the lesson: the engine's reason, or the coach's when it
    is legal but not the scripted move the coach points at (None: it is played)."""
    engine = state.illegal_reason(seat, action)
    if engine is not None:
        return engine
    if seat != lesson.learner or lesson.step(state, seat) is None:
        return None
    if lesson.check is not None:
        own = lesson.check(state, seat, action)
        if own is not None:
            return own
    wanted = expected(lesson, state, seat)
    if wanted is not None and not lesson.is_wanted(wanted, action):
        return reason("lesson.not_now")
    return None


def guide(lesson: Lesson, state: State, lang: str, name: str = "") -> JSON:
    """The lesson's guide now: its line and the move it points at for the learner, called
    ``name`` (the name they gave; the browser puts in their seat's name itself, and
    without one the line says "player")."""
    seat = lesson.learner
    scripted = lesson.steps_of(seat)
    step = lesson.step(state, seat)
    target = expected(lesson, state, seat)
    if state.is_over:
        key = lesson.done
    elif target is None:  # the others move: the next line's values need the learner's turn
        key = "lesson.waiting"
    elif step is not None:
        key = step.say
    else:
        key = lesson.play_on

    def values(code: str) -> dict[str, Any]:
        called = name or message("lesson.learner", code)
        return {"name": called, **lesson.values_at(state, seat, target, code)}

    return {
        "step": min(lesson.moves_made(state, seat), len(scripted)),
        "steps": len(scripted),
        "key": key,
        "text": message(key, lang, **values(lang)),
        # the line's named values in each language (the browser says the line in its own)
        "values": {
            code: {named: str(value) for named, value in values(code).items()}
            for code in sorted(LANGUAGES)
        },
        "idea": step.idea if step is not None and not state.is_over else "",
        "target": None if target is None else target.to_json(),
        "waiting": target is None and not state.is_over,
        "over": state.is_over,
    }


class ScriptedBot:
    """The other seats of a lesson: their scripted moves, then the ``easy`` bot's."""

    name = "lesson"

    def __init__(self, lesson: Lesson, seat: int) -> None:
        self.lesson = lesson
        self.fallback = make_agent("easy", lesson.game, seed=lesson.seed + seat)

    def choose(self, state: State, seat: int) -> Action:
        step = self.lesson.step(state, seat)
        if step is None:
            return self.fallback.choose(state, seat)
        return state.game.parse_action(step.action)

    def waits(self, state: State) -> bool:
        """The lesson holds this seat back while the learner still has a move to make."""
        return self.lesson.bots_wait and self.lesson.learner in state.to_move


def has_lesson(game_id: str) -> bool:
    return spec_of(game_id).has(Capability.LESSON)


def lesson_of(game_id: str) -> Lesson:
    """The game's guided first game (an OptionError for a game without one)."""
    spec = spec_of(game_id)
    lesson = spec.capability(Capability.LESSON, f"{spec.title} has no guided first game yet")
    if not isinstance(lesson, Lesson):
        raise OptionError(f"{spec.title}'s lesson is not a Lesson")
    return lesson


def games_with_lessons() -> list[str]:
    return [game_id for game_id in game_ids() if has_lesson(game_id)]
