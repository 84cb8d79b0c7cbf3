"""Dealing a hanafuda round (games/hanafuda/pages/bakappana.md, "Who deals first", "The
deal"): who deals first, the deal's sizes, a
misdeal's month, who deals next, and a fixed deal or mid-round position read and checked.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, NamedTuple

from cardtable.core.errors import OptionError
from cardtable.games.hanafuda.deck import (
    CODES,
    DRAW_RANKS,
    NUM_CARDS,
    card_index,
    full_months,
    lowest_card,
)

JSON = dict[str, Any]

#: players -> (cards per hand, cards on the table); the stock holds the rest (§2.2)
DEAL_SIZES: Final[Mapping[int, tuple[int, int]]] = {2: (8, 8), 3: (7, 6), 4: (5, 8)}


class DealerDraw(NamedTuple):
    """The first-dealer draw (§2.1): each pass of draws, then the winner (made once a
    game)."""

    passes: tuple[tuple[tuple[int, int], ...], ...]  # ((seat, card), ...) per pass
    dealer: int

    def to_json(self) -> JSON:
        return {
            "dealer": self.dealer,
            "passes": [[{"seat": s, "card": CODES[c]} for s, c in p] for p in self.passes],
        }


def draw_first_dealer(order: Iterable[int], players: int) -> DealerDraw:
    """Resolve the first-dealer draw from cards taken in ``order`` (a shuffled deck).

    Earliest month deals; in the same month the higher kind wins; players still tied
    (two plains of one month) draw again.

    >>> draw_first_dealer([47, 10, 30], 3).dealer  # 12-4, 03-3, 08-3: March is earliest
    1
    >>> d = draw_first_dealer([10, 11, 40, 20, 21], 3)  # 03-3 and 03-4 tie: seats 0, 1 redraw
    >>> d.dealer, len(d.passes)  # 06-1 (animal) beats 06-2 (ribbon)
    (0, 2)
    """
    contenders = list(range(players))
    passes: list[tuple[tuple[int, int], ...]] = []
    cards = iter(order)
    while True:
        drawn: list[tuple[int, int]] = []
        best = NUM_CARDS
        for seat in contenders:
            card = next(cards, -1)
            if card < 0:
                raise ValueError("the draw ran out of cards before the tie was broken")
            drawn.append((seat, card))
            best = min(best, DRAW_RANKS[card])
        passes.append(tuple(drawn))
        contenders = [seat for seat, card in drawn if DRAW_RANKS[card] == best]
        if len(contenders) == 1:
            return DealerDraw(tuple(passes), contenders[0])


def month_misdeal(table: int) -> int | None:
    """The month index (0..11) whose four cards all lie on ``table``, if any (§2.2)."""
    full = full_months(table)
    return lowest_card(full) >> 2 if full else None


def winner_deals_next(scores: Sequence[int], dealer: int) -> int:
    """The round's best scorer deals next; on a tie the dealer keeps the deal if tied,
    otherwise the tied player earliest in play order after the dealer (§3, §8.13)."""
    best = max(scores)
    if scores[dealer] == best:
        return dealer
    n = len(scores)
    for step in range(1, n):
        seat = (dealer + step) % n
        if scores[seat] == best:
            return seat
    return dealer


class Deal:
    """A round's cards as dealt (a plain class: built for every round, see
    :class:`~.scoring.FinishedRound`)."""

    __slots__ = ("dealer", "hands", "piles", "stock", "table")

    def __init__(
        self,
        dealer: int | None,
        hands: tuple[int, ...],
        table: int,
        stock: tuple[int, ...],  # top first
        piles: tuple[int, ...] | None = None,  # given: a mid-round position, not a fresh deal
    ) -> None:
        self.dealer = dealer
        self.hands = hands
        self.table = table
        self.stock = stock
        self.piles = piles


def parse_deal(data: Mapping[str, Any], players: int, sizes: tuple[int, int], where: str) -> Deal:
    """Check and read a fixed deal; every problem is an OptionError saying what is wrong.

    A deal with ``piles`` is a mid-round *position* (puzzles, tests, hints): hands may
    hold fewer cards and the table any number, as long as every card is placed once.
    """
    hand_size, table_size = sizes
    unknown = set(data) - {"dealer", "hands", "table", "stock", "piles"}
    if unknown:
        raise OptionError(
            f"{where}: unknown keys {sorted(unknown)}; use dealer, hands, table, stock, piles"
        )
    position = data.get("piles") is not None
    seen: dict[int, str] = {}

    def read(cards: Any, label: str, size: int | None, at_most: bool = False) -> list[int]:
        if not isinstance(cards, Sequence) or isinstance(cards, str):
            raise OptionError(f"{where}: {label} must be a list of card codes")
        out = []
        for code in cards:
            try:
                index = card_index(str(code))
            except ValueError as error:
                raise OptionError(f"{where}: {label}: {error}") from None
            if index in seen:
                raise OptionError(f"{where}: card {CODES[index]} is in {seen[index]} and {label}")
            seen[index] = label
            out.append(index)
        if size is not None and (len(out) > size if at_most else len(out) != size):
            limit = f"at most {size}" if at_most else str(size)
            raise OptionError(f"{where}: {label} holds {len(out)} cards; it must hold {limit}")
        return out

    def read_seats(key: str, size: int | None, at_most: bool) -> tuple[int, ...]:
        given = data.get(key)
        if not isinstance(given, Sequence) or len(given) != players:
            raise OptionError(f"{where}: {key} must list {players} {key}, one per seat")
        return tuple(
            sum(1 << c for c in read(cards, f"{key}[{seat}]", size, at_most))
            for seat, cards in enumerate(given)
        )

    hands = read_seats("hands", hand_size, at_most=position)
    table = sum(
        1 << c for c in read(data.get("table", []), "table", None if position else table_size)
    )
    piles = read_seats("piles", None, at_most=False) if position else None
    stock_size = NUM_CARDS - len(seen)
    stock = tuple(read(data.get("stock", []), "stock", stock_size))
    dealer = data.get("dealer")
    if dealer is not None and (
        isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < players
    ):
        raise OptionError(f"{where}: dealer must be a seat number 0..{players - 1}")
    return Deal(dealer, hands, table, stock, piles)
