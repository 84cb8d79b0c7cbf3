"""7 słów actions: writing, the clock's time-up, and the review's challenges and votes.

Time is an input, not a hidden clock: front ends send the clock's events as
:class:`TimeUp` actions from seat :data:`CLOCK`, so the terminal, the server and the tests
drive a round alike.

>>> parse_action({"type": "submit", "word": "kot"})
Submit(word='kot')
>>> parse_action(Challenge(2).to_json()) == Challenge(2)
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardtable.core.actions import action_type
from cardtable.core.errors import IllegalAction

JSON = dict[str, Any]
#: The seat number the clock acts as (its only action is :class:`TimeUp`).
CLOCK = -1


@dataclass(frozen=True, slots=True)
class Submit:
    """Write (or rewrite) your word; it stays yours to change until you lock it."""

    word: str

    def to_json(self) -> JSON:
        return {"type": "submit", "word": self.word}

    def __str__(self) -> str:
        return f"write {self.word.upper()}"


@dataclass(frozen=True, slots=True)
class Flip:
    """Lock your word and turn the hourglass: the others have 30 seconds."""

    def to_json(self) -> JSON:
        return {"type": "flip"}

    def __str__(self) -> str:
        return "flip the hourglass"


@dataclass(frozen=True, slots=True)
class Lock:
    """Lock your word (or no word at all) without flipping: you are done."""

    def to_json(self) -> JSON:
        return {"type": "lock"}

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class TimeUp:
    """The running timer ran out (sent by the clock, seat CLOCK)."""

    def to_json(self) -> JSON:
        return {"type": "time-up"}

    def __str__(self) -> str:
        return "time is up"


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge the word of ``seat``: the dictionary (or a vote) decides."""

    seat: int

    def to_json(self) -> JSON:
        return {"type": "challenge", "seat": self.seat}

    def __str__(self) -> str:
        return f"challenge seat {self.seat}'s word"


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the words of this round (no more challenges from you)."""

    def to_json(self) -> JSON:
        return {"type": "accept"}

    def __str__(self) -> str:
        return "accept the words"


@dataclass(frozen=True, slots=True)
class Vote:
    """Vote on a challenged word of the same family: uphold the challenge, or not."""

    uphold: bool

    def to_json(self) -> JSON:
        return {"type": "vote", "uphold": self.uphold}

    def __str__(self) -> str:
        return "uphold the challenge" if self.uphold else "let the word stand"


WordAction = Submit | Flip | Lock | TimeUp | Challenge | Accept | Vote
_SIMPLE: dict[str, WordAction] = {
    "flip": Flip(),
    "lock": Lock(),
    "time-up": TimeUp(),
    "accept": Accept(),
}


def parse_action(data: Mapping[str, Any]) -> WordAction:
    kind = action_type(data, {**_SIMPLE, "submit": Submit, "challenge": Challenge, "vote": Vote})
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    if kind == "submit":
        word = data.get("word")
        if not isinstance(word, str) or len(word) > 100:
            raise IllegalAction("submit needs 'word': a string of at most 100 characters")
        return Submit(word)
    if kind == "challenge":
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise IllegalAction("challenge needs 'seat': the seat whose word you challenge")
        return Challenge(seat)
    uphold = data.get("uphold")
    if not isinstance(uphold, bool):
        raise IllegalAction("vote needs 'uphold': true or false")
    return Vote(uphold)
