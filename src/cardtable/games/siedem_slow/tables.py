"""7 słów rules as data: the decks, column values, a round's phases, bonus boxes and solo
thresholds.

Everything the engine, the solver, the docs and the tests read about the game's numbers lives
here, once (games/siedem_slow/pages/siedem-slow.md: "The cards", "Bonuses", "End of the round
and of the game", "Solo", "Variants").

>>> sum(count for letter in DECKS["pl"].letters.values() for count, _ in letter)
60
>>> BONUS_BY_ROUND[4]
(2, 3)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from types import MappingProxyType
from typing import Final, Literal


@dataclass(frozen=True)
class DeckSpec:
    """A letter deck: ``letters[X]`` lists ``(count, rare bonus)`` pairs for letter X.

    ``provisional`` marks a deck whose distribution is our reconstruction, not the
    publisher's (no public source lists either edition's cards).
    """

    language: str
    letters: MappingProxyType[str, tuple[tuple[int, int], ...]]
    vowels: frozenset[str]
    alphabet: str
    provisional: bool
    note: str

    @property
    def size(self) -> int:
        return sum(count for pairs in self.letters.values() for count, _ in pairs)

    @property
    def rare_count(self) -> int:
        return sum(count for pairs in self.letters.values() for count, bonus in pairs if bonus)

    def bonuses_of(self, letter: str) -> tuple[int, ...]:
        """The rare bonuses this deck prints on ``letter`` (0 for a common card), lowest first."""
        return tuple(sorted({bonus for _, bonus in self.letters.get(letter, ())}))


def _deck(
    table: dict[str, list[tuple[int, int]]],
) -> MappingProxyType[str, tuple[tuple[int, int], ...]]:
    return MappingProxyType({letter: tuple(pairs) for letter, pairs in table.items()})


#: The provisional Polish deck (the page's "The cards"): consonants weighted by how many
#: SJP word forms contain them; 44 common cards and 16 rare ones (+1: 9, +2: 7).
POLISH: Final = DeckSpec(
    language="pl",
    letters=_deck(
        {
            "N": [(4, 0)],
            "W": [(3, 0)],
            "R": [(3, 0)],
            "Z": [(3, 0)],
            "C": [(3, 0)],
            "M": [(3, 0)],
            "S": [(3, 0)],
            "K": [(3, 0)],
            "P": [(3, 0)],
            "T": [(3, 0)],
            "L": [(2, 0), (2, 1)],
            "D": [(2, 0)],
            "J": [(2, 0)],
            "B": [(2, 0)],
            "G": [(2, 0)],
            "Ł": [(2, 0)],
            "Ś": [(1, 0)],
            "H": [(2, 1), (1, 2)],
            "Ż": [(2, 1)],
            "F": [(2, 1), (1, 2)],
            "Ń": [(1, 1), (1, 2)],
            "Ć": [(2, 2)],
            "Ź": [(2, 2)],
        }
    ),
    vowels=frozenset("aąeęioóuy"),
    alphabet="aąbcćdeęfghijklłmnńoópqrsśtuvwxyzźż",
    provisional=True,
    note="Reconstructed from SJP consonant frequencies; the rulebook's card list did not survive.",
)

#: A provisional English deck: 60 consonant cards; the rare bonuses Q +2, Z +2, K +1, H +1
#: are the ones English reviews name, the rest are our choice by English letter frequency.
ENGLISH: Final = DeckSpec(
    language="en",
    letters=_deck(
        {
            "T": [(4, 0)],
            "N": [(4, 0)],
            "S": [(4, 0)],
            "R": [(4, 0)],
            "L": [(3, 0)],
            "D": [(3, 0)],
            "C": [(3, 0)],
            "M": [(3, 0)],
            "P": [(3, 0)],
            "G": [(2, 0)],
            "B": [(2, 0)],
            "F": [(2, 0)],
            "W": [(2, 0)],
            "Y": [(2, 0)],
            "V": [(1, 0)],
            "H": [(2, 0), (2, 1)],
            "K": [(2, 1), (1, 2)],
            "X": [(2, 1), (1, 2)],
            "J": [(2, 1), (1, 2)],
            "Q": [(2, 2)],
            "Z": [(2, 2), (1, 1)],
        }
    ),
    vowels=frozenset("aeiou"),
    alphabet="abcdefghijklmnopqrstuvwxyz",
    provisional=True,
    note="Q +2, Z +2, K +1, H +1 are known; counts and the other rare cards are ours.",
)

DECKS: Final[MappingProxyType[str, DeckSpec]] = MappingProxyType({"pl": POLISH, "en": ENGLISH})

#: The box holds 60 letter cards, 16 of them rare (§1): every deck must add up to these.
LETTER_CARDS: Final = 60
RARE_CARDS: Final = 16

#: Column values, left to right (§2). Two letter cards sit above each column card.
COLUMN_VALUES: Final = (5, 4, 3, 2)
ROWS_PER_COLUMN: Final = 2
AREA_SLOTS: Final = len(COLUMN_VALUES) * ROWS_PER_COLUMN
#: The 2-on-2 rule: at most this many rare cards, and this many cards of one letter (§2).
MAX_RARE_IN_AREA: Final = 2
MAX_SAME_LETTER_IN_AREA: Final = 2

ROUNDS: Final = 7
DROPPED_WORDS: Final = 2
CHALLENGE_PENALTY: Final = 2
#: With 5-6 players the fastest player needs to tie or beat at least this many opponents.
FASTEST_NEEDS_WITH_MANY: Final = 3
MANY_PLAYERS: Final = 5


class Phase(StrEnum):
    """Where a round stands; the values are what views, records and the browser show."""

    WRITING = "writing"  # nobody has flipped (solo: the sand runs)
    HOURGLASS = "hourglass"  # someone flipped (or the soft cap ran out): 30 s
    OVERTIME = "overtime"  # solo: the sand ran out, the word may still be finished
    REVIEW = "review"  # words are revealed; challenges
    VOTE = "vote"  # a challenged word of a shared root goes to a vote
    OVER = "over"


class Box(IntEnum):
    """The two bonus boxes of a round on the score sheet (§5; the solo game's on the
    SOLO card, §9), numbered as the sheet prints them."""

    BEAT_LEAD = 1  # a player beat the fastest (the main player without an hourglass)
    LEAD_WINS = 2  # the fastest (main) player tied or beat the others


#: round -> (1st box "beat the fastest", 2nd box "fastest wins") (§5, recovered from sheets)
BONUS_BY_ROUND: Final[MappingProxyType[int, tuple[int, int]]] = MappingProxyType(
    {1: (1, 2), 2: (1, 2), 3: (1, 2), 4: (2, 3), 5: (2, 3), 6: (2, 3), 7: (3, 4)}
)

Difficulty = Literal["normal", "medium", "hard", "brutal"]
#: Solo targets (§9): the final score needed to win.
SOLO_TARGET: Final[MappingProxyType[str, int]] = MappingProxyType(
    {"normal": 100, "medium": 110, "hard": 120, "brutal": 120}
)
SOLO_BONUS_MIN: Final = 15
SOLO_MOVE_UP_MIN: Final = 20
#: The SOLO card's fields, top to bottom; brutal skips the middle one.
SOLO_FIELDS: Final = ("1", "2", "red")
SOLO_FIELDS_BRUTAL: Final = ("1", "red")

HOURGLASS_SECONDS: Final = 30
