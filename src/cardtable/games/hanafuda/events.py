"""What happened to each card of a round: capture events, kept packed in one number each."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Final, NamedTuple

from cardtable.games.hanafuda.deck import CODES, codes

JSON = dict[str, Any]


class Source(StrEnum):
    """Where a resolved card came from; the values are what views show."""

    HAND = "hand"
    STOCK = "stock"
    STOCK_KEPT = "stock-kept"  # flipped, matched nothing, and went to hand (koi-koi variant)


class CaptureEvent(NamedTuple):
    """A card resolved against the table: who, from where, which card, what it captured
    (a card mask; 0: the card joined the table).

    The state keeps each event packed in one number (:func:`packed_event`): every card of
    every round records one, and a number costs a fraction of a tuple to make and free.
    Views and the terminal read them unpacked (:attr:`FishingState.events`).
    """

    seat: int
    source: Source
    card: int
    captured: int

    def to_json(self) -> JSON:
        return {
            "seat": self.seat,
            "from": self.source,
            "card": CODES[self.card],
            "captured": codes(self.captured),
        }


#: where a resolved card came from, as :func:`packed_event` numbers it
FROM_HAND: Final = 0
FROM_STOCK: Final = 1
KEPT_FROM_STOCK: Final = 2
_SOURCES: Final = (Source.HAND, Source.STOCK, Source.STOCK_KEPT)


def packed_event(seat: int, source: int, card: int, captured: int) -> int:
    """A capture event as one number: seat (2 bits), source (2), card (6), then the mask.

    >>> unpacked_event(packed_event(3, KEPT_FROM_STOCK, 47, 1 << 44 | 1 << 45))
    CaptureEvent(seat=3, source=<Source.STOCK_KEPT: 'stock-kept'>, card=47, captured=52776558133248)
    """
    return seat | source << 2 | card << 4 | captured << 10


#: each packed event's JSON, once: every view lists the round's events, and a game's events
#: are a few thousand numbers at most
_JSON_OF: dict[int, JSON] = {}


def event_json(number: int) -> JSON:
    """``unpacked_event(number).to_json()``, the same dict every call: a view reads it and
    never changes it (one that adds to an event, a Hana-awase 88 steal, copies it first)."""
    known = _JSON_OF.get(number)
    if known is None:
        if len(_JSON_OF) >= 1 << 16:
            _JSON_OF.clear()
        known = _JSON_OF[number] = unpacked_event(number).to_json()
    return known


def unpacked_event(number: int) -> CaptureEvent:
    """The :class:`CaptureEvent` a :func:`packed_event` number stands for."""
    return CaptureEvent(number & 3, _SOURCES[number >> 2 & 3], number >> 4 & 63, number >> 10)
