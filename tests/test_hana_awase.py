"""Hana-awase (Polish, §4) and Hana-awase 88 (Russian, §5): settlement, teyaku, special
payments, steals, forced match and the optional rules, on exact deals and positions."""

from __future__ import annotations

import random
from typing import Any

import pytest

import cardtable
from cardtable import IllegalAction, OptionError
from cardtable.games.hanafuda.actions import Play
from cardtable.games.hanafuda.deck import CODES, card_index, value_of
from cardtable.games.hanafuda.events import event_json
from cardtable.games.hanafuda.hana_awase import HanaAwaseState
from cardtable.games.hanafuda.scoring import settle
from tests.hanafuda_helpers import make_deal, make_position, mask, play

LOOSE_HANDS = [["01-3"], ["02-3"], ["03-3"]]
LOOSE_STOCK = ["04-3", "05-3", "06-3"]


def ha(game: str, deal: dict[str, Any], **options: Any) -> HanaAwaseState:
    options.setdefault("rounds", 1)
    state = cardtable.load(game, **options).new_state(seed=1, deals=[deal])
    assert isinstance(state, HanaAwaseState)
    return state


def end_position(p0_pile: list[str], p1_cards: int, p2_cards: int) -> dict[str, Any]:
    """A 3-player position one turn each from the end: six loose plains of months 1-6 go
    to the table; the piles hold ``p0_pile`` and the given numbers of cards; the rest
    (months 7-12 only) lies on the table and matches none of the loose cards."""
    loose = {c for h in LOOSE_HANDS for c in h} | set(LOOSE_STOCK)
    early = [c for c in CODES if c[:2] <= "06" and c not in loose and c not in p0_pile]
    late = [c for c in CODES if c[:2] > "06" and c not in p0_pile]
    p1 = early[:p1_cards]
    p2 = early[p1_cards:]
    p2 += late[: p2_cards - len(p2)]
    table = late[p2_cards - len(early[p1_cards:]) :]
    return make_position(
        3, hands=LOOSE_HANDS, piles=[p0_pile, p1, p2], table=table, stock=LOOSE_STOCK
    )


def finish(state: HanaAwaseState) -> None:
    while not state.is_over:
        (seat,) = state.to_move
        state.apply(seat, state.legal_actions(seat)[0])


def rules_of(state: HanaAwaseState, seat: int) -> list[str]:
    return [line.rule for line in state.result().rounds[0].lines if line.seat == seat]


def test_worked_example_5_6() -> None:
    assert settle([120, 90, 54], [60, 0, 20]) == [132, -78, -54]
    assert sum(settle([120, 90, 54], [60, 0, 20])) == 0
    assert settle([120, 90, 54], [60, 0, 20], scoring="simple") == [240, 90, 94]


def test_edge_16_special_payments() -> None:
    deal = end_position(["01-1"], p1_cards=9, p2_cards=10)  # p0: value exactly 20
    state = ha("hana-awase-88", deal, capture_from_opponent_piles=False)
    finish(state)
    result = state.result().rounds[0]
    assert result.outcome == "played"  # 20 is not under 20
    few = [
        (line.seat, line.points)
        for line in result.lines
        if line.rule == "few_cards" and line.points > 0
    ]
    assert few == [(0, 60), (2, 60)]  # p1 with 9 cards gets nothing, p2 with 10 does
    assert sum(result.scores) == -value_of(state.table)  # the loose cards are orphans

    inclusive = ha(
        "hana-awase-88", deal, capture_from_opponent_piles=False, fuke_threshold_inclusive=True
    )
    finish(inclusive)
    assert inclusive.result().rounds[0].outcome == "drawn"


def test_edge_16_nineteen_draws_the_deal_despite_a_bonus() -> None:
    p0 = ["01-2", "02-2", "03-2", "01-4", "02-4", "03-4", "04-4"]  # 19 in 7 cards
    state = ha("hana-awase-88", end_position(p0, 9, 10), capture_from_opponent_piles=False)
    finish(state)
    result = state.result().rounds[0]
    assert result.outcome == "drawn" and result.scores == (0, 0, 0)
    assert [line.rule for line in result.lines] == ["fuke"]
    assert state.next_dealer == state.dealer  # the dealer stays after a drawn deal


def test_edge_17_teyaku() -> None:
    seven = ["01-3", "01-4", "02-3", "02-4", "03-3", "03-4", "11-4"]  # lightning is plain
    state = ha("hana-awase-88", make_deal(3, hands=[seven]))
    (teyaku,) = state.view(1)["teyaku"]
    assert {k: teyaku[k] for k in ("seat", "rule", "label", "points", "cards")} == {
        "seat": 0,
        "rule": "teyaku:7",
        "label": "Teyaku: 7 plains",
        "points": 60,
        "cards": seven,
    }  # 30 from each, not 30 + 20
    assert teyaku["labels"]["pl"] == "Teyaku: 7 kart zwykłych"
    assert state.known_in_hands()[0] == mask(*seven)
    six = ["01-3", "01-4", "02-3", "02-4", "03-3", "03-4", "11-1"]
    assert ha("hana-awase-88", make_deal(3, hands=[six])).view(0)["teyaku"][0]["points"] == 40
    willow = ["01-3", "01-4", "02-3", "02-4", "03-3", "11-1", "11-2"]
    assert ha("hana-awase-88", make_deal(3, hands=[willow])).view(0)["teyaku"] == []
    counted = ha("hana-awase-88", make_deal(3, hands=[willow]), willow_is_plain_for_teyaku=True)
    assert counted.view(0)["teyaku"][0]["points"] == 60
    assert ha("hana-awase", make_deal(3, hands=[seven])).view(0)["teyaku"] == []  # Polish


def test_teyaku_survives_a_drawn_deal() -> None:
    seven = ["07-3", "07-4", "08-3", "08-4", "09-3", "09-4", "10-3"]
    game = cardtable.load("hana-awase-88", rounds=1)
    for seed in range(200):  # the first random play of this deal that ends drawn
        state = game.new_state(seed=1, deals=[make_deal(3, hands=[seven])])
        policy = random.Random(seed)
        while not state.is_over:
            (seat,) = state.to_move
            state.apply(seat, policy.choice(state.legal_actions(seat)))
        result = state.result().rounds[0]
        if result.outcome == "drawn":
            break
    assert result.outcome == "drawn"
    assert result.scores == (60, -30, -30)  # only the teyaku was paid


def before_a_steal() -> HanaAwaseState:
    """Edge 18's position: seat 1 may take an iris from seat 0's open pile."""
    deal = make_position(
        3,
        hands=[["09-3"], ["05-4"], ["10-3"]],
        piles=[["05-1", "05-2"]],
        table=["05-3"],
        stock=["01-3", "02-3", "03-3"],
    )
    state = ha("hana-awase-88", deal, special_payments=False)
    play(state, "09-3")
    return state


def test_edge_18_steal_leaves_an_orphan() -> None:
    state = before_a_steal()
    choices = {a.take for a in state.legal_actions(1) if isinstance(a, Play)}
    assert choices == {card_index("05-1"), card_index("05-2"), card_index("05-3")}
    play(state, "05-4", take="05-1")  # from seat 0's open pile
    assert state.piles[1] & mask("05-1") and not state.piles[0] & mask("05-1")
    finish(state)
    assert state.table & mask("05-3")  # its partners are all captured
    captured = sum(value_of(p) for p in state.piles)
    assert captured < 264
    assert sum(state.scores()) == captured - 264  # the settlement still applies


def test_a_steal_is_told_in_its_events_own_copy() -> None:
    """The views share each event's JSON (events.event_json); the one a steal annotates is
    a copy, so a second view says the same and no other view hears of the steal."""
    state = before_a_steal()
    play(state, "05-4", take="05-1")
    first, second = state.view(None)["events"], state.view(2)["events"]
    stolen = [event["stolen"] for event in first if "stolen" in event]
    assert stolen == [[{"seat": 0, "cards": ["05-1"]}]]
    assert second == first  # the steal once, not once a view
    assert not any("stolen" in event_json(number) for number in state.capture_log)


def test_never_steal_from_ones_own_pile() -> None:
    deal = make_position(3, hands=[["05-4"], ["09-3"], ["10-3"]], piles=[["05-1", "05-2"]])
    state = ha("hana-awase-88", deal)
    assert state.legal_actions(0) == [Play(card_index("05-4"))]  # goes to the table


def test_forced_hand_match() -> None:
    deal = make_position(3, hands=[["05-4", "09-3"], ["01-3"], ["02-3"]], table=["05-3"])
    state = ha("hana-awase-88", deal)
    assert state.legal_actions(0) == [Play(card_index("05-4"))]
    with pytest.raises(IllegalAction, match=r"must play a card that captures \(05-4\)"):
        play(state, "09-3")
    free = ha("hana-awase", deal)
    assert len(free.legal_actions(0)) == 2
    # without captures from the piles too (found by the conformance suite: the discard
    # was refused from the move list but accepted when played)
    forced = ha("hana-awase", deal, forced_hand_match=True)
    assert forced.legal_actions(0) == [Play(card_index("05-4"))]
    with pytest.raises(IllegalAction, match=r"must play a card that captures \(05-4\)"):
        play(forced, "09-3")
    # without steals too: the refusal and the legal moves say the same
    no_steals = ha("hana-awase-88", deal, capture_from_opponent_piles=False)
    assert no_steals.legal_actions(0) == [Play(card_index("05-4"))]
    with pytest.raises(IllegalAction, match=r"must play a card that captures \(05-4\)"):
        play(no_steals, "09-3")


def test_edge_15_willow_row_cancels_everyones_yaku() -> None:
    willows = ["11-1", "11-2", "11-3", "11-4"]
    deal = end_position(["01-1", "08-1", "12-1", *willows], 9, 10)
    on = ha("hana-awase-88", deal, capture_from_opponent_piles=False, willow_row_cancels_yaku=True)
    finish(on)
    assert not any(line.rule.startswith("yaku:") for line in on.result().rounds[0].lines)
    assert "willow_row_cancels" in rules_of(on, 0)
    off = ha("hana-awase-88", deal, capture_from_opponent_piles=False)
    finish(off)
    assert "yaku:matsu_kiri_bozu" in rules_of(off, 0) and "yaku:yanagi_shima" in rules_of(off, 0)


def test_result_lines_explain_the_settlement() -> None:
    state = ha("hana-awase", make_deal(3))
    finish(state)
    result = state.result().rounds[0]
    values = [value_of(p) for p in state.piles]
    yaku = [sum(y.points for y in state.pile_yaku(s)) for s in range(3)]
    assert list(result.scores) == settle(values, yaku)
    for seat in range(3):
        assert sum(line.points for line in result.lines if line.seat == seat) == result.scores[seat]


def test_edge_19_polish_hana_awase_zero_sum_and_refusals() -> None:
    for players in (2, 3, 4):
        state = cardtable.load("hana-awase", players=players, rounds=3).new_state(seed=players)
        finish(state)  # type: ignore[arg-type]
        assert sum(state.scores()) == 0
    with pytest.raises(OptionError, match="scoring=simple"):
        cardtable.load("hana-awase", players=2, two_player_stop_when_hands_empty=True)
    with pytest.raises(OptionError, match="special_payments name the three seats"):
        cardtable.load("hana-awase", players=4, special_payments=True)
    with pytest.raises(OptionError, match="players"):
        cardtable.load("hana-awase-88", players=4)


def test_simple_scoring_adds_yaku_times_opponents() -> None:
    state = ha("hana-awase", make_deal(4), players=4, scoring="simple")
    finish(state)
    values = [value_of(p) for p in state.piles]
    yaku = [sum(y.points for y in state.pile_yaku(s)) for s in range(4)]
    assert list(state.scores()) == [v + 3 * y for v, y in zip(values, yaku, strict=True)]
