"""The hand reader (cardtable.games.hanafuda.bots.inference): the past it rewinds is the
past that was, it reads nothing hidden, and it guesses hidden hands better than uniform
determinization on games the strategist plays."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.agents import make_agent
from cardtable.core.rng import Rng
from cardtable.games.hanafuda.actions import Play
from cardtable.games.hanafuda.bots.inference import HandReader, hand_plays
from cardtable.games.hanafuda.fishing import FishingState


def fishing(state: cardtable.State) -> FishingState:
    assert isinstance(state, FishingState)
    return state


@settings(max_examples=40, deadline=None)
@given(
    game_id=st.sampled_from(["koi-koi", "bakappana", "hana-awase"]),
    seed=st.integers(0, 10**6),
    stop=st.integers(1, 40),
)
def test_the_rewound_plays_are_the_plays_that_were_made(game_id: str, seed: int, stop: int) -> None:
    game = cardtable.load(game_id, rounds=1)
    state = fishing(game.new_state(seed=seed))
    rng = Rng(seed)
    # what each hand play really met: (seat, card, table, piles, hand)
    made: list[tuple[int, int, int, tuple[int, ...], int]] = []
    for _ in range(stop):
        if state.is_over:
            return
        seat = min(state.to_move)
        action = state.legal_actions(seat)[rng.below(len(state.legal_actions(seat)))]
        if isinstance(action, Play):  # one round: every play is of this round
            made.append((seat, action.card, state.table, tuple(state.piles), state.hands[seat]))
        state.apply(seat, action)
    viewer = state.current
    rewound = hand_plays(state, viewer)
    expected = [m for m in made if m[0] != viewer]
    assert [(p.seat, p.card, p.table, p.piles) for p in rewound] == [m[:4] for m in expected]
    for play, (*_, hand) in zip(rewound, expected, strict=True):
        assert play.hand(state.hands[play.seat]) == hand


@pytest.mark.parametrize("seed", range(6))
def test_the_reader_reads_only_what_its_seat_saw(seed: int) -> None:
    state = fishing(cardtable.load("koi-koi", rounds=1).new_state(seed=seed))
    bots = [make_agent("strategist", "koi-koi", seed=s) for s in (1, 2)]
    rng = Rng(seed)
    for _ in range(9):
        if state.is_over:
            break
        seat = min(state.to_move)
        state.apply(seat, bots[seat].choose(state, seat))
    viewer = state.current
    redealt = state.determinize(viewer, rng)  # the hidden cards dealt again
    candidates = [state.determinize(viewer, rng).hands for _ in range(20)]
    assert hand_plays(redealt, viewer) == hand_plays(state, viewer)
    real, other = HandReader(state, viewer), HandReader(redealt, viewer)
    assert [real.likelihood(h) for h in candidates] == [other.likelihood(h) for h in candidates]


def test_a_game_with_steals_is_not_read() -> None:
    state = fishing(cardtable.load("hana-awase-88", rounds=1).new_state(seed=3))
    for _ in range(12):
        seat = min(state.to_move)
        state.apply(seat, state.legal_actions(seat)[0])
    assert hand_plays(state, state.current) == []
    assert HandReader(state, state.current).likelihood(state.hands) == 1.0


def test_the_true_hand_is_likelier_than_a_uniform_guess_against_the_strategist() -> None:
    game = cardtable.load("koi-koi", rounds=1)
    rng = Rng(5)
    log_ratios: list[float] = []
    seed = 100
    while len(log_ratios) < 40:
        bots = [make_agent("strategist", "koi-koi", seed=seed + k) for k in (0, 1)]
        state = fishing(game.new_state(seed=seed))
        seed += 1
        while not state.is_over and len(log_ratios) < 40:
            seat = min(state.to_move)
            reader = HandReader(state, 0)
            if seat == 0 and state.phase == "play" and reader.plays:
                weights = [reader.likelihood(state.determinize(0, rng).hands) for _ in range(40)]
                log_ratios.append(math.log(reader.likelihood(state.hands) * 40 / sum(weights)))
            state.apply(seat, bots[seat].choose(state, seat))
    # the geometric mean of how much likelier the reader finds the truth than uniform
    assert math.exp(sum(log_ratios) / len(log_ratios)) > 1.5
