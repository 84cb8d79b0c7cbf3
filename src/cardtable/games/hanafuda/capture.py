"""The capture rule of every fishing game (games/hanafuda/pages/bakappana.md, "A turn"),
written once, and the look-up table the engine's hot path reads it from.

A card played from hand or flipped from the stock meets the table cards of its month:
none -> it joins the table; one -> both are captured; two -> the player chooses which one
it takes; three -> it takes all three.

>>> from cardtable.games.hanafuda.deck import cards, codes
>>> [codes(option) for option in captures(cards("03-1 03-3"))]  # two: a choice
[['03-1'], ['03-3']]
>>> [codes(option) for option in captures(cards("03-1 03-2 03-3"))]  # three: all
[['03-1', '03-2', '03-3']]
>>> captures(0)
()
"""

from __future__ import annotations

from typing import Final

from cardtable.games.hanafuda.deck import NUM_CARDS, count_cards, lowest_card


def captures(matches: int) -> tuple[int, ...]:
    """What a card may capture, one mask per option, given ``matches``: the table cards
    of its month (a mask). No option: it joins the table; several: the player chooses."""
    if count_cards(matches) == 2:
        lowest = matches & -matches
        return (lowest, matches ^ lowest)
    return (matches,) if matches else ()


#: CAPTURES[month][nibble]: :func:`captures` when the table holds the cards ``nibble`` of
#: that month (bit k: the month's card k)
CAPTURES: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(captures(nibble << 4 * month) for nibble in range(16)) for month in range(NUM_CARDS // 4)
)


def captures_on(table: int, card: int) -> tuple[int, ...]:
    """:func:`captures` for ``card`` against the whole ``table``, by one look-up (a card's
    month is ``card >> 2``, its cards the nibble at bit ``card & ~3``)."""
    return CAPTURES[card >> 2][table >> (card & ~3) & 15]


#: SINGLE_OPTIONS[month][nibble]: each card of that month's subset as its own option
SINGLE_OPTIONS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(tuple(1 << (4 * m + k) for k in range(4) if nibble >> k & 1) for nibble in range(16))
    for m in range(12)
)


def single_options(matches: int) -> tuple[int, ...]:
    """Each card of ``matches`` (cards of one month) as its own capture option."""
    if not matches:
        return ()
    shift = lowest_card(matches) & ~3
    return SINGLE_OPTIONS[shift >> 2][matches >> shift & 15]
