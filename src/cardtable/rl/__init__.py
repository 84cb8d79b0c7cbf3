"""Reinforcement-learning environments for every game: PettingZoo AEC and Parallel, a
Gymnasium single-agent wrapper registered with ``gym.make`` (``cardtable/koi-koi-v0``...),
and an OpenSpiel-style game (:mod:`cardtable.rl.openspiel`). Needs the ``rl`` extra:
``pip install cardtable[rl]``; docs/rl.md is the guide.

>>> from cardtable import rl
>>> env = rl.env("koi-koi", rounds=1)
>>> env.reset(seed=3)
>>> observation, reward, terminated, truncated, info = env.last()
>>> space = env.observation_space(env.agent_selection)
>>> space["observation"].contains(observation["observation"])
True
>>> import gymnasium as gym
>>> single = gym.make("cardtable/koi-koi-v0", opponents="greedy", rounds=1)
>>> observation, info = single.reset(seed=1)
"""

try:
    import gymnasium as gym
    import pettingzoo  # noqa: F401 - the environments below are built on it
except ModuleNotFoundError as missing:  # a plain `pip install cardtable` plays, without these
    raise ModuleNotFoundError(
        f"cardtable.rl needs the rl extra (pip install 'cardtable[rl]'): {missing}",
        name=missing.name,
    ) from missing

import cardtable
from cardtable.core.game import Capability
from cardtable.rl.aec import CardtableEnv, env
from cardtable.rl.encoding import encoder_for, layout_table
from cardtable.rl.parallel import CardtableParallelEnv, parallel_env
from cardtable.rl.rewards import REWARD_MODES
from cardtable.rl.single import SingleAgentEnv

__all__ = [
    "REWARD_MODES",
    "CardtableEnv",
    "CardtableParallelEnv",
    "SingleAgentEnv",
    "encoder_for",
    "env",
    "gym_ids",
    "layout_table",
    "parallel_env",
]


def gym_ids() -> list[str]:
    """The ``gym.make`` ids, one per game with an RL encoding (registered on import)."""
    return [f"cardtable/{game_id}-v0" for game_id in _encoded_games()]


def _encoded_games() -> list[str]:
    return [
        game_id
        for game_id in cardtable.game_ids()
        if cardtable.load(game_id).spec.optional(Capability.ENCODER) is not None
    ]


for _game_id in _encoded_games():
    _id = f"cardtable/{_game_id}-v0"
    if _id not in gym.registry:
        gym.register(
            id=_id, entry_point="cardtable.rl.single:SingleAgentEnv", kwargs={"game_id": _game_id}
        )
