"""RL environment speed against the raw engine: steps per second for every game.

    make bench            # or: .venv/bin/python benchmarks/bench_rl.py --seconds 3

"Raw" plays random legal actions through the State API (legal_actions + apply; for 7
słów the word bot's solver word, as listed actions there are only "lock"). "AEC"
plays random masked actions through the PettingZoo environment, which also builds the
observation and the action mask for every step (env.last()); for the games whose seats
act at once, "parallel" does the same through the ParallelEnv. All count engine actions;
the ratio is what a learner pays for the tensors. For the turn-based games "vector" steps
64 games at once through cardtable.rl.vector.VectorGames (batched observations, masks and
a batched random policy): the per-step cost a learner stepping many games pays;
"gym-vector" does the same through the Gymnasium CardtableVectorEnv, where seat 0 learns
and random opponents move in smaller batches until it is to move again. Figures
go to the terminal and to benchmarks/results/rl.json; compare the ratios of one run (the
machine is noisy).
"""

from __future__ import annotations

import argparse
import time
import warnings
from typing import Any

import numpy as np

import cardtable
from cardtable.agents import make_agent
from cardtable.core.rng import Rng
from cardtable.rl import env, parallel_env
from cardtable.rl.vector import CardtableVectorEnv, VectorGames, random_policy
from common import save_figures

CASES: list[tuple[str, dict[str, Any]]] = [
    ("bakappana", {"players": 2, "rounds": 1}),
    ("koi-koi", {"rounds": 1}),
    ("hana-awase", {"players": 3, "rounds": 1}),
    ("hana-awase-88", {"rounds": 1}),
    ("ohanami", {"players": 3}),
    ("siedem-slow", {"players": 3, "deck": "en"}),
    ("siedem-slow", {"players": 3, "deck": "pl"}),
]


def raw_steps(game_id: str, options: dict[str, Any], seconds: float) -> float:
    """Random legal actions; for 7 słów, whose listed actions are only "lock", the word
    bot's solver choice (a word is what a step there is about)."""
    game = cardtable.load(game_id, **options)
    rng = Rng(1)
    bot = make_agent("hard", game_id, seed=1) if game_id == "siedem-slow" else None
    steps, seed, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_state(seed=seed)
        seed += 1
        while not state.is_over:
            seat = min(state.to_move)
            if bot is not None:
                state.apply(seat, bot.choose(state, seat))
            else:
                actions = state.legal_actions(seat)
                state.apply(seat, actions[rng.below(len(actions))])
            steps += 1
    return steps / (time.process_time() - start)


def env_steps(game_id: str, options: dict[str, Any], seconds: float) -> float:
    aec = env(game_id, **options)
    rng = np.random.default_rng(1)
    steps, seed, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        aec.reset(seed=seed)
        seed += 1
        for _agent in aec.agent_iter():
            observation, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            aec.step(int(legal[rng.integers(len(legal))]))
            steps += 1
    return steps / (time.process_time() - start)


def parallel_steps(game_id: str, options: dict[str, Any], seconds: float) -> float:
    """Random masked actions through the ParallelEnv (every waiting seat acts in a step;
    each seat's action counts as one step)."""
    par = parallel_env(game_id, **options)
    rng = np.random.default_rng(1)
    steps, seed, start = 0, 0, time.process_time()
    while time.process_time() - start < seconds:
        observations, _ = par.reset(seed=seed)
        seed += 1
        while par.agents:
            actions = {}
            for agent, observation in observations.items():
                legal = np.flatnonzero(observation["action_mask"])
                actions[agent] = int(legal[rng.integers(len(legal))]) if len(legal) else 0
                steps += bool(len(legal))
            observations, *_ = par.step(actions)
    return steps / (time.process_time() - start)


def vector_steps(game_id: str, options: dict[str, Any], seconds: float, size: int = 64) -> float:
    """Random legal actions through VectorGames: ``size`` games a step, observations and
    masks as arrays (every game's action counts as one step)."""
    games = VectorGames(game_id, size, seed=1, **options)
    policy = random_policy(1)
    steps, start = 0, time.process_time()
    while time.process_time() - start < seconds:
        games.step(policy(*games.observe()))
        steps += size
    return steps / (time.process_time() - start)


def gym_vector_steps(
    game_id: str, options: dict[str, Any], seconds: float, size: int = 64
) -> float:
    """Random legal actions through the Gymnasium CardtableVectorEnv: ``size`` games,
    seat 0 learns and random opponents play the other seats until it is to move again
    (every engine action counts as one step, the opponents' too)."""
    envs = CardtableVectorEnv(game_id, num_envs=size, **options)
    observations, _ = envs.reset(seed=1)
    learner = random_policy(2)
    start = time.process_time()
    while time.process_time() - start < seconds:
        moves = learner(observations["observation"], observations["action_mask"], None)
        observations, *_ = envs.step(moves)
    return envs.games.moves / (time.process_time() - start)


#: games whose seats act at once: the ParallelEnv is measured too
SIMULTANEOUS = ("ohanami", "siedem-slow")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    warnings.filterwarnings("ignore")
    report = {}
    for game_id, options in CASES:
        if args.game and game_id not in args.game:
            continue
        detail = [str(options["deck"])] if "deck" in options else []
        if options.get("players", 2) != 2:
            detail.append(f"{options['players']}p")
        label = f"{game_id} ({', '.join(detail)})" if detail else game_id
        raw = raw_steps(game_id, options, args.seconds)
        wrapped = env_steps(game_id, options, args.seconds)
        report[label] = {"raw_steps_per_s": raw, "env_steps_per_s": wrapped, "ratio": raw / wrapped}
        line = f"{label:<24} raw {raw:>9,.0f}/s   env {wrapped:>8,.0f}/s   "
        line += f"raw/env {raw / wrapped:4.1f}x"
        if game_id != "siedem-slow":  # races need every seat's choice: no vector of them
            vector = vector_steps(game_id, options, args.seconds)
            report[label] |= {"vector_steps_per_s": vector, "vector_ratio": raw / vector}
            line += f"   vector {vector:>8,.0f}/s   raw/vector {raw / vector:4.1f}x"
            gym = gym_vector_steps(game_id, options, args.seconds)
            report[label] |= {"gym_vector_steps_per_s": gym, "gym_vector_ratio": raw / gym}
            line += f"   gym-vector {gym:>8,.0f}/s   raw/gym-vector {raw / gym:4.1f}x"
        if game_id in SIMULTANEOUS:
            par = parallel_steps(game_id, options, args.seconds)
            report[label] |= {"parallel_steps_per_s": par, "parallel_ratio": raw / par}
            line += f"   parallel {par:>8,.0f}/s   raw/parallel {raw / par:4.1f}x"
        print(line)
    save_figures("rl", report)


if __name__ == "__main__":
    main()
