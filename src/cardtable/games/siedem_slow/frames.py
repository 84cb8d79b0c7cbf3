"""What a 7 słów table shows everyone beyond the views (the ``FRAME`` capability): after a
round, the solver's best words for the area just played; the review after a game (the
``REVIEW`` capability): for each round, the word a seat wrote beside the solver's best; and
a hint asked while practising alone (the ``PRACTICE_HINT`` capability)."""

from __future__ import annotations

import functools
from typing import Any

from cardtable.core.state import State
from cardtable.games.siedem_slow.area import Area
from cardtable.games.siedem_slow.dictionary import load_dictionary
from cardtable.games.siedem_slow.scoring import BetterCard
from cardtable.games.siedem_slow.solver import solve
from cardtable.games.siedem_slow.state import SiedemSlowState
from cardtable.locales import LANGUAGES, message

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


#: the words a practice hint names
HINT_WORDS = 3


def practice_hint(state: State, seat: int) -> dict[str, Any]:
    """The solver's best words for the seat's letters now, those it may still write (the
    ``PRACTICE_HINT`` capability: asked at a table where no other person plays), said in
    every language as the terminal's ``?`` says them."""
    assert isinstance(state, SiedemSlowState)
    found = solve(
        state.area,
        state.dictionary,
        top=HINT_WORDS,
        better=state.options.better_card,
        allowed=lambda word: state.word_problem(seat, word) is None,
    )
    words = ", ".join(f"{s.word.upper()} {s.points}" for s in found)
    key = "siedem.term.hint" if found else "word.hint_none"
    return {
        "texts": {lang: message(key, lang, words=words) for lang in LANGUAGES},
        "words": [{"word": s.word, "points": s.points} for s in found],
    }


def review_words(state: State, seat: int) -> list[dict[str, Any]]:
    """Each finished round: its area, ``seat``'s word and points, and the solver's best
    words with theirs (all public once the round is scored)."""
    assert isinstance(state, SiedemSlowState)
    options = state.options
    rounds = []
    for number, (area, words) in enumerate(zip(state.areas, state.played, strict=False)):
        mine = next((w for w in words if w.seat == seat), None)
        found = best_words(area, options.deck, options.dictionary, options.better_card)
        rounds.append(
            {
                "round": number + 1,
                "area": area,
                "word": None if mine is None else mine.word,
                "points": 0 if mine is None else mine.points,
                "best": [{"word": word, "points": points} for word, points in found],
            }
        )
    return rounds
