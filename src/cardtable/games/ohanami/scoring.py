"""Ohanami's scoring as pure functions of the gardens (games/ohanami/pages/ohanami.md,
"Scoring"): the state scores its stages with them, and the score pad scores the gardens a table
enters with the same functions (no engine state is forged for it).

>>> result = score_stage(2, [Garden(cards=(2, 4, 3)), Garden(counts={"blue": 1})])
>>> result.scores, [line.rule for line in result.lines]
((10, 3), ['colour:blue', 'colour:green', 'colour:blue'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.core.errors import OptionError
from cardtable.core.frozen import Frozen
from cardtable.core.results import RoundResult, ScoreLine
from cardtable.games.ohanami.deck import COLOUR_OF, COLOUR_POINTS, COLOURS, PINK_CAP, stage_points
from cardtable.locales import Term, reason

STAGES = 3
IN_THE_BOX: dict[str, int] = {
    colour: sum(1 for c in COLOUR_OF.values() if c == colour) for colour in COLOURS
}


@dataclass(frozen=True)
class Garden(Frozen):
    """One garden after a stage: its cards, or only how many of each colour it has (what
    a table may enter; its lines then name no cards)."""

    cards: tuple[int, ...] = ()
    counts: Mapping[str, int] | None = None

    def colour_counts(self) -> dict[str, int]:
        if self.counts is not None:
            unknown = set(self.counts) - set(COLOURS)
            if unknown:
                raise OptionError(f"colours are {', '.join(COLOURS)}, not {', '.join(unknown)}")
            # said by catalogue key: a score pad shows why in the page's language, at the field
            for colour, wanted in self.counts.items():
                said = {"colour": Term(f"line.colour.{colour}"), "which": colour}
                if int(wanted) < 0:
                    raise OptionError(reason("pad.count_negative", wanted=wanted, **said))
                if int(wanted) > IN_THE_BOX[colour]:
                    have = IN_THE_BOX[colour]
                    raise OptionError(reason("pad.count_over", have=have, wanted=wanted, **said))
            return {c: int(self.counts.get(c, 0)) for c in COLOURS}
        counts: dict[str, int] = dict.fromkeys(COLOURS, 0)
        for card in self.cards:
            if card not in COLOUR_OF:
                raise OptionError(reason("pad.not_a_card", token=card))
            counts[COLOUR_OF[card]] += 1
        return counts

    def cards_of(self, colour: str) -> tuple[str, ...]:
        """The cards of a colour a line names (none for a garden entered by counts)."""
        return tuple(str(c) for c in sorted(self.cards) if COLOUR_OF[c] == colour)

    @classmethod
    def from_json(cls, data: Any) -> Garden:
        if not isinstance(data, Mapping):
            raise OptionError("a garden is an object with 'cards' or 'counts'")
        try:
            if data.get("counts") is not None:
                return cls(counts={str(k): int(v) for k, v in dict(data["counts"]).items()})
            return cls(cards=tuple(int(c) for c in data.get("cards") or ()))
        except (TypeError, ValueError) as error:
            raise OptionError(f"cannot read the garden: {error!r}") from None


def garden_lines(seat: int, garden: Garden, stage: int) -> list[ScoreLine]:
    """What a garden scores after ``stage``, one line per colour that scores."""
    counts = garden.colour_counts()
    points = stage_points(counts, stage)
    lines = []
    for colour in COLOURS:
        if not points[colour]:
            continue
        name = Term(f"line.colour.{colour}")
        count = counts[colour]
        if colour == "pink":
            said = "line.pink_capped" if count > PINK_CAP else "line.pink"
            values: dict[str, Any] = {"colour": name, "count": count, "cap": PINK_CAP}
        else:
            said = "line.colour"
            values = {"colour": name, "count": count, "each": COLOUR_POINTS[colour][stage - 1]}
        cards = garden.cards_of(colour)
        lines.append(ScoreLine.of(seat, f"colour:{colour}", points[colour], said, cards, **values))
    return lines


def score_stage(stage: int, gardens: Sequence[Garden]) -> RoundResult:
    """Every garden's lines and points after ``stage`` (1-3)."""
    if not 1 <= stage <= STAGES:
        raise OptionError(f"Ohanami has stages 1 to {STAGES}, not {stage}")
    seen: set[int] = set()
    for garden in gardens:
        twice = seen & set(garden.cards)
        if twice:
            raise OptionError(reason("pad.two_gardens", card=min(twice)))
        seen |= set(garden.cards)
    lines = [
        line for seat, garden in enumerate(gardens) for line in garden_lines(seat, garden, stage)
    ]
    scores = [0] * len(gardens)
    for line in lines:
        scores[line.seat] += line.points
    return RoundResult(stage, 0, tuple(scores), tuple(lines), "stage")


def pink_tiebreak(pinks: int, capped: bool) -> int:
    """A garden's pink cards as the tie break counts them (raw, or capped as scored)."""
    return min(pinks, PINK_CAP) if capped else pinks
