"""Ohanami's guided first game (``Capability.LESSON``): a seed found by ``lesson_search``
(data in ``lessons/ohanami.json``) in which keeping and passing, rows that only grow,
colours and the three stages come up in order; the coach's lines are ``lesson.ohanami.*``.

>>> from cardtable.core.game import Capability, spec_of
>>> lesson = spec_of("ohanami").capability(Capability.LESSON)
>>> [step.idea for step in lesson.steps_of(0) if step.idea]
['keep', 'grow', 'colours', 'stages']
"""

from __future__ import annotations

from typing import Any

from cardtable.core.actions import Action
from cardtable.core.lesson import JSON, Condition, Lesson, found, read_lazily, scripted
from cardtable.core.state import State
from cardtable.games.ohanami.deck import COLOUR_OF, pink_points
from cardtable.games.ohanami.game import Keep, Place
from cardtable.locales import message


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


def _card(number: int, lang: str) -> str:
    """``62 (blue)``: a card's number and its colour, in the player's language."""
    colour = message(f"lesson.ohanami.colour.{COLOUR_OF[number]}", lang)
    return f"{number} ({colour})"


def _placement(number: int, to: object, rows: list[list[int]], lang: str) -> str:
    if to == "discard":
        return message("lesson.ohanami.to_discard", lang, card=_card(number, lang))
    if to == "new":
        return message("lesson.ohanami.to_new", lang, card=_card(number, lang))
    assert isinstance(to, int)
    row = rows[to] if to < len(rows) else []
    end = "lesson.ohanami.to_top" if not row or number > max(row) else "lesson.ohanami.to_bottom"
    return message(end, lang, card=_card(number, lang), row=to + 1)


def values(state: State, seat: int, action: Action | None, lang: str) -> dict[str, Any]:
    """The named values of Ohanami's coach lines, from the state before ``action``:
    ``cards`` (kept or placed), ``placements`` (where each goes, at which end of its row),
    ``pinks`` and ``pink_points`` (after the move), ``stage_score`` (the last stage's
    score), and at the end ``s1``, ``s2``, ``s3`` and ``total``."""
    view = state.view(seat)
    stages = [int(stage["scores"][seat]) for stage in view.get("stages") or []]
    out: dict[str, Any] = {
        "stage_score": stages[-1] if stages else 0,
        "total": sum(stages),
        **{f"s{n + 1}": (stages[n] if n < len(stages) else 0) for n in range(3)},
    }
    rows = [list(row) for row in (view.get("gardens") or [[]] * (seat + 1))[seat]]
    pinks = sum(1 for row in rows for c in row if COLOUR_OF[c] == "pink")
    if isinstance(action, Keep):
        out["cards"] = ", ".join(_card(c, lang) for c in action.cards)
    elif isinstance(action, Place):
        out["cards"] = ", ".join(_card(c, lang) for c, _to in action.placements)
        said = []
        for card, to in action.placements:
            said.append(_placement(card, to, rows, lang))
            if to == "new":
                rows.append([card])
            elif isinstance(to, int):
                rows[to].append(card)
        out["placements"] = "; ".join(said)
        pinks += sum(1 for c, to in action.placements if COLOUR_OF[c] == "pink" and to != "discard")
    out |= {"pinks": pinks, "pink_points": pink_points(pinks)}
    return out


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
    data = found(__package__, "ohanami")

    def say(step: JSON) -> str:
        if "idea" in step:
            return f"lesson.ohanami.idea.{step['idea']}"
        return f"lesson.ohanami.play.{step['action']['type']}" if step["seat"] == 0 else ""

    script = scripted(data["script"], say)
    return Lesson(
        game="ohanami",
        options=data["options"],
        seed=data["seed"],
        script=script,
        ideas=IDEAS,
        values=values,
        done="lesson.ohanami.done",
    )


__getattr__ = read_lazily(OHANAMI=_lesson)  # the search imports IDEAS before the data exists
