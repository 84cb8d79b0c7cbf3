"""Bakappana: the plain fishing game, scored by card values only (rules/hanafuda.md §3).

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

from typing import Literal, Self, cast

from pydantic import Field, model_validator

from cardtable.core.game import GameSpec, register
from cardtable.core.results import RoundResult, ScoreLine
from cardtable.games.hanafuda.actions import parse_action
from cardtable.games.hanafuda.deck import FULL_DECK, codes, value_of
from cardtable.games.hanafuda.fishing import FishingOptions, FishingState, rounds_field

TOTAL_VALUE = value_of(FULL_DECK)  # 264


class BakappanaOptions(FishingOptions):
    rounds: Literal[1, 3, 6, 12] = rounds_field()
    players: int = Field(2, ge=2, le=4, description="Number of players, 2 to 4.")
    scoring: Literal["traditional", "simple"] = Field(
        "traditional",
        description=(
            "traditional: captured card values minus par (264 / players), zero-sum; "
            "simple: captured card values."
        ),
    )
    two_player_stop_when_hands_empty: bool = Field(
        False,
        description=(
            "Two players: end the round when the hands are empty instead of playing "
            "stock-only turns until the stock is empty (simple scoring only)."
        ),
    )

    @model_validator(mode="after")
    def _simplified_end_needs_simple_scoring(self) -> Self:
        if self.two_player_stop_when_hands_empty and self.scoring == "traditional":
            raise ValueError(
                "two_player_stop_when_hands_empty leaves 8 cards uncaptured, so traditional "
                "scoring would not be zero-sum: use scoring=simple with it"
            )
        return self


PRESETS = {
    "default": {},
    "family": {"scoring": "simple", "rounds": 3},
    "quick": {"scoring": "simple", "rounds": 1, "two_player_stop_when_hands_empty": True},
}


class BakappanaState(FishingState):
    __slots__ = ("par", "simple")

    def configure(self) -> None:
        options = cast(BakappanaOptions, self.game.options)
        self.simple = options.scoring == "simple"
        self.par = 0 if self.simple else TOTAL_VALUE // self.n
        self.stock_only_turns = self.n == 2 and not options.two_player_stop_when_hands_empty

    def copy_into(self, new: FishingState) -> None:
        super().copy_into(new)
        new.par = self.par  # type: ignore[attr-defined]
        new.simple = self.simple  # type: ignore[attr-defined]

    def score_round(self) -> RoundResult:
        lines: list[ScoreLine] = []
        scores = []
        for seat, pile in enumerate(self.piles):
            captured = value_of(pile)
            lines.append(
                ScoreLine(seat, "cards", "Captured card values", captured, tuple(codes(pile)))
            )
            if self.par:
                lines.append(ScoreLine(seat, "par", f"Par (264 / {self.n})", -self.par))
            scores.append(captured - self.par)
        return RoundResult(self.round_no, self.dealer, tuple(scores), tuple(lines))


SPEC = register(
    GameSpec(
        id="bakappana",
        title="Bakappana",
        summary="Hanafuda fishing for 2-4 players, scored by the values of captured cards.",
        options_model=BakappanaOptions,
        start=BakappanaState,
        parse_action=parse_action,
        presets=PRESETS,
        family="hanafuda",
    )
)
