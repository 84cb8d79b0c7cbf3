"""The random bot: a uniformly random legal action. The baseline every bot must beat."""

from __future__ import annotations

from cardtable.agents.base import actions_for, register_agent
from cardtable.core.actions import Action
from cardtable.core.rng import Rng
from cardtable.core.state import State


class RandomAgent:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(0 if seed is None else seed)

    def choose(self, state: State, seat: int) -> Action:
        actions = actions_for(state, seat)
        return actions[self.rng.below(len(actions))]


register_agent("random", "plays a uniformly random legal move", lambda g, seed: RandomAgent(seed))
