"""The hanafuda guided first games (``Capability.LESSON``): a fixed deal in which each idea
comes up in order, every scripted move, and the coach's lines (``lesson.*`` keys in this
package's catalogues).

The ideas the hanafuda games share are declared once (:data:`IDEAS`): matching by month,
two matches and the choice, drawing from the stock, the first yaku, koi-koi or stop.

>>> from cardtable.core.game import Capability, spec_of
>>> lesson = spec_of("koi-koi").capability(Capability.LESSON)
>>> [step.idea for step in lesson.steps_of(0)]
['match', 'choice', 'draw', 'yaku', 'stop']
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from importlib.resources import files
from typing import Any

from cardtable.core.actions import Action
from cardtable.core.lesson import Condition, Lesson, Step
from cardtable.core.state import State
from cardtable.games.hanafuda.actions import KoiKoi, Play, Shobu, Take
from cardtable.games.hanafuda.deck import CODES, MONTH_MASK_OF

JSON = dict[str, Any]


def full_deal(
    dealer: int, hands: Sequence[str], table: str, stock_top: str, hand_size: int
) -> JSON:
    """A whole deal from the cards that matter: the stock's top cards as given, the rest
    of the deck under them in card order (every card placed once)."""
    given = [code for part in (*hands, table, stock_top) for code in part.split()]
    rest = [code for code in CODES if code not in given]
    split = [hand.split() for hand in hands]
    assert all(len(hand) == hand_size for hand in split), "every hand holds hand_size cards"
    return {
        "dealer": dealer,
        "hands": split,
        "table": table.split(),
        "stock": [*stock_top.split(), *rest],
    }


def _table_matches(state: State, card: int) -> int:
    table = int(getattr(state, "table", 0))
    return bin(table & MONTH_MASK_OF[card]).count("1")


def _after(state: State, seat: int, action: Action) -> State:
    after = state.clone()
    after.apply(seat, action)
    return after


def _yaku_made(state: State, seat: int, action: Action) -> bool:
    view = _after(state, seat, action).view(seat)
    return bool((view.get("yaku") or [[]] * (seat + 1))[seat]) or view.get("phase") == "decide"


def _stock_took(state: State, seat: int, action: Action) -> bool:
    """The stock's card turned over after this move and took a card (or, a Take, the
    player chooses which of two it takes)."""
    if isinstance(action, Take):
        return True
    before = len(state.view(seat).get("events") or ())
    after = _after(state, seat, action).view(seat).get("events") or []
    return any(  # only this move's events: the round's earlier ones are kept in the view
        e.get("seat") == seat and e.get("from") == "stock" and e.get("captured")
        for e in after[before:]
    )


def _steals(state: State, seat: int, action: Action) -> bool:
    """The move takes a card from an opponent's captured pile (Hana-awase 88's rule)."""
    take = getattr(action, "take", None) if isinstance(action, Play) else None
    if take is None:
        return False
    piles = state.view(seat).get("piles") or []
    return any(CODES[take] in pile for n, pile in enumerate(piles) if n != seat)


#: the ideas every hanafuda lesson brings up, each with the condition that shows it
IDEAS: dict[str, Condition] = {
    # a played card finds exactly one card of its month on the table
    "match": lambda s, n, a: isinstance(a, Play) and _table_matches(s, a.card) == 1,
    # two cards of the month lie there: the player chooses which to take
    "choice": lambda s, n, a: isinstance(a, Play) and a.take is not None and not _steals(s, n, a),
    # after the played card, the stock's top card turns over and takes a card too
    "draw": _stock_took,
    # a card of the month taken from an opponent's pile
    "steal": _steals,
    # the move completes the player's first yaku
    "yaku": _yaku_made,
    # koi-koi's call: go on for more, or stop and score
    "stop": lambda s, n, a: isinstance(a, (KoiKoi, Shobu)),
}


def _play(card: str, take: str | None = None) -> JSON:
    return {"type": "play", "card": card, "take": take}


def _koikoi() -> Lesson:
    deal = full_deal(
        0,
        ["03-1 09-1 08-1 01-1 06-2 07-1 10-2 12-2", "04-1 10-1 05-1 05-2 06-1 11-1 11-2 12-1"],
        "01-3 09-3 09-4 08-3 02-3 02-4 07-3 12-3",
        "03-3 06-4 02-1 12-4 11-4",
        hand_size=8,
    )
    script = (
        Step(0, _play("01-1"), "lesson.hanafuda.match", "match"),
        Step(1, _play("04-1")),
        Step(0, _play("09-1", "09-3"), "lesson.hanafuda.choice", "choice"),
        Step(0, {"type": "take", "card": "02-3"}, "lesson.hanafuda.draw", "draw"),
        Step(1, _play("10-1")),
        Step(0, _play("08-1"), "lesson.hanafuda.yaku", "yaku"),
        Step(0, {"type": "shobu"}, "lesson.koi-koi.stop", "stop"),
    )
    return Lesson(
        game="koi-koi", options={"rounds": 1}, seed=26, deals=(deal,), script=script, ideas=IDEAS
    )


def _searched(game_id: str) -> Lesson:
    """A lesson found by ``lesson_search`` (its seed and moves are data in ``lessons/``):
    each idea's step says the idea's line, the other moves of the learner the plain one."""
    data = json.loads((files(__package__) / "lessons" / f"{game_id}.json").read_text("utf-8"))
    script = tuple(
        Step(
            step["seat"],
            step["action"],
            f"lesson.hanafuda.idea.{step['idea']}"
            if "idea" in step
            else ("lesson.hanafuda.play" if step["seat"] == 0 else ""),
            step.get("idea", ""),
        )
        for step in data["script"]
    )
    return Lesson(
        game=game_id, options=data["options"], seed=data["seed"], script=script, ideas=IDEAS
    )


KOIKOI = _koikoi()
#: the lessons found by the search, read when first asked for (the search imports IDEAS)
SEARCHED = {"BAKAPPANA": "bakappana", "HANA_AWASE": "hana-awase", "HANA_AWASE_88": "hana-awase-88"}


def __getattr__(name: str) -> Lesson:
    if name in SEARCHED:
        lesson = _searched(SEARCHED[name])
        globals()[name] = lesson
        return lesson
    raise AttributeError(name)
