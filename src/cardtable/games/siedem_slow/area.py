"""Letter cards, the play area of 8 cards over the columns 5-4-3-2, and the 2-on-2 rule.

A slot is ``column * 2 + row``: column 0 is the 5-point column on the left. The area is
what every player looks at; ``Area.parse`` reads the short form used by the CLI and tests.

>>> area = Area.parse("DS|PH|LN|KR")
>>> str(area)
'DS|PH+1|LN|KR'
>>> area.value_of(3)   # the rare H over the 4 column
5
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from cardtable.core.errors import OptionError
from cardtable.core.rng import RandomSource
from cardtable.games.siedem_slow.tables import (
    AREA_SLOTS,
    COLUMN_VALUES,
    DECKS,
    MAX_RARE_IN_AREA,
    MAX_SAME_LETTER_IN_AREA,
    ROWS_PER_COLUMN,
    DeckSpec,
)


@dataclass(frozen=True, slots=True, order=True)
class LetterCard:
    """One letter card: an upper-case letter and its rare bonus (0 on a common card)."""

    letter: str
    bonus: int = 0

    @property
    def rare(self) -> bool:
        return self.bonus > 0

    def __str__(self) -> str:
        return f"{self.letter}+{self.bonus}" if self.bonus else self.letter

    @classmethod
    def parse(cls, text: str, deck: DeckSpec | None = None) -> LetterCard:
        """``"H+2"`` or ``"k"``: a bare letter takes the deck's lowest bonus for it."""
        match = re.fullmatch(r"\s*(\w)\s*(?:\+\s*(\d))?\s*", text)
        if match is None or match.group(1).isdigit():
            raise OptionError(f"{text!r} is not a letter card (a letter, e.g. K, or H+2)")
        letter = match.group(1).upper()
        if match.group(2) is not None:
            bonus = int(match.group(2))
        elif deck is not None and deck.bonuses_of(letter):
            bonus = deck.bonuses_of(letter)[0]
        else:
            bonus = 0
        if deck is not None and deck.letters and bonus not in deck.bonuses_of(letter):
            have = ", ".join(str(LetterCard(letter, b)) for b in deck.bonuses_of(letter))
            raise OptionError(
                f"the {deck.language} deck has no {LetterCard(letter, bonus)} card"
                + (f" (it has {have})" if have else "")
            )
        return cls(letter, bonus)


def deck_cards(deck: DeckSpec) -> list[LetterCard]:
    """Every card of a deck, in a fixed order (shuffled by the game)."""
    return [
        LetterCard(letter, bonus)
        for letter, pairs in deck.letters.items()
        for count, bonus in pairs
        for _ in range(count)
    ]


def column_of(slot: int) -> int:
    return slot // ROWS_PER_COLUMN


class Area:
    """The 8 slots of the play area; a slot may be empty when no legal card was left."""

    __slots__ = ("slots",)

    def __init__(self, slots: Sequence[LetterCard | None] = ()) -> None:
        filled = list(slots) + [None] * (AREA_SLOTS - len(slots))
        if len(filled) != AREA_SLOTS:
            raise OptionError(f"an area has {AREA_SLOTS} slots, not {len(slots)}")
        self.slots: list[LetterCard | None] = filled

    @classmethod
    def parse(cls, text: str, deck: str | DeckSpec = "pl") -> Area:
        """``"DS|PH|LN|KR"``: four columns left to right (5, 4, 3, 2 points), two letters
        each; ``H+2`` gives a rare bonus, ``_`` an empty slot."""
        spec = DECKS[deck] if isinstance(deck, str) else deck
        columns = text.split("|")
        if len(columns) != len(COLUMN_VALUES):
            raise OptionError(
                f"an area has {len(COLUMN_VALUES)} columns separated by '|' "
                f"(e.g. DS|PH|LN|KR), not {len(columns)}"
            )
        slots: list[LetterCard | None] = []
        for column in columns:
            tokens = re.findall(r"_|\w(?:\s*\+\s*\d)?", column.strip())
            if "".join(t.replace(" ", "") for t in tokens) != column.replace(" ", ""):
                raise OptionError(f"cannot read the column {column!r} (letters like K or H+2)")
            if len(tokens) > ROWS_PER_COLUMN:
                raise OptionError(f"a column holds {ROWS_PER_COLUMN} cards, not {column!r}")
            tokens += ["_"] * (ROWS_PER_COLUMN - len(tokens))
            slots.extend(None if t == "_" else LetterCard.parse(t, spec) for t in tokens)
        return cls(slots)

    def __str__(self) -> str:
        columns = []
        for column in range(len(COLUMN_VALUES)):
            cards = self.slots[column * ROWS_PER_COLUMN : (column + 1) * ROWS_PER_COLUMN]
            columns.append("".join("_" if c is None else str(c) for c in cards))
        return "|".join(columns)

    def __repr__(self) -> str:
        return f"Area.parse({str(self)!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Area) and self.slots == other.slots

    def __hash__(self) -> int:
        return hash(tuple(self.slots))

    def copy(self) -> Area:
        return Area(self.slots)

    def value_of(self, slot: int) -> int:
        """Column value plus rare bonus of the card in ``slot`` (0 when empty)."""
        card = self.slots[slot]
        return 0 if card is None else COLUMN_VALUES[column_of(slot)] + card.bonus

    def cards(self) -> Iterator[tuple[int, LetterCard]]:
        """``(slot, card)`` for every filled slot, left column first."""
        for slot, card in enumerate(self.slots):
            if card is not None:
                yield slot, card

    @property
    def total(self) -> int:
        """The most any word could score here."""
        return sum(self.value_of(slot) for slot, _ in self.cards())

    def to_json(self) -> list[dict[str, object] | None]:
        return [
            None
            if card is None
            else {
                "letter": card.letter,
                "bonus": card.bonus,
                "column": COLUMN_VALUES[column_of(slot)],
                "value": self.value_of(slot),
            }
            for slot, card in enumerate(self.slots)
        ]

    # -- the 2-on-2 rule -----------------------------------------------------------------
    def refuses(self, card: LetterCard) -> str | None:
        """Why ``card`` may not join the area now (2-on-2 rule), or None."""
        present = [c for _, c in self.cards()]
        if card.rare and sum(c.rare for c in present) >= MAX_RARE_IN_AREA:
            return f"already {MAX_RARE_IN_AREA} rare cards in the area"
        if Counter(c.letter for c in present)[card.letter] >= MAX_SAME_LETTER_IN_AREA:
            return f"already {MAX_SAME_LETTER_IN_AREA} {card.letter} cards in the area"
        return None


class DrawPile:
    """The face-down deck (top at the end of the list) and the discard pile.

    Cards the 2-on-2 rule refuses go to the discard pile for good; only when the deck runs
    out is the discard pile shuffled into a new deck (§2 REC).
    """

    __slots__ = ("deck", "discard", "reshuffles")

    def __init__(self, deck: Iterable[LetterCard], discard: Iterable[LetterCard] = ()) -> None:
        self.deck = list(deck)
        self.discard = list(discard)
        self.reshuffles = 0

    def copy(self) -> DrawPile:
        new = DrawPile(self.deck, self.discard)
        new.reshuffles = self.reshuffles
        return new

    def fill(self, area: Area, slot: int, rng: RandomSource) -> LetterCard | None:
        """Draw into ``slot`` until a card the 2-on-2 rule accepts comes up; the slot stays
        empty when no card left in the deck or the discard pile would do."""
        reshuffled = False
        while True:
            if not self.deck:
                if not self.discard or reshuffled:
                    area.slots[slot] = None
                    return None
                self.deck, self.discard = self.discard, []
                rng.shuffle(self.deck)
                self.reshuffles += 1
                reshuffled = True
            card = self.deck.pop()
            if area.refuses(card) is None:
                area.slots[slot] = card
                return card
            self.discard.append(card)


#: Setup fills the 2 column first and moves left (§2); a refill fills 4, then 5 (§6).
SETUP_ORDER = (6, 7, 4, 5, 2, 3, 0, 1)
REFILL_ORDER = (2, 3, 0, 1)


def slide(area: Area, pile: DrawPile) -> None:
    """End of round (§6): discard the 3 and 2 columns, move 5 -> 3 and 4 -> 2 (rows kept)."""
    for slot in (4, 5, 6, 7):
        card = area.slots[slot]
        if card is not None:
            pile.discard.append(card)
    area.slots[4:8] = area.slots[0:4]
    area.slots[0:4] = [None] * 4
