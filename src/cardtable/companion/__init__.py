"""Companion tools for games played with a physical deck: round calculators and score pads.

Each game scores what its players enter with its own engine (the ``COMPANION`` capability
of its spec: a module with ``PAD``, the browser pad that enters the rounds, optionally
``PAD_ALIASES``, other addresses people say for it, and ``results(game_id, options,
data)``); this layer knows no particular game.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from cardtable.core.game import Capability, game_ids, spec_of
from cardtable.core.results import settlement

__all__ = ["pad_aliases", "pad_games", "pad_of", "results", "scorer", "settlement"]


def scorer(game_id: str) -> ModuleType:
    """The game's companion module (OptionError when the game has no pad)."""
    spec = spec_of(game_id)
    module: ModuleType = spec.capability(Capability.COMPANION, f"{spec.title} has no score pad")
    return module


def pad_of(game_id: str) -> str:
    """Which browser pad enters this game's rounds."""
    return str(scorer(game_id).PAD)


def pad_aliases() -> dict[str, str]:
    """Other addresses of the pads (``/companion/words`` is the 7 słów pad): each game's
    ``PAD_ALIASES``, to its pad."""
    return {
        alias: pad_of(game_id)
        for game_id in game_ids()
        if spec_of(game_id).has(Capability.COMPANION)
        for alias in getattr(scorer(game_id), "PAD_ALIASES", ())
    }


def pad_games(pad: str) -> list[str]:
    """The games a browser pad keeps score for."""
    return [g for g in game_ids() if spec_of(g).has(Capability.COMPANION) and pad_of(g) == pad]


def results(game_id: str, options: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """Every saved round scored by the game's engine, totals, and the round being entered
    (or why it cannot be scored yet)."""
    answer: dict[str, Any] = scorer(game_id).results(game_id, options, data)
    return answer
