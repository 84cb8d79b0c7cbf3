"""Tsuki-awase: its yaku, options, scoring, state (a FishingState) and spec."""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Literal

from pydantic import Field

from cardtable.core.game import Capability, GameInfo, GameSpec
from cardtable.core.options import GameOptions, option
from cardtable.core.results import RoundResult, ScoreLine
from cardtable.games.hanafuda.actions import parse_action
from cardtable.games.hanafuda.deck import LIGHTS, RIBBONS, cards
from cardtable.games.hanafuda.family import CAPABILITIES
from cardtable.games.hanafuda.fishing import FishingState
from cardtable.games.hanafuda.options import FishingOptions
from cardtable.games.hanafuda.scoring import FinishedRound, RoundScoring
from cardtable.games.hanafuda.yaku import Yaku, YakuDef, YakuTable

GAME = "tsuki-awase"
MOON_AND_CUP = cards("08-1 09-1")
CURTAIN_AND_CUP = cards("03-1 09-1")

#: the game's yaku, declared once: the engine, the bots, the hints, the score pad and the
#: rule page's table all read them
ROWS = (
    YakuDef(GAME, "tsukimi", counts=MOON_AND_CUP, need=2, points=5),
    YakuDef(GAME, "hanami", counts=CURTAIN_AND_CUP, need=2, points=5),
    YakuDef(GAME, "hikari", counts=LIGHTS, need=3, points=6, extra=2),
    YakuDef(GAME, "tan", counts=RIBBONS, need=5, points=1, extra=1),
)


class TsukiAwaseOptions(FishingOptions):
    """Yaku are all that score (CARD_POINTS_SCORE stays False)."""

    rounds: Literal[1, 3, 6] = option(1, description="Rounds in the match.", group="match")
    players: int = Field(2, ge=2, le=2, description="Two players.")
    ribbons: bool = option(True, description="Five ribbons make a yaku.", group="yaku")

    @cached_property
    def yaku_table(self) -> YakuTable:
        """The rows in force (built once a game: every round reads it)."""
        return YakuTable(rows=tuple(r for r in ROWS if self.ribbons or r.key != "tan"))


def yaku_lines(table: YakuTable, seat: int, made: list[Yaku]) -> list[ScoreLine]:
    return [
        ScoreLine.of(
            seat, f"yaku:{y.key}", y.points, "line.yaku", y.cards, yaku=table.name_of(y.key)
        )
        for y in made
    ]


def score_round(options: GameOptions, facts: FinishedRound, *, explain: bool = True) -> RoundResult:
    """Each player scores the yaku of their pile."""
    assert isinstance(options, TsukiAwaseOptions)
    table = options.yaku_table
    scores = tuple(table.total(pile) for pile in facts.piles)
    if not explain:
        return RoundResult(facts.round_no, facts.dealer, scores)
    lines = [
        line
        for seat, pile in enumerate(facts.piles)
        for line in yaku_lines(table, seat, table.evaluate(pile))
    ]
    return RoundResult(facts.round_no, facts.dealer, scores, tuple(lines), "played")


class TsukiAwaseState(FishingState):
    """The engine's fishing rules as they are; the scoring and the yaku are the game's."""

    __slots__ = ()

    def scoring(self) -> RoundScoring:
        return score_round

    def yaku_rows(self) -> YakuTable:
        options = self.game.options
        assert isinstance(options, TsukiAwaseOptions)
        return options.yaku_table

    def pile_yaku(self, seat: int) -> list[Yaku]:
        return self.yaku_rows().evaluate(self.piles[seat])


SPEC = GameSpec(
    id=GAME,
    title="Tsuki-awase",
    summary="A toy hanafuda fishing game for two: only four yaku score.",
    options_model=TsukiAwaseOptions,
    start=TsukiAwaseState,
    parse_action=parse_action,
    info=GameInfo(players=(2, 2), search_iterations=300),
    presets={"default": {}, "match": {"rounds": 3}},
    family="hanafuda",
    capabilities={**CAPABILITIES, Capability.DOCS: "tests.toy_yaku.docs"},
    locales=Path(__file__).parent / "locales",
    rule_sections={"yaku": "Yaku"},
)
