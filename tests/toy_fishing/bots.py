"""The toy game's own bot: play the card that captures the most."""

from __future__ import annotations

from cardtable.agents.base import BotSpec, actions_for
from cardtable.core.actions import Action
from cardtable.core.state import State
from tests.toy_fishing.game import Play, ToyState, month, value


class Greedy:
    name = "greedy"

    def choose(self, state: State, seat: int) -> Action:
        assert isinstance(state, ToyState)

        def gain(action: Action) -> int:
            assert isinstance(action, Play)
            match = [value(c) for c in state.table if month(c) == month(action.card)]
            return value(action.card) + max(match) if match else -value(action.card)

        return max(actions_for(state, seat), key=gain)


BOTS = {"greedy": BotSpec("captures the most it can", lambda game_id, seed: Greedy())}
