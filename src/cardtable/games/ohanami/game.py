"""Ohanami: keep two cards, pass the rest, grow up to three rows (games/ohanami/pages/ohanami.md).

Three stages of five picks. In a pick every player secretly keeps 2 cards of his hand
(:class:`Keep`; on the 5th pick the last 2 are kept without asking), then every player
places them at once (:class:`Place`: each card starts a row, extends a row above its top
or below its bottom, or is discarded), the placements are revealed together and the
hands pass on: left in stages 1 and 3, right in stage 2. Both steps are simultaneous:
``to_move`` holds every seat that has not yet committed, and nobody sees a choice before
all have made theirs.

Cards are their numbers 1..120; a set of cards is an int with bit ``n`` for card ``n``.

>>> import cardtable
>>> state = cardtable.load("ohanami", players=3).new_state(seed=4)
>>> sorted(state.to_move)
[0, 1, 2]
>>> len(state.legal_actions(0))  # any 2 of 10 cards
45
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from typing import Any, Literal, cast

from cardtable.core.actions import Action, action_type
from cardtable.core.errors import IllegalAction, OptionError
from cardtable.core.frozen import Frozen
from cardtable.core.game import Capability, GameInfo, GameSpec, register
from cardtable.core.results import MatchResult, RoundResult
from cardtable.core.rng import RandomSource, Rng, draw_below
from cardtable.core.state import KeepsRounds
from cardtable.games.ohanami.deck import COLOUR_OF, COLOURS, NUMBERS, stage_points
from cardtable.games.ohanami.options import OhanamiOptions
from cardtable.games.ohanami.scoring import STAGES, Garden, pink_tiebreak, score_stage
from cardtable.locales import Localized, Reason, reason

JSON = dict[str, Any]
PICKS, HAND = 5, 10
MAX_ROWS = 3
#: stage -> seat offset the hand passes to: left (clockwise, +1), right, left (§4.2)
PASS_STEP = {1: 1, 2: -1, 3: 1}
Target = int | Literal["new", "discard"]
Row = tuple[int, ...]


def cards_in(mask: int) -> list[int]:
    """Card numbers in a set, lowest first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def card_set(numbers: Sequence[int]) -> int:
    mask = 0
    for number in numbers:
        mask |= 1 << number
    return mask


# -- actions ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Keep(Frozen):
    """Keep these two cards of the hand (the rest passes on)."""

    cards: tuple[int, int]

    def to_json(self) -> JSON:
        return {"type": "keep", "cards": list(self.cards)}

    def __str__(self) -> str:
        return f"keep {self.cards[0]} and {self.cards[1]}"


@dataclass(frozen=True, slots=True)
class Place(Frozen):
    """Place the kept cards in this order: each to a row index, a new row, or the discard."""

    placements: tuple[tuple[int, Target], ...]

    def to_json(self) -> JSON:
        return {"type": "place", "placements": [{"card": c, "to": t} for c, t in self.placements]}

    def __str__(self) -> str:
        parts = []
        for card, target in self.placements:
            where = {"new": "a new row", "discard": "the discard"}.get(str(target), f"row {target}")
            parts.append(f"{card} to {where}")
        return "place " + ", ".join(parts)


OhanamiAction = Keep | Place


def parse_action(data: Mapping[str, Any]) -> OhanamiAction:
    kind = action_type(data, {"keep": Keep, "place": Place})
    if kind == "keep":
        cards = data.get("cards")
        if (
            not isinstance(cards, Sequence)
            or len(cards) != 2
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in cards)
        ):
            raise IllegalAction("keep needs 'cards': a list of two card numbers")
        first, second = sorted(cards)
        return Keep((first, second))
    placements = data.get("placements")
    if not isinstance(placements, Sequence) or isinstance(placements, str):
        raise IllegalAction("place needs 'placements': a list of {card, to}")
    out: list[tuple[int, Target]] = []
    for item in placements:
        if not isinstance(item, Mapping):
            raise IllegalAction("each placement is an object {card, to}")
        card, target = item.get("card"), item.get("to")
        if not isinstance(card, int) or isinstance(card, bool):
            raise IllegalAction(f"a placement's card must be a number, not {card!r}")
        if target in ("new", "discard"):
            out.append((card, cast(Target, target)))
        elif isinstance(target, int) and not isinstance(target, bool):
            out.append((card, target))
        else:
            raise IllegalAction(f"'to' is a row index, 'new' or 'discard', not {target!r}")
    return Place(tuple(out))


# -- rows -----------------------------------------------------------------------------------
def place_problem(rows: Sequence[Row], card: int, target: Target) -> Reason | None:
    """Why ``card`` cannot go to ``target`` in a garden with ``rows``, or None."""
    if target == "discard":
        return None
    if target == "new":
        if len(rows) >= MAX_ROWS:
            return reason("illegal.ohanami.row_limit", card=card, rows=MAX_ROWS)
        return None
    if not 0 <= target < len(rows):
        return reason("illegal.ohanami.no_row", row=target, last=len(rows) - 1)
    row = rows[target]
    if row[0] < card < row[-1]:
        shown = ", ".join(map(str, row))
        return reason(
            "illegal.ohanami.between",
            card=card,
            row=target,
            shown=shown,
            high=row[-1],
            low=row[0],
        )
    return None


def with_card(rows: Sequence[Row], card: int, target: Target) -> tuple[Row, ...]:
    """The rows after a legal placement (a discard leaves them as they are)."""
    if target == "discard":
        return tuple(rows)
    if target == "new":
        return (*rows, (card,))
    row = rows[target]
    grown = (*row, card) if card > row[-1] else (card, *row)
    return tuple(grown if i == target else r for i, r in enumerate(rows))


def targets(rows: Sequence[Row], card: int) -> Iterator[Target]:
    """Every legal destination of ``card``: each row it extends, a new row, the discard."""
    for index, row in enumerate(rows):
        if card > row[-1] or card < row[0]:
            yield index
    if len(rows) < MAX_ROWS:
        yield "new"
    yield "discard"


class Phase(StrEnum):
    """Where a pick stands; the values are what views, records and the browser show."""

    SELECT = "select"  # everyone keeps two cards of the hand in secret
    PLACE = "place"  # everyone places the two kept cards; all are revealed together
    OVER = "over"


# Module-level aliases, compared with `is`: Phase.X costs an enum look-up, and search
# bots ask for the phase at every step.
_SELECT, _PLACE, _OVER = Phase.SELECT, Phase.PLACE, Phase.OVER


@dataclass(frozen=True, slots=True)
class PlacementEvent(Frozen):
    """One seat's placements of the last pick, revealed to everyone at once."""

    seat: int
    placements: tuple[tuple[int, Target], ...]


class OhanamiState(KeepsRounds):
    """A game of Ohanami in progress."""

    __slots__ = (
        "discards",
        "events",
        "halt_after_round",
        "hands",
        "kept",
        "n",
        "options",
        "pending",
        "phase",
        "pick",
        "rng",
        "rows",
        "stage",
        "stock",
    )

    def __init__(self, game: Any = None, seed: int = 0, deals: tuple[JSON, ...] = ()) -> None:
        if game is None:  # a blank for clone() to fill in (compiled, __new__ runs __init__)
            return
        self.begin(game, seed, deals)
        self.options = cast(OhanamiOptions, game.options)
        self.n: int = game.num_players
        self.rng = Rng(seed)
        fixed_hands = [self._fixed_stage(k) for k in range(len(deals))]
        used = card_set([c for stage in fixed_hands for hand in stage for c in hand])
        rest = [c for c in NUMBERS if not used >> c & 1]
        order = self.rng.permutation(len(rest))
        self.stock: list[int] = [rest[i] for i in order]
        self.stage = 1
        self.pick = 1
        self.hands = [0] * self.n
        self.kept = [0] * self.n
        self.rows: list[tuple[Row, ...]] = [() for _ in range(self.n)]
        self.discards = [0] * self.n
        self.pending: list[Action | None] = [None] * self.n
        self.totals = [0] * self.n
        self.results: list[RoundResult] = []
        self.events: list[PlacementEvent] = []
        self.phase = _SELECT
        self.halt_after_round = False
        self._deal_stage()

    @property
    def rounds_planned(self) -> int:
        return STAGES

    def _fixed_stage(self, index: int) -> list[list[int]]:
        """Stage ``index + 1``'s hands from ``deals`` (each a mapping with ``hands``)."""
        data = self.deals[index]
        hands = data.get("hands")
        where = f"deals[{index}]"
        if set(data) - {"hands"}:
            raise OptionError(f"{where}: an Ohanami deal has only 'hands' (one list per seat)")
        if not isinstance(hands, Sequence) or len(hands) != self.n:
            raise OptionError(f"{where}: hands must list {self.n} hands, one per seat")
        out = []
        for seat, hand in enumerate(hands):
            if not isinstance(hand, Sequence) or len(hand) != HAND:
                raise OptionError(f"{where}: hands[{seat}] must hold {HAND} card numbers")
            for card in hand:
                if card not in COLOUR_OF:
                    raise OptionError(f"{where}: {card!r} is not an Ohanami card (1..120)")
            out.append(list(hand))
        flat = [c for hand in out for c in hand]
        if len(set(flat)) != len(flat):
            raise OptionError(f"{where}: a card is dealt twice")
        return out

    def _deal_stage(self) -> None:
        if self.stage <= len(self.deals):
            for seat, hand in enumerate(self._fixed_stage(self.stage - 1)):
                self.hands[seat] = card_set(hand)
        else:
            for seat in range(self.n):
                dealt, self.stock = self.stock[:HAND], self.stock[HAND:]
                self.hands[seat] = card_set(dealt)
        self.pick = 1
        self.phase = _SELECT

    # -- the protocol ------------------------------------------------------------------
    @property
    def to_move(self) -> frozenset[int]:
        if self.phase is _OVER:
            return frozenset()
        return frozenset(s for s in range(self.n) if self.pending[s] is None)

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    def legal_actions(self, seat: int) -> list[Action]:
        if not 0 <= seat < self.n or self.phase is _OVER or self.pending[seat] is not None:
            return []
        if self.phase is _SELECT:
            return [Keep(pair) for pair in combinations(cards_in(self.hands[seat]), 2)]
        return list(self.placements(seat))

    def placements(self, seat: int) -> Iterator[Place]:
        """Every distinct way to place the kept cards (orders that end alike count once)."""
        kept = cards_in(self.kept[seat])
        orders = [kept] if len(kept) < 2 else [kept, kept[::-1]]
        seen: set[tuple[tuple[Row, ...], int]] = set()
        for order in orders:
            for plan in _plans(self.rows[seat], order):
                rows = self.rows[seat]
                discarded = 0
                for card, target in plan:
                    rows = with_card(rows, card, target)
                    if target == "discard":
                        discarded |= 1 << card
                outcome = (rows, discarded)
                if outcome not in seen:
                    seen.add(outcome)
                    yield Place(plan)

    def illegal_reason(self, seat: int, action: Action) -> Reason | None:
        if not 0 <= seat < self.n:
            return reason("illegal.no_seat", seat=seat, last=self.n - 1)
        if self.phase is _OVER:
            return reason("illegal.over")
        if self.pending[seat] is not None:
            return reason("illegal.ohanami.already_chosen", seat=seat)
        if self.phase is _SELECT:
            if not isinstance(action, Keep):
                return reason("illegal.ohanami.keep_first")
            return self._keep_problem(seat, action)
        if not isinstance(action, Place):
            return reason("illegal.ohanami.place_first")
        return self._place_problem(seat, action)

    def _keep_problem(self, seat: int, action: Keep) -> Reason | None:
        """Two different cards of the seat's hand (games/ohanami/pages/ohanami.md, "A stage")."""
        first, second = action.cards
        hand = self.hands[seat]
        for card in (first, second):
            if not 1 <= card <= 120 or not hand >> card & 1:
                return reason("illegal.not_in_hand", card=card)
        if first == second:
            return reason("illegal.ohanami.keep_different")
        return None

    def _place_problem(self, seat: int, action: Place) -> Reason | None:
        """Each kept card placed once, each where its row may grow (§4.3)."""
        kept = cards_in(self.kept[seat])
        cards = [card for card, _ in action.placements]
        if sorted(cards) != kept:
            shown = list(map(str, kept))
            both = Localized(" and ".join(shown), " i ".join(shown), " и ".join(shown))
            return reason("illegal.ohanami.place_each", cards=both)
        rows = self.rows[seat]
        for card, target in action.placements:
            problem = place_problem(rows, card, target)
            if problem is not None:
                return problem
            rows = with_card(rows, card, target)
        return None

    def _perform(self, seat: int, action: Action) -> None:
        self.pending[seat] = action
        if any(choice is None for choice in self.pending):
            return
        if self.phase is _SELECT:
            for s, choice in enumerate(self.pending):
                assert isinstance(choice, Keep)
                pair = card_set(choice.cards)
                self.kept[s] = pair
                self.hands[s] &= ~pair
            self.pending = [None] * self.n
            self.phase = _PLACE
            return
        self._reveal_placements()

    def _reveal_placements(self) -> None:
        self.events = []
        for s, choice in enumerate(self.pending):
            assert isinstance(choice, Place)
            for card, target in choice.placements:
                self.rows[s] = with_card(self.rows[s], card, target)
                if target == "discard":
                    self.discards[s] |= 1 << card
            self.kept[s] = 0
            self.events.append(PlacementEvent(s, choice.placements))
        self.pending = [None] * self.n
        if self.pick == PICKS:
            self._end_stage()
            return
        step = PASS_STEP[self.stage]
        passed = [0] * self.n
        for s in range(self.n):
            passed[(s + step) % self.n] = self.hands[s]
        self.hands = passed
        self.pick += 1
        self.phase = _SELECT
        if self.pick == PICKS:  # two cards left: both are kept without a choice
            self.kept = self.hands
            self.hands = [0] * self.n
            self.phase = _PLACE

    # -- scoring ------------------------------------------------------------------------
    def garden(self, seat: int) -> int:
        return card_set([card for row in self.rows[seat] for card in row])

    def colour_counts(self, seat: int) -> dict[str, int]:
        counts: dict[str, int] = dict.fromkeys(COLOURS, 0)
        for row in self.rows[seat]:
            for card in row:
                counts[COLOUR_OF[card]] += 1
        return counts

    def garden_facts(self, seat: int) -> Garden:
        return Garden(cards=tuple(card for row in self.rows[seat] for card in row))

    def _end_stage(self) -> None:
        result = score_stage(self.stage, [self.garden_facts(s) for s in range(self.n)])
        self.results.append(result)
        for seat in range(self.n):
            self.totals[seat] += result.scores[seat]
        if self.stage == STAGES or self.halt_after_round:
            self.phase = _OVER
            return
        self.stage += 1
        self._deal_stage()

    def pink_count(self, seat: int) -> int:
        capped = self.options.pink_tiebreak == "capped"
        return pink_tiebreak(self.colour_counts(seat)["pink"], capped)

    def result(self) -> MatchResult:
        tiebreak = tuple(self.pink_count(s) for s in range(self.n))
        return MatchResult(
            self.game.id, self.is_over, tuple(self.totals), tuple(self.results), tiebreak
        )

    # -- copies and hidden information ------------------------------------------------
    def clone(self) -> OhanamiState:
        new = OhanamiState()
        new.game, new.seed, new.deals = self.game, self.seed, self.deals
        new.log = self.log.copy()
        new.options, new.n, new.rng = self.options, self.n, self.rng.clone()
        new.stock = self.stock.copy()
        new.stage, new.pick, new.phase = self.stage, self.pick, self.phase
        new.hands = self.hands.copy()
        new.kept = self.kept.copy()
        new.rows = self.rows.copy()
        new.discards = self.discards.copy()
        new.pending = self.pending.copy()
        new.totals = self.totals.copy()
        new.results = self.results.copy()
        new.events = self.events.copy()
        new.halt_after_round = self.halt_after_round
        return new

    def end_at_round(self, *, explain: bool = False) -> None:
        """Stop when this stage is scored, with its gardens as they ended (the table's
        result screen shows them; search does not stop at a stage, as stages carry over)."""
        self.halt_after_round = True

    def determinize(self, seat: int, rng: RandomSource) -> OhanamiState:
        """Resample every card ``seat`` cannot see: the other hands and kept pairs, the other
        discards and the stock (sizes kept); others' hidden choices are redrawn at random.

        A simplification: the cards of hands this seat held earlier and passed on are
        resampled too, though a player with a perfect memory could place some of them.
        """
        new = self.clone()
        seen = self.hands[seat] | self.kept[seat] | self.discards[seat]
        for other in range(self.n):
            seen |= self.garden(other)
        unseen = [c for c in NUMBERS if not seen >> c & 1]
        rng.shuffle(unseen)
        position = 0

        def take(size: int) -> int:
            nonlocal position
            mask = card_set(unseen[position : position + size])
            position += size
            return mask

        for other in range(self.n):
            if other == seat:
                continue
            new.hands[other] = take(self.hands[other].bit_count())
            new.kept[other] = take(self.kept[other].bit_count())
            new.discards[other] = take(self.discards[other].bit_count())
        new.stock = unseen[position:]
        new.rng = Rng.from_state(rng.getrandbits(64))
        new.deals = self.deals[: self.stage]
        for other in range(self.n):
            if other != seat and self.pending[other] is not None:
                new.pending[other] = None
                options = new.legal_actions(other)
                new.pending[other] = options[draw_below(rng, len(options))]
        return new

    # -- what a seat sees -------------------------------------------------------------
    def view(self, seat: int | None, *, brief: bool = False) -> JSON:
        data: JSON = {
            "game": self.game.id,
            "seat": seat,
            "players": self.n,
            "stage": self.stage,
            "pick": self.pick,
            "phase": self.phase,
            "pass_to": "left" if PASS_STEP[self.stage] == 1 else "right",
            "to_move": sorted(self.to_move),
            "committed": [choice is not None for choice in self.pending],
            "gardens": [[list(row) for row in rows] for rows in self.rows],
            "colour_counts": [self.colour_counts(s) for s in range(self.n)],
            "hand_sizes": [h.bit_count() for h in self.hands],
            "discard_sizes": [d.bit_count() for d in self.discards],
            "stock_size": len(self.stock),
            "scores": list(self.totals),
            "placements": [
                {"seat": e.seat, "placements": [{"card": c, "to": t} for c, t in e.placements]}
                for e in self.events
            ],
            "last_stage": self.results[-1].to_json() if self.results else None,
            "over": self.is_over,
        }
        if not brief:  # for the browser: the stage-by-stage table and the running score
            data["stages"] = [result.to_json() for result in self.results]
            data["stage_points"] = [
                stage_points(self.colour_counts(s), self.stage) for s in range(self.n)
            ]
        if seat is not None:
            data["hand"] = cards_in(self.hands[seat])
            data["kept"] = cards_in(self.kept[seat])
            data["discards"] = cards_in(self.discards[seat])
            if not brief:
                data["legal_actions"] = [a.to_json() for a in self.legal_actions(seat)]
            if self.pending[seat] is not None:
                data["my_choice"] = self.pending[seat].to_json()  # type: ignore[union-attr]
        return data


def _plans(rows: tuple[Row, ...], order: Sequence[int]) -> Iterator[tuple[tuple[int, Target], ...]]:
    """Every legal sequence of destinations for the cards in ``order``."""
    if not order:
        yield ()
        return
    card, rest = order[0], order[1:]
    for target in targets(rows, card):
        for tail in _plans(with_card(rows, card, target), rest):
            yield ((card, target), *tail)


SPEC = register(
    GameSpec(
        id="ohanami",
        title="Ohanami",
        summary="Garden drafting for 2-4: keep 2 cards, pass the rest, grow 3 rows in order.",
        options_model=OhanamiOptions,
        start=OhanamiState,
        parse_action=parse_action,
        info=GameInfo(players=(2, 4), simultaneous=True, rounds_carry_over=True),
        presets={"default": {}},
        family="ohanami",
        capabilities={
            Capability.BOTS: "cardtable.games.ohanami.bots:BOTS",
            Capability.HINTS: "cardtable.games.ohanami.hints",
            Capability.ENCODER: "cardtable.games.ohanami.encoding:OhanamiEncoder",
            Capability.TERMINAL: "cardtable.games.ohanami.terminal:FRONT_END",
            Capability.COMMANDS: "cardtable.games.ohanami.commands:COMMANDS",
            Capability.COMPANION: "cardtable.games.ohanami.companion",
            Capability.DOCS: "cardtable.games.ohanami.docs",
            Capability.WEB: "cardtable.games.ohanami.web:CLIENT",
            Capability.LESSON: "cardtable.games.ohanami.lessons:OHANAMI",
        },
        rule_sections={"colour": "Scoring"},
    )
)
