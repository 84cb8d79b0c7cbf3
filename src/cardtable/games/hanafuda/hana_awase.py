"""Hana-awase: fishing scored by card values plus yaku (games/hanafuda/pages/hana-awase.md,
games/hanafuda/pages/hana-awase-88.md).

Two registered games share this module. ``hana-awase`` is the Polish version (2-4 players,
free hand play, no teyaku). ``hana-awase-88`` is the Russian 3-player version with par 88:
teyaku, a forced hand match, captures from opponents' open piles and the special payments
switched on. Every Russian rule is an option of both.

>>> import cardtable
>>> state = cardtable.load("hana-awase", players=3, rounds=1).new_state(seed=3)
>>> while not state.is_over:
...     (seat,) = state.to_move
...     state.apply(seat, state.legal_actions(seat)[-1])
>>> sum(state.scores())  # traditional settlement without steals: zero-sum
0
"""

from __future__ import annotations

from typing import cast

from cardtable.core.game import Capability, GameInfo, GameSpec, register
from cardtable.core.results import RoundResult, ScoreLine
from cardtable.games.hanafuda.actions import parse_action
from cardtable.games.hanafuda.capture import single_options
from cardtable.games.hanafuda.dealing import winner_deals_next
from cardtable.games.hanafuda.deck import MONTH_MASK_OF, count_cards
from cardtable.games.hanafuda.family import CAPABILITIES, SEARCH_ITERATIONS
from cardtable.games.hanafuda.fishing import CompiledFishingState, FishingState
from cardtable.games.hanafuda.options import HanaAwase88Options, HanaAwaseOptions
from cardtable.games.hanafuda.scoring import (
    RoundScoring,
    score_hana_awase_round,
    teyaku_lines,
    teyaku_plains,
)
from cardtable.games.hanafuda.yaku import Yaku, YakuTable


class HanaAwaseState(CompiledFishingState):
    __slots__ = ("options", "yaku_table")

    def configure(self) -> None:
        self.options = cast(HanaAwaseOptions, self.game.options)
        options = self.options
        self.yaku_table = options.yaku_table
        super().configure()
        self.custom_captures = options.capture_from_opponent_piles
        self.forced_match = options.forced_hand_match

    def copy_into(self, new: FishingState) -> None:
        super().copy_into(new)
        assert isinstance(new, HanaAwaseState)
        new.options = self.options
        new.yaku_table = self.yaku_table

    # -- captures ------------------------------------------------------------------------
    def capture_options(self, seat: int, card: int) -> tuple[int, ...]:
        month = MONTH_MASK_OF[card]
        on_table = self.table & month
        if not self.custom_captures or count_cards(on_table) == 3:
            return super().capture_options(seat, card)
        stolen = 0  # the month's cards in the other players' piles
        for other in range(self.n):
            if other != seat:
                stolen |= self.piles[other] & month
        return single_options(on_table | stolen)

    def take_cards(self, seat: int, captured: int) -> None:
        self.table &= ~captured
        if self.custom_captures:
            for other in range(self.n):
                if other != seat:
                    self.piles[other] &= ~captured

    # -- teyaku ---------------------------------------------------------------------------
    def on_round_start(self) -> bool:
        for seat, hand in enumerate(self.hands):
            if teyaku_plains(self.options, hand):
                self.revealed[seat] = hand  # a teyaku is shown to be scored
        return True

    @property
    def teyaku_lines(self) -> tuple[ScoreLine, ...]:
        """The teyaku this round's hands were dealt with, and who pays them."""
        return teyaku_lines(self.options, self.dealt_hands, self.n)

    # -- scoring ------------------------------------------------------------------------
    def scoring(self) -> RoundScoring:
        return score_hana_awase_round

    def yaku_rows(self) -> YakuTable:
        return self.yaku_table

    def pile_yaku_points(self, seat: int, pile: int, table: int) -> int:
        return self.yaku_table.total(pile) * (self.n - 1)  # each opponent pays them

    def pile_yaku(self, seat: int) -> list[Yaku]:
        return self.yaku_table.evaluate(self.piles[seat])

    def choose_next_dealer(self, result: RoundResult) -> int:
        if result.outcome == "drawn":
            return self.dealer
        return winner_deals_next(result.scores, self.dealer)

    def public_view(self, brief: bool, with_round: bool = True) -> dict[str, object]:
        data = super().public_view(brief, with_round)
        if brief:
            return data
        data["yaku"] = [
            [y.to_json() for y in self.yaku_table.evaluated(self.piles[s])] for s in range(self.n)
        ]
        data["teyaku"] = [line.to_json() for line in self.teyaku_lines if line.points > 0]
        return data


def russian_rules(heading: str) -> dict[str, str]:
    """The score lines of the Russian rules, each explained under ``heading``."""
    return dict.fromkeys(("teyaku", "few_cards", "fuke", "willow_row_cancels"), heading)


SPEC = register(
    GameSpec(
        id="hana-awase",
        title="Hana-awase",
        summary="Hanafuda fishing for 2-4 players: card values plus 16 yaku (Polish rules).",
        options_model=HanaAwaseOptions,
        start=HanaAwaseState,
        parse_action=parse_action,
        info=GameInfo(
            players=(2, 4),
            search_iterations=SEARCH_ITERATIONS,
            rl_options={"players": 2, "rounds": 1},
            round_margin=50.0,  # card points and yaku: a round's margin is tens of points
        ),
        presets={
            "default": {},
            "russian_extras": {
                "players": 3,
                "teyaku": True,
                "special_payments": True,
                "forced_hand_match": True,
            },
        },
        family="hanafuda",
        capabilities={
            **CAPABILITIES,
            Capability.LESSON: "cardtable.games.hanafuda.lessons:HANA_AWASE",
        },
        rule_sections={
            "cards": "Scoring",
            "par": "Scoring",
            "yaku": "Scoring",
            **russian_rules("The Russian rules as options"),
        },
    )
)

SPEC_88 = register(
    GameSpec(
        id="hana-awase-88",
        title="Hana-awase 88",
        summary="Three-player hana-awase, par 88, with teyaku, steals and special payments.",
        options_model=HanaAwase88Options,
        start=HanaAwaseState,
        parse_action=parse_action,
        info=GameInfo(players=(3, 3), search_iterations=SEARCH_ITERATIONS),
        presets={
            "default": {},
            "japanese": {
                "capture_from_opponent_piles": False,
                "forced_hand_match": False,
                "fuke_threshold_inclusive": True,
            },
        },
        family="hanafuda",
        capabilities={
            **CAPABILITIES,
            Capability.LESSON: "cardtable.games.hanafuda.lessons:HANA_AWASE_88",
        },
        rule_sections={
            "cards": "Settlement",
            "par": "Settlement",
            "yaku": "Settlement",
            **russian_rules("Optional rules (off unless the players agree)"),
            "teyaku": "Before play: teyaku",
        },
    )
)
