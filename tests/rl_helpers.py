"""Helpers shared by the RL tests."""

from __future__ import annotations

from typing import Any

import numpy as np


def play_out(aec: Any, rng: np.random.Generator, seed: int | None = None) -> dict[str, float]:
    """Random legal moves (by the masks) to the end of the game: each agent's summed rewards
    (``seed``: reset first)."""
    if seed is not None:
        aec.reset(seed=seed)
    totals = dict.fromkeys(aec.possible_agents, 0.0)
    for agent in aec.agent_iter(20_000):
        observation, reward, terminated, truncated, _ = aec.last()
        totals[agent] += reward
        if terminated or truncated:
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return totals
