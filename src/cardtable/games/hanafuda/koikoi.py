"""Koi-koi: two players race for yaku and decide to stop or go on
(games/hanafuda/pages/koi-koi.md).

After his turn, a player whose yaku total rose must choose: *shōbu* (stop: the round ends
and he scores his yaku times the multipliers) or *koi-koi* (go on, raising the stakes).
Every optional rule of the Polish rulebook is a named option; the ★ rules are on by
default. Presets reproduce the Nintendo cards, KoiKoi-AI's rules and Battle Hanafuda.

>>> import cardtable
>>> state = cardtable.load("koi-koi", rounds=1).new_state(seed=2)
>>> state.to_move == {state.dealer}
True
"""

from __future__ import annotations

from typing import Any, Final, cast

from cardtable.core.actions import Action
from cardtable.core.game import Capability, GameInfo, GameSpec, register
from cardtable.core.options import GameOptions
from cardtable.core.results import RoundResult
from cardtable.games.hanafuda.actions import KOIKOI, SHOBU, KoiKoi, Shobu, parse_action
from cardtable.games.hanafuda.capture import captures
from cardtable.games.hanafuda.dealing import Deal
from cardtable.games.hanafuda.deck import (
    MONTH_MASK_OF,
    iter_cards,
    months_with_three,
    tagged,
)
from cardtable.games.hanafuda.events import KEPT_FROM_STOCK, packed_event
from cardtable.games.hanafuda.family import CAPABILITIES, SEARCH_ITERATIONS
from cardtable.games.hanafuda.fishing import (
    CompiledFishingState,
    FishingState,
    Phase,
    action_said,
)
from cardtable.games.hanafuda.options import KoiKoiOptions
from cardtable.games.hanafuda.scoring import (
    FinishedRound,
    RoundScoring,
    kuttsuki,
    lucky_kind,
    lucky_winner,
    score_koikoi_round,
)
from cardtable.games.hanafuda.yaku import Yaku, YakuTable
from cardtable.locales import Reason, reason

LIGHTNING: Final = tagged("lightning")
AUGUST_GRASS: Final = tagged("august_grass")

PRESETS: dict[str, dict[str, Any]] = {
    "default": {},
    "nintendo": {
        "zero_sum": False,
        "weather_ruins_viewing": False,
        "table_lucky_void": False,
        "lucky_hands": "win",
        "double_if_seven_plus": True,
        "koikoi_multiplier": "opponent_x2",
        "koikoi_once_per_round": True,
        "draw_passes_deal": True,
    },
    "koikoi_japan": {
        "rounds": 8,
        "zero_sum": True,
        "zero_sum_start": 30,
        "weather_ruins_viewing": False,
        "table_lucky_void": False,
        "lucky_hands": "void",
        "kuttsuki_enabled": False,
        "viewing_value": "low",
        "chofuku_mode": "add",
        "koikoi_multiplier": "japan_bonus",
        "oya_ken_points": 1,
    },
    "battle_hanafuda": {
        "zero_sum": False,
        "weather_ruins_viewing": False,
        "set_yaku_extra_bonus": True,
        "double_if_seven_plus": True,
        "koikoi_multiplier": "opponent_x2",
        "koikoi_once_per_round": True,
        "draw_passes_deal": True,
        "lucky_hands": "void",
        "table_lucky_void": True,
        "table_triple_void": True,
    },
}


class KoiKoiState(CompiledFishingState):
    """A koi-koi match. Per round it tracks calls, the mover's yaku at turn start and
    the round's winner."""

    __slots__ = (
        "calls",
        "decision_counts",
        "koikoi_min_points",
        "koikoi_once_per_round",
        "koikoi_only_on_new_yaku",
        "last_improver",
        "last_yaku_total",
        "options",
        "plays_left",
        "second_play",
        "start_keys",
        "start_pile",
        "turn_variant",
        "winner",
        "yaku_table",
    )

    has_decisions = True

    def configure(self) -> None:
        self.options = cast(KoiKoiOptions, self.game.options)
        self.yaku_table: YakuTable = self.options.yaku_table
        self.stock_only_turns = self.options.continue_with_stock_after_hands
        # the options every turn reads, as plain attributes (an option model's are slower)
        self.turn_variant: str = self.options.turn_variant
        self.koikoi_only_on_new_yaku: bool = self.options.koikoi_only_on_new_yaku
        self.koikoi_once_per_round: bool = self.options.koikoi_once_per_round
        self.koikoi_min_points: int = self.options.koikoi_min_points
        if self.options.zero_sum:
            self.totals = [self.options.zero_sum_start] * self.n
        self._reset_round()

    def _reset_round(self) -> None:
        self.calls = [0, 0]
        self.winner: int | None = None
        self.last_improver: int | None = None
        self.last_yaku_total = 0
        self.start_pile = (0, 0)
        self.start_keys: frozenset[str] = frozenset()
        self.plays_left = 0
        self.second_play = False
        self.decision_counts = True

    def deal_sizes(self) -> tuple[int, int]:
        return (10, 8) if self.options.deal_ten_cards else (8, 8)

    def copy_into(self, new: FishingState) -> None:
        super().copy_into(new)
        assert isinstance(new, KoiKoiState)
        new.options = self.options
        new.yaku_table = self.yaku_table
        new.turn_variant = self.turn_variant
        new.koikoi_only_on_new_yaku = self.koikoi_only_on_new_yaku
        new.koikoi_once_per_round = self.koikoi_once_per_round
        new.koikoi_min_points = self.koikoi_min_points
        new.calls = self.calls.copy()
        new.winner = self.winner
        new.last_improver = self.last_improver
        new.last_yaku_total = self.last_yaku_total
        new.start_pile = self.start_pile
        new.start_keys = self.start_keys
        new.plays_left = self.plays_left
        new.second_play = self.second_play
        new.decision_counts = self.decision_counts

    # -- dealing ----------------------------------------------------------------------------
    def misdeal_reason(self, deal: Deal) -> str | None:
        reason = super().misdeal_reason(deal)
        if reason is not None:
            return reason
        options = self.options
        if options.table_lucky_void and kuttsuki(deal.table):
            return "four pairs on the table"
        if options.table_triple_void and months_with_three(deal.table):
            return "three cards of one month on the table"
        kinds = [lucky_kind(options, hand) for hand in deal.hands]
        if options.lucky_hands == "void" and any(kinds):
            return f"{next(k for k in kinds if k)} in a hand"
        if options.lucky_hands == "win" and all(kinds):
            return "both players hold lucky hands"
        return None

    def on_misdeal(self, reason: str) -> None:
        if reason == "both players hold lucky hands":  # §6.3: the dealer is drawn again
            self.draw_dealer()

    def on_round_start(self) -> bool:
        self._reset_round()
        options = self.options
        wild = options.lightning == "wild" or (
            options.lightning == "wild_if_grass" and bool(self.start_table & AUGUST_GRASS)
        )
        self.custom_captures = wild
        lucky = lucky_winner(options, self.hands)
        if lucky is not None:  # the round is won as dealt: its scoring finds the hand
            self.winner = lucky[0]
            self.end_round()
            return False
        return True

    # -- captures with a wild lightning ----------------------------------------------------
    def capture_options(self, seat: int, card: int) -> tuple[int, ...]:
        if not self.custom_captures:
            return super().capture_options(seat, card)
        table = self.table
        if 1 << card == LIGHTNING:  # the lightning takes any one table card
            return tuple(1 << c for c in iter_cards(table))
        options = captures(table & MONTH_MASK_OF[card] & ~LIGHTNING)
        if table & LIGHTNING:
            options = (*options, LIGHTNING)
        return options

    # -- turns --------------------------------------------------------------------------
    def yaku_total(self, seat: int) -> int:
        return self.yaku_table.total(self.piles[seat], self.table, self.calls[seat])

    def yaku_rows(self) -> YakuTable:
        return self.yaku_table

    def pile_yaku_points(self, seat: int, pile: int, table: int) -> int:
        return self.yaku_table.total(pile, table, self.calls[seat])

    def pile_yaku(self, seat: int) -> list[Yaku]:
        return self.yaku_table.evaluate(self.piles[seat], self.table, self.calls[seat])

    def shown_yaku(self, seat: int) -> list[Yaku]:
        """:meth:`pile_yaku` for a view (remembered by the yaku table)."""
        return self.yaku_table.evaluated(self.piles[seat], self.table, self.calls[seat])

    def _note_turn_start(self, seat: int) -> None:
        self.start_pile = (self.piles[seat], self.table & self.yaku_table.void_cards)
        if self.koikoi_only_on_new_yaku:
            self.start_keys = frozenset(y.key for y in self.pile_yaku(seat))

    def begin_turn(self, seat: int) -> None:
        super().begin_turn(seat)
        self._note_turn_start(seat)
        if self.turn_variant == "draw_then_two_hand_plays":
            if self.stock_pos < len(self.stock):
                self.hands[seat] |= 1 << self.stock[self.stock_pos]
                self.stock_pos += 1
            self.plays_left = 2

    def begin_stock_turn(self, seat: int) -> None:
        self._note_turn_start(seat)

    def after_hand_play(self, seat: int) -> bool:
        if self.turn_variant == "draw_then_two_hand_plays":
            self.plays_left -= 1
            return self.plays_left > 0 and bool(self.hands[seat])
        if self.second_play:
            self.second_play = False
            self.unplayable = 0
            return False
        return self.flip(seat)

    def after_flip(self, seat: int, card: int) -> bool:
        if (
            self.turn_variant == "keep_unmatched_draw"
            and self.table >> card & 1
            and self.phase is Phase.PLAY
            and self.hands[seat]
        ):
            # §6.3 keep_unmatched_draw: the unmatched card goes to hand, another is played
            self.table ^= 1 << card
            self.hands[seat] |= 1 << card
            self.unplayable = 1 << card
            self.revealed[seat] |= 1 << card  # everybody saw it turned over
            self.second_play = True
            self.capture_log[-1] = packed_event(seat, KEPT_FROM_STOCK, card, 0)
            return True
        return False

    def round_may_end(self, seat: int, action: Action) -> bool:
        # a yaku made may also stop the round at once: after a call, when a round allows
        # one call, and when it is worth less than the points a call needs
        forced = (self.koikoi_once_per_round and any(self.calls)) or self.koikoi_min_points > 0
        return bool(forced) or super().round_may_end(seat, action)

    def _has_more_turns(self, seat: int) -> bool:
        if self.hands[seat]:
            return True
        if not self.stock_only_turns:
            return False
        # the opponent flips next, so another own flip needs two more stock cards
        return len(self.stock) - self.stock_pos >= 2

    def after_turn(self, seat: int) -> bool:
        if self.start_pile == (self.piles[seat], self.table & self.yaku_table.void_cards):
            return False  # nothing captured, no weather change: the yaku cannot have grown
        total = self.yaku_total(seat)
        # the turn's starting total is needed only now that the pile has changed
        pile, weather = self.start_pile
        if total <= self.yaku_table.total(pile, weather, self.calls[seat]):
            return False
        self.last_improver = seat
        self.last_yaku_total = total
        forced_stop = (
            not self._has_more_turns(seat)
            or (self.koikoi_once_per_round and self.calls != [0, 0])
            or total < self.koikoi_min_points
        )
        if forced_stop:
            self.winner = seat
            self.end_round()
            return True
        self.decision_counts = True
        if self.koikoi_only_on_new_yaku:
            keys = {y.key for y in self.pile_yaku(seat)}
            self.decision_counts = bool(keys - self.start_keys)
        self.phase = Phase.DECIDE
        self.current = seat
        return True

    def decision_actions(self, seat: int) -> list[Action]:
        return [KOIKOI, SHOBU]

    def decision_problem(self, seat: int, action: Action) -> Reason | None:
        if isinstance(action, KoiKoi | Shobu):
            return None
        return reason("illegal.hanafuda.koikoi", action=action_said(action))

    def perform_decision(self, seat: int, action: Action) -> None:
        if isinstance(action, Shobu):
            self.winner = seat
            self.end_round()
            return
        if self.decision_counts:
            self.calls[seat] += 1
        self.end_turn(seat, decided=True)

    # -- scoring ------------------------------------------------------------------------
    def scoring(self) -> RoundScoring:
        return score_koikoi_round

    def round_facts(self) -> FinishedRound:
        # the base's fields and koi-koi's in one construction: the base's facts and then
        # koi-koi's would build them twice at the end of every playout
        return FinishedRound(
            tuple(self.piles),
            self.table,
            self.dealer,
            self.round_no,
            self.dealt_hands,
            self.start_table,
            tuple(self.calls),
            self.winner,  # shobu
            self.last_improver,
        )

    def choose_next_dealer(self, result: RoundResult) -> int:
        if result.outcome in ("shobu", "lucky_hand") and self.winner is not None:
            return self.winner
        if result.outcome == "exhausted_last_yaku" and self.last_improver is not None:
            return self.last_improver
        if self.options.draw_passes_deal:
            return 1 - self.dealer
        return self.dealer

    def match_finished(self) -> bool:
        if self.options.zero_sum and min(self.totals) <= 0:
            return True
        return super().match_finished()

    # -- views --------------------------------------------------------------------------
    def draws_unseen_into_hands(self) -> bool:
        return self.turn_variant == "draw_then_two_hand_plays"

    def koikoi_calls(self, seat: int) -> int:
        return self.calls[seat]

    def shown_yaku_total(self, seat: int) -> int:
        return self.yaku_total(seat)

    def public_view(self, brief: bool, with_round: bool = True) -> dict[str, Any]:
        data = super().public_view(brief, with_round)
        if not brief:
            data["yaku"] = [[y.to_json() for y in self.shown_yaku(s)] for s in range(self.n)]
        data["yaku_totals"] = [self.yaku_total(s) for s in range(self.n)]
        data["koikoi_calls"] = list(self.calls)
        if self.phase is Phase.DECIDE:
            data["decision"] = {"seat": self.current, "counts_as_call": self.decision_counts}
        return data


def zero_sum_total(options: GameOptions) -> int | None:
    """With zero-sum settlement the two stakes stay what they started at; without, the
    scores only grow."""
    assert isinstance(options, KoiKoiOptions)
    return 2 * options.zero_sum_start if options.zero_sum else None


SPEC = register(
    GameSpec(
        id="koi-koi",
        title="Koi-koi",
        summary="Two-player hanafuda: make yaku, then stop (shōbu) or raise the stakes (koi-koi).",
        options_model=KoiKoiOptions,
        start=KoiKoiState,
        parse_action=parse_action,
        info=GameInfo(
            players=(2, 2),
            score_total=zero_sum_total,
            search_iterations=SEARCH_ITERATIONS,
            featured=True,  # the hanafuda game most people know: the lobby offers it first
            rl_options={"rounds": 1},
            round_margin=10.0,  # yaku points: a round is won by a few
        ),
        presets=PRESETS,
        family="hanafuda",
        capabilities={
            **CAPABILITIES,
            Capability.BOTS: "cardtable.games.hanafuda.bots:KOIKOI_BOTS",  # the master level
            Capability.LESSON: "cardtable.games.hanafuda.lessons:KOIKOI",
        },
        rule_sections={
            "yaku": "Yaku",
            "opponent_yaku": "Yaku",
            "multiplier": "Scoring",
            "pays": "Scoring",
            "koikoi_bonus": "Scoring",
            "lucky": "Deals, lucky hands and misdeals",
            "oya_ken": "Draws (exhaustion)",
        },
    )
)
