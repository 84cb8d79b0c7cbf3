"""The Agent protocol: a bot as the engine's front ends see it (a terminal seat holds one;
:mod:`cardtable.agents` makes them). It sits above :mod:`cardtable.core.state`, which
names no bot."""

from __future__ import annotations

from typing import Protocol

from cardtable.core.actions import Action
from cardtable.core.state import State

__all__ = ["Agent"]


class Agent(Protocol):
    """A bot: ``choose`` returns a legal action for ``seat`` in ``state``."""

    name: str

    def choose(self, state: State, seat: int) -> Action: ...
