"""The hand reader (cardtable.games.hanafuda.bots.inference): the past it rewinds is the
past that was, it reads nothing hidden, and it guesses hidden hands better than uniform
determinization on games the strategist plays."""

from __future__ import annotations

import math
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.agents import make_agent
from cardtable.core.rng import Rng
from cardtable.games.hanafuda.actions import Play, plays_of
from cardtable.games.hanafuda.bots.inference import (
    FLOOR,
    TEMPERATURE,
    HandPlay,
    HandReader,
    hand_plays,
)
from cardtable.games.hanafuda.bots.strategist import StrategistAgent, chosen_capture
from cardtable.games.hanafuda.deck import card_list
from cardtable.games.hanafuda.events import Source, unpacked_event
from cardtable.games.hanafuda.fishing import FishingState


def fishing(state: cardtable.State) -> FishingState:
    assert isinstance(state, FishingState)
    return state


@settings(max_examples=40, deadline=None)
@given(
    game_id=st.sampled_from(["koi-koi", "bakappana", "hana-awase", "hana-awase-88"]),
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


def softmax_probability(state: FishingState, play: HandPlay, hand: int) -> float:
    """The model's probability of ``play`` from ``hand``, computed the long way: every
    play of the hand valued by the strategist, a softmax, the floor."""
    past = state.clone()
    past.table, past.piles = play.table, list(play.piles)
    past.hands[play.seat] = hand
    model = StrategistAgent(seed=0)
    values, chosen = [], None
    for card in card_list(hand):
        for action in plays_of(card, past.capture_options(play.seat, card)):
            captured = chosen_capture(past, play.seat, card, action.take)
            if card == play.card and captured == play.captured:
                chosen = len(values)
            values.append(model.value(past, play.seat, action))
    if chosen is None:
        return FLOOR
    top = max(values)
    weights = [math.exp((v - top) / TEMPERATURE) for v in values]
    return max(weights[chosen] / sum(weights), FLOOR)


@settings(max_examples=25, deadline=None)
@given(
    game_id=st.sampled_from(["koi-koi", "hana-awase", "hana-awase-88", "bakappana"]),
    seed=st.integers(0, 10**6),
)
def test_remembered_card_weights_give_the_whole_softmax(game_id: str, seed: int) -> None:
    state = fishing(cardtable.load(game_id, rounds=1).new_state(seed=seed))
    bots = [make_agent("strategist", game_id, seed=seed + s) for s in range(state.n)]
    for _ in range(4 * state.n):
        if state.is_over:  # a round can end early (koi-koi's yaku)
            return
        seat = min(state.to_move)
        state.apply(seat, bots[seat].choose(state, seat))
    viewer = state.current
    reader = HandReader(state, viewer)
    rng = Rng(seed)
    for hands in [state.hands] + [state.determinize(viewer, rng).hands for _ in range(6)]:
        for play in reader.plays:
            hand = play.hand(hands[play.seat])
            expected = softmax_probability(state, play, hand)
            assert reader.play_probability(play, hand) == pytest.approx(expected, rel=1e-9)


def test_the_dealer_prefers_hands_that_explain_the_plays() -> None:
    state = fishing(cardtable.load("koi-koi", rounds=1).new_state(seed=21))
    bots = [make_agent("strategist", "koi-koi", seed=s) for s in (1, 2)]
    for _ in range(8):
        seat = min(state.to_move)
        state.apply(seat, bots[seat].choose(state, seat))
    viewer = state.current
    reader = HandReader(state, viewer)
    rng = Rng(4)
    dealt = [reader.sample(rng) for _ in range(300)]
    uniform = [state.determinize(viewer, rng) for _ in range(300)]
    assert all(d.view(viewer) == state.view(viewer) for d in dealt)  # consistent deals
    mean = statistics.fmean
    dealt_weight = mean(reader.likelihood(d.hands) for d in dealt)
    assert dealt_weight > 1.5 * mean(reader.likelihood(u.hands) for u in uniform)


def test_steals_go_back_to_the_piles_they_came_from() -> None:
    game = cardtable.load("hana-awase-88", rounds=1)
    for seed in range(40):  # deals until one where a hand play steals
        state = fishing(game.new_state(seed=seed))
        bots = [make_agent("strategist", "hana-awase-88", seed=s) for s in range(3)]
        while not state.is_over and not state.steals:
            seat = min(state.to_move)
            before = (seat, state.table, tuple(state.piles))
            state.apply(seat, bots[seat].choose(state, seat))
        if state.steals and unpacked_event(state.capture_log[-1]).source is Source.HAND:
            break
    else:
        pytest.fail("no hand play stole in 40 deals")
    seat, table, piles = before
    viewer = (seat + 1) % 3
    last = hand_plays(state, viewer)[-1]
    assert (last.seat, last.table, last.piles) == (seat, table, piles)
    assert any(piles[owner] & cards for _, owner, cards in state.steals)


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
