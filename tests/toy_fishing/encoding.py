"""The toy game's RL encoding: 12 actions (play a card), its hand, the table and piles."""

from __future__ import annotations

import numpy as np

from cardtable.core.actions import Action
from cardtable.core.encoding import JSON, BaseEncoder, Vector
from cardtable.core.state import State
from tests.toy_fishing.game import CARDS, Play


class ToyEncoder(BaseEncoder):
    action_size = len(CARDS)
    observation_size = 4 * len(CARDS)
    score_scale = 20.0

    def index_of(self, state: State, seat: int, action: Action) -> int:
        assert isinstance(action, Play)
        return CARDS.index(action.card)

    def observe(self, view: JSON) -> Vector:
        out = np.zeros(self.observation_size, dtype=np.float32)
        seat = int(view["seat"])
        groups = [view["hand"], view["table"], view["piles"][seat], view["piles"][1 - seat]]
        for group, cards in enumerate(groups):
            for card in cards:
                out[group * len(CARDS) + CARDS.index(card)] = 1.0
        return out
