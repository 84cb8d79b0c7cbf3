"""Hanafuda rounds scored as pure functions of what a finished round left (each game's page
under games/hanafuda/pages/, "Scoring" or "Settlement"): each game's state scores its rounds
with them, and the round calculator scores what a table enters with the same functions (no
engine state is forged for it).

>>> from cardtable.games.hanafuda.deck import cards
>>> from cardtable.games.hanafuda.options import KoiKoiOptions
>>> facts = FinishedRound(piles=(cards("08-1 08-2 09-1"), 0), shobu=0)
>>> result = score_koikoi_round(KoiKoiOptions(), facts)
>>> [(line.seat, line.rule, line.points) for line in result.lines], result.scores
([(0, 'yaku:tsukimi', 5), (1, 'pays', -5)], (5, -5))
>>> score_koikoi_round(KoiKoiOptions(), facts, explain=False)  # a search copy's round
RoundResult(number=1, dealer=0, scores=(5, -5), lines=(), outcome='shobu')
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Final, Protocol

from cardtable.core.results import RoundResult, ScoreLine
from cardtable.games.hanafuda.deck import (
    FULL_DECK,
    LIGHTS,
    MONTH_MASKS,
    PLAINS,
    codes,
    count_cards,
    full_months,
    months_with_two,
    value_of,
)
from cardtable.locales import SeatRef, Term

if TYPE_CHECKING:
    from cardtable.games.hanafuda.options import CardValueOptions, HanaAwaseOptions, KoiKoiOptions

TOTAL_VALUE: Final = value_of(FULL_DECK)  # 264
WILLOW: Final = MONTH_MASKS[10]
LUCKY_HAND_POINTS: Final = 6
TEYAKU_SEVEN, TEYAKU_SIX = 30, 20
SPECIAL_PAYMENT: Final = 30


class FinishedRound:
    """What a finished round left, as the scoring reads it; cards are bitsets (bit ``i``:
    card ``i``), seats count from 0, and there is one pile per player.

    A plain class with its own ``__init__``: compiled, both a frozen dataclass's and a
    NamedTuple's constructors are interpreted functions, and every round of every playout
    ends with one of these. Read it, never change it."""

    __slots__ = (
        "calls", "dealer", "first_table", "hands", "last_improver", "piles", "round_no",
        "shobu", "table",
    )  # fmt: skip

    def __init__(
        self,
        piles: tuple[int, ...],  # each seat's captured cards
        table: int = 0,  # left on the table at the end (koi-koi's weather rule reads it)
        dealer: int = 0,
        round_no: int = 1,
        hands: tuple[int, ...] = (),  # as dealt, per seat (teyaku, lucky hands); () untold
        first_table: int = 0,  # the table as dealt (koi-koi's table-lights multiplier)
        calls: tuple[int, ...] = (),  # koi-koi calls per seat; () for none
        shobu: int | None = None,  # koi-koi: who stopped the round (None: the stock ran out)
        last_improver: int | None = None,  # koi-koi: the last seat whose yaku total rose
    ) -> None:
        self.piles = piles
        self.table = table
        self.dealer = dealer
        self.round_no = round_no
        self.hands = hands
        self.first_table = first_table
        self.calls = calls
        self.shobu = shobu
        self.last_improver = last_improver

    def fields(self) -> tuple[Any, ...]:
        return (
            self.piles, self.table, self.dealer, self.round_no, self.hands, self.first_table,
            self.calls, self.shobu, self.last_improver,
        )  # fmt: skip

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, FinishedRound):
            return NotImplemented
        return self.fields() == other.fields()

    def __hash__(self) -> int:
        return hash(self.fields())

    def __repr__(self) -> str:
        return f"FinishedRound{self.fields()!r}"

    @property
    def players(self) -> int:
        return len(self.piles)

    def calls_of(self, seat: int) -> int:
        return self.calls[seat] if seat < len(self.calls) else 0


def par_of(options: CardValueOptions, players: int) -> int:
    """What traditional scoring subtracts from each seat's card values: an equal share of
    the deck's 264 (simple scoring: nothing)."""
    return TOTAL_VALUE // players if options.scoring == "traditional" else 0


def _card_lines(seat: int, pile: int, value: int, par: int, players: int) -> list[ScoreLine]:
    """A pile's card values (``value``), and the par it is settled against."""
    lines = [ScoreLine.of(seat, "cards", value, "line.cards", tuple(codes(pile)))]
    if par:
        lines.append(_par_line(seat, par, players))
    return lines


@lru_cache(maxsize=64)
def _par_line(seat: int, par: int, players: int) -> ScoreLine:
    # Every round of a game says the same par lines, and lines are frozen: build them once.
    return ScoreLine.of(seat, "par", -par, "line.par", total=TOTAL_VALUE, players=players)


def _payers(
    seat: int, players: int, rule: str, each: int, said: str, **values: Any
) -> list[ScoreLine]:
    """A line for every other seat paying ``each`` to ``seat``."""
    return [
        ScoreLine.of(other, rule, -each, said, seat=SeatRef(seat), **values)
        for other in range(players)
        if other != seat
    ]


def _collect(scores: list[int], seat: int, each: int) -> None:
    """Every other seat pays ``each`` to ``seat``: what :func:`_payers` says, as scores."""
    for other in range(len(scores)):
        scores[other] -= each
    scores[seat] += each * len(scores)


def _summed(facts: FinishedRound, lines: Sequence[ScoreLine], outcome: str) -> RoundResult:
    scores = [0] * facts.players
    for line in lines:
        scores[line.seat] += line.points
    return RoundResult(facts.round_no, facts.dealer, tuple(scores), tuple(lines), outcome)


# -- Bakappana (§3) ---------------------------------------------------------------------------
def score_bakappana_round(
    options: CardValueOptions, facts: FinishedRound, *, explain: bool = True
) -> RoundResult:
    """Captured card values, less par under traditional scoring (zero-sum)."""
    n = facts.players
    par = par_of(options, n)
    values = [value_of(pile) for pile in facts.piles]
    scores = tuple(value - par for value in values)
    if not explain:
        return RoundResult(facts.round_no, facts.dealer, scores)
    lines: list[ScoreLine] = []
    for seat, pile in enumerate(facts.piles):  # every round of every game: kept plain
        lines += _card_lines(seat, pile, values[seat], par, n)
    return RoundResult(facts.round_no, facts.dealer, scores, tuple(lines), "played")


# -- Hana-awase (§4, §5) ------------------------------------------------------------------------
def settle(
    card_values: Sequence[int], yaku_values: Sequence[int], scoring: str = "traditional"
) -> list[int]:
    """Card and yaku settlement of a deal (§4, §5.4), without teyaku or special payments.

    >>> settle([120, 90, 54], [60, 0, 20])  # the rulebook's worked example (§5.6)
    [132, -78, -54]
    """
    n = len(card_values)
    total_yaku = sum(yaku_values)
    if scoring == "simple":
        return [c + y * (n - 1) for c, y in zip(card_values, yaku_values, strict=True)]
    par = TOTAL_VALUE // n
    return [
        (c - par) + y * (n - 1) - (total_yaku - y)
        for c, y in zip(card_values, yaku_values, strict=True)
    ]


def teyaku_plains(options: HanaAwaseOptions, hand: int) -> int:
    """The plains of a dealt hand that make a teyaku (6 or more), or 0 for none."""
    if not options.teyaku:
        return 0
    plain_cards = PLAINS | (WILLOW if options.willow_is_plain_for_teyaku else 0)
    plains = count_cards(hand & plain_cards)
    return plains if plains >= 6 else 0


def teyaku_each(plains: int) -> int:
    """What a teyaku of ``plains`` collects from each other player."""
    return TEYAKU_SEVEN if plains == 7 else TEYAKU_SIX


def teyaku_lines(
    options: HanaAwaseOptions, hands: Sequence[int], players: int
) -> tuple[ScoreLine, ...]:
    """The teyaku shown from the dealt ``hands`` and what each other player pays for them."""
    n = players
    lines: list[ScoreLine] = []
    for seat, hand in enumerate(hands):
        plains = teyaku_plains(options, hand)
        if plains:
            each, rule = teyaku_each(plains), f"teyaku:{plains}"
            shown = tuple(codes(hand))
            lines.append(
                ScoreLine.of(seat, rule, each * (n - 1), "line.teyaku", shown, plains=plains)
            )
            lines.extend(_payers(seat, n, rule, each, "line.pays_teyaku"))
    return tuple(lines)


def fuke_seats(options: HanaAwaseOptions, values: Sequence[int]) -> list[int]:
    """Under the special payments, the seats whose card values draw the deal (§5.4 rule 1)."""
    if not options.special_payments:
        return []
    limit = 21 if options.fuke_threshold_inclusive else 20
    return [seat for seat, value in enumerate(values) if value < limit]


def few_cards(facts: FinishedRound) -> list[tuple[int, int, int]]:
    """§5.4 rules 2-3: ``(seat, cards captured, limit)`` for each seat that captured few
    enough cards to collect: the dealer and the next player at most 8, the third 10."""
    n = facts.players
    found = []
    for step in range(n):
        seat = (facts.dealer + step) % n
        limit = 10 if step == 2 else 8
        count = count_cards(facts.piles[seat])
        if count <= limit:
            found.append((seat, count, limit))
    return found


def willow_row_holder(options: HanaAwaseOptions, piles: Sequence[int]) -> int | None:
    """The seat holding all four willow cards when that cancels every yaku, else None."""
    if options.willow_row_cancels_yaku:
        for seat, pile in enumerate(piles):
            if pile & WILLOW == WILLOW:
                return seat
    return None


def score_hana_awase_round(
    options: HanaAwaseOptions, facts: FinishedRound, *, explain: bool = True
) -> RoundResult:
    """Teyaku, then card values and yaku settled between the players, and the special
    payments (Hana-awase and Hana-awase 88)."""
    if explain:
        return _hana_awase_explained(options, facts)
    n = facts.players
    scores = [0] * n
    for seat, hand in enumerate(facts.hands):
        plains = teyaku_plains(options, hand)
        if plains:
            _collect(scores, seat, teyaku_each(plains))
    values = [value_of(pile) for pile in facts.piles]
    if fuke_seats(options, values):
        return RoundResult(facts.round_no, facts.dealer, tuple(scores), (), "drawn")
    table = options.yaku_table
    if willow_row_holder(options, facts.piles) is None:
        yaku = [table.total(pile) for pile in facts.piles]
    else:
        yaku = [0] * n
    for seat, settled in enumerate(settle(values, yaku, options.scoring)):
        scores[seat] += settled
    if options.special_payments:
        for seat, _, _ in few_cards(facts):
            _collect(scores, seat, SPECIAL_PAYMENT)
    return RoundResult(facts.round_no, facts.dealer, tuple(scores), (), "played")


def _hana_awase_explained(options: HanaAwaseOptions, facts: FinishedRound) -> RoundResult:
    n = facts.players
    lines = list(teyaku_lines(options, facts.hands, n))
    values = [value_of(pile) for pile in facts.piles]
    fuke = fuke_seats(options, values)
    if fuke:
        lines.extend(
            ScoreLine.of(seat, "fuke", 0, "line.fuke", value=values[seat]) for seat in fuke
        )
        return _summed(facts, lines, "drawn")
    table = options.yaku_table
    yaku = [table.evaluate(pile) for pile in facts.piles]
    holder = willow_row_holder(options, facts.piles)
    if holder is not None:
        lines.append(ScoreLine.of(holder, "willow_row_cancels", 0, "line.willow_row"))
        yaku = [[] for _ in range(n)]
    par = par_of(options, n)
    for seat, pile in enumerate(facts.piles):
        lines.extend(_card_lines(seat, pile, values[seat], par, n))
        for y in yaku[seat]:
            rule, said = f"yaku:{y.key}", table.name_of(y.key)
            lines.append(
                ScoreLine.of(
                    seat,
                    rule,
                    y.points * (n - 1),
                    "line.yaku_each",
                    y.cards,
                    yaku=said,
                    points=y.points,
                    payers=n - 1,
                )
            )
            if options.scoring == "traditional":
                lines.extend(_payers(seat, n, rule, y.points, "line.pays_yaku", yaku=said))
    if options.special_payments:
        for seat, count, limit in few_cards(facts):
            each = SPECIAL_PAYMENT
            lines.append(
                ScoreLine.of(
                    seat, "few_cards", each * (n - 1), "line.few_cards", count=count, limit=limit
                )
            )
            lines.extend(_payers(seat, n, "few_cards", each, "line.pays_few_cards"))
    return _summed(facts, lines, "played")


# -- Koi-koi (§6) -----------------------------------------------------------------------------
def teshi(hand: int) -> bool:
    """Four cards of one month in a hand."""
    return full_months(hand) != 0


def kuttsuki(hand: int) -> bool:
    """Four pairs: at least four months with exactly two cards each (§8.7), and for an
    8-card hand nothing else."""
    pairs = count_cards(months_with_two(hand))
    if count_cards(hand) == 8:
        return pairs == 4
    return pairs >= 4


def lucky_kind(options: KoiKoiOptions, hand: int) -> str | None:
    """The lucky hand ``hand`` is (teshi, or kuttsuki where it counts), or None."""
    if teshi(hand):
        return "teshi"
    if options.kuttsuki_enabled and kuttsuki(hand):
        return "kuttsuki"
    return None


def lucky_winner(options: KoiKoiOptions, hands: Sequence[int]) -> tuple[int, str] | None:
    """Where lucky hands win the round: the first seat dealt one, and its kind (the deal
    is void when both players hold one, so a round never starts with two)."""
    if options.lucky_hands == "win":
        for seat, hand in enumerate(hands):
            kind = lucky_kind(options, hand)
            if kind:
                return seat, kind
    return None


def score_koikoi_round(
    options: KoiKoiOptions, facts: FinishedRound, *, explain: bool = True
) -> RoundResult:
    """A lucky hand's 6, or the winner's yaku times the multipliers, or what a round
    without a winner gives; under zero-sum the other player pays it."""
    lines: list[ScoreLine] | None = [] if explain else None
    scores = [0, 0]
    outcome = "exhausted"
    lucky = lucky_winner(options, facts.hands)
    if lucky is not None:
        seat, kind = lucky
        scores[seat] = LUCKY_HAND_POINTS
        outcome = "lucky_hand"
        if lines is not None:
            dealt = tuple(codes(facts.hands[seat]))
            kind_said = Term(f"lucky.{kind}")
            lines.append(
                ScoreLine.of(
                    seat, f"lucky:{kind}", LUCKY_HAND_POINTS, "line.lucky", dealt, kind=kind_said
                )
            )
    elif facts.shobu is not None:
        scores[facts.shobu] = koikoi_payout(options, facts, facts.shobu, lines)
        outcome = "shobu"
    elif options.draw_last_yaku_scores and facts.last_improver is not None:
        seat = facts.last_improver
        scores[seat] = koikoi_payout(options, facts, seat, lines)
        outcome = "exhausted_last_yaku"
    elif options.oya_ken_points:
        scores[facts.dealer] = options.oya_ken_points
        if lines is not None:
            lines.append(
                ScoreLine.of(facts.dealer, "oya_ken", options.oya_ken_points, "line.oya_ken")
            )
    if options.zero_sum:
        if lines is not None:
            for seat in (0, 1):
                if scores[seat]:
                    lines.append(
                        ScoreLine.of(
                            1 - seat, "pays", -scores[seat], "line.pays", seat=SeatRef(seat)
                        )
                    )
        scores = [scores[0] - scores[1], scores[1] - scores[0]]
    said = tuple(lines) if lines is not None else ()
    return RoundResult(facts.round_no, facts.dealer, (scores[0], scores[1]), said, outcome)


#: a multiplier of a round score: (rule, factor, message, its values)
Multiplier = tuple[str, int, str, dict[str, int]]


def _calls_multiplier(mode: str, own: int, theirs: int) -> Multiplier | None:
    """What the koi-koi calls of the round (``own`` by the winner, ``theirs`` by the
    other) multiply its score by under the house rule ``mode`` (§6.3), or None."""
    if mode == "japan_bonus" and own > 3:
        return ("koikoi_bonus", own - 2, "line.own_koikoi_count", {"calls": own})
    if mode == "own_x2" and own:
        return ("koikoi", 2, "line.own_koikoi", {})
    if mode == "opponent_x2" and theirs:
        return ("koikoi", 2, "line.opponent_koikoi", {})
    if mode == "any_x2" and own + theirs:
        return ("koikoi", 2, "line.any_koikoi", {})
    if mode == "count_opponent" and theirs:
        return ("koikoi", 1 + theirs, "line.opponent_koikoi_count", {"calls": theirs})
    if mode == "count_all" and own + theirs:
        return ("koikoi", 1 + own + theirs, "line.all_koikoi_count", {"own": own, "theirs": theirs})
    return None


def _table_lights_multiplier(mode: str, first_table: int) -> Multiplier | None:
    """What lights dealt face up to the table multiply the round by (§6.3), or None."""
    lights = count_cards(first_table & LIGHTS)
    if mode == "x2" and lights:
        return ("table_lights", 2, "line.table_light", {})
    if mode == "count" and lights:
        return ("table_lights", lights + 1, "line.table_lights", {"lights": lights})
    return None


def koikoi_payout(
    options: KoiKoiOptions, facts: FinishedRound, seat: int, lines: list[ScoreLine] | None
) -> int:
    """The round score of ``seat`` winning it, with a line for every part of it added to
    ``lines`` (None: the score alone, which is all a search copy needs)."""
    other = 1 - seat
    if lines is None and not options.best_yaku_only:
        table = options.yaku_table
        base = table.total(facts.piles[seat], facts.table, facts.calls_of(seat))  # cached
        if options.score_opponent_yaku:
            base += table.total(facts.piles[other], facts.table, facts.calls_of(other))
    else:
        base = _koikoi_yaku_points(options, facts, seat, [] if lines is None else lines)
    multipliers: list[Multiplier] = []
    if options.double_if_seven_plus and base >= 7:
        multipliers.append(("seven_plus", 2, "line.seven_plus", {"base": base}))
    own, theirs = facts.calls_of(seat), facts.calls_of(other)
    if options.koikoi_multiplier == "japan_bonus" and 0 < own <= 3:  # points, not a factor
        if lines is not None:
            lines.append(
                ScoreLine.of(seat, "koikoi_bonus", own, "line.koikoi_bonus", points=own, calls=own)
            )
        base += own
    calls = _calls_multiplier(options.koikoi_multiplier, own, theirs)
    if calls is not None:
        multipliers.append(calls)
    lights = _table_lights_multiplier(options.table_lights_multiplier, facts.first_table)
    if lights is not None:
        multipliers.append(lights)
    score = base
    for rule, factor, key, values in multipliers:
        score *= factor
        if lines is not None:
            gained = score - score // factor
            lines.append(
                ScoreLine.of(seat, f"multiplier:{rule}", gained, key, factor=factor, **values)
            )
    return score


def _koikoi_yaku_points(
    options: KoiKoiOptions, facts: FinishedRound, seat: int, lines: list[ScoreLine]
) -> int:
    """The yaku points of a winning ``seat`` (and of the opponent's yaku when they
    count), each with its line."""
    table = options.yaku_table
    other = 1 - seat
    yaku = table.evaluate(facts.piles[seat], facts.table, facts.calls_of(seat))
    if options.best_yaku_only and yaku:
        yaku = [max(yaku, key=lambda y: y.points)]
    base = 0
    for y in yaku:
        said = table.name_of(y.key)
        lines.append(ScoreLine.of(seat, f"yaku:{y.key}", y.points, "line.yaku", y.cards, yaku=said))
        base += y.points
    if options.score_opponent_yaku:
        for y in table.evaluate(facts.piles[other], facts.table, facts.calls_of(other)):
            said = table.name_of(y.key)
            lines.append(
                ScoreLine.of(
                    seat,
                    f"opponent_yaku:{y.key}",
                    y.points,
                    "line.opponent_yaku",
                    y.cards,
                    yaku=said,
                )
            )
            base += y.points
    return base


class RoundScoring(Protocol):
    """A game's round scoring (its options are the game's own model)."""

    def __call__(
        self, options: Any, facts: FinishedRound, *, explain: bool = True
    ) -> RoundResult: ...
