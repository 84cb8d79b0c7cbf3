"""Ohanami's guided first game (``Capability.LESSON``): a seed found by ``lesson_search``
(data in ``lessons/ohanami.json``) in which keeping and passing, rows that only grow,
colours and the three stages come up in order; the coach's lines are ``lesson.ohanami.*``.

>>> from cardtable.core.game import Capability, spec_of
>>> lesson = spec_of("ohanami").capability(Capability.LESSON)
>>> [step.idea for step in lesson.steps_of(0) if step.idea]
['keep', 'grow', 'colours', 'stages']
"""

from __future__ import annotations

import json
from importlib.resources import files

from cardtable.core.actions import Action
from cardtable.core.lesson import Condition, Lesson, Step
from cardtable.core.state import State
from cardtable.games.ohanami.deck import COLOUR_OF
from cardtable.games.ohanami.game import Keep, Place


def _stage(state: State, seat: int) -> int:
    return int(state.view(seat).get("stage") or 1)


def _grows(state: State, seat: int, action: Action) -> bool:
    """A kept card goes to one end of a row already begun."""
    return isinstance(action, Place) and any(isinstance(to, int) for _c, to in action.placements)


def _pink(state: State, seat: int, action: Action) -> bool:
    """A pink card (cherry blossom) goes into a row: colours score at a stage's end."""
    return isinstance(action, Place) and any(
        COLOUR_OF[card] == "pink" and to != "discard" for card, to in action.placements
    )


#: Ohanami's ideas, in the order the lesson brings them up
IDEAS: dict[str, Condition] = {
    # keep two cards of the hand; the rest passes to a neighbour
    "keep": lambda s, n, a: isinstance(a, Keep),
    # rows only grow: a card goes below the lowest or above the highest
    "grow": _grows,
    # colours: each colour scores in its stages (pinks most, at the end)
    "colours": _pink,
    # the three stages: the first is scored, the second begins
    "stages": lambda s, n, a: isinstance(a, Keep) and _stage(s, n) == 2,
}


def _lesson() -> Lesson:
    data = json.loads((files(__package__) / "lessons" / "ohanami.json").read_text("utf-8"))
    script = tuple(
        Step(
            step["seat"],
            step["action"],
            f"lesson.ohanami.idea.{step['idea']}"
            if "idea" in step
            else ("lesson.ohanami.play" if step["seat"] == 0 else ""),
            step.get("idea", ""),
        )
        for step in data["script"]
    )
    return Lesson(
        game="ohanami", options=data["options"], seed=data["seed"], script=script, ideas=IDEAS
    )


def __getattr__(name: str) -> Lesson:
    if name == "OHANAMI":  # read when first asked for (the search imports IDEAS)
        lesson = _lesson()
        globals()[name] = lesson
        return lesson
    raise AttributeError(name)
