"""The toy fishing game: cards, actions, options, the state and its registration."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import Field

from cardtable.core.actions import Action, action_type
from cardtable.core.errors import IllegalAction
from cardtable.core.game import Capability, GameInfo, GameSpec, register
from cardtable.core.options import GameOptions
from cardtable.core.results import MatchResult, RoundResult, ScoreLine
from cardtable.core.rng import RandomSource, Rng
from cardtable.core.state import KeepsRounds
from cardtable.locales import reason

JSON = dict[str, Any]
MONTHS, KINDS = 3, 4
VALUES = (5, 3, 2, 1)  # by kind
CARDS = [f"{month + 1}-{kind + 1}" for month in range(MONTHS) for kind in range(KINDS)]
HAND, TABLE = 3, 2


def month(card: str) -> str:
    return card.split("-", maxsplit=1)[0]


def value(card: str) -> int:
    return VALUES[int(card.split("-")[1]) - 1]


@dataclass(frozen=True, slots=True)
class Play:
    card: str

    def to_json(self) -> JSON:
        return {"type": "play", "card": self.card}

    def __str__(self) -> str:
        return f"play {self.card}"


def parse_action(data: Mapping[str, Any]) -> Play:
    action_type(data, {"play": Play})
    card = data.get("card")
    if card not in CARDS:
        raise IllegalAction(f"play needs 'card': one of {', '.join(CARDS)}")
    return Play(str(card))


class ToyOptions(GameOptions):
    players: int = Field(2, ge=2, le=2, description="Two players.")
    rounds: int = Field(1, ge=1, le=5, description="Rounds in the match.")


class ToyState(KeepsRounds):
    __slots__ = (
        "hands", "last_round", "piles", "rng", "stock", "table", "turn",
    )  # fmt: skip

    def __init__(self, game: Any, seed: int, deals: tuple[JSON, ...]) -> None:
        self.begin(game, seed, deals)
        self.rng = Rng(seed)
        self.results: list[RoundResult] = []
        self.totals = [0, 0]
        self.last_round = int(game.options.rounds)
        self._deal()

    def _deal(self) -> None:
        cards = self.rng.shuffled(CARDS)
        self.hands = [cards[:HAND], cards[HAND : 2 * HAND]]
        self.table = cards[2 * HAND : 2 * HAND + TABLE]
        self.stock = cards[2 * HAND + TABLE :]
        self.piles: list[list[str]] = [[], []]
        self.turn = len(self.results) % 2

    @property
    def to_move(self) -> frozenset[int]:
        return frozenset() if self.is_over else frozenset({self.turn})

    @property
    def is_over(self) -> bool:
        return len(self.results) >= self.last_round

    def end_at_round(self, *, explain: bool = False) -> None:
        self.last_round = len(self.results) + 1

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_move:
            return []
        return [Play(card) for card in sorted(self.hands[seat])]

    def illegal_reason(self, seat: int, action: Action) -> str | None:
        if seat not in self.to_move:
            return self.not_to_move_reason(seat)
        if not isinstance(action, Play) or action.card not in self.hands[seat]:
            return reason("illegal.not_in_hand", card=getattr(action, "card", action))
        return None

    def _fish(self, seat: int, card: str) -> None:
        match = next((c for c in self.table if month(c) == month(card)), None)
        if match is None:
            self.table.append(card)
        else:
            self.table.remove(match)
            self.piles[seat] += [card, match]

    def _perform(self, seat: int, action: Action) -> None:
        assert isinstance(action, Play)
        self.hands[seat].remove(action.card)
        self._fish(seat, action.card)
        if self.stock:
            self._fish(seat, self.stock.pop(0))
        self.turn = 1 - seat
        if not any(self.hands):
            self._score()

    def _score(self) -> None:
        lines = tuple(
            ScoreLine.of(seat, "cards", sum(map(value, pile)), "line.cards", tuple(pile))
            for seat, pile in enumerate(self.piles)
        )
        scores = tuple(sum(map(value, pile)) for pile in self.piles)
        self.results.append(RoundResult(len(self.results) + 1, 0, scores, lines))
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        if not self.is_over:
            self._deal()

    def clone(self) -> ToyState:
        # without __init__; object.__new__ refuses a subclass of the compiled State
        new = ToyState.__new__(ToyState)
        new.game, new.seed, new.deals, new.log = self.game, self.seed, self.deals, self.log.copy()
        new.rng, new.turn, new.last_round = self.rng.clone(), self.turn, self.last_round
        new.hands = [h.copy() for h in self.hands]
        new.piles = [p.copy() for p in self.piles]
        new.table, new.stock = self.table.copy(), self.stock.copy()
        new.results, new.totals = self.results.copy(), self.totals.copy()
        return new

    def determinize(self, seat: int, rng: RandomSource) -> ToyState:
        new = self.clone()
        hidden = new.hands[1 - seat] + new.stock
        rng.shuffle(hidden)
        size = len(new.hands[1 - seat])
        new.hands[1 - seat], new.stock = hidden[:size], hidden[size:]
        new.rng = Rng.from_state(rng.getrandbits(64))
        return new

    def view(self, seat: int | None, *, brief: bool = False) -> JSON:
        data: JSON = {
            "game": self.game.id,
            "seat": seat,
            "players": 2,
            "round": len(self.results) + (0 if self.is_over else 1),
            "rounds": self.game.options.rounds,  # type: ignore[attr-defined]
            "table": sorted(self.table),
            "piles": [sorted(p) for p in self.piles],
            "hand_sizes": [len(h) for h in self.hands],
            "stock_size": len(self.stock),
            "to_move": sorted(self.to_move),
            "scores": list(self.totals),
            "over": self.is_over,
        }
        if seat is not None:
            data["hand"] = sorted(self.hands[seat])
            if not brief:
                data["legal_actions"] = [a.to_json() for a in self.legal_actions(seat)]
        return data

    def result(self) -> MatchResult:
        return MatchResult(self.game.id, self.is_over, tuple(self.totals), tuple(self.results))


#: what the toy's PREPARE capability did (tests/test_house.py), and whether it fails
PREPARED: list[str] = []
PREPARE_FAILS = False


def prepare() -> list[str]:
    """The toy's slow first-use work: none, only counted."""
    if PREPARE_FAILS:
        raise OSError("the toy's cache is not writable")
    PREPARED.append("prepared")
    return ["nothing slow"]


SPEC = register(
    GameSpec(
        id="toy-fishing",
        title="Toy fishing",
        summary="A 12-card fishing game for two (tests only).",
        options_model=ToyOptions,
        start=ToyState,
        parse_action=parse_action,
        info=GameInfo(players=(2, 2), search_iterations=50),
        presets={"default": {}, "match": {"rounds": 3}},
        family="toy",
        capabilities={
            Capability.BOTS: "tests.toy_fishing.bots:BOTS",
            Capability.ENCODER: "tests.toy_fishing.encoding:ToyEncoder",
            Capability.TERMINAL: "tests.toy_fishing.terminal:FRONT_END",
            Capability.PREPARE: "tests.toy_fishing.game:prepare",
        },
    )
)
