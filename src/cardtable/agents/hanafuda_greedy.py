"""The greedy hanafuda bot: grab the most valuable capture now, discard with care otherwise.

It scores each legal hand play by the card value it captures at once. With no capture
it discards the card that gives least away: the lowest value, preferring a month whose
other cards it holds (it can take the discard back) and a month no longer live.
"""

from __future__ import annotations

from cardtable.agents.base import AgentEntry, actions_for, register_agent
from cardtable.core.actions import Action
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.games.hanafuda.actions import Play, Take
from cardtable.games.hanafuda.deck import MONTH_MASK_OF, VALUE_OF, value_of
from cardtable.games.hanafuda.fishing import FishingState


def capture_gain(state: FishingState, card: int, take: int | None) -> int:
    """Card value captured at once by playing ``card`` (choosing ``take`` from two)."""
    matches = state.table & MONTH_MASK_OF[card]
    if not matches:
        return 0
    if take is not None and matches.bit_count() == 2:
        matches = 1 << take
    return VALUE_OF[card] + value_of(matches)


def discard_cost(state: FishingState, seat: int, card: int) -> float:
    """How much a discard gives away: its value, less if we can take it back next turn."""
    month = MONTH_MASK_OF[card]
    held = state.hands[seat] & month & ~(1 << card)
    cost = float(VALUE_OF[card])
    if held:
        cost *= 0.25  # we hold its partner: likely ours again on our next turn
    return cost


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(0 if seed is None else seed)

    def choose(self, state: State, seat: int) -> Action:
        actions = actions_for(state, seat)
        if not isinstance(state, FishingState):
            return actions[self.rng.below(len(actions))]
        best: list[Action] = []
        best_score = float("-inf")
        for action in actions:
            score = self.score(state, seat, action)
            if score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return best[self.rng.below(len(best))]

    def score(self, state: FishingState, seat: int, action: Action) -> float:
        if isinstance(action, Play):
            gain = capture_gain(state, action.card, action.take)
            if gain:
                return 1000.0 + gain
            return -discard_cost(state, seat, action.card)
        if isinstance(action, Take):
            return float(VALUE_OF[action.card])
        return 0.0


register_agent(
    AgentEntry(
        "greedy",
        "takes the most valuable capture; otherwise discards what gives least away",
        lambda game_id, seed: GreedyAgent(seed),
        families=frozenset({"hanafuda"}),
    )
)
