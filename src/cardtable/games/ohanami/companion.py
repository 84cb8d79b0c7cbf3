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
from dataclasses import dataclass, field
from typing import Any

from cardtable.core.errors import CardtableError, OptionError
from cardtable.core.game import load
from cardtable.core.results import RoundResult
from cardtable.games.ohanami.scoring import STAGES, Garden, pink_tiebreak, score_stage
from cardtable.locales import Reason

__all__ = ["STAGES", "Garden", "OhanamiPad", "results", "stage_result"]


def stage_result(
    players: int, stage: int, gardens: Sequence[Garden], options: Mapping[str, Any] | None = None
) -> RoundResult:
    """The engine's score lines for every garden after ``stage`` (1-3)."""
    if len(gardens) != players:
        raise OptionError(f"give {players} gardens, not {len(gardens)}")
    load("ohanami", **{**dict(options or {}), "players": players})  # the options must be valid
    return score_stage(stage, gardens)


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
        self.pinks = [pink_tiebreak(g.colour_counts()["pink"], capped) for g in gardens]
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
#: the catalogue key of the lobby's link to the pad
LINK = "pad.ohanami_link"


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
            why = error.args[0] if error.args else None
            if isinstance(why, Reason):  # the page says it in its own language
                out["current_error_reason"] = why.to_json()
    return out
