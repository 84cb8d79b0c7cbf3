"""Koi-koi (games/hanafuda/pages/koi-koi.md) on exact positions: the decision point, multipliers,
draws, lucky hands, the weather, the wild lightning and every turn variant."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable import IllegalAction, OptionError
from cardtable.core.record import GameRecord
from cardtable.games.hanafuda.actions import KOIKOI, SHOBU, Play
from cardtable.games.hanafuda.deck import card_index
from cardtable.games.hanafuda.fishing import Phase
from cardtable.games.hanafuda.koikoi import KoiKoiState
from cardtable.games.hanafuda.scoring import kuttsuki, teshi
from tests.hanafuda_helpers import make_deal, make_position, mask, play


def koikoi(deal: dict[str, Any], **options: Any) -> KoiKoiState:
    options.setdefault("rounds", 1)
    state = cardtable.load("koi-koi", **options).new_state(seed=1, deals=[deal])
    assert isinstance(state, KoiKoiState)
    return state


# Position A: seat 0 holds five ribbons (Tanzaku 1) and can take a sixth.
RIBBONS_A = make_position(
    2,
    piles=[["01-2", "02-2", "04-2", "05-2", "07-2"]],
    hands=[["06-3", "09-3", "08-3"], ["11-4", "12-4", "04-3"]],
    table=["06-2", "12-3"],
    stock=["10-3", "05-3", "07-3", "03-3"],
)


def play_a_to_decision(state: KoiKoiState) -> None:
    play(state, "09-3")  # nothing captured: no decision
    assert state.phase is Phase.PLAY and state.current == 1
    play(state, "11-4")
    play(state, "06-3")  # takes the blue ribbon: Tanzaku 1 -> 2


def test_edge_10_decision_only_when_the_total_rises() -> None:
    state = koikoi(RIBBONS_A)
    assert state.yaku_total(0) == 1
    play_a_to_decision(state)
    assert state.phase is Phase.DECIDE and state.to_move == {0}
    assert state.legal_actions(0) == [KOIKOI, SHOBU]
    assert state.view(1)["decision"] == {"seat": 0, "counts_as_call": True}
    with pytest.raises(IllegalAction, match="answer koi-koi or shōbu"):
        state.apply(0, Play(card_index("08-3")))
    state.apply(0, SHOBU)
    result = state.result().rounds[0]
    assert result.outcome == "shobu" and result.scores == (2, -2)
    assert [line.rule for line in result.lines if line.seat == 0] == ["yaku:tanzaku"]


def finish_a_after_koikoi(**options: Any) -> KoiKoiState:
    state = koikoi(RIBBONS_A, **options)
    play_a_to_decision(state)
    state.apply(0, KOIKOI)
    for card in ("12-4", "08-3", "04-3"):  # nobody improves again: the hands run out
        play(state, card)
    assert state.is_over
    return state


def test_edge_9_koikoi_then_exhaustion() -> None:
    default = finish_a_after_koikoi()
    assert default.result().rounds[0].outcome == "exhausted"
    assert default.scores() == (30, 30)  # nobody scores, not even the caller's yaku
    last = finish_a_after_koikoi(draw_last_yaku_scores=True)
    # Tanzaku 2 x (1 + 1 call) for the last player who raised a yaku
    assert last.scores() == (34, 26)
    oya = finish_a_after_koikoi(oya_ken_points=2)
    assert oya.scores() == (32, 28) and oya.next_dealer == 0


def test_draws_and_the_next_dealer() -> None:
    assert finish_a_after_koikoi().next_dealer == 0
    assert finish_a_after_koikoi(draw_passes_deal=True).next_dealer == 1
    assert finish_a_after_koikoi(draw_last_yaku_scores=True).next_dealer == 0


def test_koikoi_min_points_forces_shobu() -> None:
    state = koikoi(RIBBONS_A, koikoi_min_points=3)
    play_a_to_decision(state)
    assert state.is_over and state.result().rounds[0].outcome == "shobu"


def test_koikoi_only_on_new_yaku() -> None:
    state = koikoi(RIBBONS_A, koikoi_only_on_new_yaku=True)
    play_a_to_decision(state)  # Tanzaku raised, not new: shōbu allowed, koi-koi not counted
    assert state.view(0)["decision"]["counts_as_call"] is False
    state.apply(0, KOIKOI)
    assert state.calls == [0, 0]


# Position Q: seat 1 makes Tanzaku and calls koi-koi twice; seat 0 (dealer) then makes
# Sankō with his last card, so shōbu is automatic.
CALLS_Q = make_position(
    2,
    piles=[["01-1", "03-1"], ["01-2", "02-2", "04-2", "05-2"]],
    hands=[["05-4", "09-3", "12-4"], ["07-4", "10-4", "11-4"]],
    table=["07-2", "10-2", "12-1"],
    stock=["03-3", "06-3", "08-3", "04-3", "02-3"],
)


def play_q(**options: Any) -> KoiKoiState:
    state = koikoi(CALLS_Q, **options)
    play(state, "05-4")
    play(state, "07-4")  # Tanzaku 1
    if state.phase is Phase.DECIDE:
        state.apply(1, KOIKOI)
    play(state, "09-3")
    if state.is_over:
        return state
    play(state, "10-4")  # Tanzaku 2
    if state.phase is Phase.DECIDE:
        state.apply(1, KOIKOI)
    if not state.is_over:
        play(state, "12-4")  # Sankō on the dealer's last card
    return state


def test_edges_7_and_8_last_turn_shobu_with_earlier_calls() -> None:
    state = play_q()
    assert state.is_over and state.calls == [0, 2]
    result = state.result().rounds[0]
    assert result.outcome == "shobu" and result.scores == (15, -15)  # Sankō 5 x (1 + 2)
    labels = [line.label for line in result.lines if line.seat == 0]
    assert labels == ["Sankō", "×3: 0 own + 2 opponent's koi-koi"]
    assert state.next_dealer == 0


@pytest.mark.parametrize(
    ("options", "score"),
    [
        ({"koikoi_multiplier": "none"}, 5),
        ({"koikoi_multiplier": "own_x2"}, 5),
        ({"koikoi_multiplier": "opponent_x2"}, 10),
        ({"koikoi_multiplier": "any_x2"}, 10),
        ({"koikoi_multiplier": "count_opponent"}, 15),
        ({"koikoi_multiplier": "count_all"}, 15),
        ({"koikoi_multiplier": "japan_bonus"}, 5),
        ({"table_lights_multiplier": "x2"}, 30),  # 12-1 lay on the first table
        ({"table_lights_multiplier": "count"}, 30),
        ({"score_opponent_yaku": True}, 21),  # (5 + Tanzaku 2) x 3
        ({"best_yaku_only": True}, 15),
        ({"double_if_seven_plus": True, "score_opponent_yaku": True}, 42),
    ],
)
def test_multipliers_and_scoring_options(options: dict[str, Any], score: int) -> None:
    state = play_q(**options)
    assert state.result().rounds[0].scores[0] == score
    lines = state.result().rounds[0].lines
    assert sum(line.points for line in lines if line.seat == 0) == score


RAISES_TWICE = make_position(
    2,
    piles=[["01-2", "02-2", "04-2", "05-2", "07-2"]],
    hands=[["06-3", "09-4", "10-3"], ["11-4", "12-4", "04-3"]],
    table=["06-2", "09-2", "12-3"],
    stock=["03-3", "05-3", "07-3", "08-3"],
)


@pytest.mark.parametrize(("mode", "score"), [("japan_bonus", 4), ("count_all", 6), ("own_x2", 6)])
def test_own_calls_in_the_multiplier(mode: str, score: int) -> None:
    state = koikoi(RAISES_TWICE, koikoi_multiplier=mode)
    play(state, "06-3")  # Tanzaku 2
    state.apply(0, KOIKOI)
    play(state, "11-4")
    play(state, "09-4")  # Tanzaku 3
    state.apply(0, SHOBU)
    # japan_bonus: 3 + 1 for one call; count_all: 3 x (1 + 1); own_x2: 3 x 2
    assert state.result().rounds[0].scores[0] == score


def test_without_zero_sum_only_the_winner_scores() -> None:
    state = play_q(zero_sum=False)
    assert state.result().rounds[0].scores == (15, 0) and state.scores() == (15, 0)
    assert play_q().scores() == (45, 15)  # zero-sum: 30 + 15 and 30 - 15


def test_koikoi_once_per_round_makes_the_next_yaku_win_at_once() -> None:
    state = play_q(koikoi_once_per_round=True)
    # seat 1's second improvement wins at once, no second call: Tanzaku 2 x (1 + 1)
    assert state.is_over and state.calls == [0, 1]
    result = state.result().rounds[0]
    assert result.outcome == "shobu" and result.scores == (-4, 4)


def test_edge_20_zero_sum_ends_early() -> None:
    state = play_q(rounds=3, zero_sum_start=10)
    assert state.is_over and len(state.result().rounds) == 1
    assert state.scores() == (25, -5)


def test_edge_13_weather_and_the_decision_point() -> None:
    deal = make_position(
        2,
        piles=[["03-1", "09-1"]],
        hands=[["11-3", "05-4"], ["06-4", "10-4"]],
        table=["11-2", "02-3"],
        stock=["04-3", "07-3"],
    )
    state = koikoi(deal)
    assert state.yaku_total(0) == 0  # rain: a November card is on the table
    play(state, "11-3")  # takes the swallow: the table is clear of November
    assert state.yaku_total(0) == 5
    assert state.phase is Phase.DECIDE
    calm = koikoi(deal, weather_ruins_viewing=False)
    assert calm.yaku_total(0) == 5
    play(calm, "11-3")
    assert calm.phase is Phase.PLAY  # Hanami was already there: nothing rose


def test_edge_5_koikoi_misdeals() -> None:
    pairs_table = ["01-1", "01-2", "02-1", "02-2", "03-1", "03-2", "04-1", "04-2"]
    state = koikoi(make_deal(2, table=pairs_table))
    assert [r for r, _ in state.misdeals] == ["four pairs on the table"]
    state = koikoi(make_deal(2, hands=[["05-1", "05-2", "05-3", "05-4"]]))
    assert [r for r, _ in state.misdeals] == ["teshi in a hand"]
    four_pairs = ["05-1", "05-2", "06-1", "06-2", "07-1", "07-2", "09-1", "09-2"]
    state = koikoi(make_deal(2, hands=[[], four_pairs]))
    assert [r for r, _ in state.misdeals] == ["kuttsuki in a hand"]
    state = koikoi(make_deal(2, hands=[[], four_pairs]), kuttsuki_enabled=False)
    assert state.misdeals == ()
    triple = make_deal(2, table=["05-1", "05-2", "05-3"])
    assert koikoi(triple).misdeals == ()
    assert [r for r, _ in koikoi(triple, table_triple_void=True).misdeals] == [
        "three cards of one month on the table"
    ]
    assert koikoi(make_deal(2, table=pairs_table), table_lucky_void=False).misdeals == ()


def test_lucky_hand_wins_six() -> None:
    teshi_hand = ["05-1", "05-2", "05-3", "05-4"]
    state = koikoi(make_deal(2, hands=[[], teshi_hand], dealer=0), lucky_hands="win")
    result = state.result().rounds[0]
    assert result.outcome == "lucky_hand" and result.scores == (-6, 6)
    assert state.is_over and state.next_dealer == 1


def test_edge_6_both_lucky_hands_redeal_and_redraw_the_dealer() -> None:
    deal = make_deal(
        2,
        hands=[["05-1", "05-2", "05-3", "05-4"], ["06-1", "06-2", "06-3", "06-4"]],
        dealer=1,
    )
    state = koikoi(deal, lucky_hands="win", rounds=3)
    assert state.misdeals[0][0] == "both players hold lucky hands"
    assert state.dealer_draw is not None
    assert state.view(None)["dealer_draw"]["dealer"] == state.dealer
    assert not state.results or state.results[0].outcome == "lucky_hand"


def test_lucky_hand_shapes() -> None:
    assert teshi(mask("01-1", "01-2", "01-3", "01-4", "02-1"))
    assert kuttsuki(mask("01-1", "01-2", "02-1", "02-2", "03-1", "03-2", "04-1", "04-2"))
    assert not kuttsuki(mask("01-1", "01-2", "02-1", "02-2", "03-1", "03-2", "04-1", "05-2"))
    ten = mask("01-1", "01-2", "02-1", "02-2", "03-1", "03-2", "04-1", "04-2", "05-1", "06-1")
    assert kuttsuki(ten)  # 10 cards: four months of exactly two


def test_edge_21_wild_lightning() -> None:
    deal = make_position(
        2, hands=[["11-4"], ["03-2"]], table=["03-1", "01-3"], stock=["03-3", "03-4"]
    )
    state = koikoi(deal, lightning="wild")
    choices = {a.take for a in state.legal_actions(0) if isinstance(a, Play)}
    assert choices == {card_index("03-1"), card_index("01-3")}
    play(state, "11-4", take="03-1")  # another month's light
    assert state.piles[0] == mask("11-4", "03-1")
    play(state, "03-2")
    assert state.is_over
    assert state.table & mask("03-4")  # the last March card has no partner left


def test_a_card_may_take_a_wild_lightning_on_the_table() -> None:
    deal = make_position(2, hands=[["05-4", "07-3"], ["02-3"]], table=["11-4", "05-3"])
    state = koikoi(deal, lightning="wild")
    takes = {(a.card, a.take) for a in state.legal_actions(0) if isinstance(a, Play)}
    assert (card_index("05-4"), card_index("05-3")) in takes
    assert (card_index("05-4"), card_index("11-4")) in takes
    assert (card_index("07-3"), None) in takes  # only the lightning: taken at once
    play(state, "07-3")
    assert state.piles[0] == mask("07-3", "11-4")
    grass = koikoi(make_deal(2, table=["08-3"], hands=[["11-4"]]), lightning="wild_if_grass")
    no_grass = koikoi(make_deal(2, hands=[["11-4"]]), lightning="wild_if_grass")
    assert grass.custom_captures and not no_grass.custom_captures


def test_turn_variants() -> None:
    ten = koikoi(make_deal(2, sizes=(10, 8)), deal_ten_cards=True)
    assert ten.view(0)["hand_sizes"] == [10, 10] and ten.view(0)["stock_size"] == 20

    two = koikoi(make_deal(2), turn_variant="draw_then_two_hand_plays")
    assert two.view(0)["hand_sizes"][two.dealer] == 9  # drew the top stock card
    seat = two.current
    two.apply(seat, two.legal_actions(seat)[0])
    assert two.current == seat and two.phase is Phase.PLAY  # a second card to play
    two.apply(seat, two.legal_actions(seat)[0])
    assert two.current == 1 - seat and two.view(0)["hand_sizes"][seat] == 7

    deal = make_position(2, hands=[["09-3", "10-3"], ["02-3"]], table=["01-3"], stock=["05-3"])
    keep = koikoi(deal, turn_variant="keep_unmatched_draw")
    play(keep, "09-3")  # the flipped 05-3 matches nothing: it goes to hand
    assert keep.hands[0] == mask("10-3", "05-3") and keep.current == 0
    with pytest.raises(IllegalAction, match="05-3 was just drawn"):
        play(keep, "05-3")
    play(keep, "10-3")
    assert keep.current == 1 and keep.view(1)["events"][1]["from"] == "stock-kept"

    stock = make_position(2, hands=[["09-3"], ["10-3"]], table=[], stock=["05-3", "06-3"])
    longer = koikoi(stock, continue_with_stock_after_hands=True)
    play(longer, "09-3")
    play(longer, "10-3")
    assert not any(longer.hands) and not longer.is_over  # stock-only turns go on
    while not longer.is_over:
        (seat,) = longer.to_move
        longer.apply(seat, longer.legal_actions(seat)[0])  # koi-koi whenever asked
    assert longer.stock_pos > 10
    shorter = koikoi(stock)
    play(shorter, "09-3")
    play(shorter, "10-3")
    assert shorter.is_over and shorter.stock_pos == 2


def test_presets() -> None:
    nintendo = cardtable.load("koi-koi", preset="nintendo").options
    assert nintendo.koikoi_multiplier == "opponent_x2" and nintendo.double_if_seven_plus  # type: ignore[attr-defined]
    japan = cardtable.load("koi-koi", preset="koikoi_japan").options
    assert japan.rounds == 8 and japan.chofuku_mode == "add" and japan.oya_ken_points == 1  # type: ignore[attr-defined]
    battle = cardtable.load("koi-koi", preset="battle_hanafuda").options
    assert battle.set_yaku_extra_bonus and battle.table_triple_void  # type: ignore[attr-defined]
    assert cardtable.load("koi-koi", preset="nintendo", rounds=3).options.rounds == 3  # type: ignore[attr-defined]


def test_exclusive_options() -> None:
    with pytest.raises(OptionError, match=r"lucky_hands='both' is not valid.*void, win, off"):
        cardtable.load("koi-koi", lucky_hands="both")
    with pytest.raises(OptionError, match="draw_passes_deal and oya_ken_points"):
        cardtable.load("koi-koi", draw_passes_deal=True, oya_ken_points=1)
    with pytest.raises(OptionError, match="draw_last_yaku_scores and oya_ken_points"):
        cardtable.load("koi-koi", draw_last_yaku_scores=True, oya_ken_points=1)
    with pytest.raises(OptionError, match="zero_sum_start needs zero_sum"):
        cardtable.load("koi-koi", zero_sum=False, zero_sum_start=20)
    with pytest.raises(OptionError, match="players"):
        cardtable.load("koi-koi", players=3)


def test_best_yaku_only_keeps_the_best_one() -> None:
    deal = make_position(
        2,
        piles=[["01-1", "03-1", "09-1"]],  # Hanami already; the phoenix makes Sankō
        hands=[["12-4", "05-4"], ["06-4", "10-4"]],
        table=["12-1"],
        stock=["04-3", "07-3"],
    )
    for options, score in (({}, 10), ({"best_yaku_only": True}, 5)):
        state = koikoi(deal, **options)
        play(state, "12-4")
        state.apply(0, SHOBU)
        assert state.result().rounds[0].scores[0] == score


# -- options saved before the exclusive flags became one option each -------------------------
# The three presets as they were written with the former flags.
FORMER_PRESETS: dict[str, dict[str, Any]] = {
    "nintendo": {
        "zero_sum": False, "weather_ruins_viewing": False, "table_lucky_void": False,
        "lucky_hands_void": False, "lucky_hands_win": True, "double_if_seven_plus": True,
        "koikoi_multiplier": "opponent_x2", "koikoi_once_per_round": True,
        "draw_passes_deal": True,
    },
    "koikoi_japan": {
        "rounds": 8, "zero_sum": True, "zero_sum_start": 30, "weather_ruins_viewing": False,
        "table_lucky_void": False, "lucky_hands_void": True, "kuttsuki_enabled": False,
        "viewing_value": "low", "chofuku_mode": "add", "koikoi_multiplier": "japan_bonus",
        "oya_ken_points": 1,
    },
    "battle_hanafuda": {
        "zero_sum": False, "weather_ruins_viewing": False, "set_yaku_extra_bonus": True,
        "double_if_seven_plus": True, "koikoi_multiplier": "opponent_x2",
        "koikoi_once_per_round": True, "draw_passes_deal": True, "lucky_hands_void": True,
        "table_lucky_void": True, "table_triple_void": True,
    },
}  # fmt: skip


@pytest.mark.parametrize(
    ("former", "chosen"),
    [
        ({}, {"lucky_hands": "void", "lightning": "plain", "turn_variant": "standard"}),
        ({"lucky_hands_win": True}, {"lucky_hands": "win"}),  # displaces the ★ void
        ({"lucky_hands_win": True, "lucky_hands_void": False}, {"lucky_hands": "win"}),
        ({"lucky_hands_void": True}, {"lucky_hands": "void"}),
        ({"lucky_hands_void": False}, {"lucky_hands": "off"}),
        ({"lucky_hands_win": False}, {"lucky_hands": "void"}),
        ({"lucky_hands_win": False, "lucky_hands_void": False}, {"lucky_hands": "off"}),
        ({"lightning_wild": True}, {"lightning": "wild"}),
        ({"lightning_wild_if_grass": True}, {"lightning": "wild_if_grass"}),
        ({"lightning_wild": False, "lightning_wild_if_grass": False}, {"lightning": "plain"}),
        ({"draw_then_two_hand_plays": True}, {"turn_variant": "draw_then_two_hand_plays"}),
        ({"keep_unmatched_draw": True}, {"turn_variant": "keep_unmatched_draw"}),
        ({"keep_unmatched_draw": False}, {"turn_variant": "standard"}),
    ],
)
def test_former_flags_choose_the_same_rule(former: dict[str, Any], chosen: dict[str, str]) -> None:
    options = cardtable.load("koi-koi", **former).options
    assert {name: getattr(options, name) for name in chosen} == chosen
    assert not set(options.model_dump()) & {"lucky_hands_win", "lightning_wild"}


def test_former_flags_that_excluded_each_other_are_still_refused() -> None:
    with pytest.raises(OptionError, match="lucky_hands_void and lucky_hands_win exclude"):
        cardtable.load("koi-koi", lucky_hands_win=True, lucky_hands_void=True)
    with pytest.raises(OptionError, match="lightning_wild and lightning_wild_if_grass exclude"):
        cardtable.load("koi-koi", lightning_wild=True, lightning_wild_if_grass=True)
    with pytest.raises(OptionError, match="older name of lucky_hands"):
        cardtable.load("koi-koi", lucky_hands="win", lucky_hands_win=True)


@pytest.mark.parametrize("preset", sorted(FORMER_PRESETS))
def test_every_preset_means_what_it_meant(preset: str) -> None:
    before = cardtable.load("koi-koi", **FORMER_PRESETS[preset]).options
    assert before == cardtable.load("koi-koi", preset=preset).options


def test_records_saved_with_the_former_flags_load_and_replay() -> None:
    # Made by random legal moves with the code before the change (main at 6804ffc); the
    # scores and outcomes are what that code's replay gave.
    saved = json.loads(
        (Path(__file__).parent / "data/koikoi_records_with_former_flags.json").read_text()
    )
    assert {case["name"] for case in saved} == {"lucky-win-wild-keep", "no-lucky-grass-two-plays"}
    for case in saved:
        assert "lucky_hands_win" in case["record"]["options"]  # saved with the former flags
        record = GameRecord.from_json(case["record"])
        state = record.replay()
        assert state.is_over and list(state.scores()) == case["scores"], case["name"]
        assert [r.outcome for r in state.result().rounds] == case["outcomes"]
        again = GameRecord.from_json(json.loads(json.dumps(GameRecord.of(state).to_json())))
        assert (
            again.options["lucky_hands"] in ("win", "off")
            and again.replay().scores() == state.scores()
        )
