"""What a researcher meets in the first hour (issue 24): a reset that returns a finished
round, the observation layout and its ranges, reward modes, the ParallelEnv, the 7 słów
race, seeding of unseeded resets, rendering, gym ids, policy opponents, state access."""

from __future__ import annotations

import itertools
import warnings
from collections import Counter
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_api_test

import cardtable
from cardtable.core.rng import Rng
from cardtable.rl import SingleAgentEnv, env, gym_ids, layout_table, parallel_env
from cardtable.rl.encoding import encoder_for
from tests.rl_helpers import play_out

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rl.md"


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*(NumPy array|probably should be).*")
        yield


# -- 1. a reset never hands over a finished round ------------------------------------------
def test_a_match_over_before_the_learners_first_move_pays_its_reward_on_the_next_step() -> None:
    # seat 1, seed 1175: the round is scored before seat 1 ever moves (-5 for the learner)
    single = SingleAgentEnv("koi-koi", opponents="greedy", seat=1, rounds=1)
    observation, info = single.reset(seed=1175)
    assert single.state.is_over and info["over"]
    assert observation["action_mask"].any()  # a masked sampler still has something to pick
    _, reward, terminated, truncated, _ = single.step(int(observation["action_mask"].argmax()))
    assert (reward, terminated, truncated) == (-5.0, True, False)


@pytest.mark.parametrize("rounds", [1, 3])
def test_the_learners_rewards_add_up_to_its_score_whoever_moves_first(rounds: int) -> None:
    single = SingleAgentEnv("koi-koi", opponents="greedy", seat=1, rounds=rounds)
    rng = np.random.default_rng(0)
    for seed in [1175, *range(30)]:
        observation, _ = single.reset(seed=seed)
        start = single.state.game.new_state(seed=single.state.seed).scores()[1]
        total, done, steps = 0.0, False, 0
        while not done:
            assert observation["action_mask"].any()
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, reward, terminated, truncated, info = single.step(action)
            assert "illegal" not in info
            total, done, steps = total + reward, terminated or truncated, steps + 1
        assert total == single.state.scores()[1] - start


# -- 2. the observation layout -------------------------------------------------------------
CASES: list[tuple[str, dict[str, Any]]] = [
    ("bakappana", {"players": 3, "rounds": 1}),
    ("koi-koi", {"rounds": 12}),
    ("hana-awase", {"players": 3, "rounds": 12}),
    ("hana-awase-88", {"rounds": 1}),
    ("ohanami", {"players": 4}),
    ("siedem-slow", {"players": 3, "deck": "en", "rounds": 2}),
]


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=[g for g, _ in CASES])
def test_the_layout_names_every_value_and_observations_keep_to_its_ranges(
    game_id: str, options: dict[str, Any]
) -> None:
    aec = env(game_id, **options)
    features = list(aec.encoder.features().values())
    assert features[0].slice.start == 0
    for before, after in itertools.pairwise(features):
        assert before.slice.stop == after.slice.start and before.doc
    assert features[-1].slice.stop == aec.encoder.observation_size
    space = aec.observation_space(aec.possible_agents[0])["observation"]
    low, high = aec.encoder.bounds()
    assert np.array_equal(space.low, low) and np.array_equal(space.high, high)
    rng = np.random.default_rng(2)
    aec.reset(seed=4)
    clipped = 0
    for agent in aec.agent_iter(3_000):
        observation, _, terminated, truncated, _ = aec.last()
        assert space.contains(observation["observation"]), agent
        seat = aec.seat_of[agent]
        raw = aec.encoder.observe(aec.encoder.view_of(aec.state_, seat))
        clipped += int(np.sum((raw < low) | (raw > high)))
        if terminated or truncated:
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert clipped == 0  # the declared ranges hold without clipping in these plays


def test_docs_hold_the_layout_table_of_every_family() -> None:
    text = DOCS.read_text()
    for game_id in ("koi-koi", "ohanami", "siedem-slow"):
        assert layout_table(encoder_for(cardtable.load(game_id))) in text, game_id


# -- 3. reward modes -----------------------------------------------------------------------
@pytest.mark.parametrize("game_id", ["hana-awase", "ohanami", "bakappana"])
def test_margin_and_win_rewards_are_zero_sum_and_win_pays_by_rank(game_id: str) -> None:
    options: dict[str, Any] = {"players": 3}
    if game_id != "ohanami":
        options["rounds"] = 3
    for mode in ("margin", "win-round", "win-match"):
        totals = play_out(env(game_id, reward=mode, **options), np.random.default_rng(1), 0)
        assert sum(totals.values()) == pytest.approx(0.0), mode
    aec = env(game_id, reward="win-match", **options)
    aec.reset(seed=0)
    totals = play_out(aec, np.random.default_rng(1))
    final = aec.state_.scores()
    best = max(range(3), key=lambda s: final[s])
    if sorted(final)[-1] > sorted(final)[-2]:
        assert totals[f"player_{best}"] == 1.0


def test_win_round_pays_once_per_round() -> None:
    aec = env("koi-koi", rounds=3, reward="win-round")
    aec.reset(seed=3)
    totals = play_out(aec, np.random.default_rng(3))
    expected = [0.0, 0.0]
    for index in range(aec.state_.rounds_finished):
        a, b = aec.state_.round_scores(index)
        expected[0] += (a > b) - (a < b)
        expected[1] += (b > a) - (b < a)
    assert list(totals.values()) == expected and aec.state_.rounds_finished == 3


# -- 4. multi-agent ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("game_id", "options"),
    [
        ("ohanami", {"players": 3}),
        ("siedem-slow", {"players": 3, "deck": "en", "rounds": 2}),
        ("koi-koi", {"rounds": 1}),
    ],
)
def test_the_parallel_env_passes_pettingzoos_parallel_api_test(
    game_id: str, options: dict[str, Any]
) -> None:
    parallel_api_test(parallel_env(game_id, **options), num_cycles=200)


def test_ohanami_parallel_steps_take_every_seats_pick_at_once() -> None:
    par = parallel_env("ohanami", players=3)
    observations, _ = par.reset(seed=5)
    movers = [a for a, o in observations.items() if o["action_mask"].any()]
    assert len(movers) == 3
    rng = np.random.default_rng(0)
    actions = {
        a: int(rng.choice(np.flatnonzero(o["action_mask"]))) for a, o in observations.items()
    }
    observations, *_ = par.step(actions)
    assert all(o["action_mask"].any() for o in observations.values())  # all place next


def fastest_counts(rounds: int) -> Counter[int]:
    aec = env("siedem-slow", players=3, deck="en", rounds=7)
    rng = np.random.default_rng(11)
    fastest: Counter[int] = Counter()
    games = 0
    while sum(fastest.values()) < rounds:
        aec.reset(seed=games)
        games += 1
        seen = -1
        for _agent in aec.agent_iter(20_000):
            observation, _, terminated, truncated, _ = aec.last()
            state: Any = aec.state_
            if state.fastest is not None and state.round != seen:
                fastest[state.fastest] += 1
                seen = state.round
            if terminated or truncated:
                aec.step(None)
                continue
            aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return fastest


@pytest.mark.slow
def test_the_7_slow_race_has_no_seat_bias_over_210_rounds() -> None:
    counts = fastest_counts(210)
    # the same random policy in every seat: each is fastest about a third of the rounds
    assert min(counts[s] for s in range(3)) >= 45, counts
    assert max(counts.values()) <= 95, counts


def test_the_7_slow_fastest_is_whoever_chose_to_hurry() -> None:
    aec = env("siedem-slow", players=3, deck="en", rounds=1)
    encoder: Any = aec.encoder
    for seed in range(6):
        aec.reset(seed=seed)
        for agent in ["player_0", "player_1", "player_2"]:
            assert aec.agent_selection == agent
            mask = aec.observe(agent)["action_mask"]
            hurry = agent == "player_2"
            aec.step(0 if hurry else encoder.SLOW if mask[encoder.SLOW] else encoder.LOCK)
        state: Any = aec.state_
        if state.may_flip(2) or state.fastest is not None:
            assert state.fastest == 2


def test_unseeded_resets_repeat_after_a_seeded_one() -> None:
    def deals(make: Any) -> list[Any]:
        runs = []
        for _ in range(2):
            e = make()
            e.reset(seed=42)
            seeds = []
            for _ in range(3):
                e.reset()
                state = e.state_ if hasattr(e, "state_") else e.aec.state_
                seeds.append(state.view(None))
            runs.append(seeds)
        return runs

    aec_runs = deals(lambda: env("koi-koi", rounds=1))
    assert aec_runs[0] == aec_runs[1]
    assert aec_runs[0][0] != aec_runs[0][1]  # each reset deals anew
    par_runs = deals(lambda: parallel_env("ohanami", players=3))
    assert par_runs[0] == par_runs[1]


@pytest.mark.parametrize("game_id", ["koi-koi", "ohanami"])
def test_ansi_render_shows_the_acting_seats_view_and_no_other_hand(game_id: str) -> None:
    options = {"players": 3} if game_id == "ohanami" else {"rounds": 1}
    aec = env(game_id, render_mode="ansi", **options)
    aec.reset(seed=7)
    seat = aec.seat_of[aec.agent_selection]
    text = aec.render()
    assert text is not None and "hand" in text
    state = aec.state_
    for k in range(5):  # other hands resampled: the text must not change
        aec.state_ = state.determinize(seat, Rng(k))
        assert aec.render() == text
    aec.state_ = state


def test_gym_make_ids_exist_for_every_game_and_pass_the_checker() -> None:
    assert "cardtable/koi-koi-v0" in gym_ids() and len(gym_ids()) >= 6
    for game_id in gym_ids():
        options = {"rounds": 1} if "siedem" not in game_id and "ohanami" not in game_id else {}
        made = gym.make(game_id, opponents="random", **options)
        check_env(made.unwrapped, skip_render_check=True)


def test_opponents_may_be_policies_and_change_between_episodes() -> None:
    calls: list[int] = []

    def first_legal(observation: dict[str, Any]) -> int:
        calls.append(1)
        return int(np.flatnonzero(observation["action_mask"])[0])

    single = SingleAgentEnv("koi-koi", opponents=first_legal, rounds=1)
    observation, _ = single.reset(seed=3)
    done = False
    while not done:
        observation, _, terminated, truncated, _ = single.step(
            int(np.flatnonzero(observation["action_mask"])[-1])
        )
        done = terminated or truncated
    assert calls
    single.set_opponents("greedy")
    single.reset(seed=3)
    assert type(single.bots[1]).__name__ != "function"


def test_get_state_and_set_state_rewind_the_environment() -> None:
    aec = env("koi-koi", rounds=1)
    aec.reset(seed=8)
    saved = aec.get_state()
    before = aec.observe(aec.agent_selection)["observation"]
    rng = np.random.default_rng(0)
    for _ in range(6):
        observation = aec.observe(aec.agent_selection)
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    aec.set_state(saved)
    assert np.array_equal(aec.observe(aec.agent_selection)["observation"], before)
    assert saved.state.log == aec.get_state().state.log


def test_a_learner_against_bots_is_fastest_only_when_it_hurries() -> None:
    # the bots write and flip as fast as they can: a slow learner is never the fastest,
    # a hurrying one shares the race with them (not first by seat)
    counts = {"slow": 0, "hurry": 0}
    for style in counts:
        single = SingleAgentEnv("siedem-slow", opponents="greedy", seat=0, players=3, deck="en")
        encoder: Any = single.encoder
        for seed in range(12):
            observation, _ = single.reset(seed=seed)
            mask = observation["action_mask"]
            if not mask[0] or not mask[encoder.SLOW]:
                continue
            single.step(encoder.SLOW if style == "slow" else 0)
            state: Any = single.state
            assert state.results  # the round is scored (the review needed nobody)
            first = state.results[0]  # its "dealer" is the lead: the fastest seat
            counts[style] += first.outcome == "played" and first.dealer == 0
    assert counts["slow"] == 0 and 0 < counts["hurry"] < 12, counts


def test_parallel_7_slow_plays_whole_matches_when_several_seats_challenge_at_once() -> None:
    # in the review every seat may challenge in the same step: a choice an earlier one made
    # illegal ("one challenge at a time") is dropped and that seat chooses again
    par = parallel_env("siedem-slow", players=3, deck="en")
    rng = np.random.default_rng(1)
    for seed in range(6):
        observations, _ = par.reset(seed=seed)
        steps = 0
        while par.agents and steps < 500:
            actions = {}
            for agent, observation in observations.items():
                legal = np.flatnonzero(observation["action_mask"])
                actions[agent] = int(rng.choice(legal)) if len(legal) else 0
            observations, *_ = par.step(actions)
            steps += 1
        assert par.aec.state_.is_over


def test_the_single_agent_margin_reward_adds_up_to_the_final_margin() -> None:
    single = SingleAgentEnv("koi-koi", opponents="greedy", seat=1, rounds=3, reward="margin")
    rng = np.random.default_rng(2)
    for seed in (1175, 3, 4):
        observation, _ = single.reset(seed=seed)
        start = single.state.game.new_state(seed=single.state.seed).scores()
        total, done = 0.0, False
        while not done:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, reward, terminated, truncated, _ = single.step(action)
            total, done = total + reward, terminated or truncated
        final = single.state.scores()
        assert total == (final[1] - start[1]) - (final[0] - start[0])
