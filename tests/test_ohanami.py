"""Ohanami (games/ohanami/pages/ohanami.md): the test vectors, placement rules, passing, scoring,
simultaneous secret choices and the tie-break."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

import cardtable
from cardtable import IllegalAction, OptionError
from cardtable.core.results import MatchResult
from cardtable.games.ohanami.deck import COLOUR_OF, NUMBERS, pink_points, stage_points
from cardtable.games.ohanami.game import Keep, OhanamiState, Place, cards_in, place_problem


def new_game(
    players: int = 2, deals: list[dict[str, Any]] | None = None, seed: int = 1
) -> OhanamiState:
    state = cardtable.load("ohanami", players=players).new_state(seed=seed, deals=deals)
    assert isinstance(state, OhanamiState)
    return state


def test_deck_against_the_colour_rule() -> None:
    assert tuple(range(1, 121)) == NUMBERS
    assert Counter(COLOUR_OF.values()) == {"blue": 34, "green": 35, "grey": 17, "pink": 34}
    for number, colour in COLOUR_OF.items():
        expected = (
            "grey" if number % 7 == 0
            else "green" if number % 3 == 0
            else "blue" if number % 2 == 0
            else "pink"
        )  # fmt: skip
        assert colour == expected, number


def test_vector_1_a_card_never_goes_between() -> None:
    rows = ((68, 77, 102),)
    assert place_problem(rows, 65, 0) is None
    assert place_problem(rows, 110, 0) is None
    problem = place_problem(rows, 81, 0)
    assert problem == (
        "81 cannot go in row 0 [68, 77, 102]: a card goes above 102 or below 68, never between"
    )


HAND_0 = [49, 62, 1, 2, 3, 4, 5, 6, 7, 8]
HAND_1 = [56, 65, 9, 10, 11, 12, 13, 14, 15, 16]


def test_vector_2_pascals_first_picks() -> None:
    state = new_game(deals=[{"hands": [HAND_0, HAND_1]}])
    state.apply(0, Keep((49, 62)))
    state.apply(1, Keep((9, 10)))
    state.apply(0, Place(((49, "new"), (62, 0))))
    state.apply(1, Place(((9, "new"), (10, 0))))
    assert state.rows[0] == ((49, 62),)
    assert 56 in cards_in(state.hands[0]) and 65 in cards_in(state.hands[0])  # hands swapped
    state.apply(0, Keep((56, 65)))
    state.apply(1, Keep((1, 2)))
    with pytest.raises(IllegalAction, match=r"56 cannot go in row 0 \[49, 62\]"):
        state.apply(0, Place(((56, 0), (65, 0))))
    state.apply(0, Place(((56, "new"), (65, 0))))
    state.apply(1, Place(((1, "discard"), (2, "discard"))))
    assert state.rows[0] == ((49, 62, 65), (56,))
    assert [COLOUR_OF[c] for c in (49, 56, 62, 65)] == ["grey", "grey", "blue", "pink"]


def test_vector_3_the_157_point_example() -> None:
    stage_1 = sum(stage_points({"blue": 4}, 1).values())
    stage_2 = sum(stage_points({"blue": 6, "green": 7}, 2).values())
    stage_3 = sum(stage_points({"blue": 6, "green": 8, "grey": 4, "pink": 6}, 3).values())
    assert (stage_1, stage_2, stage_3) == (12, 46, 99)
    assert stage_1 + stage_2 + stage_3 == 157
    assert stage_points({"grey": 3, "pink": 4}, 2) == {"blue": 0, "green": 0, "grey": 0, "pink": 0}


def test_vector_4_the_pink_table() -> None:
    assert [pink_points(k) for k in (0, 1, 5, 6, 12, 14, 15, 20)] == [
        0,
        1,
        15,
        21,
        78,
        105,
        120,
        120,
    ]


def play_randomly(state: OhanamiState, rng: random.Random, until_stage: int = 4) -> None:
    while not state.is_over and state.stage < until_stage:
        for seat in sorted(state.to_move):
            state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize(("players", "left"), [(2, 60), (3, 30), (4, 0)])
def test_vector_5_the_stock_and_the_four_player_bound(players: int, left: int) -> None:
    state = new_game(players)
    play_randomly(state, random.Random(1), until_stage=3)
    assert state.stage == 3 and len(state.stock) == left
    assert state.view(None)["stock_size"] == left


@pytest.mark.parametrize(("stage", "receiver"), [(1, 1), (2, 2), (3, 1)])
def test_vector_6_pass_directions_with_three_players(stage: int, receiver: int) -> None:
    state = new_game(3)
    play_randomly(state, random.Random(2), until_stage=stage)
    for seat in range(3):
        state.apply(seat, state.legal_actions(seat)[0])  # keep
    leftover = state.hands[0]
    for seat in range(3):
        state.apply(seat, state.legal_actions(seat)[-1])  # place
    assert state.hands[receiver] == leftover
    assert state.view(0)["pass_to"] == ("right" if stage == 2 else "left")


def test_fifth_pick_keeps_the_last_two_cards() -> None:
    state = new_game(2)
    for _ in range(4 * 2):  # four picks of keep + place
        for seat in (0, 1):
            state.apply(seat, state.legal_actions(seat)[0])
    assert state.pick == 5 and state.phase == "place"
    assert state.kept[0].bit_count() == 2 and state.hands == [0, 0]


def test_illegal_moves_explain_and_change_nothing() -> None:
    state = new_game(deals=[{"hands": [HAND_0, HAND_1]}])
    before = state.view(0), state.view(1)
    for seat, action, message in [
        (0, Keep((49, 56)), "56 is not in your hand"),
        (0, Keep((49, 49)), "two different cards"),
        (0, Place(((49, "new"),)), "choose the two cards to keep first"),
        (5, Keep((49, 62)), "there is no seat 5"),
    ]:
        with pytest.raises(IllegalAction, match=message):
            state.apply(seat, action)
        assert (state.view(0), state.view(1)) == before
    state.apply(0, Keep((49, 62)))
    with pytest.raises(IllegalAction, match="already chosen for this pick"):
        state.apply(0, Keep((1, 2)))
    state.apply(1, Keep((9, 10)))
    with pytest.raises(IllegalAction, match=r"place each kept card \(49 and 62\) exactly once"):
        state.apply(0, Place(((49, "new"),)))
    with pytest.raises(IllegalAction, match="there is no row 2"):
        state.apply(0, Place(((49, "new"), (62, 2))))


def test_a_fourth_row_is_refused() -> None:
    rows = ((10,), (20,), (30,))
    assert place_problem(rows, 40, "new") == "40 cannot start a row: a garden has at most 3 rows"
    assert place_problem(rows, 40, 2) is None


def test_simultaneous_choices_stay_secret_until_everyone_commits() -> None:
    state = new_game(3, seed=5)
    assert state.to_move == {0, 1, 2}
    keep = state.legal_actions(1)[0]
    state.apply(1, keep)
    assert state.to_move == {0, 2}
    assert state.view(0)["committed"] == [False, True, False]
    assert "my_choice" not in state.view(0) and state.view(1)["my_choice"] == keep.to_json()
    assert state.legal_actions(1) == []
    for seat in (0, 2):
        state.apply(seat, state.legal_actions(seat)[0])
    assert state.phase == "place" and state.to_move == {0, 1, 2}
    others = state.view(0)
    assert others["kept"] == cards_in(state.kept[0])
    assert all(str(c) not in str(others["kept"]) for c in cards_in(state.kept[1]))


def test_tie_break_by_pink_cards() -> None:
    result = MatchResult("ohanami", True, (100, 100, 90), (), tiebreak=(3, 5, 9))
    assert result.winners == (1,)
    assert MatchResult("ohanami", True, (100, 100), (), tiebreak=(4, 4)).winners == (0, 1)
    with pytest.raises(OptionError):
        cardtable.load("ohanami", pink_tiebreak="none")


def test_stage_results_and_final_winner() -> None:
    state = new_game(3, seed=9)
    play_randomly(state, random.Random(9))
    result = state.result()
    assert [r.number for r in result.rounds] == [1, 2, 3]
    assert result.scores == tuple(sum(r.scores[s] for r in result.rounds) for s in range(3))
    assert result.winners and result.tiebreak == tuple(
        state.colour_counts(s)["pink"] for s in range(3)
    )


def test_fixed_deals_are_checked() -> None:
    for deal, message in [
        ({"hands": [HAND_0]}, "hands must list 2 hands"),
        ({"hands": [HAND_0, HAND_0]}, "dealt twice"),
        ({"hands": [HAND_0, [*HAND_1[:9], 121]]}, "121 is not an Ohanami card"),
        ({"hands": [HAND_0, HAND_1], "stock": []}, "only 'hands'"),
    ]:
        with pytest.raises(OptionError, match=message):
            new_game(deals=[deal])


def test_actions_parse_from_json() -> None:
    game = cardtable.load("ohanami")
    place = Place(((49, "new"), (62, 0)))
    assert game.parse_action(place.to_json()) == place
    assert game.parse_action({"type": "keep", "cards": [62, 49]}) == Keep((49, 62))
    for bad in (
        {"type": "keep", "cards": [1]},
        {"type": "place", "placements": [{"card": 1, "to": "x"}]},
    ):
        with pytest.raises(IllegalAction):
            game.parse_action(bad)
