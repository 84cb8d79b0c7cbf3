"""Ohanami score pad for a game played with the real box: each garden's cards (or just
its colour counts) after each stage; the engine's own stage scoring, totals and tie break.

>>> pad = OhanamiPad(players=2)
>>> pad.add_stage([Garden(cards=(2, 4, 3)), Garden(counts={"blue": 1, "pink": 3})]).scores
(6, 3)
>>> pad.totals, pad.leaders()
((6, 3), [0])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from cardtable.core.errors import CardtableError, OptionError
from cardtable.core.game import load
from cardtable.core.results import RoundResult, ScoreLine
from cardtable.games.ohanami.deck import COLOUR_OF, COLOURS
from cardtable.games.ohanami.game import OhanamiState

STAGES = 3


@dataclass(frozen=True)
class Garden:
    """One garden after a stage: its cards, or only how many of each colour it has."""

    cards: tuple[int, ...] = ()
    counts: Mapping[str, int] | None = None

    def colour_counts(self) -> dict[str, int]:
        if self.counts is not None:
            unknown = set(self.counts) - set(COLOURS)
            if unknown:
                raise OptionError(f"colours are {', '.join(COLOURS)}, not {', '.join(unknown)}")
            if any(int(v) < 0 for v in self.counts.values()):
                raise OptionError("a colour count cannot be negative")
            return {c: int(self.counts.get(c, 0)) for c in COLOURS}
        counts: dict[str, int] = dict.fromkeys(COLOURS, 0)
        for card in self.cards:
            if card not in COLOUR_OF:
                raise OptionError(f"{card} is not an Ohanami card (1 to 120)")
            counts[COLOUR_OF[card]] += 1
        return counts

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


def _stand_ins(counts: Mapping[str, int]) -> tuple[int, ...]:
    """Real cards of the right colours, for a garden entered by counts (scoring reads only
    colours, and the lines of such a garden name no cards)."""
    cards: list[int] = []
    for colour in COLOURS:
        of_colour = [n for n, c in sorted(COLOUR_OF.items()) if c == colour]
        wanted = counts.get(colour, 0)
        if wanted > len(of_colour):
            raise OptionError(f"the box has only {len(of_colour)} {colour} cards, not {wanted}")
        cards.extend(of_colour[:wanted])
    return tuple(cards)


def stage_result(
    players: int, stage: int, gardens: Sequence[Garden], options: Mapping[str, Any] | None = None
) -> RoundResult:
    """The engine's score lines for every garden after ``stage`` (1-3)."""
    if not 1 <= stage <= STAGES:
        raise OptionError(f"Ohanami has stages 1 to {STAGES}, not {stage}")
    if len(gardens) != players:
        raise OptionError(f"give {players} gardens, not {len(gardens)}")
    state = load("ohanami", **{**dict(options or {}), "players": players}).new_state(seed=0)
    assert isinstance(state, OhanamiState)
    seen: set[int] = set()
    for garden in gardens:
        twice = seen & set(garden.cards)
        if twice:
            raise OptionError(f"card {min(twice)} cannot be in two gardens")
        seen |= set(garden.cards)
    lines: list[ScoreLine] = []
    scores = []
    for seat, garden in enumerate(gardens):
        counts = garden.colour_counts()
        if garden.counts is None:
            state.rows[seat] = (tuple(garden.cards),)
            seat_lines = state.stage_lines(seat, stage)
        else:
            state.rows[seat] = (_stand_ins(counts),)
            seat_lines = [replace(line, cards=()) for line in state.stage_lines(seat, stage)]
        lines.extend(seat_lines)
        scores.append(sum(line.points for line in seat_lines))
    return RoundResult(stage, 0, tuple(scores), tuple(lines), "stage")


@dataclass
class OhanamiPad:
    """A whole game at a real table: stages so far, totals, the leaders after the tie break."""

    players: int
    options: dict[str, Any] = field(default_factory=dict)
    stages: list[RoundResult] = field(default_factory=list)
    pinks: list[int] = field(default_factory=list)

    def add_stage(self, gardens: Sequence[Garden]) -> RoundResult:
        result = stage_result(self.players, len(self.stages) + 1, gardens, self.options)
        self.stages.append(result)
        capped = self.options.get("pink_tiebreak") == "capped"  # as the engine's option says
        self.pinks = [
            min(n, 15) if capped else n for n in (g.colour_counts()["pink"] for g in gardens)
        ]
        return result

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(sum(s.scores[k] for s in self.stages) for k in range(self.players))

    def leaders(self) -> list[int]:
        """Who leads: most points, then most pink cards (the rulebook's tie break)."""
        best = max(self.totals)
        tied = [k for k, t in enumerate(self.totals) if t == best]
        if len(tied) > 1 and self.pinks:
            most = max(self.pinks[k] for k in tied)
            tied = [k for k in tied if self.pinks[k] == most]
        return tied


#: the browser pad that enters these stages
PAD = "ohanami"


def results(game: str, options: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """Every finished stage scored, totals, who leads after the tie break, and the stage
    being entered."""
    pad = OhanamiPad(players=int(options.get("players", 2)), options=options)
    for gardens in data.get("rounds", []):
        pad.add_stage([Garden.from_json(g) for g in gardens])
    out: dict[str, Any] = {
        "rounds": [r.to_json() for r in pad.stages],
        "totals": list(pad.totals),
        "leaders": pad.leaders() if pad.stages else [],
        "settlement": [],
    }
    current = data.get("current")
    if current and len(pad.stages) < STAGES:
        try:
            stage = len(pad.stages) + 1
            result = stage_result(
                pad.players, stage, [Garden.from_json(g) for g in current], options
            )
            out["current"] = result.to_json()
        except CardtableError as error:
            out["current_error"] = str(error)
    return out
