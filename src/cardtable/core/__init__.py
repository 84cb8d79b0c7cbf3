"""Game-agnostic engine: protocols, actions, errors, options, seeding, records.

``core`` imports no game; games register themselves with :func:`register`.
"""

from cardtable.core.actions import Action, LoggedMove
from cardtable.core.errors import CardtableError, IllegalAction, OptionError
from cardtable.core.game import Game, GameSpec, game_ids, load, register, spec_of
from cardtable.core.options import GameOptions, OptionInfo, build_options, describe
from cardtable.core.record import GameRecord, replay
from cardtable.core.results import MatchResult, RoundResult, ScoreLine
from cardtable.core.rng import RandomSource, Rng
from cardtable.core.state import State

__all__ = [
    "Action",
    "CardtableError",
    "Game",
    "GameOptions",
    "GameRecord",
    "GameSpec",
    "IllegalAction",
    "LoggedMove",
    "MatchResult",
    "OptionError",
    "OptionInfo",
    "RandomSource",
    "Rng",
    "RoundResult",
    "ScoreLine",
    "State",
    "build_options",
    "describe",
    "game_ids",
    "load",
    "register",
    "replay",
    "spec_of",
]
