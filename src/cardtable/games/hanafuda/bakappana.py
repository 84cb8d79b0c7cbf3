"""Bakappana: the plain fishing game, scored by card values only
(games/hanafuda/pages/bakappana.md).

>>> import cardtable
>>> state = cardtable.load("bakappana", players=3, rounds=1).new_state(seed=7)
>>> sorted(state.to_move) == [state.dealer]
True
>>> while not state.is_over:
...     seat = next(iter(state.to_move))
...     state.apply(seat, state.legal_actions(seat)[0])
>>> sum(state.scores())  # traditional scoring settles against par: zero-sum
0
"""

from __future__ import annotations

from cardtable.core.game import Capability, GameInfo, GameSpec, register
from cardtable.core.options import GameOptions
from cardtable.games.hanafuda.actions import parse_action
from cardtable.games.hanafuda.family import CAPABILITIES, SEARCH_ITERATIONS
from cardtable.games.hanafuda.fishing import CompiledFishingState
from cardtable.games.hanafuda.options import BakappanaOptions
from cardtable.games.hanafuda.scoring import TOTAL_VALUE, RoundScoring, score_bakappana_round

PRESETS = {
    "default": {},
    "family": {"scoring": "simple", "rounds": 3},
    "quick": {"scoring": "simple", "rounds": 1, "two_player_stop_when_hands_empty": True},
}


class BakappanaState(CompiledFishingState):
    __slots__ = ()

    def scoring(self) -> RoundScoring:
        return score_bakappana_round


def settled_total(options: GameOptions) -> int | None:
    """Traditional scoring settles against par (zero-sum); simple scoring hands out every
    round's 264 card points, unless a two-player round stops with cards uncaptured."""
    assert isinstance(options, BakappanaOptions)
    if options.scoring == "traditional":
        return 0
    stops_early = options.two_player_stop_when_hands_empty and options.players == 2
    return None if stops_early else TOTAL_VALUE * options.rounds


SPEC = register(
    GameSpec(
        id="bakappana",
        title="Bakappana",
        summary="Hanafuda fishing for 2-4 players, scored by the values of captured cards.",
        options_model=BakappanaOptions,
        start=BakappanaState,
        parse_action=parse_action,
        info=GameInfo(
            players=(2, 4),
            score_total=settled_total,
            search_iterations=SEARCH_ITERATIONS,
            rl_options={"players": 2, "rounds": 1},
            round_margin=50.0,  # card points: a round's margin is tens of points
        ),
        presets=PRESETS,
        family="hanafuda",
        capabilities={
            **CAPABILITIES,
            Capability.LESSON: "cardtable.games.hanafuda.lessons:BAKAPPANA",
        },
        rule_sections={"cards": "Scoring", "par": "Scoring"},
    )
)
