"""The greedy Ohanami bot: keep and place for value, leaving rows room to grow.

A placement is worth what the card will score from now on (a blue card placed in stage 1
scores in all three stage scorings, a grey one only at the end, a pink one adds to the
growing pink triangle), minus the room it uses up: a row end that jumps far leaves fewer
numbers for later cards, and a new row spends one of the three. The bot keeps the pair
whose best placement is worth most, and places it that way.
"""

from __future__ import annotations

from cardtable.agents.base import actions_for, best_by_value, register_agent
from cardtable.core.actions import Action
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.games.ohanami.deck import COLOUR_OF, COLOUR_POINTS, PINK_CAP
from cardtable.games.ohanami.game import (
    MAX_ROWS,
    STAGES,
    Keep,
    OhanamiState,
    Place,
    Row,
    Target,
    with_card,
)

ROOM_WEIGHT = 0.06  # points per number of row room used up
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


def plan_value(state: OhanamiState, seat: int, plan: Place) -> float:
    rows = state.rows[seat]
    pink = state.colour_counts(seat)["pink"]
    total = 0.0
    for card, target in plan.placements:
        if target != "discard":
            total += card_value(state, seat, card, pink) - placement_cost(rows, card, target)
            pink += COLOUR_OF[card] == "pink"
        rows = with_card(rows, card, target)
    return total


class OhanamiGreedy:
    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(0 if seed is None else seed)

    def choose(self, state: State, seat: int) -> Action:
        actions = actions_for(state, seat)
        assert isinstance(state, OhanamiState)
        return best_by_value(actions, lambda a: self.value(state, seat, a), self.rng)

    def value(self, state: OhanamiState, seat: int, action: Action) -> float:
        if isinstance(action, Place):
            return plan_value(state, seat, action)
        assert isinstance(action, Keep)
        trial = state.clone()
        trial.kept[seat] = (1 << action.cards[0]) | (1 << action.cards[1])
        trial.pending[seat] = None
        trial.phase = "place"
        return max(plan_value(trial, seat, plan) for plan in trial.placements(seat))


register_agent(
    "greedy",
    "keeps and places for the points a card will score, leaving rows room to grow",
    "ohanami",
    lambda game_id, seed: OhanamiGreedy(seed),
)
