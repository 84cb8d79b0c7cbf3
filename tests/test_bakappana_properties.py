"""Property tests over 10 000 random seeded Bakappana rounds for each player count.

Each game is played by a random policy drawn from the seed, and checked at every step:
every card is in exactly one place, every listed action applies and round-trips through
JSON, illegal moves change nothing, views hide what they must, and replay rebuilds it.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable import IllegalAction
from cardtable.games.hanafuda.actions import Play
from cardtable.games.hanafuda.deck import FULL_DECK, NUM_CARDS, codes
from cardtable.games.hanafuda.fishing import FishingState

GAMES = 10_000  # per player count, in CHUNKS tests so both cores share the work
CHUNKS = 4


def card_places(state: FishingState) -> list[int]:
    places = [*state.hands, *state.piles, state.table]
    places.extend(1 << c for c in state.stock[state.stock_pos :])
    if state.pending >= 0:
        places.append(1 << state.pending)
    return places


def check_partition(state: FishingState) -> None:
    places = card_places(state)
    assert sum(p.bit_count() for p in places) == NUM_CARDS, "a card was lost or duplicated"
    union = 0
    for place in places:
        union |= place
    assert union == FULL_DECK


def check_views(state: FishingState, rng: random.Random) -> None:
    spectator = state.view(None)
    assert "hand" not in spectator and "legal_actions" not in spectator
    for seat in range(state.n):
        view = state.view(seat)
        assert view["hand"] == codes(state.hands[seat])
        current_round = json.dumps(
            [view[k] for k in ("table", "piles", "hand", "events", "flipped", "legal_actions")]
        )
        for other in range(state.n):
            if other != seat:
                for code in codes(state.hands[other]):
                    assert code not in current_round, f"seat {seat} sees {code} of seat {other}"
        assert "stock" not in view and "seed" not in view
        # A resampling of everything hidden from `seat` must leave its view unchanged.
        sampled = state.determinize(seat, rng)
        check_partition(sampled)
        assert sampled.view(seat) == view
        assert sampled.hands[seat] == state.hands[seat]


def play_checked(players: int, scoring: str, seed: int, deep_checks: bool) -> FishingState:
    game = cardtable.load("bakappana", players=players, rounds=1, scoring=scoring)
    state = game.new_state(seed=seed)
    assert isinstance(state, FishingState)
    policy = random.Random(seed)
    while not state.is_over:
        check_partition(state)
        (seat,) = state.to_move
        actions = state.legal_actions(seat)
        assert actions, "a seat to move must have a legal action"
        for other in range(players):
            if other != seat:
                assert state.legal_actions(other) == []
        for action in actions:
            assert game.parse_action(json.loads(json.dumps(action.to_json()))) == action
            assert state.illegal_reason(seat, action) is None
        if deep_checks:
            check_views(state, policy)
            wrong_seat = (seat + 1) % players
            snapshot = state.view(None), [*state.hands]
            try:
                state.apply(wrong_seat, actions[0])
            except IllegalAction:
                pass
            else:
                raise AssertionError("a seat not to move was allowed to act")
            assert (state.view(None), state.hands) == snapshot
        state.apply(seat, policy.choice(actions))
    check_partition(state)
    return state


def check_finished(state: FishingState, players: int, scoring: str) -> None:
    # Standard rules capture every card by the end of a fully played round.
    assert state.table == 0 and state.stock_pos == len(state.stock)
    assert sum(p.bit_count() for p in state.piles) == NUM_CARDS
    if scoring == "traditional":
        assert sum(state.scores()) == 0
    else:
        assert sum(state.scores()) == 264
    rebuilt = cardtable.replay("bakappana", state.game.options, state.seed, state.log)
    assert rebuilt.view(None) == state.view(None)
    assert rebuilt.scores() == state.scores()
    assert rebuilt.result() == state.result()


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games(players: int, chunk: int) -> None:
    @settings(max_examples=GAMES // CHUNKS, database=None)
    @given(
        seed=st.integers(min_value=0, max_value=2**63 - 1),
        scoring=st.sampled_from(["traditional", "simple"]),
        deep=st.integers(0, 19),
    )
    def run(seed: int, scoring: str, deep: int) -> None:
        # Every game gets the cheap checks at every step; one in twenty the deep ones
        # (views against determinizations, rejected wrong-seat moves) at every step.
        state = play_checked(players, scoring, seed, deep_checks=deep == 0)
        check_finished(state, players, scoring)

    run()


def test_hand_plays_per_round() -> None:
    # 2 players: 8 hand plays each; 3: 7; 4: 5 (the stock covers the rest).
    for players, per_seat in ((2, 8), (3, 7), (4, 5)):
        state = play_checked(players, "simple", 99, deep_checks=True)
        plays = [m for m in state.log if isinstance(m.action, Play)]
        assert len(plays) == players * per_seat


def test_multi_round_matches_stay_zero_sum() -> None:
    for seed in range(40):
        players = 2 + seed % 3
        state = cardtable.load("bakappana", players=players, rounds=3).new_state(seed=seed)
        policy = random.Random(seed)
        while not state.is_over:
            (seat,) = state.to_move
            state.apply(seat, policy.choice(state.legal_actions(seat)))
        assert sum(state.scores()) == 0
        assert all(sum(r.scores) == 0 for r in state.result().rounds)
        assert len(state.result().rounds) == 3
