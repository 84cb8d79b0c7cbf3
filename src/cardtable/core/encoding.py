"""What a reinforcement-learning environment needs of a game: fixed-size observations
from a seat's view and a numbered action space with a legal-action mask. Each game's
encoder lives in its package (the ``ENCODER`` capability of its spec) and builds on
:class:`BaseEncoder`; ``cardtable.rl`` is the machinery around it.

An observation is built from the seat's view and nothing else, so it cannot leak a card
the seat may not see (a test compares observations across determinizations). Actions are
numbered once per game; ``decode`` turns a number back into the engine's action.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.core.actions import Action
from cardtable.core.errors import IllegalAction
from cardtable.core.state import State

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
JSON = dict[str, Any]
#: the most seats any game has: per-seat features are padded to it
MAX_SEATS = 6


class BaseEncoder(ABC):
    """What an environment needs of a game family: subclasses number the actions and turn
    a view into a vector; masks and decoding follow from the numbering."""

    observation_size = 0
    action_size = 0
    #: scores are squashed into about [-1, 1] by this scale
    score_scale = 100.0

    @abstractmethod
    def observe(self, view: JSON) -> Vector:
        """The fixed-size vector of a seat's view."""

    @abstractmethod
    def index_of(self, state: State, seat: int, action: Action) -> int:
        """The number of a legal ``action`` of ``seat``."""

    def legal_indices(self, state: State, seat: int) -> list[int]:
        return [self.index_of(state, seat, action) for action in state.legal_actions(seat)]

    def mask(self, state: State, seat: int) -> Mask:
        mask = np.zeros(self.action_size, dtype=np.int8)
        if seat in state.to_move:
            mask[self.legal_indices(state, seat)] = 1
        return mask

    def decode(self, state: State, seat: int, index: int) -> Action:
        for action in state.legal_actions(seat):
            if self.index_of(state, seat, action) == index:
                return action
        raise IllegalAction(f"action {index} is not legal for seat {seat} now")

    def view_of(self, state: State, seat: int) -> JSON:
        """What the observation is built from: the seat's brief view (an encoder may add
        what that seat can work out itself, never more)."""
        return state.view(seat, brief=True)

    def after(self, state: State, seat: int, action: Action) -> None:  # noqa: B027
        """What follows a decoded action by itself (nothing, unless the game says so)."""


def relative(values: Sequence[Any], seat: int, size: int, scale: float = 1.0) -> Vector:
    """Per-seat numbers rotated so the viewer comes first, padded to ``size``."""
    out = np.zeros(size, dtype=np.float32)
    count = len(values)
    for offset in range(count):
        out[offset] = float(values[(seat + offset) % count]) / scale
    return out


def one_hot(index: int, size: int) -> Vector:
    out = np.zeros(size, dtype=np.float32)
    if 0 <= index < size:
        out[index] = 1.0
    return out
