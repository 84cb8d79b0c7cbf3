"""Hanafuda fishing games: the 48-card deck, shared capture mechanics, and the games.

>>> from cardtable.games.hanafuda import cards, codes
>>> codes(cards("08-1 01-1 03-1"))
['01-1', '03-1', '08-1']
"""

from cardtable.games.hanafuda import bakappana, hana_awase, koikoi
from cardtable.games.hanafuda.actions import KoiKoi, Play, Shobu, Take, parse_action
from cardtable.games.hanafuda.deck import CARDS, Card, Kind, card_index, cards, codes, value_of

__all__ = [
    "CARDS",
    "Card",
    "Kind",
    "KoiKoi",
    "Play",
    "Shobu",
    "Take",
    "bakappana",
    "card_index",
    "cards",
    "codes",
    "hana_awase",
    "koikoi",
    "parse_action",
    "value_of",
]
