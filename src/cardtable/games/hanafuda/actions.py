"""Hanafuda actions: play a hand card, take a card for a flipped stock card, koi-koi, shōbu.

Every action object is interned, so ``legal_actions`` builds no objects in the hot path,
and equal actions are equal whether interned or built by hand.

>>> Play.of("02-3", "02-2").to_json()
{'type': 'play', 'card': '02-3', 'take': '02-2'}
>>> parse_action({"type": "take", "card": "02-2"}) == Take(5)
True
>>> str(Play.of("03-1"))
'play 03-1'
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, cast

from cardtable.core.actions import action_type
from cardtable.core.errors import IllegalAction
from cardtable.core.frozen import Frozen
from cardtable.games.hanafuda.capture import captures
from cardtable.games.hanafuda.deck import (
    CODES,
    MONTH_OF,
    NUM_CARDS,
    card_index,
    lowest_card,
    tagged,
)


@dataclass(frozen=True, slots=True)
class Play(Frozen):
    """Play ``card`` from hand; ``take`` names the table card when two of its month lie there."""

    card: int
    take: int | None = None

    @staticmethod
    def of(card: str, take: str | None = None) -> Play:
        return Play(card_index(card), None if take is None else card_index(take))

    def to_json(self) -> dict[str, Any]:
        take = None if self.take is None else CODES[self.take]
        return {"type": "play", "card": CODES[self.card], "take": take}

    # Written out, not the dataclass's: compiled, those are Python functions, and the
    # search hashes an action at every step of every walk down its tree.
    def __hash__(self) -> int:
        return self.card if self.take is None else self.card | (self.take + 1) << 6

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Play):
            return NotImplemented
        return self.card == other.card and self.take == other.take

    def __str__(self) -> str:
        if self.take is None:
            return f"play {CODES[self.card]}"
        return f"play {CODES[self.card]} taking {CODES[self.take]}"


@dataclass(frozen=True, slots=True)
class Take(Frozen):
    """Choose which of two matching table cards the flipped stock card captures."""

    card: int

    def __hash__(self) -> int:  # as Play's, written out
        return self.card | 1 << 12

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Take):
            return NotImplemented
        return self.card == other.card

    def to_json(self) -> dict[str, Any]:
        return {"type": "take", "card": CODES[self.card]}

    def __str__(self) -> str:
        return f"take {CODES[self.card]}"


@dataclass(frozen=True, slots=True)
class KoiKoi(Frozen):
    """Go on after making a yaku (koi-koi)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "koi-koi"}

    def __str__(self) -> str:
        return "koi-koi"


@dataclass(frozen=True, slots=True)
class Shobu(Frozen):
    """Stop the round and score (shōbu)."""

    def to_json(self) -> dict[str, Any]:
        return {"type": "shobu"}

    def __str__(self) -> str:
        return "shōbu"


HanafudaAction = Play | Take | KoiKoi | Shobu

#: interned actions: PLAY[card], PLAY_TAKING[card][take], TAKE[card]
PLAY: Final[tuple[Play, ...]] = tuple(Play(i) for i in range(NUM_CARDS))
PLAY_TAKING: Final[tuple[dict[int, Play], ...]] = tuple(
    {j: Play(i, j) for j in range(NUM_CARDS) if MONTH_OF[j] == MONTH_OF[i] and j != i}
    for i in range(NUM_CARDS)
)
TAKE: Final[tuple[Take, ...]] = tuple(Take(i) for i in range(NUM_CARDS))


def plays_of(card: int, options: tuple[int, ...]) -> list[Play]:
    """The plays of a hand card with these capture options: one, or one per choice."""
    if len(options) < 2:
        return [PLAY[card]]
    return [play_taking(card, lowest_card(option)) for option in options]


def play_taking(card: int, take: int) -> Play:
    """``card`` taking ``take``: interned when ``take`` is of its month (a wild card may
    take any)."""
    return PLAY_TAKING[card].get(take) or Play(card, take)


def _month_plays(month: int, hand_nibble: int, table_nibble: int) -> tuple[Play, ...]:
    """The hand plays of one month, given which of its four cards are in hand / on table."""
    if hand_nibble & table_nibble:
        return ()  # a card cannot be in hand and on the table
    options = captures(table_nibble << 4 * month)
    plays: list[Play] = []
    for k in range(4):
        if hand_nibble >> k & 1:
            plays.extend(plays_of(4 * month + k, options))
    return tuple(plays)


#: MONTH_PLAYS[month][hand nibble][table nibble] -> the legal hand plays of that month,
#: by the capture rule (:func:`~.capture.captures`)
MONTH_PLAYS: Final[tuple[tuple[tuple[tuple[Play, ...], ...], ...], ...]] = tuple(
    tuple(tuple(_month_plays(m, h, t) for t in range(16)) for h in range(16)) for m in range(12)
)
KOIKOI: Final = KoiKoi()
SHOBU: Final = Shobu()

_TYPES = {"play": Play, "take": Take, "koi-koi": KoiKoi, "shobu": Shobu}

# -- action numbers (the RL encoders' action space, :mod:`.encoding`) ------------------------
#: play a card (48), play a card taking one of its month's cards (48 x 4), take a card for
#: the flipped stock card (48), koi-koi, shōbu; under koi-koi's wild lightning, play the
#: lightning taking any card (48) and play a card taking the lightning (48): 386 numbers
NUMBER_PLAY: Final = 0
NUMBER_PLAY_TAKE: Final = NUM_CARDS
NUMBER_TAKE: Final = NUM_CARDS * 5
NUMBER_KOIKOI: Final = NUM_CARDS * 6
NUMBER_SHOBU: Final = NUM_CARDS * 6 + 1
NUMBER_LIGHTNING_TAKES: Final = NUM_CARDS * 6 + 2
NUMBER_TAKES_LIGHTNING: Final = NUM_CARDS * 7 + 2
ACTION_NUMBERS: Final = NUM_CARDS * 8 + 2
#: the card koi-koi's ``lightning=wild`` rule makes wild (11-4)
_LIGHTNING: Final = lowest_card(tagged("lightning"))


def action_number(action: HanafudaAction) -> int:
    """The number of an action (a take names one of the month's four cards).

    >>> action_number(Play.of("02-3", "02-2")), action_of_number(73) == Play.of("02-3", "02-2")
    (73, True)
    """
    kind = type(action)
    if kind is Play:
        play = cast(Play, action)
        if play.take is None:
            return NUMBER_PLAY + play.card
        if MONTH_OF[play.take] == MONTH_OF[play.card]:
            return NUMBER_PLAY_TAKE + play.card * 4 + play.take % 4
        if play.card == _LIGHTNING:
            return NUMBER_LIGHTNING_TAKES + play.take
        if play.take == _LIGHTNING:
            return NUMBER_TAKES_LIGHTNING + play.card
        raise IllegalAction(f"no number for {play}: it takes a card of another month")
    if kind is Take:
        return NUMBER_TAKE + cast(Take, action).card
    return NUMBER_KOIKOI if kind is KoiKoi else NUMBER_SHOBU


def action_of_number(number: int) -> HanafudaAction:
    """The action numbered ``number``, interned; IllegalAction for a number outside
    ``0 .. ACTION_NUMBERS - 1``.

    >>> action_of_number(386)
    Traceback (most recent call last):
    ...
    cardtable.core.errors.IllegalAction: there is no action 386 (0..385)
    """
    if not 0 <= number < ACTION_NUMBERS:
        raise IllegalAction(f"there is no action {number} (0..{ACTION_NUMBERS - 1})")
    if number < NUMBER_PLAY_TAKE:
        return PLAY[number]
    if number < NUMBER_TAKE:
        card, kind = divmod(number - NUMBER_PLAY_TAKE, 4)
        return play_taking(card, card - card % 4 + kind)
    if number < NUMBER_KOIKOI:
        return TAKE[number - NUMBER_TAKE]
    if number < NUMBER_LIGHTNING_TAKES:
        return KOIKOI if number == NUMBER_KOIKOI else SHOBU
    if number < NUMBER_TAKES_LIGHTNING:
        return play_taking(_LIGHTNING, number - NUMBER_LIGHTNING_TAKES)
    return play_taking(number - NUMBER_TAKES_LIGHTNING, _LIGHTNING)


def _card_field(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, str):
        raise IllegalAction(
            f"{key!r} must be a card code such as '03-1', not {value!r}", given=[value]
        )
    try:
        return card_index(value)
    except ValueError as error:
        raise IllegalAction(str(error), given=[value]) from None


def parse_action(data: Mapping[str, Any]) -> HanafudaAction:
    """The action a JSON object describes; malformed input raises IllegalAction."""
    kind = action_type(data, _TYPES)
    if kind == "play":
        card = _card_field(data, "card")
        if data.get("take") is None:
            return PLAY[card]
        return play_taking(card, _card_field(data, "take"))
    if kind == "take":
        return TAKE[_card_field(data, "card")]
    return KOIKOI if kind == "koi-koi" else SHOBU
