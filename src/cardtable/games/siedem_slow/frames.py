"""What a 7 słów table shows everyone beyond the views (the ``FRAME`` capability): after a
round, the solver's best words for the area just played."""

from __future__ import annotations

import functools
from typing import Any

from cardtable.core.state import State
from cardtable.games.siedem_slow.area import Area
from cardtable.games.siedem_slow.dictionary import load_dictionary
from cardtable.games.siedem_slow.scoring import BetterCard
from cardtable.games.siedem_slow.solver import solve
from cardtable.games.siedem_slow.state import SiedemSlowState

BEST_WORDS = 5


@functools.lru_cache(maxsize=512)
def best_words(
    area: str, deck: str, dictionary: str, better: BetterCard
) -> tuple[tuple[str, int], ...]:
    """The solver's best words for an area (cached: every frame of the round repeats them)."""
    words = load_dictionary(dictionary, deck)
    found = solve(Area.parse(area, deck), words, top=BEST_WORDS, better=better)
    return tuple((s.word, s.points) for s in found)


def frame_extras(state: State) -> dict[str, Any]:
    assert isinstance(state, SiedemSlowState)
    if not state.areas:
        return {}
    options = state.options
    found = best_words(state.areas[-1], options.deck, options.dictionary, options.better_card)
    return {"best_words": [{"word": word, "points": points} for word, points in found]}
