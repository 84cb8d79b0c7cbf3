"""Hana-awase: fishing scored by card values plus yaku (rules/hanafuda.md §4, §5).

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

from collections.abc import Sequence
from typing import Any, Literal, Self, cast

from pydantic import Field, create_model, model_validator
from pydantic.fields import FieldInfo

from cardtable.core.game import GameInfo, GameSpec, register
from cardtable.core.results import RoundResult, ScoreLine
from cardtable.games.hanafuda.actions import parse_action
from cardtable.games.hanafuda.deck import (
    FULL_DECK,
    MONTH_MASK_OF,
    MONTH_MASKS,
    PLAINS,
    codes,
    value_of,
)
from cardtable.games.hanafuda.family import CAPABILITIES, SEARCH_ITERATIONS
from cardtable.games.hanafuda.fishing import (
    CardValueOptions,
    FishingState,
    single_options,
    winner_deals_next,
)
from cardtable.games.hanafuda.yaku import Yaku, hana_awase_table

TOTAL_VALUE = value_of(FULL_DECK)
WILLOW = MONTH_MASKS[10]
TEYAKU_SEVEN, TEYAKU_SIX = 30, 20
SPECIAL_PAYMENT = 30


def settle(
    card_values: Sequence[int], yaku_values: Sequence[int], scoring: str = "traditional"
) -> list[int]:
    """Card and yaku settlement of a deal (§4, §5.4), without teyaku or special payments.

    >>> settle([120, 90, 54], [60, 0, 20])  # the rulebook's worked example (§5.6)
    [132, -78, -54]
    """
    n = len(card_values)
    total_yaku = sum(yaku_values)
    if scoring == "simple":
        return [c + y * (n - 1) for c, y in zip(card_values, yaku_values, strict=True)]
    par = TOTAL_VALUE // n
    return [
        (c - par) + y * (n - 1) - (total_yaku - y)
        for c, y in zip(card_values, yaku_values, strict=True)
    ]


class HanaAwaseOptions(CardValueOptions):
    players: int = Field(3, ge=2, le=4, description="Number of players, 2 to 4.")
    scoring: Literal["traditional", "simple"] = Field(
        "traditional",
        description=(
            "traditional: (cards - par) + own yaku x (players - 1) - the others' yaku, "
            "zero-sum; simple: cards + own yaku x (players - 1)."
        ),
    )
    forced_hand_match: bool = Field(
        False,
        description="A player who can capture with a hand card must play such a card.",
    )
    capture_from_opponent_piles: bool = Field(
        False,
        description="A played card may also take a card of its month from an opponent's pile.",
    )
    teyaku: bool = Field(
        False,
        description="Hands dealt with 7 plains collect 30 from each player, with 6 plains 20.",
    )
    willow_is_plain_for_teyaku: bool = Field(
        False, description="Teyaku count every willow card as a plain."
    )
    special_payments: bool = Field(
        False,
        description=(
            "3 players: a deal where someone captured under 20 in card values is drawn; "
            "otherwise the dealer or the player after him with at most 8 captured cards, and "
            "the third player with at most 10, collect 30 from each."
        ),
    )
    fuke_threshold_inclusive: bool = Field(
        False, description="The drawn-deal rule uses 20 or less instead of under 20."
    )
    willow_row_cancels_yaku: bool = Field(
        False, description="If anyone holds all four willow cards, nobody scores yaku."
    )
    rain_spoils_drinking: bool = Field(
        False, description="The rain man's holder scores no Nomi, Hanami or Tsukimi."
    )
    sugawara_excluded_by_lights: bool = Field(
        False, description="Gokō and Shikō replace Omote-sugawara."
    )

    @model_validator(mode="after")
    def _special_payments_need_three(self) -> Self:
        if self.special_payments and self.players != 3:
            raise ValueError("special_payments name the three seats of a 3-player game")
        return self


#: the Russian rules that Hana-awase 88 plays by default (each an option of both games)
RUSSIAN_RULES = {
    "forced_hand_match": True,
    "capture_from_opponent_piles": True,
    "teyaku": True,
    "special_payments": True,
}

_PAR_88_FIELDS: dict[str, Any] = {
    "players": (Literal[3], Field(3, description="Exactly 3 players (par 88).")),
    "scoring": (
        Literal["traditional"],
        Field(
            "traditional",
            description="(cards - 88) + own yaku x 2 - the others' yaku + teyaku and specials.",
        ),
    ),
    **{
        name: (bool, FieldInfo.merge_field_infos(HanaAwaseOptions.model_fields[name], default=on))
        for name, on in RUSSIAN_RULES.items()
    },
}
#: Hana-awase 88's options: the same fields with the Russian rules on by default, for
#: exactly 3 players and the zero-sum par of 88 (the rules keep the base's descriptions).
HanaAwase88Options = create_model(
    "HanaAwase88Options", __base__=HanaAwaseOptions, __module__=__name__, **_PAR_88_FIELDS
)


class HanaAwaseState(FishingState):
    __slots__ = ("options", "teyaku_lines", "yaku_table")

    def configure(self) -> None:
        self.options = cast(HanaAwaseOptions, self.game.options)
        options = self.options
        self.yaku_table = hana_awase_table(options)
        super().configure()
        self.custom_captures = options.capture_from_opponent_piles
        self.forced_match = options.forced_hand_match
        self.teyaku_lines: tuple[ScoreLine, ...] = ()

    def copy_into(self, new: FishingState) -> None:
        super().copy_into(new)
        assert isinstance(new, HanaAwaseState)
        new.options = self.options
        new.yaku_table = self.yaku_table
        new.teyaku_lines = self.teyaku_lines

    # -- captures ------------------------------------------------------------------------
    def capture_options(self, seat: int, card: int) -> tuple[int, ...]:
        month = MONTH_MASK_OF[card]
        on_table = self.table & month
        if not self.custom_captures or on_table.bit_count() == 3:
            return super().capture_options(seat, card)
        # piles are disjoint: their sum less one's own is every opponent's pile at once
        candidates = on_table | ((sum(self.piles) - self.piles[seat]) & month)
        return single_options(candidates)

    def take_cards(self, seat: int, captured: int) -> None:
        self.table &= ~captured
        if self.custom_captures:
            for other in range(self.n):
                if other != seat:
                    self.piles[other] &= ~captured

    # -- teyaku ---------------------------------------------------------------------------
    def on_round_start(self) -> bool:
        lines: list[ScoreLine] = []
        if self.options.teyaku:
            plain_cards = PLAINS | (WILLOW if self.options.willow_is_plain_for_teyaku else 0)
            for seat, hand in enumerate(self.hands):
                plains = (hand & plain_cards).bit_count()
                if plains >= 6:
                    each = TEYAKU_SEVEN if plains == 7 else TEYAKU_SIX
                    self.revealed[seat] = hand
                    shown = tuple(codes(hand))
                    lines.append(
                        ScoreLine.of(
                            seat,
                            f"teyaku:{plains}",
                            each * (self.n - 1),
                            "line.teyaku",
                            shown,
                            plains=plains,
                        )
                    )
                    for other in range(self.n):
                        if other != seat:
                            lines.append(
                                ScoreLine.of(
                                    other,
                                    f"teyaku:{plains}",
                                    -each,
                                    "line.pays_teyaku",
                                    seat=seat + 1,
                                )
                            )
        self.teyaku_lines = tuple(lines)
        return True

    # -- scoring ------------------------------------------------------------------------
    def pile_yaku(self, seat: int) -> list[Yaku]:
        return self.yaku_table.evaluate(self.piles[seat])

    def score_round(self) -> RoundResult:
        n, options = self.n, self.options
        lines = list(self.teyaku_lines)
        values = [value_of(pile) for pile in self.piles]
        threshold_hit = [v <= 20 if options.fuke_threshold_inclusive else v < 20 for v in values]
        if options.special_payments and any(threshold_hit):
            fuke = [s for s in range(n) if threshold_hit[s]]
            for seat in fuke:
                lines.append(ScoreLine.of(seat, "fuke", 0, "line.fuke", value=values[seat]))
            return self._result(lines, outcome="drawn")
        yaku = [self.pile_yaku(seat) for seat in range(n)]
        if options.willow_row_cancels_yaku and any(p & WILLOW == WILLOW for p in self.piles):
            holder = next(s for s in range(n) if self.piles[s] & WILLOW == WILLOW)
            lines.append(ScoreLine.of(holder, "willow_row_cancels", 0, "line.willow_row"))
            yaku = [[] for _ in range(n)]
        par = 0 if options.scoring == "simple" else TOTAL_VALUE // n
        for seat in range(n):
            lines.append(
                ScoreLine.of(
                    seat, "cards", values[seat], "line.cards", tuple(codes(self.piles[seat]))
                )
            )
            if par:
                lines.append(
                    ScoreLine.of(seat, "par", -par, "line.par", total=TOTAL_VALUE, players=n)
                )
            for y in yaku[seat]:
                said = self.yaku_table.name_of(y.key)
                lines.append(
                    ScoreLine.of(
                        seat,
                        f"yaku:{y.key}",
                        y.points * (n - 1),
                        "line.yaku_each",
                        y.cards,
                        yaku=said,
                        points=y.points,
                        payers=n - 1,
                    )
                )
                if options.scoring == "traditional":
                    for other in range(n):
                        if other != seat:
                            lines.append(
                                ScoreLine.of(
                                    other,
                                    f"yaku:{y.key}",
                                    -y.points,
                                    "line.pays_yaku",
                                    seat=seat + 1,
                                    yaku=said,
                                )
                            )
        if options.special_payments:
            lines.extend(self._card_count_payments())
        return self._result(lines, outcome="played")

    def _card_count_payments(self) -> list[ScoreLine]:
        """§5.4 rules 2-3: few captured cards collect 30 from each other player."""
        lines = []
        for step in range(self.n):
            seat = (self.dealer + step) % self.n
            limit = 10 if step == 2 else 8
            count = self.piles[seat].bit_count()
            if count <= limit:
                lines.append(
                    ScoreLine.of(
                        seat,
                        "few_cards",
                        SPECIAL_PAYMENT * (self.n - 1),
                        "line.few_cards",
                        count=count,
                        limit=limit,
                    )
                )
                for other in range(self.n):
                    if other != seat:
                        lines.append(
                            ScoreLine.of(
                                other,
                                "few_cards",
                                -SPECIAL_PAYMENT,
                                "line.pays_few_cards",
                                seat=seat + 1,
                            )
                        )
        return lines

    def _result(self, lines: list[ScoreLine], outcome: str) -> RoundResult:
        scores = [0] * self.n
        for line in lines:
            scores[line.seat] += line.points
        return RoundResult(self.round_no, self.dealer, tuple(scores), tuple(lines), outcome)

    def choose_next_dealer(self, result: RoundResult) -> int:
        if result.outcome == "drawn":
            return self.dealer
        return winner_deals_next(result.scores, self.dealer)

    def view(self, seat: int | None, *, brief: bool = False) -> dict[str, object]:
        data = super().view(seat, brief=brief)
        if brief:
            return data
        data["yaku"] = [[y.to_json() for y in self.pile_yaku(s)] for s in range(self.n)]
        data["teyaku"] = [line.to_json() for line in self.teyaku_lines if line.points > 0]
        return data


SPEC = register(
    GameSpec(
        id="hana-awase",
        title="Hana-awase",
        summary="Hanafuda fishing for 2-4 players: card values plus 16 yaku (Polish rules).",
        options_model=HanaAwaseOptions,
        start=HanaAwaseState,
        parse_action=parse_action,
        info=GameInfo(players=(2, 4), search_iterations=SEARCH_ITERATIONS),
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
        capabilities=CAPABILITIES,
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
        capabilities=CAPABILITIES,
    )
)
