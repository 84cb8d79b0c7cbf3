"""Scores that explain themselves: per-round lines, round results, match results."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.core.frozen import Frozen
from cardtable.locales import LANGUAGES, message, value_json


@dataclass(frozen=True, slots=True)
class ScoreLine(Frozen):
    """One reason a seat's score changed in a round.

    ``rule`` is a stable key (``"card_points"``, ``"par"``, ``"yaku:goko"``) that front ends
    link to the rules; ``message`` names the label in the message catalogues
    (:mod:`cardtable.locales`) and ``values`` fill its fields, so each front end says it in
    the player's language (:meth:`text`; ``label`` is the English).

    >>> line = ScoreLine.of(1, "par", -88, "line.par", total=264, players=3)
    >>> line.label, line.text("pl")
    ('Par (264 / 3)', 'Norma (264 / 3)')
    """

    seat: int
    rule: str
    points: int
    message: str
    values: tuple[tuple[str, Any], ...] = ()
    cards: tuple[str, ...] = ()

    @classmethod
    def of(
        cls,
        line_seat: int,
        line_rule: str,
        line_points: int,
        line_message: str,
        line_cards: tuple[str, ...] = (),
        /,
        **values: Any,
    ) -> ScoreLine:
        """A line whose message fields are the keywords (``seat`` and ``points`` are free
        as field names: compiled, the positional-only parameters would still take a keyword
        of their own name, hence theirs are prefixed).

        >>> ScoreLine.of(0, "pays", -3, "line.pays", seat=1).values
        (('seat', 1),)
        """
        return cls(
            line_seat, line_rule, line_points, line_message, tuple(values.items()), line_cards
        )

    def text(self, lang: str) -> str:
        """The label in ``lang`` (English for a language without a catalogue)."""
        return message(self.message, lang, **dict(self.values))

    @property
    def label(self) -> str:
        return self.text("en")

    def to_json(self) -> dict[str, Any]:
        labels = {lang: self.text(lang) for lang in LANGUAGES}
        return {
            "seat": self.seat,
            "rule": self.rule,
            "label": labels["en"],  # said once: saying a line is most of what a result costs
            "labels": labels,
            # the message and its values, for a front end that names the players itself
            "message": self.message,
            "values": {name: value_json(value) for name, value in self.values},
            "points": self.points,
            "cards": list(self.cards),
        }


class RoundResult:
    """What one round (or stage) gave each seat, and why.

    The lines may be made later: :meth:`explained_later` gives a result whose lines are
    made when first read, so play that never reads them (search, training, the arena)
    does not pay for them.

    >>> quick = RoundResult(1, 0, (5, -5), outcome="shobu")
    >>> lines = (ScoreLine.of(0, "yaku:tsukimi", 5, "line.yaku"),)
    >>> later = quick.explained_later(lambda: RoundResult(1, 0, (5, -5), lines, "shobu"))
    >>> later.lines == lines, later == RoundResult(1, 0, (5, -5), lines, "shobu")
    (True, True)
    """

    __slots__ = ("_explain", "_lines", "_said", "dealer", "number", "outcome", "scores")

    def __init__(
        self,
        number: int,
        dealer: int,
        scores: tuple[int, ...],
        lines: tuple[ScoreLine, ...] = (),
        outcome: str = "played",
    ) -> None:
        self.number = number
        self.dealer = dealer
        self.scores = scores
        self.outcome = outcome
        self._lines = lines
        self._explain: Callable[[], RoundResult] | None = None
        self._said: list[dict[str, Any]] | None = None

    def explained_later(self, explain: Callable[[], RoundResult]) -> RoundResult:
        """This result, with the lines of ``explain()`` made when they are first read
        (``explain`` must give the same scores and outcome: that is checked then)."""
        later = RoundResult(self.number, self.dealer, self.scores, (), self.outcome)
        later._explain = explain
        return later

    @property
    def lines(self) -> tuple[ScoreLine, ...]:
        explain = self._explain
        if explain is not None:
            explained = explain()
            if (explained.scores, explained.outcome) != (self.scores, self.outcome):
                raise AssertionError(
                    f"round {self.number}: lines scoring {explained.scores} ({explained.outcome})"
                    f" do not explain {self.scores} ({self.outcome})"
                )
            self._lines, self._explain = explained.lines, None
        return self._lines

    def _fields(self) -> tuple[int, int, tuple[int, ...], tuple[ScoreLine, ...], str]:
        return (self.number, self.dealer, self.scores, self.lines, self.outcome)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RoundResult):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        number, dealer, scores, lines, outcome = self._fields()
        return (
            f"RoundResult(number={number!r}, dealer={dealer!r}, scores={scores!r}, "
            f"lines={lines!r}, outcome={outcome!r})"
        )

    def __reduce__(self) -> tuple[type[RoundResult], tuple[Any, ...]]:
        return (RoundResult, self._fields())  # a pickled result carries its lines

    def to_json(self) -> dict[str, Any]:
        # every frame to every seat carries the past rounds, each line said in every
        # language: a round's lines never change, so they are said once
        if self._said is None:
            self._said = [line.to_json() for line in self.lines]
        return {
            "round": self.number,
            "dealer": self.dealer,
            "scores": list(self.scores),
            "outcome": self.outcome,
            "lines": [dict(line) for line in self._said],
        }


@dataclass(frozen=True, slots=True)
class MatchResult(Frozen):
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


def settlement(scores: Sequence[int]) -> list[tuple[int, int, int]]:
    """Who pays whom how much to settle zero-sum ``scores``: (payer, payee, amount).

    >>> settlement([132, -78, -54])
    [(1, 0, 78), (2, 0, 54)]
    """
    debtors = [[s, -v] for s, v in enumerate(scores) if v < 0]
    creditors = [[s, v] for s, v in enumerate(scores) if v > 0]
    payments = []
    for debtor in debtors:
        for creditor in creditors:
            amount = min(debtor[1], creditor[1])
            if amount > 0:
                payments.append((debtor[0], creditor[0], amount))
                debtor[1] -= amount
                creditor[1] -= amount
    return payments
