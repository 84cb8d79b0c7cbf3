"""Build exact hanafuda deals for tests: name the cards that matter, the rest fill in."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import cardtable
from cardtable.games.hanafuda.dealing import DEAL_SIZES
from cardtable.games.hanafuda.deck import CODES, card_index
from cardtable.games.hanafuda.fishing import FishingState


def make_deal(
    players: int,
    *,
    hands: Sequence[Sequence[str]] = (),
    table: Sequence[str] = (),
    stock: Sequence[str] = (),
    dealer: int | None = 0,
    sizes: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """A full deal: the named cards where given (stock top first), every other card
    filling the remaining places in deck order (hands, then table, then stock)."""
    hand_size, table_size = sizes or DEAL_SIZES[players]
    named = [c for h in hands for c in h] + list(table) + list(stock)
    assert len(set(named)) == len(named), "a card is named twice"
    # Fillers come from months the test does not name (those go to the stock last),
    # slot by slot across the months, so they never meddle with the cards under test.
    named_months = {c[:2] for c in named}
    spare = sorted(
        (c for c in CODES if c not in set(named)),
        key=lambda c: (c[:2] in named_months, c[3], c[:2]),
    )
    full_hands = []
    for seat in range(players):
        hand = list(hands[seat]) if seat < len(hands) else []
        while len(hand) < hand_size:
            hand.append(spare.pop(0))
        full_hands.append(hand)
    full_table = list(table)
    while len(full_table) < table_size:
        full_table.append(spare.pop(0))
    deal: dict[str, Any] = {"hands": full_hands, "table": full_table, "stock": list(stock) + spare}
    if dealer is not None:
        deal["dealer"] = dealer
    return deal


def make_position(
    players: int,
    *,
    hands: Sequence[Sequence[str]],
    table: Sequence[str] = (),
    piles: Sequence[Sequence[str]] = (),
    stock: Sequence[str] = (),
    dealer: int = 0,
) -> dict[str, Any]:
    """A mid-round position: exactly these hands, table and piles; the stock starts with
    ``stock`` and holds every other card after it (in deck order)."""
    all_piles = [list(p) for p in piles] + [[] for _ in range(players - len(piles))]
    named = [c for h in hands for c in h] + list(table) + list(stock)
    named += [c for p in all_piles for c in p]
    assert len(set(named)) == len(named), "a card is named twice"
    rest = [code for code in CODES if code not in set(named)]
    return {
        "dealer": dealer,
        "hands": [list(h) for h in hands],
        "table": list(table),
        "piles": all_piles,
        "stock": list(stock) + rest,
    }


def new_state(game_id: str, deal: dict[str, Any], *, seed: int = 1, **options: Any) -> FishingState:
    state = cardtable.load(game_id, **options).new_state(seed=seed, deals=[deal])
    assert isinstance(state, FishingState)
    return state


def play(state: FishingState, card: str, take: str | None = None) -> None:
    state.apply(
        state.current, state.game.parse_action({"type": "play", "card": card, "take": take})
    )


def mask(*codes: str) -> int:
    return sum(1 << card_index(c) for c in codes)


def random_playout(state: FishingState, rng: random.Random) -> None:
    while not state.is_over:
        seat = state.current
        state.apply(seat, rng.choice(state.legal_actions(seat)))
