"""The solver: the best-scoring words of the dictionary for an area, exact.

Scoring only needs, for each area letter, whether a word holds it at least once or at
least twice, so one pass over the dictionary's count matrix per area letter scores every
word at once (numpy); the best ``top`` are then picked, ties going to the shorter word
and then to alphabetical order.

>>> from cardtable.games.siedem_slow.area import Area
>>> from cardtable.games.siedem_slow.dictionary import Dictionary
>>> words = Dictionary.from_words(["kot", "kajak", "drzewo", "żyrafa"], language="pl")
>>> [(s.word, s.points) for s in solve(Area.parse("KD|RZ|__|__"), words, top=2)]
[('drzewo', 13), ('kot', 5)]
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from cardtable.core.errors import OptionError
from cardtable.games.siedem_slow.area import Area
from cardtable.games.siedem_slow.dictionary import Dictionary
from cardtable.games.siedem_slow.scoring import BetterCard, VeteranCounts, letter_groups
from cardtable.games.siedem_slow.tables import MAX_SAME_LETTER_IN_AREA


@dataclass(frozen=True, slots=True)
class Solution:
    word: str
    points: int

    def __str__(self) -> str:
        return f"{self.word} ({self.points})"


def score_all(
    area: Area,
    dictionary: Dictionary,
    *,
    better: BetterCard = "value",
    veteran_letters: int | None = None,
    veteran_counts: VeteranCounts = "uses",
) -> npt.NDArray[np.uint8]:
    """Every dictionary word's score in ``area``, as one array (same rule as score_word)."""
    size = len(dictionary)
    groups = []
    for letter, cards in letter_groups(area, better).items():
        row = dictionary.row_of.get(letter)
        if row is None:
            raise OptionError(
                f"the solver indexes consonants; {letter.upper()} is not one of "
                f"{dictionary.letters.upper()}"
            )
        if len(cards) > MAX_SAME_LETTER_IN_AREA:
            raise OptionError(
                f"{len(cards)} {letter.upper()} cards: the 2-on-2 rule allows at most "
                f"{MAX_SAME_LETTER_IN_AREA} of a letter in the area"
            )
        groups.append((dictionary.counts[row], [value for _, value in cards]))
    score = np.zeros(size, dtype=np.uint8)
    if veteran_letters is None:
        once = np.empty(size, dtype=np.uint8)
        for counts, values in groups:
            # counts are 0, 1 or 2: (c + 1) >> 1 says "at least once", c >> 1 "twice"
            np.add(counts, 1, out=once)
            np.right_shift(once, 1, out=once)
            np.multiply(once, values[0], out=once)
            np.add(score, once, out=score)
            if len(values) > 1:
                np.right_shift(counts, 1, out=once)
                np.multiply(once, values[1], out=once)
                np.add(score, once, out=score)
        return score
    if veteran_counts == "uses":
        # every used card is worth 1; the best `veteran_letters` used cards gain value - 1
        uses = sorted(
            (
                (value, rank, counts)
                for counts, values in groups
                for rank, value in enumerate(values)
            ),
            key=lambda u: -u[0],
        )
        kept = np.zeros(size, dtype=np.uint8)
        for value, rank, counts in uses:
            used = counts > rank
            score += used
            score += (used & (kept < veteran_letters)) * np.uint8(value - 1)
            kept += used
        return score
    gains = np.zeros((max(len(groups), 1), size), dtype=np.uint8)
    for index, (counts, values) in enumerate(groups):
        score += np.minimum(counts, len(values))
        twice = sum(values[:2]) - len(values[:2])  # a single card gains once, however often
        gains[index] = np.array([0, values[0] - 1, twice], dtype=np.uint8)[counts]
    if len(groups) > veteran_letters:
        gains = np.sort(gains, axis=0)[-veteran_letters:]
    score += gains.sum(axis=0, dtype=np.uint8)
    return score


def solve(
    area: Area,
    dictionary: Dictionary,
    top: int = 10,
    *,
    better: BetterCard = "value",
    veteran_letters: int | None = None,
    veteran_counts: VeteranCounts = "uses",
    pool: npt.NDArray[np.bool_] | None = None,
    allowed: Callable[[str], bool] | None = None,
) -> list[Solution]:
    """The ``top`` best words for ``area``: highest score, then shortest, then A-Z.

    ``pool`` restricts the search to some words (a mask over the dictionary, e.g. common
    words for a weaker bot); ``allowed`` drops words a rule forbids (the word-family rule).
    """
    if top <= 0 or len(dictionary) == 0:
        return []
    score = score_all(
        area, dictionary, better=better, veteran_letters=veteran_letters,
        veteran_counts=veteran_counts,
    )  # fmt: skip
    if pool is not None:
        score = score * pool
    found: list[Solution] = []
    want = top
    while True:
        indices = _best_indices(score, dictionary.lengths, want)
        found = []
        for index in indices:
            word = dictionary.words[index]
            if allowed is None or allowed(word):
                found.append(Solution(word, int(score[index])))
                if len(found) == top:
                    return found
        if len(indices) < want:
            return found
        want *= 4


def _best_indices(
    score: npt.NDArray[np.uint8], lengths: npt.NDArray[np.uint8], count: int
) -> list[int]:
    """Indices of the ``count`` best words (score, then shorter, then index order) among
    those scoring above 0."""
    level = int(score.max()) if len(score) else 0
    # lower the bar until enough words clear it; scores are small integers
    while level > 1 and np.count_nonzero(score >= level) < count:
        level -= 1
    chosen = np.flatnonzero(score >= max(level, 1))
    order = np.lexsort((chosen, lengths[chosen], -score[chosen].astype(np.int16)))
    return [int(i) for i in chosen[order[:count]]]
