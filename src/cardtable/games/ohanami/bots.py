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

from cardtable.agents.base import EXPERT_SECONDS, BotSpec, actions_for, best_by_value
from cardtable.agents.ismcts import search_level
from cardtable.core.actions import Action
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.games.ohanami.deck import COLOUR_OF, COLOUR_POINTS, PINK_CAP
from cardtable.games.ohanami.game import (
    HAND,
    MAX_ROWS,
    PASS_STEP,
    PICKS,
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
#: the strategist's pink plan: the share of its later keeps it expects to be pink is its
#: pink pace so far, within these bounds, times the follow-through
PINK_PACE_FLOOR = 0.15
PINK_PACE_CAP = 0.6
PINK_FOLLOW_THROUGH = 0.4
#: how much of what the passed cards give their receiver counts against a keep
DENIAL = 0.25


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


def keeps_made(state: OhanamiState) -> int:
    """Cards a seat has kept before this pick, since the start of the game."""
    return HAND * (state.stage - 1) + 2 * (state.pick - 1)


def keeps_left(state: OhanamiState) -> int:
    """Cards a seat still keeps after this pick's two, to the end of the game."""
    return 2 * (PICKS - state.pick) + HAND * (STAGES - state.stage)


class OhanamiGreedy:
    """Keeps and places for the points a card will score from now on (see the module)."""

    name = "greedy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(0 if seed is None else seed)

    def choose(self, state: State, seat: int) -> Action:
        actions = actions_for(state, seat)
        assert isinstance(state, OhanamiState)
        actions = self.candidates(state, seat, actions)
        return best_by_value(actions, lambda a: self.value(state, seat, a), self.rng)

    def shortlist(self, state: State, seat: int, actions: list[Action], size: int) -> list[Action]:
        """The ``size`` moves it values most: what a search on top of it looks at."""
        assert isinstance(state, OhanamiState)
        actions = self.candidates(state, seat, actions)
        ranked = sorted(actions, key=lambda a: self.value(state, seat, a), reverse=True)
        return ranked[:size]

    def value(self, state: OhanamiState, seat: int, action: Action) -> float:
        if isinstance(action, Place):
            return self.plan_value(state, seat, action)
        assert isinstance(action, Keep)
        return self.keep_value(state, seat, action)

    def keep_value(self, state: OhanamiState, seat: int, keep: Keep) -> float:
        """What the pair brings at its best placement, in either order."""
        pink = state.colour_counts(seat)["pink"]
        first, second = keep.cards
        return max(
            self.best_plan_value(state, seat, state.rows[seat], order, pink)
            for order in ((first, second), (second, first))
        )

    # -- what a card is worth ---------------------------------------------------------------
    def card_value(self, state: OhanamiState, seat: int, card: int, pink_held: int) -> float:
        """Points ``card`` should bring from now to the end, placed in this stage: a pink
        card adds the next step of the pink triangle."""
        colour = COLOUR_OF[card]
        if colour == "pink":
            return float(min(pink_held + 1, PINK_CAP)) if pink_held < PINK_CAP else 0.0
        return float(sum(COLOUR_POINTS[colour][s - 1] for s in range(state.stage, STAGES + 1)))

    def plan_value(self, state: OhanamiState, seat: int, plan: Place) -> float:
        rows = state.rows[seat]
        pink = state.colour_counts(seat)["pink"]
        total = 0.0
        for card, target in plan.placements:
            worth = self.card_value(state, seat, card, pink)
            total += placement_value(rows, card, target, worth)
            pink = grown_pink(pink, card, target)
            rows = with_card(rows, card, target)
        return total

    def best_plan_value(
        self,
        state: OhanamiState,
        seat: int,
        rows: tuple[Row, ...],
        order: tuple[int, ...],
        pink: int,
    ) -> float:
        """The value :meth:`plan_value` gives the best plan placing ``order`` in that order."""
        if not order:
            return 0.0
        card, rest = order[0], order[1:]
        worth = self.card_value(state, seat, card, pink)
        return max(
            placement_value(rows, card, target, worth)
            + self.best_plan_value(
                state, seat, with_card(rows, card, target), rest, grown_pink(pink, card, target)
            )
            for target in targets(rows, card)
        )

    def single_value(self, state: OhanamiState, seat: int, card: int, pink_held: int) -> float:
        """What ``card`` is worth to ``seat`` placed on its own at its best spot."""
        rows = state.rows[seat]
        worth = self.card_value(state, seat, card, pink_held)
        return max(placement_value(rows, card, target, worth) for target in targets(rows, card))

    def single_values(self, state: OhanamiState, seat: int, hand: int) -> dict[int, float]:
        pink = state.colour_counts(seat)["pink"]
        return {card: self.single_value(state, seat, card, pink) for card in cards_in(hand)}

    def candidates(self, state: OhanamiState, seat: int, actions: list[Action]) -> list[Action]:
        """The moves worth valuing exactly: every placement; of the keeps, those whose
        cards are worth most one by one (a pair's best plan is rarely far from the sum of
        its cards' best spots)."""
        if not isinstance(actions[0], Keep) or len(actions) <= PAIRS_EXAMINED:
            return actions
        worth = self.single_values(state, seat, state.hands[seat])

        def pair_worth(keep: Action) -> float:
            assert isinstance(keep, Keep)
            return worth[keep.cards[0]] + worth[keep.cards[1]]

        return sorted(actions, key=pair_worth, reverse=True)[:PAIRS_EXAMINED]


class OhanamiStrategist(OhanamiGreedy):
    """Greedy's valuation with a plan: pink is worth the triangle step it will reach by the
    end, not the next one, and a keep also counts what its passed cards give away."""

    name = "strategist"

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self._ranking_key: tuple[object, ...] = ()
        self._ranking: list[tuple[int, float]] = []

    def card_value(self, state: OhanamiState, seat: int, card: int, pink_held: int) -> float:
        if COLOUR_OF[card] != "pink":
            return super().card_value(state, seat, card, pink_held)
        if pink_held >= PINK_CAP:
            return 0.0
        # the pinks still to come if the seat keeps collecting at its pace so far (a
        # newcomer to pink is not assumed to take many)
        pace = (pink_held + 1) / (keeps_made(state) + 2)
        pace = min(max(pace, PINK_PACE_FLOOR), PINK_PACE_CAP)
        expected = pink_held + 1 + PINK_FOLLOW_THROUGH * pace * keeps_left(state)
        return min(expected, float(PINK_CAP))

    def keep_value(self, state: OhanamiState, seat: int, keep: Keep) -> float:
        value = super().keep_value(state, seat, keep)
        # what the receiver would keep of the passed cards: its best two by its own values
        # of the whole hand (the same for every keep of this hand, so worked out once)
        ranked = self._receiver_ranking(state, seat)
        given = [worth for card, worth in ranked if card not in keep.cards][:2]
        return value - DENIAL * sum(given) / (state.n - 1)

    def _receiver_ranking(self, state: OhanamiState, seat: int) -> list[tuple[int, float]]:
        receiver = (seat + PASS_STEP[state.stage]) % state.n
        # everything the receiver's values depend on
        key = (state.stage, state.pick, state.hands[seat], state.rows[receiver])
        if self._ranking_key != key:
            values = self.single_values(state, receiver, state.hands[seat])
            self._ranking = sorted(values.items(), key=lambda item: item[1], reverse=True)
            self._ranking_key = key
        return self._ranking


BOTS = {
    "greedy": BotSpec(
        "keeps and places for the points a card will score, leaving rows room to grow",
        lambda game_id, seed: OhanamiGreedy(seed),
    ),
    "strategist": BotSpec(
        "greedy with a plan: pink valued by the count it will reach, passing denial",
        lambda game_id, seed: OhanamiStrategist(seed),
    ),
    "expert": BotSpec(
        "ISMCTS as hard, with the strategist's playouts and shortlist, at most a second a move",
        lambda game_id, seed: search_level(
            game_id, seed, rollout="strategist", live_seconds=EXPERT_SECONDS
        ),
    ),
}
