"""The RL environments: PettingZoo's API and seed tests, Gymnasium's checker, rewards that
add up to the game's scores, and observations that never depend on hidden cards."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from cardtable.core.rng import Rng
from cardtable.rl import SingleAgentEnv, env
from cardtable.rl.encoding import observe
from tests.rl_helpers import play_out

GAMES: list[tuple[str, dict[str, Any]]] = [
    ("bakappana", {"players": 3, "rounds": 1}),
    ("koi-koi", {"rounds": 1}),
    ("hana-awase", {"players": 2, "rounds": 1}),
    ("hana-awase-88", {"rounds": 1}),
    ("ohanami", {"players": 3}),
    ("siedem-slow", {"players": 3, "deck": "en", "rounds": 3}),
]
IDS = [game for game, _ in GAMES]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        # PettingZoo suggests Box observations; masked games use the Dict convention.
        warnings.filterwarnings("ignore", message=".*(NumPy array|probably should be).*")
        yield


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=IDS)
def test_pettingzoo_api_and_seed_tests_pass(game_id: str, options: dict[str, Any]) -> None:
    api_test(env(game_id, **options), num_cycles=300, verbose_progress=False)
    seed_test(lambda: env(game_id, **options), num_cycles=100)


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=IDS)
def test_gymnasium_wrapper_passes_the_env_checker(game_id: str, options: dict[str, Any]) -> None:
    check_env(SingleAgentEnv(game_id, opponents="random", **options), skip_render_check=True)


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=IDS)
def test_rewards_add_up_to_the_game_scores(game_id: str, options: dict[str, Any]) -> None:
    aec = env(game_id, **options)
    rng = np.random.default_rng(5)
    for seed in range(3):
        aec.reset(seed=seed)
        start = list(aec.state_.scores())
        totals = play_out(aec, rng)
        final = aec.state_.scores()
        assert aec.state_.is_over
        for seat, agent in enumerate(aec.possible_agents):
            assert totals[agent] == pytest.approx(final[seat] - start[seat])


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=IDS)
def test_observations_do_not_depend_on_hidden_cards(game_id: str, options: dict[str, Any]) -> None:
    aec = env(game_id, **options)
    rng = np.random.default_rng(1)
    differs = 0
    for seed in range(4):
        aec.reset(seed=seed)
        for step in range(30):
            state = aec.state_
            if state.is_over:
                break
            seat = aec.seat_of[aec.agent_selection]
            other = state.determinize(seat, Rng(seed * 100 + step))
            mine = observe(aec.encoder, state, seat)
            assert np.array_equal(mine, observe(aec.encoder, other, seat))
            assert np.array_equal(aec.encoder.mask(state, seat), aec.encoder.mask(other, seat))
            differs += any(
                not np.array_equal(observe(aec.encoder, state, s), observe(aec.encoder, other, s))
                for s in range(state.num_players)
                if s != seat
            )
            legal = np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])
            aec.step(int(rng.choice(legal)))
    if game_id != "siedem-slow":  # its hidden words are mostly none yet when a seat acts
        assert differs  # the determinizations really hid something from the others


def test_an_illegal_action_costs_the_penalty_and_changes_nothing() -> None:
    single = SingleAgentEnv("koi-koi", opponents="greedy", rounds=1, illegal_penalty=-2.0)
    observation, _ = single.reset(seed=4)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = single.state.view(0)
    again, reward, terminated, truncated, info = single.step(illegal)
    assert reward == -2.0 and not terminated and not truncated and "illegal" in info
    assert single.state.view(0) == before
    assert np.array_equal(again["action_mask"], observation["action_mask"])


def test_the_training_example_runs_and_writes_its_curve(tmp_path: Path) -> None:
    example = Path(__file__).resolve().parent.parent / "examples" / "train_bakappana.py"
    args = ["--episodes", "200", "--eval-every", "100", "--eval-rounds", "20"]
    args += ["--arena-deals", "3", "--out", str(tmp_path)]
    done = subprocess.run(
        [sys.executable, str(example), *args],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "arena vs random: 6 mirrored games" in done.stdout
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [episode for episode, _ in summary["curve"]] == [0, 100, 200]
    assert (tmp_path / "learning_curve.png").stat().st_size > 10_000
