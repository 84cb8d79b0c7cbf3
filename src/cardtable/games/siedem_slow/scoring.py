"""Scoring a word against the area (games/siedem_slow/pages/siedem-slow.md, "Scoring a word", and
the veteran handicap of "Variants").

For each letter X of the area with ``k`` cards, a word that holds X ``c`` times scores the
``min(c, k)`` best cards of X. Letters outside the area score nothing and cost nothing.

>>> from cardtable.games.siedem_slow.area import Area
>>> area = Area.parse("L+1K|NS|WM|L+1R")
>>> score_word("wyselekcjonowany", area).points
22
>>> score_word("LUMPENPROLETARIAT", Area.parse("L+1P|TN|ML+1|DB")).points
26
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass
from typing import Literal

from cardtable.games.siedem_slow.area import Area, LetterCard, column_of
from cardtable.games.siedem_slow.tables import COLUMN_VALUES

#: Which of two cards of one letter scores when the word holds the letter once: the one
#: worth more (column + rare bonus, the REC) or the one in the better column (the text;
#: two copies in one column: the one worth more, as "the better card" says).
BetterCard = Literal["value", "column"]
#: Veteran handicap: the best ``veteran_letters`` card uses keep their value ("uses"), or
#: the best letters, both cards of a letter counting as one ("letters").
VeteranCounts = Literal["uses", "letters"]


def normalize(word: str) -> str:
    """Lower case, NFC: the form words are stored, compared and scored in."""
    return unicodedata.normalize("NFC", word.strip()).lower()


@dataclass(frozen=True, slots=True)
class ScoredCard:
    slot: int
    card: LetterCard
    value: int

    def to_json(self) -> dict[str, object]:
        return {
            "slot": self.slot,
            "letter": self.card.letter,
            "bonus": self.card.bonus,
            "column": COLUMN_VALUES[column_of(self.slot)],
            "value": self.value,
        }


@dataclass(frozen=True, slots=True)
class WordScore:
    """A word's points and the area cards that earned them (with what each was worth)."""

    points: int
    cards: tuple[ScoredCard, ...] = ()

    def to_json(self) -> dict[str, object]:
        return {"points": self.points, "cards": [c.to_json() for c in self.cards]}


def letter_groups(area: Area, better: BetterCard = "value") -> dict[str, list[tuple[int, int]]]:
    """Area letter (lower case) -> its ``(slot, value)`` cards, the one that scores first
    when the word holds the letter once."""
    groups: dict[str, list[tuple[int, int]]] = {}
    for slot, card in area.cards():
        groups.setdefault(card.letter.lower(), []).append((slot, area.value_of(slot)))
    for cards in groups.values():
        if better == "value":
            cards.sort(key=lambda sv: (-sv[1], sv[0]))
        else:
            cards.sort(key=lambda sv: (column_of(sv[0]), -sv[1], sv[0]))
    return groups


def score_word(
    word: str,
    area: Area,
    *,
    better: BetterCard = "value",
    veteran_letters: int | None = None,
    veteran_counts: VeteranCounts = "uses",
) -> WordScore:
    """The points ``word`` scores in ``area``; ``veteran_letters=4`` applies the handicap.

    >>> from cardtable.games.siedem_slow.area import Area
    >>> area = Area.parse("KK|__|__|__")
    >>> score_word("kot", area).points, score_word("kajak", area).points
    (5, 10)
    """
    counts = Counter(normalize(word))
    used: list[tuple[int, int, str]] = []  # (slot, value, letter)
    for letter, cards in letter_groups(area, better).items():
        for slot, value in cards[: counts.get(letter, 0)]:
            used.append((slot, value, letter))
    values = {slot: value for slot, value, _ in used}
    if veteran_letters is not None:
        values = _veteran_values(used, veteran_letters, veteran_counts)
    scored = tuple(
        ScoredCard(slot, card, values[slot]) for slot, card in area.cards() if slot in values
    )
    return WordScore(sum(values.values()), scored)


def _veteran_values(
    used: list[tuple[int, int, str]], keep: int, counts: VeteranCounts
) -> dict[int, int]:
    """Every used card is worth 1 except the ``keep`` best choices, which keep full value:
    choosing the cards (or letters) that gain the most over 1 is exact."""
    values = {slot: 1 for slot, _, _ in used}
    if counts == "uses":
        best = sorted(used, key=lambda u: (-u[1], u[0]))[:keep]
        for slot, value, _ in best:
            values[slot] = value
        return values
    by_letter: dict[str, list[tuple[int, int]]] = {}
    for slot, value, letter in used:
        by_letter.setdefault(letter, []).append((slot, value))
    ranked = sorted(by_letter.values(), key=lambda cards: -sum(v - 1 for _, v in cards))
    for cards in ranked[:keep]:
        for slot, value in cards:
            values[slot] = value
    return values
