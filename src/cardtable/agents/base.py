"""The agent interface every bot implements, and the registry front ends read names from.

An agent sees a state and a seat and returns one legal action. It must decide only from
what that seat may see: the state it is given may be the real one (a bot on the server)
or a determinization (inside search).

>>> import cardtable
>>> from cardtable.agents import make_agent
>>> state = cardtable.load("bakappana").new_state(seed=3)
>>> bot = make_agent("greedy", "bakappana", seed=1)
>>> bot.choose(state, state.dealer) in state.legal_actions(state.dealer)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from cardtable.core.actions import Action
from cardtable.core.errors import IllegalAction, OptionError
from cardtable.core.game import spec_of
from cardtable.core.rng import Rng
from cardtable.core.state import State


class Agent(Protocol):
    """A bot: ``choose`` returns a legal action for ``seat`` in ``state``."""

    name: str

    def choose(self, state: State, seat: int) -> Action: ...


def actions_for(state: State, seat: int) -> list[Action]:
    """The legal actions of ``seat``; a bot asked to move out of turn gets a clear error."""
    actions = state.legal_actions(seat)
    if not actions:
        raise IllegalAction(f"seat {seat} has nothing to do now")
    return actions


def best_by_value(actions: Sequence[Action], value: Callable[[Action], float], rng: Rng) -> Action:
    """The action of highest value; ties broken at random (so bots do not all play alike)."""
    best: list[Action] = []
    best_value = float("-inf")
    for action in actions:
        score = value(action)
        if score > best_value + 1e-9:
            best, best_value = [action], score
        elif abs(score - best_value) <= 1e-9:
            best.append(action)
    return best[rng.below(len(best))]


AgentFactory = Callable[[str, int | None], Agent]


@dataclass(frozen=True)
class AgentEntry:
    """A bot name with its maker and description per game family (``"*"``: every game)."""

    name: str
    factories: dict[str, AgentFactory]
    descriptions: dict[str, str]

    def family_for(self, game_id: str) -> str | None:
        family = spec_of(game_id).family
        if family in self.factories:
            return family
        return "*" if "*" in self.factories else None

    def factory_for(self, game_id: str) -> AgentFactory | None:
        family = self.family_for(game_id)
        return None if family is None else self.factories[family]

    def description_for(self, game_id: str | None) -> str:
        family = "*" if game_id is None else self.family_for(game_id)
        if family is None or family not in self.descriptions:
            return next(iter(self.descriptions.values()))
        return self.descriptions[family]

    def supports(self, game_id: str) -> bool:
        return self.factory_for(game_id) is not None


_AGENTS: dict[str, AgentEntry] = {}


def register_agent(name: str, description: str, family: str, factory: AgentFactory) -> None:
    """Add (or extend) a bot name with its maker for one family of games."""
    entry = _AGENTS.get(name)
    if entry is None:
        entry = _AGENTS[name] = AgentEntry(name, {}, {})
    entry.factories[family] = factory
    entry.descriptions[family] = description


def agent_names(game_id: str | None = None) -> list[str]:
    """Bot names available (for ``game_id`` when given), sorted."""
    return sorted(n for n, e in _AGENTS.items() if game_id is None or e.supports(game_id))


def describe_agents(game_id: str | None = None) -> dict[str, str]:
    """Bot name -> what it does (in ``game_id``, when given)."""
    return {n: _AGENTS[n].description_for(game_id) for n in agent_names(game_id)}


def make_agent(name: str, game_id: str, seed: int | None = None) -> Agent:
    """A bot by name for a game; an unknown name raises OptionError listing the valid ones."""
    key = name.removeprefix("bot:")
    entry = _AGENTS.get(key)
    if entry is None or not entry.supports(game_id):
        valid = ", ".join(agent_names(game_id))
        raise OptionError(f"unknown bot {name!r} for {game_id}; valid bots: {valid}")
    factory = entry.factory_for(game_id)
    assert factory is not None
    return factory(game_id, seed)
