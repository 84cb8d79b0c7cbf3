"""The shared fishing mechanics (games/hanafuda/pages/bakappana.md, "The deck" to "End of
the round") and the edge cases that apply to them, each on an exact deal."""

from __future__ import annotations

import itertools
import random

import pytest

import cardtable
from cardtable import IllegalAction, OptionError
from cardtable.games.hanafuda.actions import MONTH_PLAYS, Play, Take, plays_of
from cardtable.games.hanafuda.capture import captures, captures_on
from cardtable.games.hanafuda.dealing import draw_first_dealer, month_misdeal, winner_deals_next
from cardtable.games.hanafuda.deck import MONTH_MASK_OF, card_index, codes, lowest_card
from cardtable.games.hanafuda.fishing import Phase
from tests.hanafuda_helpers import make_deal, mask, new_state, play


def test_edge_1_hand_takes_one_of_two_then_stock_takes_the_other() -> None:
    deal = make_deal(2, hands=[["03-4"]], table=["03-1", "03-3"], stock=["03-2"])
    state = new_state("bakappana", deal)
    play(state, "03-4", take="03-1")
    assert state.piles[0] == mask("03-1", "03-2", "03-3", "03-4")
    assert state.table & mask("03-1", "03-2", "03-3", "03-4") == 0
    assert state.current == 1


def test_edge_2_discard_then_stock_card_of_that_month_captures_it() -> None:
    deal = make_deal(2, hands=[["05-3"], ["05-4"]], table=[], stock=["05-1"])
    state = new_state("bakappana", deal)
    assert not state.table & mask("05-1", "05-2", "05-3", "05-4")
    play(state, "05-3")
    assert state.piles[0] == mask("05-3", "05-1")
    assert state.events[0][3] == 0  # the hand card went to the table first


@pytest.mark.parametrize("source", ["hand", "stock"])
def test_edge_3_three_dealt_to_the_table_are_all_captured(source: str) -> None:
    triple = ["08-1", "08-2", "08-3"]
    if source == "hand":
        deal = make_deal(3, hands=[["08-4"]], table=triple)
        state = new_state("bakappana", deal, players=3)
        play(state, "08-4")
    else:
        deal = make_deal(3, hands=[["10-3"]], table=triple, stock=["08-4"])
        state = new_state("bakappana", deal, players=3)
        assert not state.table & mask("10-1", "10-2", "10-4")
        play(state, "10-3")
    assert state.piles[0] & mask(*triple, "08-4") == mask(*triple, "08-4")
    assert state.phase is Phase.PLAY  # no choice was asked for


def test_edge_4_choice_offered_only_with_exactly_two_matches() -> None:
    deal = make_deal(2, hands=[["03-4", "09-3"]], table=["03-1", "03-3", "09-1"])
    state = new_state("bakappana", deal)
    actions = state.legal_actions(0)
    cherry = [a for a in actions if isinstance(a, Play) and a.card == card_index("03-4")]
    assert sorted(codes(mask("03-1", "03-3"))) == sorted(
        codes(sum(1 << a.take for a in cherry if a.take is not None))
    )
    chrysanthemum = [a for a in actions if isinstance(a, Play) and a.card == card_index("09-3")]
    assert chrysanthemum == [Play(card_index("09-3"))]  # one match: no choice
    play(state, "03-4", take="03-1")  # the valuable light, not the plain
    assert state.piles[0] & mask("03-1") and state.table & mask("03-3")


def test_stock_card_matching_two_asks_the_player() -> None:
    deal = make_deal(2, hands=[["10-3"]], table=["12-1", "12-2"], stock=["12-3"])
    state = new_state("bakappana", deal)
    play(state, "10-3")
    assert state.phase is Phase.TAKE and state.current == 0
    assert state.view(0)["flipped"] == "12-3"
    assert state.legal_actions(0) == [Take(card_index("12-1")), Take(card_index("12-2"))]
    with pytest.raises(IllegalAction, match="can take 12-1 or 12-2"):
        state.apply(0, Take(card_index("03-1")))
    state.apply(0, Take(card_index("12-1")))
    assert state.piles[0] & mask("12-1", "12-3") == mask("12-1", "12-3")
    assert state.current == 1 and state.phase is Phase.PLAY


def test_edge_5_four_of_a_month_on_the_table_is_redealt() -> None:
    deal = make_deal(2, table=["01-1", "01-2", "01-3", "01-4"], dealer=1)
    state = new_state("bakappana", deal)
    assert month_misdeal(mask("01-1", "01-2", "01-3", "01-4")) == 0
    assert state.misdeals == (("four cards of one month on the table", mask(*deal["table"])),)
    assert month_misdeal(state.table) is None
    assert state.dealer == 1  # same dealer deals again
    view = state.view(None)["misdeals"]
    assert view == [{"reason": "four cards of one month on the table", "table": deal["table"]}]


def test_edge_22_dealer_draw() -> None:
    # same month: the higher kind wins (light 03-1 over ribbon 03-2)
    assert draw_first_dealer([card_index("03-2"), card_index("03-1")], 2).dealer == 1
    # earliest month wins over a higher kind
    assert draw_first_dealer([card_index("12-1"), card_index("01-4")], 2).dealer == 1
    # two plains of one month tie: only they redraw
    order = [card_index(c) for c in ("06-3", "06-4", "11-1", "09-4", "02-3")]
    draw = draw_first_dealer(order, 3)
    assert len(draw.passes) == 2
    assert [seat for seat, _ in draw.passes[1]] == [0, 1]
    assert draw.dealer == 1  # 02-3 beats 09-4


def test_first_dealer_is_drawn_from_the_seed_and_shown() -> None:
    game = cardtable.load("bakappana", players=4)
    state = game.new_state(seed=11)
    view = state.view(None)
    assert view["dealer_draw"]["dealer"] == state.dealer == view["dealer"]
    assert game.new_state(seed=11).dealer == state.dealer


@pytest.mark.parametrize(
    ("players", "hand", "table", "stock"), [(2, 8, 8, 24), (3, 7, 6, 21), (4, 5, 8, 20)]
)
def test_deal_sizes(players: int, hand: int, table: int, stock: int) -> None:
    state = cardtable.load("bakappana", players=players).new_state(seed=players)
    view = state.view(0)
    assert view["hand_sizes"] == [hand] * players
    assert len(view["table"]) == table and view["stock_size"] == stock


def test_turn_order_goes_up_from_the_dealer() -> None:
    state = new_state("bakappana", make_deal(4, dealer=2), players=4)
    order = []
    for _ in range(8):
        order.append(state.current)
        state.apply(state.current, state.legal_actions(state.current)[0])
    assert order == [2, 3, 0, 1, 2, 3, 0, 1]


def test_two_player_traditional_end_plays_the_stock_out() -> None:
    state = cardtable.load("bakappana", rounds=1).new_state(seed=5)
    hand_turns = 0
    while not state.is_over:
        hand_turns += isinstance(state.legal_actions(state.current)[0], Play)
        state.apply(state.current, state.legal_actions(state.current)[0])
    assert hand_turns == 16
    assert state.stock_pos == 24 and state.table == 0
    assert sum(p.bit_count() for p in state.piles) == 48
    assert sum(state.scores()) == 0


def test_two_player_simplified_end_leaves_the_stock() -> None:
    game = cardtable.load(
        "bakappana", rounds=1, scoring="simple", two_player_stop_when_hands_empty=True
    )
    state = game.new_state(seed=5)
    while not state.is_over:
        state.apply(state.current, state.legal_actions(state.current)[0])
    assert state.stock_pos == 16 and len(state.stock) - state.stock_pos == 8
    assert sum(state.scores()) < 264


def test_edge_19_simplified_end_refuses_traditional_scoring() -> None:
    with pytest.raises(OptionError, match="scoring=simple"):
        cardtable.load("bakappana", two_player_stop_when_hands_empty=True)
    with pytest.raises(OptionError, match="scoring=simple"):
        cardtable.load("bakappana", scoring="traditional", two_player_stop_when_hands_empty=True)


def test_stock_only_turn_with_two_matches_asks_that_player() -> None:
    # Seat 1 ends the hand turns; the first stock-only turn is the dealer's.
    hands = [
        ["01-1", "01-2", "01-3", "01-4", "02-1", "02-2", "02-3", "02-4"],
        ["04-1", "04-2", "04-3", "04-4", "05-1", "05-2", "05-3", "05-4"],
    ]
    stock = [
        "06-1",
        "06-2",
        "06-3",
        "06-4",
        "07-1",
        "07-2",
        "07-3",
        "07-4",
        "08-1",
        "08-2",
        "08-3",
        "08-4",
        "09-1",
        "09-2",
        "09-3",
        "09-4",
        "03-3",
    ]
    deal = make_deal(
        2,
        hands=hands,
        table=["03-1", "03-2", "10-1", "10-2", "10-3", "11-1", "11-2", "12-1"],
        stock=stock,
    )
    state = new_state("bakappana", deal)
    while state.phase is Phase.PLAY:
        state.apply(state.current, state.legal_actions(state.current)[0])
    assert not any(state.hands)
    assert state.phase is Phase.TAKE and state.current == 0
    assert state.view(0)["flipped"] == "03-3"


def test_illegal_actions_explain_and_change_nothing() -> None:
    deal = make_deal(2, hands=[["03-4", "09-3"], ["07-3"]], table=["03-1", "03-3"])
    state = new_state("bakappana", deal)
    before = state.view(0), state.view(1), list(state.log)
    cases = [
        (1, Play(card_index("07-3")), "not to move"),
        (0, Play(card_index("07-3")), "not in your hand"),
        (0, Play(card_index("03-4")), "03-4 can take 03-1 or 03-3: say which one with take"),
        (0, Play(card_index("09-3"), card_index("09-1")), "take is only for a choice"),
        (0, Take(card_index("03-1")), "play a card from your hand first"),
        (7, Play(card_index("03-4")), "there is no seat 7"),
    ]
    for seat, action, message in cases:
        with pytest.raises(IllegalAction, match=message):
            state.apply(seat, action)
        assert (state.view(0), state.view(1), list(state.log)) == before


def test_malformed_json_actions_are_illegal_actions() -> None:
    game = cardtable.load("bakappana")
    for bad in (
        {"type": "fly"},
        {"type": "play", "card": "13-1"},
        {"type": "play"},
        [],
        {"type": "play", "card": 5},
    ):
        with pytest.raises(IllegalAction):
            game.parse_action(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("problem", "message"),
    [
        ({"hands": [["01-1"]]}, "hands must list 2 hands"),
        ({"dealer": 5}, "dealer must be a seat"),
        ({"table": ["01-1"]}, "table holds 1 cards; it must hold 8"),
        ({"extra": 1}, "unknown keys"),
    ],
)
def test_fixed_deals_are_checked(problem: dict[str, object], message: str) -> None:
    deal = make_deal(2)
    if "table" in problem:
        problem = {"table": deal["stock"][:1]}
        deal["stock"] = deal["stock"][1:]
    deal.update(problem)
    with pytest.raises(OptionError, match=message):
        cardtable.load("bakappana").new_state(seed=1, deals=[deal])


def test_fixed_deal_with_a_duplicate_card() -> None:
    deal = make_deal(2)
    deal["table"][0] = deal["hands"][0][0]
    with pytest.raises(OptionError, match="is in hands"):
        cardtable.load("bakappana").new_state(seed=1, deals=[deal])


def test_next_dealer_is_the_winner_with_tie_rules() -> None:
    assert winner_deals_next([5, 9, 1], dealer=0) == 1
    assert winner_deals_next([9, 9, 1], dealer=0) == 0  # dealer tied: keeps the deal
    assert winner_deals_next([1, 9, 9, 0], dealer=0) == 1  # earliest after the dealer
    assert winner_deals_next([9, 0, 1, 9], dealer=1) == 3  # 2, 3, 0 after dealer 1


@pytest.mark.parametrize("rounds", [1, 3, 6, 12])
def test_match_length_and_dealer_passes_to_the_winner(rounds: int) -> None:
    state = cardtable.load("bakappana", players=3, rounds=rounds).new_state(seed=rounds)
    dealers = [state.dealer]
    while not state.is_over:
        state.apply(state.current, state.legal_actions(state.current)[-1])
        if len(state.results) == len(dealers) and not state.is_over:
            dealers.append(state.dealer)
    results = state.result().rounds
    assert len(results) == rounds
    for before, after in itertools.pairwise(results):
        assert after.dealer == winner_deals_next(before.scores, before.dealer)
    assert state.scores() == tuple(sum(r.scores[s] for r in results) for s in range(3))


def test_rounds_beyond_fixed_deals_come_from_the_seed() -> None:
    deal = make_deal(2, dealer=1)
    game = cardtable.load("bakappana", rounds=3)
    a = game.new_state(seed=4, deals=[deal])
    b = game.new_state(seed=4, deals=[deal])
    for state in (a, b):
        while state.round_no == 1:
            state.apply(state.current, state.legal_actions(state.current)[0])
    assert a.view(None) == b.view(None)
    assert a.hands == b.hands


# -- the capture rule, written once, and the tables built from it ------------------------------
def test_the_capture_rule_by_number_of_table_cards_of_the_month() -> None:
    one, two, three = mask("03-1"), mask("03-1", "03-3"), mask("03-1", "03-2", "03-3")
    assert captures(0) == ()  # nothing: the card joins the table
    assert captures(one) == (one,)  # one: taken
    assert captures(two) == (mask("03-1"), mask("03-3"))  # two: the player chooses one
    assert captures(three) == (three,)  # three: all are taken


def test_the_capture_table_agrees_with_the_rule_on_every_table() -> None:
    rng = random.Random(5)
    tables = [rng.getrandbits(48) for _ in range(300)]
    tables += [nibble << 4 * month for month in range(12) for nibble in range(16)]
    for table in tables:
        for card in range(48):
            assert captures_on(table, card) == captures(table & MONTH_MASK_OF[card])


def test_the_hand_plays_table_agrees_with_the_rule() -> None:
    """MONTH_PLAYS (legal_actions' fast path) lists, for every hand and table of a month,
    one play per hand card and capture option when there is a choice, else one play."""
    for month, hand, table in itertools.product(range(12), range(16), range(16)):
        if hand & table:
            continue
        options = captures(table << 4 * month)
        expected = []
        for card in (4 * month + k for k in range(4) if hand >> k & 1):
            if len(options) >= 2:
                expected += [Play(card, lowest_card(option)) for option in options]
            else:
                expected.append(Play(card))
        assert list(MONTH_PLAYS[month][hand][table]) == expected


def test_legal_plays_agree_with_the_capture_options_in_dealt_games() -> None:
    for seed in range(30):
        state = cardtable.load("hana-awase", players=3, rounds=1).new_state(seed=seed)
        while not state.is_over:
            (seat,) = state.to_move
            actions = state.legal_actions(seat)
            if state.phase is Phase.PLAY:
                hand = [c for c in range(48) if state.hands[seat] >> c & 1]
                expected = [p for c in hand for p in plays_of(c, state.capture_options(seat, c))]
                assert sorted(actions, key=str) == sorted(expected, key=str)
            state.apply(seat, actions[seed % len(actions)])
