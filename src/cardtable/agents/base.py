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

from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from cardtable.core.actions import Action
from cardtable.core.agent import Agent
from cardtable.core.errors import IllegalAction, OptionError
from cardtable.core.game import Capability, game_ids, spec_of
from cardtable.core.rng import Rng
from cardtable.core.state import State

#: Agent is core's interface (a terminal seat holds one too); this layer hands it out
__all__ = [
    "EXPERT_SECONDS",
    "LEVELS",
    "Agent",
    "AgentFactory",
    "BotSpec",
    "Shortlisting",
    "Thinking",
    "actions_for",
    "advanced_agents",
    "agent_names",
    "best_by_value",
    "bot_levels",
    "bots_of",
    "describe_agents",
    "make_agent",
    "on_the_clock",
    "register_agent",
    "registered_for_now",
]


@runtime_checkable
class Thinking(Protocol):
    """A bot that takes time in real-time games (7 słów): front ends wait this long."""

    def think_seconds(self) -> float: ...


@runtime_checkable
class Shortlisting(Protocol):
    """A bot that can name its ``size`` best moves: search looks only at those."""

    def shortlist(
        self, state: State, seat: int, actions: list[Action], size: int
    ) -> list[Action]: ...


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
class BotSpec:
    """A bot a game package hands out (its spec's ``BOTS`` capability): what it does and
    its maker ``factory(game_id, seed)``."""

    description: str
    factory: AgentFactory


#: bots every game has, built on the game's own ("greedy" above all): random, search,
#: the levels; a game's own bot of the same name wins
_GENERIC: dict[str, BotSpec] = {}


def register_agent(name: str, description: str, factory: AgentFactory) -> None:
    """Add a bot that plays every game (a game's own bot of that name still wins)."""
    _GENERIC[name] = BotSpec(description, factory)


@contextmanager
def registered_for_now(name: str, description: str, factory: AgentFactory) -> Iterator[None]:
    """A bot registered while the block runs (an evaluation's policy), then gone again:
    the lobby, the docs and the tests of the catalogue never meet it."""
    before = _GENERIC.get(name)
    register_agent(name, description, factory)
    try:
        yield
    finally:
        if before is None:
            _GENERIC.pop(name, None)
        else:
            _GENERIC[name] = before


def bots_of(game_id: str) -> dict[str, BotSpec]:
    """Every bot of a game by name: the generic ones, overridden by the game's own."""
    spec = spec_of(game_id)
    own: Mapping[str, BotSpec] = spec.optional(Capability.BOTS, {})
    return {**_GENERIC, **own}


#: the bot levels a player picks from, weakest first; every other bot is "advanced" (a
#: technical bot for comparisons and testing: random, greedy, ismcts, strategist...)
LEVELS = ("easy", "medium", "hard", "expert", "master")
#: the ``expert`` and ``master`` levels' time limit a move at a live table (their budget
#: in iterations is the game's; the limit holds where their playouts or their dealing make
#: that slow: Ohanami, Hana-awase 88). Nowhere else: a clock makes the moves depend on the
#: machine's load
EXPERT_SECONDS = 0.95


def bot_levels(game_id: str) -> list[str]:
    """The levels a game's bots come in, weakest first."""
    bots = bots_of(game_id)
    return [level for level in LEVELS if level in bots]


def advanced_agents(game_id: str) -> list[str]:
    """A game's technical bots (not a level), sorted: a front end shows them as advanced.

    >>> advanced_agents("koi-koi")
    ['greedy', 'ismcts', 'random', 'strategist']
    """
    return sorted(name for name in bots_of(game_id) if name not in LEVELS)


def agent_names(game_id: str | None = None) -> list[str]:
    """Bot names available (for ``game_id`` when given), sorted."""
    if game_id is None:
        return sorted({name for game in game_ids() for name in bots_of(game)})
    return sorted(bots_of(game_id))


def describe_agents(game_id: str | None = None) -> dict[str, str]:
    """Bot name -> what it does (in ``game_id``, when given)."""
    if game_id is None:  # a name's generic description, else the first game's
        found: dict[str, str] = {n: b.description for n, b in _GENERIC.items()}
        for game in game_ids():
            for name, bot in bots_of(game).items():
                found.setdefault(name, bot.description)
        return dict(sorted(found.items()))
    return {name: bot.description for name, bot in sorted(bots_of(game_id).items())}


def on_the_clock(agent: Agent, seconds: float | None = None) -> Agent:
    """``agent`` as a live table plays it: a searching bot (one with ``seconds``) stops each
    move's search at its level's clock (``live_seconds``) or after ``seconds``, whichever
    comes first, and plays its best move so far. A bot from :func:`make_agent` runs no
    clock: its iteration budget alone decides, so the RL environments, the arena and
    replays after ``set_state`` get the same moves from the same seed under any load.

    >>> expert = make_agent("expert", "koi-koi", seed=1)
    >>> expert.seconds is None, on_the_clock(expert, 3.0).seconds == EXPERT_SECONDS
    (True, True)
    """
    if hasattr(agent, "seconds"):
        limits = (agent.seconds, getattr(agent, "live_seconds", None), seconds)
        given = [limit for limit in limits if limit is not None]
        agent.seconds = min(given) if given else None
    return agent


def make_agent(name: str, game_id: str, seed: int | None = None) -> Agent:
    """A bot by name for a game; an unknown name raises OptionError listing the valid ones.
    A searching bot runs no clock (its iterations decide; :func:`on_the_clock` puts a live
    table's on)."""
    bots = bots_of(game_id)
    bot = bots.get(name.removeprefix("bot:"))
    if bot is None:
        valid = ", ".join(sorted(bots))
        raise OptionError(f"unknown bot {name!r} for {game_id}; valid bots: {valid}", given=[name])
    return bot.factory(game_id, seed)
