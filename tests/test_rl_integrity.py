"""What a researcher must be able to trust before publishing numbers (issue 40): nothing the
learner is handed rebuilds hidden cards, every game is an episode of its own with the right
return, snapshots restore the bots too, and the standard API suites pass."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import parallel_api_test, parallel_seed_test

import cardtable
from cardtable.core.errors import IllegalAction
from cardtable.rl import SingleAgentEnv, env, parallel_env
from cardtable.rl.vector import CardtableVectorEnv
from tests.test_rl import GAMES, IDS  # every game in the setups the API suites use


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        # PettingZoo suggests Box observations; masked games use the Dict convention.
        warnings.filterwarnings("ignore", message=".*(NumPy array|probably should be).*")
        yield


def numbers_in(value: Any) -> Iterator[int]:
    """Every int anywhere inside ``value`` (dicts, lists, arrays): a candidate seed."""
    if isinstance(value, dict):
        for item in value.values():
            yield from numbers_in(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from numbers_in(item)
    elif isinstance(value, np.ndarray):
        yield from (int(v) for v in value.ravel() if float(v).is_integer())
    elif isinstance(value, int | np.integer) and not isinstance(value, bool):
        yield int(value)


# -- defect 1: the single-agent env must not hand the learner the deal ---------------------
@pytest.mark.parametrize("game_id", ["koi-koi", "bakappana", "ohanami"])
def test_nothing_a_reset_hands_the_learner_rebuilds_the_hidden_cards(game_id: str) -> None:
    options: dict[str, Any] = {} if game_id == "ohanami" else {"rounds": 1}
    single = SingleAgentEnv(game_id, opponents="greedy", render_mode="ansi", **options)
    infos = []
    for seed in range(12):
        _, info = single.reset(seed=seed)
        hidden = single.state.view(1).get("hand")  # the opponent's cards, unseen by seat 0
        for number in numbers_in(info):
            rebuilt = single.game.new_state(seed=number).view(1).get("hand")
            assert rebuilt != hidden, f"info rebuilds the deal from {number}"
        if not info.get("over"):
            infos.append(info)
    # the deals differ, so whatever the info says must not depend on them
    assert all(info == infos[0] for info in infos[1:]), infos


# -- defect 2: every game the learner sits in is an episode of its own ---------------------
@pytest.mark.parametrize("seat", [0, 1])
def test_every_game_of_the_batch_env_is_an_episode_whose_return_is_its_score_change(
    seat: int,
) -> None:
    """Random opponents in koi-koi now and then end a game (a yaku and shōbu) before the
    learner's first move; that game is still an episode, paid what it cost the learner."""
    envs = CardtableVectorEnv("koi-koi", num_envs=16, seat=seat, rounds=1)
    start = cardtable.load("koi-koi", rounds=1).new_state(seed=0).scores()[seat]
    observations, _ = envs.reset(seed=3)
    earned = np.zeros(16)
    rng = np.random.default_rng(0)
    episodes = over_before_moving = 0
    for _ in range(3000):
        masks = observations["action_mask"]
        assert masks.any(axis=1).all()  # a masked sampler always has something to pick
        over_before_moving += int(masks.all(axis=1).sum())  # a finished game: any action
        actions = np.argmax(masks * rng.random(masks.shape), axis=1)
        observations, rewards, terminated, _, infos = envs.step(actions)
        earned += rewards
        for row in np.flatnonzero(terminated):
            score = infos["final_info"][row]["scores"][seat]
            assert earned[row] == score - start, (row, episodes)
            earned[row] = 0.0
            episodes += 1
    assert over_before_moving  # the case was met, and paid as an episode of its own


# -- defect 3: a snapshot holds the bots' randomness and a race's choices --------------------
def learner_line(single: SingleAgentEnv, observation: dict[str, Any], moves: int) -> list[Any]:
    """The same learner moves (a seeded draw among the legal ones) for ``moves`` steps:
    what the learner sees and earns on the way."""
    rng = np.random.default_rng(5)
    seen: list[Any] = []
    for _ in range(moves):
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, terminated, truncated, _ = single.step(action)
        seen.append((observation["observation"].tobytes(), reward))
        if terminated or truncated:
            break
    return seen


@pytest.mark.parametrize(
    ("game_id", "bot"),
    [("bakappana", "random"), ("koi-koi", "greedy"), ("koi-koi", "strategist"),
     ("koi-koi", "easy"), ("ohanami", "greedy")],
)  # fmt: skip
def test_set_state_of_get_state_replays_the_same_bot_moves(game_id: str, bot: str) -> None:
    options: dict[str, Any] = {"players": 3} if game_id == "ohanami" else {"rounds": 1}
    single = SingleAgentEnv(game_id, opponents=bot, **options)
    for seed in range(8):
        observation, _ = single.reset(seed=seed)
        saved = single.get_state()
        first = learner_line(single, observation, 40)
        single.set_state(saved)
        assert learner_line(single, observation, 40) == first, seed


def test_an_aec_snapshot_mid_race_keeps_the_choices_already_made() -> None:
    aec = env("siedem-slow", players=3, deck="en", rounds=1)
    rng = np.random.default_rng(4)
    for seed in range(4):
        aec.reset(seed=seed)
        first = aec.agent_selection
        aec.step(int(rng.choice(np.flatnonzero(aec.observe(first)["action_mask"]))))
        saved = aec.get_state()
        asked = aec.agent_selection
        assert asked != first
        ends = []
        for _ in range(2):
            aec.set_state(saved)
            assert aec.agent_selection == asked  # the seat that already chose is not asked again
            assert not aec.observe(first)["action_mask"].any()
            choices = np.random.default_rng(seed)
            while aec.agent_selection != first and not aec.terminations[aec.agent_selection]:
                mask = aec.observe(aec.agent_selection)["action_mask"]
                aec.step(int(choices.choice(np.flatnonzero(mask))))
            ends.append(aec.get_state().state.view(None))
        assert ends[0] == ends[1]  # the race drawn the same way


# -- defect 4: PettingZoo classic's convention for illegal actions, as an option ----------


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=IDS)
def test_parallel_seed_test_passes_with_illegal_actions_ending_the_game(
    game_id: str, options: dict[str, Any]
) -> None:
    # the test samples actions without the mask: its first illegal one ends the game
    parallel_seed_test(lambda: parallel_env(game_id, illegal="terminate", **options), 100)
    with pytest.raises(IllegalAction):  # the default still refuses
        parallel_seed_test(lambda: parallel_env(game_id, **options), 50)


@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=IDS)
def test_parallel_api_test_and_check_env_with_rendering_pass_on_every_game(
    game_id: str, options: dict[str, Any]
) -> None:
    parallel_api_test(parallel_env(game_id, **options), num_cycles=300)
    made = gym.make(f"cardtable/{game_id}-v0", opponents="random", render_mode="ansi", **options)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no warning either (render modes on the class)
        check_env(made.unwrapped)


@pytest.mark.parametrize("kind", ["aec", "parallel"])
def test_an_illegal_action_ends_the_game_with_a_penalty_to_its_player_only(kind: str) -> None:
    made = (env if kind == "aec" else parallel_env)(
        "koi-koi", rounds=1, illegal="terminate", illegal_reward=-3.0
    )
    if kind == "aec":
        made.reset(seed=2)
        agent = made.agent_selection
        illegal = int(np.flatnonzero(made.observe(agent)["action_mask"] == 0)[0])
        made.step(illegal)
        rewards, terminations, infos = made.rewards, made.terminations, made.infos
    else:
        observations, _ = made.reset(seed=2)
        agent = next(a for a, o in observations.items() if o["action_mask"].any())
        illegal = int(np.flatnonzero(observations[agent]["action_mask"] == 0)[0])
        _, rewards, terminations, _, infos = made.step(dict.fromkeys(made.agents, illegal))
        assert made.agents == []
    assert rewards == {a: (-3.0 if a == agent else 0.0) for a in ("player_0", "player_1")}
    assert all(terminations.values()) and "illegal" in infos[agent]


# -- defect 5: the built-in bots as opponents of a batch ------------------------------------
def learner_ahead(opponents: Any, games: int, **kwargs: Any) -> tuple[float, list[Any]]:
    """A random learner in seat 0 of one-round koi-koi: the share of games it ended ahead,
    and every game's final scores in the order they ended."""
    envs = CardtableVectorEnv("koi-koi", num_envs=16, opponents=opponents, rounds=1, **kwargs)
    observations, _ = envs.reset(seed=9)
    rng = np.random.default_rng(1)
    finals: list[Any] = []
    while len(finals) < games:
        masks = observations["action_mask"]
        observations, _, terminated, _, infos = envs.step(
            np.argmax(masks * rng.random(masks.shape), axis=1)
        )
        finals += [infos["final_info"][row]["scores"] for row in np.flatnonzero(terminated)]
    envs.close()
    ahead = sum((a > b) + 0.5 * (a == b) for a, b in finals[:games]) / games
    return ahead, finals


def test_the_batch_env_plays_against_the_built_in_bots() -> None:
    against_random, _ = learner_ahead(None, 300)
    against_greedy, in_batch = learner_ahead("greedy", 300)
    # greedy is ahead of random in about 80 % of one-round games (docs/rl.md baselines)
    assert against_greedy < 0.3 < against_random, (against_greedy, against_random)
    _, on_workers = learner_ahead("greedy", 300, opponent_jobs=2)
    assert on_workers == in_batch  # the same moves, wherever they are chosen


# -- defect 6: render modes belong to the class ---------------------------------------------
def test_render_modes_are_declared_on_the_classes() -> None:
    for kind in (SingleAgentEnv, type(env("koi-koi")), type(parallel_env("koi-koi"))):
        assert "ansi" in kind.metadata["render_modes"], kind
