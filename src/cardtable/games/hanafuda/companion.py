"""Round calculator for hanafuda played at a real table: players say what happened, the
engine's own scoring says what it is worth.

The facts are what a table can tell after a round — each player's captured cards, the
dealer, koi-koi calls and who called shōbu, the cards left on the table, and the dealt
hands when someone claims a hand yaku. Checked, they are scored by the same pure function
the engine scores its rounds with (:mod:`.scoring`), so the calculator cannot disagree
with the engine under any house rule.

>>> facts = RoundFacts(piles=(("08-1", "08-2", "09-1"), ()), shobu=0)
>>> result = score_round("koi-koi", {}, facts)
>>> [(line.seat, line.rule, line.points) for line in result.lines]
[(0, 'yaku:tsukimi', 5), (1, 'pays', -5)]
>>> result.scores
(5, -5)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardtable.core.errors import CardtableError, OptionError
from cardtable.core.game import load
from cardtable.core.results import RoundResult, settlement
from cardtable.games.hanafuda.deck import cards, codes
from cardtable.games.hanafuda.fishing import FishingState
from cardtable.games.hanafuda.scoring import FinishedRound


@dataclass(frozen=True)
class RoundFacts:
    """What players at a physical table can tell about a finished round, as they enter
    it (card codes, seats from 0; the JSON the score pad sends)."""

    piles: tuple[tuple[str, ...], ...]  # each player's captured cards
    dealer: int = 0
    table: tuple[str, ...] = ()  # left on the table at the end (the weather rules read it)
    first_table: tuple[str, ...] = ()  # the table as dealt (koi-koi: lights multiplier)
    hands: tuple[tuple[str, ...], ...] = ()  # hands as dealt: teyaku and lucky hands
    calls: tuple[int, ...] = ()  # koi-koi calls per player
    shobu: int | None = None  # koi-koi: who stopped the round (None: the stock ran out)
    last_improver: int | None = None  # koi-koi: last to improve a yaku (a house rule reads it)
    round_no: int = 1

    def to_json(self) -> dict[str, Any]:
        return {
            "piles": [list(p) for p in self.piles],
            "dealer": self.dealer,
            "table": list(self.table),
            "first_table": list(self.first_table),
            "hands": [list(h) for h in self.hands],
            "calls": list(self.calls),
            "shobu": self.shobu,
            "last_improver": self.last_improver,
            "round_no": self.round_no,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> RoundFacts:
        try:
            return cls(
                piles=tuple(tuple(str(c) for c in pile) for pile in data["piles"]),
                dealer=int(data.get("dealer", 0)),
                table=tuple(str(c) for c in data.get("table") or ()),
                first_table=tuple(str(c) for c in data.get("first_table") or ()),
                hands=tuple(tuple(str(c) for c in hand) for hand in data.get("hands") or ()),
                calls=tuple(int(c) for c in data.get("calls") or ()),
                shobu=None if data.get("shobu") is None else int(data["shobu"]),
                last_improver=None
                if data.get("last_improver") is None
                else int(data["last_improver"]),
                round_no=int(data.get("round_no", 1)),
            )
        except (KeyError, TypeError, ValueError) as error:
            raise OptionError(f"cannot read the round: {error!r}") from None

    def finished(self, players: int) -> FinishedRound:
        """The facts checked for a game of ``players``, as the scoring reads them; an
        OptionError says what cannot be so."""
        n = players
        if len(self.piles) != n:
            raise OptionError(f"{n} players play: give {n} piles, not {len(self.piles)}")
        piles = tuple(_mask(pile, f"player {k + 1}'s cards") for k, pile in enumerate(self.piles))
        table = _mask(self.table, "table")
        seen = table
        for number, pile in enumerate(piles):
            if seen & pile:
                twice = ", ".join(codes(seen & pile))
                raise OptionError(f"{twice} cannot be in two places (player {number + 1} too)")
            seen |= pile
        if len(self.hands) > n or len(self.calls) > n:
            raise OptionError(f"give at most {n} dealt hands and {n} koi-koi calls")
        if any(c < 0 for c in self.calls):
            raise OptionError("koi-koi calls cannot be negative")
        seats = (
            (self.dealer, "the dealer"),
            (self.shobu, "who called shōbu"),
            (self.last_improver, "the last improver"),
        )
        for seat, what in seats:
            if seat is not None and not 0 <= seat < n:
                raise OptionError(f"{what} must be a player number 1 to {n}")
        return FinishedRound(
            piles=piles,
            table=table,
            dealer=self.dealer,
            round_no=self.round_no,
            hands=tuple(
                _mask(hand, f"player {k + 1}'s dealt hand") for k, hand in enumerate(self.hands)
            ),
            first_table=_mask(self.first_table, "first table"),
            calls=self.calls,
            shobu=self.shobu,
            last_improver=self.last_improver,
        )


def _mask(spec: Iterable[str], what: str) -> int:
    try:
        return cards(list(spec))
    except (OptionError, ValueError, KeyError) as error:
        raise OptionError(f"{what}: {error}") from None


def score_round(game_id: str, options: Mapping[str, Any], facts: RoundFacts) -> RoundResult:
    """The round's score lines and scores, exactly as the engine scores them."""
    game = load(game_id, **dict(options))
    state = game.new_state(seed=0)  # its class says how the game scores a round
    if not isinstance(state, FishingState):
        message = f"the round calculator scores hanafuda fishing games, not {game_id!r}"
        raise OptionError(message, given=[game_id])
    return state.scoring()(game.options, facts.finished(game.num_players))


@dataclass
class Match:
    """A running match at a physical table: rounds so far and the totals."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    rounds: list[RoundResult] = field(default_factory=list)

    def add(self, facts: RoundFacts) -> RoundResult:
        result = score_round(self.game, self.options, facts)
        self.rounds.append(result)
        return result

    @property
    def totals(self) -> tuple[int, ...]:
        start = load(self.game, **self.options).new_state(seed=0).scores()
        return tuple(s + sum(r.scores[k] for r in self.rounds) for k, s in enumerate(start))


#: the browser pad that enters these rounds
PAD = "hanafuda"
#: the pad's other address: the game people most often score with it
PAD_ALIASES = ("koi-koi",)
#: the catalogue key of the lobby's link to the pad
LINK = "lobby.companion"


def results(game: str, options: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """Every saved round scored, the running totals and who pays whom, and the round being
    entered (or why it cannot be scored yet)."""
    start = load(game, **options).new_state(seed=0).scores()
    totals = list(start)
    rounds = []
    for entry in data.get("rounds", []):
        result = score_round(game, options, RoundFacts.from_json(entry))
        rounds.append(result.to_json())
        totals = [t + s for t, s in zip(totals, result.scores, strict=True)]
    out: dict[str, Any] = {"rounds": rounds, "totals": totals}
    change = [t - s for t, s in zip(totals, start, strict=True)]
    out["settlement"] = [list(p) for p in settlement(change)] if sum(change) == 0 else []
    current = data.get("current")
    if current:
        try:
            result = score_round(game, options, RoundFacts.from_json(current))
            out["current"] = result.to_json()
            out["current_settlement"] = [list(p) for p in settlement(result.scores)]
            # scores that do not add up to zero cannot be settled in full: say so
            out["current_balance"] = sum(result.scores)
        except CardtableError as error:
            out["current_error"] = str(error)
    return out
