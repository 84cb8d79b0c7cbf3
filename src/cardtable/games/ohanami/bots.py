"""The greedy Ohanami bot: keep and place for value, leaving rows room to grow.

A placement is worth what the card will score from now on (a blue card placed in stage 1
scores in all three stage scorings, a grey one only at the end, a pink one adds to the
growing pink triangle), minus the room it uses up: a row end that jumps far leaves fewer
numbers for later cards, and a new row spends one of the three. The bot keeps the pair
whose best placement is worth most, and places it that way; to stay quick (it is also the
search's playout policy) it searches the placements of the eight pairs whose cards are
worth most one by one.
"""

from __future__ import annotations

from cardtable.agents.base import BotSpec, actions_for, best_by_value
from cardtable.core.actions import Action
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.games.ohanami.deck import COLOUR_OF, COLOUR_POINTS, PINK_CAP
from cardtable.games.ohanami.game import (
    MAX_ROWS,
    Keep,
    OhanamiState,
    Place,
    Row,
    Target,
    cards_in,
    targets,
    with_card,
)
from cardtable.games.ohanami.scoring import STAGES

ROOM_WEIGHT = 0.06  # points per number of row room used up
#: keeps whose placements are searched (of up to 45), the best by their cards' own worth
PAIRS_EXAMINED = 8
NEW_ROW_COST = 2.0


def card_value(state: OhanamiState, seat: int, card: int, pink_held: int) -> float:
    """Points ``card`` should bring from now to the end, placed in this stage."""
    colour = COLOUR_OF[card]
    if colour == "pink":
        return float(min(pink_held + 1, PINK_CAP)) if pink_held < PINK_CAP else 0.0
    return float(sum(COLOUR_POINTS[colour][s - 1] for s in range(state.stage, STAGES + 1)))


def placement_cost(rows: tuple[Row, ...], card: int, target: Target) -> float:
    if target == "new":
        return NEW_ROW_COST * (1 + (MAX_ROWS - len(rows) == 1))
    if target == "discard":
        return 0.0
    row = rows[target]
    gap = card - row[-1] if card > row[-1] else row[0] - card
    return ROOM_WEIGHT * gap


def placement_value(rows: tuple[Row, ...], card: int, target: Target, worth: float) -> float:
    """What placing a card ``worth`` that much at ``target`` gains (0: discarded)."""
    return 0.0 if target == "discard" else worth - placement_cost(rows, card, target)


def grown_pink(pink: int, card: int, target: Target) -> int:
    return pink + (target != "discard" and COLOUR_OF[card] == "pink")


def plan_value(state: OhanamiState, seat: int, plan: Place) -> float:
    rows = state.rows[seat]
    pink = state.colour_counts(seat)["pink"]
    total = 0.0
    for card, target in plan.placements:
        total += placement_value(rows, card, target, card_value(state, seat, card, pink))
        pink = grown_pink(pink, card, target)
        rows = with_card(rows, card, target)
    return total


def best_plan_value(
    state: OhanamiState, seat: int, rows: tuple[Row, ...], order: tuple[int, ...], pink: int
) -> float:
    """The value :func:`plan_value` gives the best plan placing ``order`` in that order."""
    if not order:
        return 0.0
    card, rest = order[0], order[1:]
    worth = card_value(state, seat, card, pink)
    return max(
        placement_value(rows, card, target, worth)
        + best_plan_value(
            state, seat, with_card(rows, card, target), rest, grown_pink(pink, card, target)
        )
        for target in targets(rows, card)
    )


def single_value(state: OhanamiState, seat: int, card: int, pink_held: int) -> float:
    """What ``card`` is worth placed on its own at its best spot (0: discarded)."""
    rows = state.rows[seat]
    worth = card_value(state, seat, card, pink_held)
    return max(placement_value(rows, card, target, worth) for target in targets(rows, card))


def promising_keeps(state: OhanamiState, seat: int, keeps: list[Action]) -> list[Action]:
    """The keeps whose cards are worth most one by one: only these get their placements
    searched (a pair's best plan is rarely far from the sum of its cards' best spots)."""
    pink = state.colour_counts(seat)["pink"]
    worth = {card: single_value(state, seat, card, pink) for card in cards_in(state.hands[seat])}

    def pair_worth(keep: Action) -> float:
        assert isinstance(keep, Keep)
        return worth[keep.cards[0]] + worth[keep.cards[1]]

    return sorted(keeps, key=pair_worth, reverse=True)[:PAIRS_EXAMINED]


def candidates(state: OhanamiState, seat: int, actions: list[Action]) -> list[Action]:
    """The moves worth valuing exactly: every placement, the promising keeps."""
    if isinstance(actions[0], Keep) and len(actions) > PAIRS_EXAMINED:
        return promising_keeps(state, seat, actions)
    return actions


class OhanamiGreedy:
    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(0 if seed is None else seed)

    def choose(self, state: State, seat: int) -> Action:
        actions = actions_for(state, seat)
        assert isinstance(state, OhanamiState)
        actions = candidates(state, seat, actions)
        return best_by_value(actions, lambda a: self.value(state, seat, a), self.rng)

    def shortlist(self, state: State, seat: int, actions: list[Action], size: int) -> list[Action]:
        """The ``size`` moves it values most: what a search on top of it looks at."""
        assert isinstance(state, OhanamiState)
        actions = candidates(state, seat, actions)
        ranked = sorted(actions, key=lambda a: self.value(state, seat, a), reverse=True)
        return ranked[:size]

    def value(self, state: OhanamiState, seat: int, action: Action) -> float:
        if isinstance(action, Place):
            return plan_value(state, seat, action)
        assert isinstance(action, Keep)
        pink = state.colour_counts(seat)["pink"]
        first, second = action.cards
        return max(
            best_plan_value(state, seat, state.rows[seat], order, pink)
            for order in ((first, second), (second, first))
        )


BOTS = {
    "greedy": BotSpec(
        "keeps and places for the points a card will score, leaving rows room to grow",
        lambda game_id, seed: OhanamiGreedy(seed),
    ),
}
