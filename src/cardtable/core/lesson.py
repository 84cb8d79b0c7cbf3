"""A guided first game as data (``Capability.LESSON``); ``cardtable.learn`` runs it.

A :class:`Lesson` fixes the game's options, its seed and deals, and a **script**: every
move of the guided game in order, each by its seat. The learner's moves carry the coach's
line (a catalogue key: one short sentence) and the idea it brings up; the other seats'
moves are what their bot plays.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib.resources import files
from typing import TYPE_CHECKING, Any

from cardtable.core.actions import Action
from cardtable.core.game import Game, load

if TYPE_CHECKING:
    from cardtable.core.state import State
    from cardtable.locales import Reason

JSON = dict[str, Any]
#: an idea's condition: true when the state (before the move) and the pointed move show it
Condition = Callable[["State", int, Action], bool]
#: a line's named values, computed by the lesson from the state (before the pointed move,
#: None once the script is out or the game is over) in the player's language: ``{card}``...
Values = Callable[["State", int, "Action | None", str], Mapping[str, Any]]
#: a lesson's own check of a move the rules allow: why the coach refuses it (None: fine)
Check = Callable[["State", int, Action], "Reason | None"]


@dataclass(frozen=True)
class Step:
    """One move of the guided game: ``seat`` plays ``action`` (its JSON); a learner's step
    carries the coach's line ``say`` (a catalogue key) and the ``idea`` it brings up."""

    seat: int
    action: JSON
    say: str = ""
    idea: str = ""


@dataclass(frozen=True)
class Lesson:
    """A guided first game, as data (see the module's docstring)."""

    game: str
    options: Mapping[str, Any]
    seed: int
    script: tuple[Step, ...]
    deals: tuple[JSON, ...] = ()
    learner: int = 0
    #: idea name -> the condition that shows it (the unit tests check each fires in order)
    ideas: Mapping[str, Condition] = field(default_factory=dict)
    #: the coach's line once the script is played out (the game goes on to its end)
    play_on: str = "lesson.play_on"
    #: the coach's line when the game is over
    done: str = "lesson.done"
    #: the values the lines name (``{card}``, ``{month}``, ``{points}``...); none when None
    values: Values | None = None
    #: a check said before the coach's "not now" (7 słów: a word the dictionary refuses,
    #: though the lesson's table checks words only when they are challenged)
    check: Check | None = None
    #: the other seats move only once the learner has nothing to do (7 słów, a real-time
    #: game: the opponent writes after the learner has flipped, so nobody hurries a reader)
    bots_wait: bool = False
    #: the coach takes a move as the one it asked for (7 słów: the word in any case)
    same: Callable[[Action, Action], bool] | None = None

    def is_wanted(self, wanted: Action, action: Action) -> bool:
        if self.same is not None:
            return self.same(wanted, action)
        return bool(wanted.to_json() == action.to_json())

    def load(self) -> Game:
        return load(self.game, **self.options)

    def new_state(self) -> State:
        return self.load().new_state(seed=self.seed, deals=self.deals)

    def values_at(
        self, state: State, seat: int, action: Action | None, lang: str
    ) -> Mapping[str, Any]:
        """The named values of the line said now (an empty mapping for a lesson without)."""
        return {} if self.values is None else self.values(state, seat, action, lang)

    def steps_of(self, seat: int) -> list[Step]:
        return [step for step in self.script if step.seat == seat]

    def moves_made(self, state: State, seat: int) -> int:
        return sum(1 for move in state.log if move.seat == seat)

    def step(self, state: State, seat: int) -> Step | None:
        """The script's next move for ``seat``, or None once its part is played out."""
        steps, made = self.steps_of(seat), self.moves_made(state, seat)
        return steps[made] if made < len(steps) else None


def found(package: str, name: str) -> JSON:
    """The deal and script a game's seed search found (``lessons/NAME.json`` in ``package``)."""
    data: JSON = json.loads((files(package) / "lessons" / f"{name}.json").read_text("utf-8"))
    return data


def scripted(steps: Iterable[JSON], say: Callable[[JSON], str]) -> tuple[Step, ...]:
    """Found steps as the script, each learner's line chosen by ``say``."""
    return tuple(Step(s["seat"], s["action"], say(s), s.get("idea", "")) for s in steps)


def read_lazily(**builders: Callable[[], Lesson]) -> Callable[[str], Lesson]:
    """A lessons module's ``__getattr__``: each named lesson built when first asked for.

    A lesson found by a seed search is read from data that the search itself writes, and
    the search imports the module's ideas: building it at import would read a file that
    may not exist yet."""
    built: dict[str, Lesson] = {}

    def lesson(name: str) -> Lesson:
        if name not in builders:
            raise AttributeError(name)
        if name not in built:
            built[name] = builders[name]()
        return built[name]

    return lesson
