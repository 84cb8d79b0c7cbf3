"""The 120 Ohanami garden cards as data (games/ohanami/pages/ohanami.md, "The deck").

Each card is a number 1..120 with one of four colours. The colours are listed here as
data, not derived: the list comes from public implementations, and a physical deck that
disagreed would be corrected in this table only (a test checks it against the arithmetic
rule it happens to follow).

>>> COLOUR_OF[62], COLOUR_OF[49], COLOUR_OF[65]
('blue', 'grey', 'pink')
>>> sum(1 for c in COLOUR_OF.values() if c == "green")
35
"""

from __future__ import annotations

from typing import Literal

Colour = Literal["blue", "green", "grey", "pink"]
COLOURS: tuple[Colour, ...] = ("blue", "green", "grey", "pink")

_CARDS_BY_COLOUR: dict[Colour, tuple[int, ...]] = {
    "blue": (2, 4, 8, 10, 16, 20, 22, 26, 32, 34, 38, 40, 44, 46, 50, 52, 58, 62, 64, 68, 74,
             76, 80, 82, 86, 88, 92, 94, 100, 104, 106, 110, 116, 118),
    "green": (3, 6, 9, 12, 15, 18, 24, 27, 30, 33, 36, 39, 45, 48, 51, 54, 57, 60, 66, 69, 72,
              75, 78, 81, 87, 90, 93, 96, 99, 102, 108, 111, 114, 117, 120),
    "grey": (7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98, 105, 112, 119),
    "pink": (1, 5, 11, 13, 17, 19, 23, 25, 29, 31, 37, 41, 43, 47, 53, 55, 59, 61, 65, 67, 71,
             73, 79, 83, 85, 89, 95, 97, 101, 103, 107, 109, 113, 115),
}  # fmt: skip

COLOUR_OF: dict[int, Colour] = {
    number: colour for colour, numbers in _CARDS_BY_COLOUR.items() for number in numbers
}
NUMBERS: tuple[int, ...] = tuple(sorted(COLOUR_OF))

#: points per card of a colour after each stage (rules §5); pink is scored by its table
COLOUR_POINTS: dict[Colour, tuple[int, int, int]] = {
    "blue": (3, 3, 3),
    "green": (0, 4, 4),
    "grey": (0, 0, 7),
    "pink": (0, 0, 0),
}
PINK_CAP = 15


def stage_points(counts: dict[str, int], stage: int) -> dict[str, int]:
    """Points per colour for a garden with ``counts`` cards of each colour after ``stage``.

    >>> stage_points({"blue": 6, "green": 8, "grey": 4, "pink": 6}, 3)
    {'blue': 18, 'green': 32, 'grey': 28, 'pink': 21}
    """
    points: dict[str, int] = {}
    for colour in COLOURS:
        count = counts.get(colour, 0)
        if colour == "pink":
            points[colour] = pink_points(count) if stage == 3 else 0
        else:
            points[colour] = COLOUR_POINTS[colour][stage - 1] * count
    return points


def pink_points(count: int) -> int:
    """Points for ``count`` pink cards at the end: 1, 3, 6, 10, ... capped at 15 cards (120).

    >>> [pink_points(k) for k in (5, 6, 12, 15, 20)]
    [15, 21, 78, 120, 120]
    """
    capped = min(count, PINK_CAP)
    return capped * (capped + 1) // 2
