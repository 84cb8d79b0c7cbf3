"""Search on the environments (issue 49): save, play to the end, restore goes on in every
interface with the rewards that were waiting; a snapshot says where its engine state is;
illegal moves of several seats at once are all penalised; nothing public rebuilds a deal."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

import cardtable
from cardtable.agents import bot_levels, make_agent
from cardtable.agents.base import EXPERT_SECONDS, on_the_clock
from cardtable.rl import SingleAgentEnv, env, parallel_env
from cardtable.rl.encoding import observe
from tests.rl_helpers import play_out
from tests.test_rl import GAMES, IDS
from tests.test_rl_integrity import learner_line, numbers_in

#: turn games and a race, each small enough to play many times
ENDED = [
    ("koi-koi", {"rounds": 1}),
    ("bakappana", {"rounds": 1}),
    ("siedem-slow", {"players": 3, "deck": "en", "rounds": 1}),
]


@pytest.fixture(autouse=True)
def _quiet() -> Any:
    with warnings.catch_warnings():
        # PettingZoo suggests Box observations; masked games use the Dict convention.
        warnings.filterwarnings("ignore", message=".*(NumPy array|probably should be).*")
        yield


# -- defect 1: restoring after the end ------------------------------------------------------
@pytest.mark.parametrize(("game_id", "options"), ENDED, ids=[g for g, _ in ENDED])
def test_an_aec_env_played_to_the_end_goes_on_from_a_snapshot(
    game_id: str, options: dict[str, Any]
) -> None:
    aec = env(game_id, **options)
    for seed in range(3):
        aec.reset(seed=seed)
        saved = aec.get_state()
        first = play_out(aec, np.random.default_rng(seed))
        assert aec.agents == []  # every agent has taken its last (dead) step
        aec.set_state(saved)
        assert aec.agents == aec.possible_agents
        again = play_out(aec, np.random.default_rng(seed))
        assert again == first, seed
        # a snapshot taken after the last dead steps: restored, it has no agent left either
        ended = aec.get_state()
        aec.set_state(ended)
        assert len(list(aec.agent_iter(100))) == 0
        aec.reset(seed=seed)
        play_out(aec, np.random.default_rng(seed))
        aec.set_state(saved.state)  # a bare engine state: every agent live again
        assert list(aec.agent_iter(1)) == [aec.agent_selection]


def test_a_parallel_env_played_to_the_end_goes_on_from_a_snapshot() -> None:
    par = parallel_env("ohanami", players=3)
    observations, _ = par.reset(seed=1)
    saved = par.get_state()
    while par.agents:
        observations, *_ = par.step(
            {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
        )
    par.set_state(saved)
    assert par.agents == par.possible_agents


# -- defect 2: the reward waiting for an agent --------------------------------------------
@pytest.mark.parametrize(
    ("game_id", "options"),
    [("koi-koi", {"rounds": 3}), ("siedem-slow", {"players": 3, "deck": "en", "rounds": 2})],
)
def test_a_snapshot_keeps_the_rewards_waiting_for_the_agents(
    game_id: str, options: dict[str, Any]
) -> None:
    aec = env(game_id, **options)
    rng = np.random.default_rng(3)
    waiting = 0
    for seed in range(6):
        aec.reset(seed=seed)
        for agent in aec.agent_iter(5_000):
            observation, reward, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            if reward and not terminated:  # a reward waits for this agent: save here
                waiting += 1
                saved = aec.get_state()
                aec.set_state(saved)
                assert aec.agent_selection == agent
                assert aec.last()[1] == reward
                went_on = play_out(aec, np.random.default_rng(seed))
                aec.set_state(saved)
                assert play_out(aec, np.random.default_rng(seed)) == went_on, seed
                break
            aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert waiting


# -- defect 3: a snapshot says where its engine state is ---------------------------------
@pytest.mark.parametrize(
    ("game_id", "options"),
    [("koi-koi", {"rounds": 1}), ("ohanami", {"players": 3}), ENDED[2]],
    ids=["koi-koi", "ohanami", "siedem-slow"],
)
def test_a_snapshot_hands_out_an_engine_state_every_part_of_the_api_reads(
    game_id: str, options: dict[str, Any]
) -> None:
    aec = env(game_id, **options)
    aec.reset(seed=5)
    seat = aec.seat_of[aec.agent_selection]
    saved = aec.get_state()
    state = saved.state
    assert np.array_equal(
        aec.encoder.mask(state, seat), aec.observe(aec.agent_selection)["action_mask"]
    )
    assert np.array_equal(
        observe(aec.encoder, state, seat), aec.observe(aec.agent_selection)["observation"]
    )
    greedy = make_agent("greedy", game_id, seed=1)
    assert state.illegal_reason(seat, greedy.choose(state, seat)) is None
    # the snapshot itself is no state: asked for one's attribute, it says where the state is
    with pytest.raises(AttributeError, match=r"snapshot\.state"):
        saved.legal_actions(seat)


# -- defect 4: every search level replays: no clock but at a live table ------------------
@pytest.mark.parametrize("game_id", ["koi-koi", "hana-awase-88", "ohanami"])
def test_every_search_level_runs_no_clock_until_a_live_table_puts_it_on(game_id: str) -> None:
    made = {level: make_agent(level, game_id, seed=1) for level in ("ismcts", *bot_levels(game_id))}
    searching: dict[str, Any] = {n: bot for n, bot in made.items() if hasattr(bot, "seconds")}
    assert {"ismcts", "hard", "expert"} <= searching.keys()
    # the iteration budget alone decides, so a seed replays the same moves
    assert {n: bot.seconds for n, bot in searching.items()} == dict.fromkeys(searching)
    for bot in searching.values():  # a live table's clock: the level's, within the time left
        live = getattr(bot, "live_seconds", None)
        assert on_the_clock(bot, 3.0).seconds == (3.0 if live is None else min(live, 3.0))
    assert make_agent("expert", game_id, seed=1).live_seconds == EXPERT_SECONDS  # type: ignore[attr-defined]


def test_expert_opponents_replay_the_same_moves_after_set_state() -> None:
    """Hana-awase 88's expert is the slowest hanafuda search: on its old clock a loaded
    machine cut it short at another iteration each time (13 of 38 games diverged)."""
    single = SingleAgentEnv("hana-awase-88", opponents="expert")
    observation, _ = single.reset(seed=2)
    saved = single.get_state()
    lines = []
    for _ in range(2):
        single.set_state(saved)
        lines.append(learner_line(single, observation, 3))
    assert lines[0] == lines[1]


# -- defect 5: several offenders in one simultaneous step -------------------------------
@pytest.mark.parametrize(
    ("game_id", "options"),
    [("ohanami", {"players": 3}), ("siedem-slow", {"players": 3, "deck": "en"})],
)
def test_every_offender_of_a_simultaneous_step_is_penalised(
    game_id: str, options: dict[str, Any]
) -> None:
    par = parallel_env(game_id, illegal="terminate", illegal_reward=-2.0, **options)
    observations, _ = par.reset(seed=4)
    assert all(o["action_mask"].any() for o in observations.values())  # all choose at once
    legal = {a: int(np.flatnonzero(o["action_mask"])[0]) for a, o in observations.items()}
    illegal = {a: int(np.flatnonzero(o["action_mask"] == 0)[0]) for a, o in observations.items()}
    actions = {**legal, "player_1": illegal["player_1"], "player_2": illegal["player_2"]}
    _, rewards, terminations, _, infos = par.step(actions)
    assert rewards == {"player_0": 0.0, "player_1": -2.0, "player_2": -2.0}
    assert all(terminations.values())
    assert [a for a in sorted(infos) if "illegal" in infos[a]] == ["player_1", "player_2"]


# -- defect 6: nothing public rebuilds the deal --------------------------------------------
def public_numbers(made: Any) -> list[int]:
    """Every number an environment shows in its public attributes, and the seed of its race
    generator (anyone may read it: ``rng.bit_generator.seed_seq``)."""
    public = {name: value for name, value in vars(made).items() if not name.startswith("_")}
    entropy = made.race_rng.bit_generator.seed_seq.entropy
    return [*numbers_in(public), *numbers_in(entropy if isinstance(entropy, list) else [entropy])]


@pytest.mark.parametrize("kind", ["aec", "single"])
def test_no_public_number_of_an_env_rebuilds_the_hidden_hands(kind: str) -> None:
    for seed in range(10_007, 10_019):  # not a small number a step may show (a seat, a reward)
        if kind == "aec":
            made: Any = env("koi-koi", rounds=1)
            made.reset(seed=seed)
            state = made.state_
        else:
            made = SingleAgentEnv("koi-koi", opponents="greedy", rounds=1)
            made.reset(seed=seed)
            state = made.state
        hidden = state.view(0).get("hand")  # seat 0's hand
        for number in public_numbers(made):
            if 0 <= number < 2**63:
                rebuilt = made.game.new_state(seed=number).view(0).get("hand")
                assert rebuilt != hidden, f"{kind}: {number} rebuilds the deal of seed {seed}"


# -- defect 7: the guide says what the code does ---------------------------------------
def test_the_rl_guide_says_what_the_vector_envs_do_and_what_a_pool_needs() -> None:
    guide = (Path(cardtable.__file__).parent / "docs" / "rl.md").read_text(encoding="utf-8")
    assert "skipped by the envs" not in guide  # games over as dealt are handed out
    assert "handed out as the single-agent env does" in guide
    # where the worker pool is introduced, the spawn start method's need is said
    pool = guide.index("opponent_jobs=2")
    assert 'if __name__ == "__main__":' in guide[pool : pool + 600]


def test_every_run_the_rl_guide_cites_ships_its_weights_and_figures() -> None:
    """Each policy the guide's tables cite (``--evaluate …/ppo.pt``, a curve's picture, an
    imitation file) is in the repository, its summary with the figure the table gives."""
    root = Path(cardtable.__file__).resolve().parents[2]
    guide = (Path(cardtable.__file__).parent / "docs" / "rl.md").read_text(encoding="utf-8")
    cited = set(re.findall(r"benchmarks/reference/rl/[\w./-]+\.(?:pt|png|npz)", guide))
    assert len(cited) >= 10, cited
    for path in cited:
        assert (root / path).is_file(), path
    for weights in (p for p in cited if p.endswith("ppo.pt")):
        summary = json.loads((root / weights).with_name("summary.json").read_text())
        if summary["final"] is not None:
            share = f"{100 * summary['final']['share']:.1f} %"
            assert share in guide, (weights, share)


# -- what it must show: the API suites with both conventions for illegal actions ----------
@pytest.mark.parametrize(("game_id", "options"), GAMES, ids=IDS)
def test_the_api_suites_pass_when_illegal_actions_end_the_game(
    game_id: str, options: dict[str, Any]
) -> None:
    """The default (raise) runs in tests/test_rl.py and tests/test_rl_integrity.py."""
    api_test(env(game_id, illegal="terminate", **options), num_cycles=300, verbose_progress=False)
    seed_test(lambda: env(game_id, illegal="terminate", **options), num_cycles=100)
    parallel_api_test(parallel_env(game_id, illegal="terminate", **options), num_cycles=300)
