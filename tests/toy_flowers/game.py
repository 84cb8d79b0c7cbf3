"""Hana-kazoe: its options, its scoring, its state (a FishingState) and its spec."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from cardtable.core.game import GameInfo, GameSpec
from cardtable.core.options import GameOptions, option
from cardtable.core.results import RoundResult, ScoreLine
from cardtable.games.hanafuda.actions import parse_action
from cardtable.games.hanafuda.deck import MONTH_MASKS, codes, count_cards
from cardtable.games.hanafuda.family import CAPABILITIES
from cardtable.games.hanafuda.fishing import FishingState
from cardtable.games.hanafuda.options import FishingOptions
from cardtable.games.hanafuda.scoring import FinishedRound, RoundScoring

GAME = "hana-kazoe"
#: what a month captured whole adds to its card count
WHOLE_MONTH = 4


class HanaKazoeOptions(FishingOptions):
    """Counting is all that scores: card values do not (CARD_POINTS_SCORE stays False)."""

    rounds: Literal[1, 3, 6, 12] = option(1, description="Rounds in the match.", group="match")
    players: int = Field(2, ge=2, le=3, description="Number of players, 2 or 3.")
    whole_months: bool = option(
        True, description="A month captured whole scores 4 more.", group="scoring"
    )


def whole_months(pile: int) -> int:
    return sum(pile & mask == mask for mask in MONTH_MASKS)


def score_round(options: GameOptions, facts: FinishedRound, *, explain: bool = True) -> RoundResult:
    """One point a captured card, and WHOLE_MONTH for each month captured whole."""
    assert isinstance(options, HanaKazoeOptions)
    bonus = WHOLE_MONTH if options.whole_months else 0
    scores = tuple(count_cards(pile) + bonus * whole_months(pile) for pile in facts.piles)
    if not explain:
        return RoundResult(facts.round_no, facts.dealer, scores)
    lines: list[ScoreLine] = []
    for seat, pile in enumerate(facts.piles):
        cards = tuple(codes(pile))
        lines.append(ScoreLine.of(seat, "cards", count_cards(pile), "line.kazoe.cards", cards))
        if bonus and whole_months(pile):
            months = whole_months(pile)
            lines.append(
                ScoreLine.of(seat, "whole_months", bonus * months, "line.kazoe.months", n=months)
            )
    return RoundResult(facts.round_no, facts.dealer, scores, tuple(lines), "played")


class HanaKazoeState(FishingState):
    """The engine's fishing rules as they are; only the scoring is the game's own."""

    __slots__ = ()

    def scoring(self) -> RoundScoring:
        return score_round


def settled_total(options: GameOptions) -> int | None:
    return None  # what is captured varies with the stock-only turns: no fixed total


SPEC = GameSpec(
    id=GAME,
    title="Hana-kazoe",
    summary="A toy hanafuda fishing game: count the flowers you capture.",
    options_model=HanaKazoeOptions,
    start=HanaKazoeState,
    parse_action=parse_action,
    info=GameInfo(players=(2, 3), score_total=settled_total, search_iterations=300),
    presets={"default": {}, "match": {"rounds": 3}},
    family="hanafuda",
    capabilities=CAPABILITIES,
    locales=Path(__file__).parent / "locales",
)


def card_count(state: Any, seat: int) -> int:
    """What ``seat`` has captured so far (the tests compare it with the scores)."""
    return count_cards(state.piles[seat])
