"""The greedy hanafuda bot: grab the most valuable capture now, discard with care otherwise.

It scores each legal hand play by what it captures at once: card values, plus the yaku
points the capture adds in games with yaku (weighted by what yaku are worth there). With
no capture it discards the card that gives least away: the lowest value, cheaper still
when it holds the partner (it can take the discard back). In koi-koi it goes on only
early in the round, with a small yaku and an opponent far from one.
"""

from __future__ import annotations

from cardtable.agents.base import actions_for, best_by_value
from cardtable.core.actions import Action
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.games.hanafuda.actions import KoiKoi, Play, Take
from cardtable.games.hanafuda.deck import MONTH_MASK_OF, VALUE_OF, value_of
from cardtable.games.hanafuda.fishing import FishingState
from cardtable.games.hanafuda.koikoi import KoiKoiState
from cardtable.games.hanafuda.options import card_points_score


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


#: A yaku point against a card value point in a game that scores only yaku (koi-koi): there
#: a point is worth about an animal; where card values score too, a point is a point.
YAKU_ONLY_WEIGHT = 10.0


def yaku_weight(state: FishingState) -> float:
    """What a yaku point is worth in card-value units in ``state``'s game."""
    return 1.0 if card_points_score(state.game.options) else YAKU_ONLY_WEIGHT


def yaku_gain(state: FishingState, seat: int, taken: int) -> float:
    """Yaku points that capturing ``taken`` adds to ``seat``'s pile, in card-value units
    (0 in a game without yaku)."""
    pile = state.piles[seat]
    before = state.pile_yaku_points(seat, pile, state.table)
    after = state.pile_yaku_points(seat, pile | taken, state.table & ~taken)
    return yaku_weight(state) * (after - before)


def wants_koikoi(state: FishingState, seat: int) -> bool:
    """Go on only early, with a small yaku, while the opponent has none."""
    if not isinstance(state, KoiKoiState):
        return False
    opponent = 1 - seat
    cards_left = state.hands[seat].bit_count()
    return (
        cards_left >= 5
        and state.yaku_total(seat) < 5
        and state.yaku_total(opponent) == 0
        and state.piles[opponent].bit_count() < 8
    )


class GreedyAgent:
    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(0 if seed is None else seed)

    def choose(self, state: State, seat: int) -> Action:
        actions = actions_for(state, seat)
        assert isinstance(state, FishingState)  # registered for the hanafuda family only
        return best_by_value(actions, lambda a: self.score(state, seat, a), self.rng)

    def score(self, state: FishingState, seat: int, action: Action) -> float:
        if isinstance(action, Play):
            gain = capture_gain(state, action.card, action.take)
            if gain:
                taken = (state.table & MONTH_MASK_OF[action.card]) | 1 << action.card
                if action.take is not None:
                    taken = 1 << action.take | 1 << action.card
                return 1000.0 + gain + yaku_gain(state, seat, taken)
            return -discard_cost(state, seat, action.card)
        if isinstance(action, Take):
            return float(VALUE_OF[action.card]) + yaku_gain(
                state, seat, 1 << action.card | 1 << state.pending
            )
        if isinstance(action, KoiKoi):
            return 1.0 if wants_koikoi(state, seat) else -1.0
        return 0.0
