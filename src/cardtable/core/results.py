"""Scores that explain themselves: per-round lines, round results, match results."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One reason a seat's score changed in a round.

    ``rule`` is a stable key (``"card_points"``, ``"par"``, ``"yaku:goko"``) that front ends
    translate and link to the rules; ``label`` is the English text.
    """

    seat: int
    rule: str
    label: str
    points: int
    cards: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "rule": self.rule,
            "label": self.label,
            "points": self.points,
            "cards": list(self.cards),
        }


@dataclass(frozen=True, slots=True)
class RoundResult:
    """What one round (or stage) gave each seat, and why."""

    number: int
    dealer: int
    scores: tuple[int, ...]
    lines: tuple[ScoreLine, ...] = ()
    outcome: str = "played"

    def to_json(self) -> dict[str, Any]:
        return {
            "round": self.number,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "outcome": self.outcome,
            "lines": [line.to_json() for line in self.lines],
        }


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Totals so far, the winners once the game is over, and every round's breakdown."""

    game: str
    over: bool
    scores: tuple[int, ...]
    rounds: tuple[RoundResult, ...] = field(default_factory=tuple)
    #: the game's tie-break per seat (higher is better), when its rules have one
    tiebreak: tuple[int, ...] | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        """Seats with the best total, then the best tie-break; several on a full tie;
        empty while the game goes on."""
        if not self.over or not self.scores:
            return ()
        keys = [(s, self.tiebreak[i] if self.tiebreak else 0) for i, s in enumerate(self.scores)]
        best = max(keys)
        return tuple(seat for seat, key in enumerate(keys) if key == best)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "over": self.over,
            "scores": list(self.scores),
            "winners": list(self.winners),
            "tiebreak": None if self.tiebreak is None else list(self.tiebreak),
            "rounds": [r.to_json() for r in self.rounds],
        }
