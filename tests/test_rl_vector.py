"""Many games at once (cardtable.rl.vector) and the hanafuda observations built from the
engine's numbers: the same observations and masks as the views give, rewards that add
up to the scores, reproducible rollouts."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable.core.encoding import BaseEncoder
from cardtable.core.errors import IllegalAction
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.games.hanafuda.encoding import HanafudaEncoder, numbers_of_view
from cardtable.games.hanafuda.fishing import FishingState
from cardtable.rl.encoding import encoder_for
from cardtable.rl.vector import CardtableVectorEnv, VectorGames, random_policy, rollout
from tests.test_compiled import RULE_SETS


def game_of(index: int) -> cardtable.Game:
    options = dict(RULE_SETS[index][1])
    preset = options.pop("preset", None)
    return cardtable.load(RULE_SETS[index][0], preset, **options)  # type: ignore[arg-type]


@settings(max_examples=60, deadline=None)
@given(rule_set=st.integers(0, len(RULE_SETS) - 1), seed=st.integers(0, 10**6))
def test_the_engine_numbers_say_what_each_view_shows(rule_set: int, seed: int) -> None:
    """After every move of a random game, for every seat: the engine's numbers equal the
    view's, and the observations and masks built from them (one state, a batch) equal the
    ones the views give, so they cannot show a card the view hides."""
    game = game_of(rule_set)
    encoder = encoder_for(game)
    assert isinstance(encoder, HanafudaEncoder)
    state, rng = game.new_state(seed=seed), Rng(seed)
    seats = list(range(game.num_players))
    while True:
        assert isinstance(state, FishingState)
        views = [encoder.view_of(state, seat) for seat in seats]
        for seat, view in zip(seats, views, strict=True):
            assert state.observation_numbers(seat) == numbers_of_view(view)
        expected = np.stack([encoder.observe(view) for view in views])
        assert np.array_equal(encoder.observe_states([state] * len(seats), seats), expected)
        assert all(
            np.array_equal(encoder.observe_state(state, seat), expected[seat]) for seat in seats
        )
        masks = encoder.masks([state] * len(seats), seats)
        for seat in seats:
            legal = state.legal_actions(seat)
            assert sorted(np.flatnonzero(masks[seat])) == sorted(
                encoder.index_of(state, seat, action) for action in legal
            )
            assert all(encoder.decode(state, seat, encoder.index_of(state, seat, a)) == a
                       for a in legal)  # fmt: skip
        if state.is_over:
            break
        seat = min(state.to_move)
        actions = state.legal_actions(seat)
        state.apply(seat, actions[rng.below(len(actions))])


def test_rollouts_are_reproducible_and_score_whole_games() -> None:
    first = rollout("koi-koi", 40, batch=16, seed=5, rounds=1)
    again = rollout("koi-koi", 40, batch=16, seed=5, rounds=1)
    other = rollout("koi-koi", 40, batch=16, seed=6, rounds=1)
    assert np.array_equal(first.scores, again.scores) and first.steps == again.steps
    assert not np.array_equal(first.scores, other.scores)
    assert first.scores.shape == (40, 2)
    # koi-koi is zero-sum by default: every game's stakes still add up to their start
    start = sum(cardtable.load("koi-koi", rounds=1).new_state(seed=0).scores())
    assert set(first.scores.sum(axis=1)) == {start}
    three = rollout("hana-awase-88", 12, random_policy(2), batch=5, seed=1, rounds=1)
    assert three.scores.shape == (12, 3)


def test_the_random_policy_draws_every_legal_number_alike_and_only_those() -> None:
    # rows with 1, 2, 3 and 5 legal numbers (one at each edge of the row), one with none
    masks = np.zeros((5, 9), dtype=np.int8)
    masks[0, 8] = 1
    masks[1, [0, 8]] = 1
    masks[2, [2, 4, 6]] = 1
    masks[3, [0, 1, 2, 7, 8]] = 1
    policy = random_policy(3)
    draws = 20_000
    counts = np.zeros((5, 9), dtype=np.int64)
    for _ in range(draws // 100):
        stacked = np.tile(masks, (100, 1))
        actions = policy(np.zeros((len(stacked), 1)), stacked, np.zeros(len(stacked)))
        np.add.at(counts, (np.tile(np.arange(5), 100), actions), 1)
    assert counts[4].tolist() == [draws] + [0] * 8  # nothing legal: 0, which is refused
    for row in range(4):
        legal = np.flatnonzero(masks[row])
        assert counts[row].sum() == draws and counts[row][masks[row] == 0].sum() == 0
        expected = draws / len(legal)
        # each share within 5 standard deviations of a uniform draw's
        spread = 5 * np.sqrt(expected * (1 - 1 / len(legal)))
        assert np.all(np.abs(counts[row][legal] - expected) <= spread), counts[row]
    assert policy(np.zeros((2, 1)), np.zeros((2, 9), dtype=np.int8), np.zeros(2)).tolist() == [0, 0]
    wide = masks.astype(np.int64)  # not bytes: read as they are
    assert (masks[np.arange(5), policy(None, wide, None)][:4] == 1).all()  # type: ignore[arg-type]


def test_a_vector_step_plays_the_seat_to_move_and_deals_again_when_a_game_ends() -> None:
    games = VectorGames("bakappana", 3, seed=2, players=2, rounds=1)
    before = [state.clone() for state in games.states]
    policy = random_policy(4)
    observations, masks, seats = games.observe()
    actions = policy(observations, masks, seats)
    games.step(actions)
    encoder = games.encoder
    for row, state in enumerate(before):
        seat = int(seats[row])
        state.apply(seat, encoder.decode(state, seat, int(actions[row])))
        assert state.view(None) == games.states[row].view(None)
    ended = 0
    assert games.moves == 3
    for _ in range(200):
        step = games.step(policy(*games.observe()))
        ended += len(step.ended)
        for row, state in step.ended:
            assert state.is_over and step.finished[row] and not games.states[row].is_over
    assert ended > 0 and games.moves == 3 + 200 * 3


def test_an_illegal_number_is_refused_and_a_race_is_sent_elsewhere() -> None:
    games = VectorGames("koi-koi", 1, seed=1, rounds=1)
    _, masks, _ = games.observe()
    illegal = int(np.flatnonzero(masks[0] == 0)[0])
    state = games.states[0].clone()
    with pytest.raises(IllegalAction):
        games.step([illegal])
    assert games.states[0].view(None) == state.view(None)
    with pytest.raises(IllegalAction):
        games.step([10_000])
    race = VectorGames("siedem-slow", 1, seed=1, players=2, deck="en")
    with pytest.raises(IllegalAction, match="AEC or parallel"):
        for _ in range(50):
            race.step(random_policy(1)(*race.observe()))


def test_the_gymnasium_vector_env_pays_the_learner_its_score() -> None:
    """Seat 0 learns against random opponents: over each finished game, its rewards add up
    to its score; finished games come back with their last observation and scores."""
    envs = CardtableVectorEnv("koi-koi", num_envs=6, rounds=1)
    start = cardtable.load("koi-koi", rounds=1).new_state(seed=0).scores()[0]
    observations, _ = envs.reset(seed=3)
    assert envs.observation_space.contains(observations)
    earned = np.zeros(6)
    finished = 0
    rng = np.random.default_rng(0)
    while finished < 30:
        masks = observations["action_mask"]
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        observations, rewards, terminated, truncated, infos = envs.step(actions)
        assert rewards.shape == (6,) and not truncated.any()
        earned += rewards
        for row in np.flatnonzero(terminated):
            assert infos["_final_obs"][row]
            score = infos["final_info"][row]["scores"][0]
            assert earned[row] == pytest.approx(score - start)
            earned[row] = 0.0
            finished += 1
    illegal = np.argmin(observations["action_mask"], axis=1)
    held = [state.view(None) for state in envs.games.states]
    _, rewards, *_ = envs.step(illegal)
    assert list(rewards) == [envs.illegal_penalty] * 6
    assert [state.view(None) for state in envs.games.states] == held


class GenericPlay(HanafudaEncoder):
    """The hanafuda encoder playing numbers the way every other game's does: one apply a
    row, and every row's rewards asked for."""

    def play_numbers(self, states: Sequence[State], numbers: Sequence[int]) -> list[int]:
        return BaseEncoder.play_numbers(self, states, numbers)


@pytest.mark.parametrize("rule_set", range(len(RULE_SETS)))
def test_the_engines_batch_play_rewards_as_the_generic_one(rule_set: int) -> None:
    """Games stepped by the engine's compiled batch (rewards asked for only where a round
    ended) and by the generic loop (asked for on every row) play the same moves and pay the
    same rewards, step for step, whatever the reward mode."""
    game_id, options = RULE_SETS[rule_set][0], dict(RULE_SETS[rule_set][1])
    for reward in ("score", "win-round"):
        fast, generic = (
            VectorGames(game_id, 6, seed=rule_set, reward=reward, **options) for _ in range(2)
        )
        generic.encoder = GenericPlay()
        policy = random_policy(rule_set)
        for _ in range(120):
            observations, masks, seats = fast.observe()
            actions = policy(observations, masks, seats)
            a, b = fast.step(actions), generic.step(actions)
            assert np.array_equal(a.rewards, b.rewards)
            assert np.array_equal(a.finished, b.finished)
            assert [state.log for _, state in a.ended] == [state.log for _, state in b.ended]
