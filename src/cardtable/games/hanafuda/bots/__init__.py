"""The hanafuda games' own bots (the ``BOTS`` capability of their specs): ``greedy``
takes the most valuable capture, the ``strategist`` (also the ``medium`` level) plans yaku,
denies the opponent's and calls koi-koi by risk."""

from cardtable.agents.base import BotSpec
from cardtable.games.hanafuda.bots.greedy import GreedyAgent
from cardtable.games.hanafuda.bots.strategist import StrategistAgent

STRATEGIST = "rule-based: values, yaku proximity, denial, safe discards, koi-koi by risk"

BOTS = {
    "greedy": BotSpec(
        "takes the most valuable capture now (card values and yaku); careful discards",
        lambda game_id, seed: GreedyAgent(seed),
    ),
    "strategist": BotSpec(STRATEGIST, lambda game_id, seed: StrategistAgent(seed)),
    "medium": BotSpec(
        "the strategist: yaku proximity, denial, safe discards, koi-koi by risk",
        lambda game_id, seed: StrategistAgent(seed),
    ),
}

__all__ = ["BOTS", "GreedyAgent", "StrategistAgent"]
