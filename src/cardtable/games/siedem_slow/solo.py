"""The solo game (games/siedem_slow/pages/siedem-slow.md, "Solo"): the SOLO card's fields, its
hourglass, and what a round's word does on the card.

One player races the hourglass. A word finished in time and worth ``SOLO_BONUS_MIN`` or
more marks a bonus box (the 2nd box on field 1, the 1st elsewhere). A word worth
``SOLO_MOVE_UP_MIN`` or more keeps the marker (back on field 1 when it was in time); a
weaker one moves it a field down, and on the red field costs a penalty and sends it back
up to field 2 (to red again where brutal has no field 2).

>>> solo_round(22, in_time=True, field=2, fields=SOLO_FIELDS)
SoloRound(box=<Box.BEAT_LEAD: 1>, field=0, penalty=False)
>>> solo_round(9, in_time=False, field=2, fields=SOLO_FIELDS)
SoloRound(box=None, field=1, penalty=True)
"""

from __future__ import annotations

from dataclasses import dataclass

from cardtable.games.siedem_slow.tables import (
    SOLO_BONUS_MIN,
    SOLO_FIELDS,
    SOLO_FIELDS_BRUTAL,
    SOLO_MOVE_UP_MIN,
    SOLO_TARGET,
    Box,
    Difficulty,
)

#: the field whose hourglass runs twice under the ``solo_turns_per_field`` house rule
LONG_FIELD = "2"


def solo_fields(difficulty: Difficulty) -> tuple[str, ...]:
    """The SOLO card's fields top to bottom: brutal has no field 2."""
    return SOLO_FIELDS_BRUTAL if difficulty == "brutal" else SOLO_FIELDS


def hourglass_turns(field_name: str, *, turns_per_field: bool) -> int:
    """How many times the hourglass runs for a round on ``field_name``."""
    return 2 if turns_per_field and field_name == LONG_FIELD else 1


def solo_won(total: int, difficulty: Difficulty) -> bool:
    return total >= SOLO_TARGET[difficulty]


@dataclass(frozen=True, slots=True)
class SoloRound:
    """What a solo round's word does on the SOLO card."""

    box: Box | None  # the bonus box it marks, if any
    field: int  # the marker's field for the next round (an index into the fields)
    penalty: bool  # a weak word on the red field costs a challenge penalty


def solo_round(points: int, *, in_time: bool, field: int, fields: tuple[str, ...]) -> SoloRound:
    """The bonus and the marker's move for a word worth ``points`` on field ``field``."""
    name = fields[field]
    box = None
    if in_time and points >= SOLO_BONUS_MIN:
        box = Box.LEAD_WINS if name == "1" else Box.BEAT_LEAD
    if points >= SOLO_MOVE_UP_MIN:
        return SoloRound(box, 0 if in_time else field, penalty=False)
    if name == "red":
        return SoloRound(box, fields.index(LONG_FIELD if LONG_FIELD in fields else "red"), True)
    return SoloRound(box, field + 1, penalty=False)
