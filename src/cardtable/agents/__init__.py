"""Bots: one small interface (:class:`Agent`), made by name with :func:`make_agent`."""

from cardtable.agents import (
    hanafuda_greedy,
    hanafuda_strategist,
    ismcts,
    ohanami_greedy,
    random_agent,
    word_bots,
)
from cardtable.agents.base import Agent, agent_names, describe_agents, make_agent

__all__ = [
    "Agent",
    "agent_names",
    "describe_agents",
    "hanafuda_greedy",
    "hanafuda_strategist",
    "ismcts",
    "make_agent",
    "ohanami_greedy",
    "random_agent",
    "word_bots",
]
