"""Bots: one small interface (:class:`Agent`), made by name with :func:`make_agent`.

The bots here play every game (random, search, the levels built on a game's greedy bot);
each game's own bots live in its package and come through its spec."""

from cardtable.agents import ismcts, random_agent
from cardtable.agents.base import (
    LEVELS,
    Agent,
    BotSpec,
    advanced_agents,
    agent_names,
    bot_levels,
    bots_of,
    describe_agents,
    make_agent,
)

__all__ = [
    "LEVELS",
    "Agent",
    "BotSpec",
    "advanced_agents",
    "agent_names",
    "bot_levels",
    "bots_of",
    "describe_agents",
    "ismcts",
    "make_agent",
    "random_agent",
]
