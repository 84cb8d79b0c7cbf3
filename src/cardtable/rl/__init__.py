"""Reinforcement-learning environments for every game: PettingZoo AEC and a Gymnasium
single-agent wrapper (needs the ``rl`` extra: ``pip install cardtable[rl]``).

>>> from cardtable import rl
>>> env = rl.env("koi-koi", rounds=1)
>>> env.reset(seed=3)
>>> observation, reward, terminated, truncated, info = env.last()
>>> space = env.observation_space(env.agent_selection)
>>> space["observation"].contains(observation["observation"])
True
"""

from cardtable.rl.aec import CardtableEnv, env
from cardtable.rl.encoding import encoder_for
from cardtable.rl.single import SingleAgentEnv

__all__ = ["CardtableEnv", "SingleAgentEnv", "encoder_for", "env"]
