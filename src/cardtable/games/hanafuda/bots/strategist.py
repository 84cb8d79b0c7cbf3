"""The strategist: a rule-based hanafuda bot that plays like a club player (the ``medium``
level of the hanafuda games).

Where ``greedy`` only counts what a move captures at once, the strategist also weighs:

* **yaku proximity** — every yaku still open to it (none of its required cards in another
  pile, enough of its cards left) is worth its points halved for each card still missing,
  so a capture that brings Ino-shika-chō from two cards away to one is worth something
  even before it scores;
* **denial** — the same measure for each opponent: taking (or stealing) a card an
  opponent needs is worth what it costs them;
* **safe discards** — a card laid on the table is worth to the others what it would give
  them, weighed by how likely they can take it (unseen cards of its month), less when it
  holds a partner in our hand;
* **koi-koi by risk** — go on only with cards in hand, no big yaku already, some upside,
  and an opponent far from any yaku.

It reads the table, the piles and its own hand only (all public to its seat). Works for
every hanafuda game: Bakappana has no yaku, so there only values and denial count.

>>> import cardtable
>>> state = cardtable.load("koi-koi", rounds=1).new_state(seed=5)
>>> bot = StrategistAgent(seed=1)
>>> seat = min(state.to_move)
>>> bot.choose(state, seat) in state.legal_actions(seat)
True
"""

from __future__ import annotations

from cardtable.agents.base import actions_for, best_by_value
from cardtable.core.actions import Action
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.games.hanafuda.actions import KoiKoi, Play, Shobu, Take
from cardtable.games.hanafuda.bots.greedy import yaku_weight
from cardtable.games.hanafuda.deck import MONTH_MASK_OF, VALUE_OF, value_of
from cardtable.games.hanafuda.fishing import FishingState
from cardtable.games.hanafuda.koikoi import KoiKoiState
from cardtable.games.hanafuda.options import card_points_score
from cardtable.games.hanafuda.yaku import YakuTable

ALL_CARDS = (1 << 48) - 1
PROXIMITY_HALVING = 0.5


def potential(table: YakuTable, pile: int, blocked: int) -> float:
    """Points of the yaku ``pile`` can still make, each halved per missing card; cards in
    ``blocked`` (the others' piles) are out of reach. Yaku already made count 0 here."""
    total = 0.0
    for row in table.rows:
        if row.requires & blocked:
            continue
        open_cards = row.counts & ~blocked
        if open_cards.bit_count() + (open_cards & row.doubles).bit_count() < row.need:
            continue
        missing = row.missing(pile)
        if missing > 0:
            total += row.points * PROXIMITY_HALVING**missing
    return total


def unseen_partners(state: FishingState, seat: int, card: int) -> int:
    """Cards of ``card``'s month that ``seat`` has not seen: what could still match it."""
    seen = state.hands[seat] | state.table
    for pile in state.piles:
        seen |= pile
    return (MONTH_MASK_OF[card] & ~seen & ~(1 << card)).bit_count()


def chosen_capture(state: FishingState, seat: int, card: int, take: int | None) -> int:
    """What playing (or flipping) ``card`` captures, ``take`` naming the chosen option."""
    options = state.capture_options(seat, card)
    if not options:
        return 0
    if take is not None:
        for option in options:
            if option >> take & 1:
                return option
    return options[0]


class StrategistAgent:
    name = "strategist"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(0 if seed is None else seed)

    def choose(self, state: State, seat: int) -> Action:
        actions = actions_for(state, seat)
        assert isinstance(state, FishingState)  # registered for the hanafuda family only
        return best_by_value(actions, lambda a: self.value(state, seat, a), self.rng)

    # -- evaluation ------------------------------------------------------------------------
    def worth(self, state: FishingState, seat: int, pile: int, blocked: int) -> float:
        """What a pile is worth to ``seat`` in card-value units: values (in the games that
        score them), yaku and their potential (in the games that have them)."""
        card_points = card_points_score(state.game.options)
        worth = float(value_of(pile)) if card_points else 0.0
        table = state.yaku_rows()
        if table is not None:
            weight = yaku_weight(state)
            worth += weight * state.pile_yaku_points(seat, pile, state.table)
            worth += weight * potential(table, pile, blocked)
        return worth

    def value(self, state: FishingState, seat: int, action: Action) -> float:
        if isinstance(action, KoiKoi):
            return 1.0 if self.wants_koikoi(state, seat) else -1.0
        if isinstance(action, Shobu):
            return 0.0
        if isinstance(action, Play):
            card, take = action.card, action.take
        elif isinstance(action, Take):
            card, take = state.pending, action.card
        else:
            return 0.0
        captured = chosen_capture(state, seat, card, take)
        if not captured:
            return -self.discard_risk(state, seat, card)
        return self.capture_value(state, seat, captured | 1 << card)

    def capture_value(self, state: FishingState, seat: int, gained: int) -> float:
        """How much ``seat`` gains, and the others lose, when ``gained`` joins its pile."""
        piles = state.piles
        others = [s for s in range(state.n) if s != seat]
        blocked = 0
        for other in others:
            blocked |= piles[other]
        before, after = piles[seat], piles[seat] | gained
        gain = self.worth(state, seat, after, blocked & ~gained) - self.worth(
            state, seat, before, blocked
        )
        for other in others:  # denial, and steals in games that allow them
            theirs_before = piles[other]
            theirs_after = theirs_before & ~gained
            others_blocked = (blocked & ~theirs_before) | before
            gain += self.worth(state, other, theirs_before, others_blocked) - self.worth(
                state, other, theirs_after, others_blocked | gained
            )
        return 1000.0 + gain  # any capture before any discard, as players do

    def discard_risk(self, state: FishingState, seat: int, card: int) -> float:
        """What laying ``card`` on the table may give the others."""
        month = MONTH_MASK_OF[card]
        unseen = unseen_partners(state, seat, card)
        if not unseen:
            return 0.0  # nobody can match it: a safe discard
        others = [s for s in range(state.n) if s != seat]
        exposure = 0.0
        for other in others:
            blocked = 0
            for s in range(state.n):
                if s != other:
                    blocked |= state.piles[s]
            pile = state.piles[other]
            exposure += self.worth(state, other, pile | 1 << card, blocked) - self.worth(
                state, other, pile, blocked
            )
        exposure = max(exposure, float(VALUE_OF[card]))
        likelihood = min(1.0, unseen / 2)
        if state.hands[seat] & month & ~(1 << card):
            likelihood *= 0.25  # we hold its partner: likely ours again next turn
        return exposure * likelihood

    def wants_koikoi(self, state: FishingState, seat: int) -> bool:
        """Go on with cards in hand, a modest yaku, upside, and a quiet opponent."""
        if not isinstance(state, KoiKoiState):
            return False
        opponent = 1 - seat
        mine, theirs = state.piles[seat], state.piles[opponent]
        threat = potential(state.yaku_table, theirs, mine)
        upside = potential(state.yaku_table, mine, theirs)
        return (
            state.hands[seat].bit_count() >= 4
            and state.yaku_total(seat) < 6
            and state.yaku_total(opponent) == 0
            and threat < 1.5
            and upside >= 1.0
        )
