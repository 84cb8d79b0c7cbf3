"""Reading the other hands from what their owners played (the first step of the issue
"Stronger bots: past the plateau of determinized search").

A determinized search deals the unseen cards as if every hand were equally likely. A
player reads more: an opponent who laid a card on the table while a crane lay there
unclaimed probably holds no pine. This module weighs a candidate hand by how likely
the opponent's hand plays of this round were with it, under a model of their play: the
strategist's values (:mod:`.strategist`) turned into probabilities by a softmax
(``temperature`` in the strategist's units; a capture is worth 1000 more than any
discard there, so "they could have captured and did not" weighs most).

Everything read is public: the table and piles before each play are rewound from the
round's capture log, which every seat saw; the candidate hands come from
``state.determinize``; Hana-awase 88's steals are put back in the piles they came from.
Koi-koi's secret-draw turn variant is not read (uniform weights).

>>> import cardtable
>>> from cardtable.core.rng import Rng
>>> state = cardtable.load("koi-koi", rounds=1).new_state(seed=4)
>>> for _ in range(6):
...     seat = min(state.to_move)
...     state.apply(seat, state.legal_actions(seat)[0])
>>> reader = HandReader(state, state.current)
>>> len(reader.plays) > 0
True
>>> 0.0 < reader.likelihood(state.hands) <= 1.0  # the true hands are possible
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from cardtable.core.rng import RandomSource, Rng
from cardtable.games.hanafuda.actions import plays_of
from cardtable.games.hanafuda.bots.strategist import StrategistAgent, chosen_capture
from cardtable.games.hanafuda.deck import MONTH_MASK_OF, card_list
from cardtable.games.hanafuda.events import Source, unpacked_event
from cardtable.games.hanafuda.fishing import FishingState

#: the softmax temperature, in the strategist's units (card values; a yaku point is 10 in
#: koi-koi): fitted on strategist games (benchmarks/inference.py)
TEMPERATURE = 8.0
#: uniform determinizations a search iteration draws its one from (by likelihood)
CANDIDATES = 8
#: the least probability a play gets: players err, and a model that rules a hand out
#: on one surprising play would bet everything on itself
FLOOR = 0.02


@dataclass(frozen=True)
class HandPlay:
    """One of another seat's hand plays this round, on the table and piles it met."""

    seat: int
    card: int
    captured: int  # what it took (0: it joined the table)
    table: int  # the table before the play
    piles: tuple[int, ...]  # every pile before the play
    later: int  # the seat's hand cards played from here on (this one included)
    kept_later: int  # cards the seat kept from the stock after this play (koi-koi §6.3)

    def hand(self, hand_now: int) -> int:
        """The seat's hand at this play, for its hand now."""
        return (hand_now | self.later) & ~self.kept_later


def hand_plays(state: FishingState, viewer: int) -> list[HandPlay]:
    """The other seats' hand plays of this round, oldest first, each with the table and
    piles before it, rewound from the public capture log and steals (empty where that
    cannot be read: koi-koi's secret draws)."""
    if state.draws_unseen_into_hands():
        return []
    table, piles = state.table, list(state.piles)
    stolen_at: dict[int, list[tuple[int, int]]] = {}  # capture index -> (owner, cards)
    for index, owner, cards in state.steals:
        stolen_at.setdefault(index, []).append((owner, cards))
    later = [0] * state.n
    kept = [0] * state.n
    plays: list[HandPlay] = []
    for index in range(len(state.capture_log) - 1, -1, -1):
        event = unpacked_event(state.capture_log[index])
        if event.source is Source.STOCK_KEPT:  # the card went to the hand, not the table
            kept[event.seat] |= 1 << event.card
            continue
        if event.captured:
            from_piles = 0
            for owner, cards in stolen_at.get(index, ()):
                piles[owner] |= cards
                from_piles |= cards
            table |= event.captured & ~from_piles
            piles[event.seat] &= ~(event.captured | 1 << event.card)
        else:
            table &= ~(1 << event.card)
        if event.source is Source.HAND:
            later[event.seat] |= 1 << event.card
            if event.seat != viewer:
                plays.append(
                    HandPlay(
                        event.seat,
                        event.card,
                        event.captured,
                        table,
                        tuple(piles),
                        later[event.seat],
                        kept[event.seat],
                    )
                )
    plays.reverse()
    return plays


class HandReader:
    """The likelihood of candidate hands given the other seats' plays this round, for
    ``viewer`` (who reads only what it saw); also the ``expert`` level's way of dealing
    the hidden cards (:meth:`sample`, one determinization a search iteration).

    A play's value in the model depends on the hand it came from only through the hand's
    cards of the played card's month (a discard is safer with its partner in hand), so
    each card's share of the softmax is remembered by play, card and those month cards:
    after the first few candidates, a likelihood is a few look-ups a past play."""

    def __init__(
        self,
        state: FishingState,
        viewer: int,
        temperature: float = TEMPERATURE,
        candidates: int = CANDIDATES,
    ) -> None:
        self.state = state
        self.viewer = viewer
        self.plays = hand_plays(state, viewer)
        self.temperature = temperature
        self.candidates = candidates
        self.model = StrategistAgent(seed=0)
        # a scratch state the past positions are written into: a determinization, so that
        # not even its unused hands are the real ones (each play's hand is set from the
        # candidate)
        self.scratch = state.determinize(viewer, Rng(0))
        # (play index, card, the hand's cards of its month) -> the card's softmax weights,
        # the chosen play's apart: (all its plays, the recorded play or 0)
        self.weights: dict[tuple[int, int, int], tuple[float, float]] = {}

    def likelihood(self, hands: Sequence[int]) -> float:
        """How likely the plays of this round were if the hands now were ``hands``."""
        total = 1.0
        for index, play in enumerate(self.plays):
            total *= self._probability(index, play, play.hand(hands[play.seat]))
        return total

    def play_probability(self, play: HandPlay, hand: int) -> float:
        """The model's probability that a seat holding ``hand`` made ``play`` (one of
        :attr:`plays`; another raises ValueError)."""
        return self._probability(self.plays.index(play), play, hand)

    def sample(self, rng: RandomSource) -> FishingState:
        """A determinization for the viewer, drawn by likelihood among ``candidates``
        uniform ones (sampling-importance-resampling)."""
        if not self.plays:
            return self.state.determinize(self.viewer, rng)
        samples = [self.state.determinize(self.viewer, rng) for _ in range(self.candidates)]
        weights = [self.likelihood(sample.hands) for sample in samples]
        point = rng.getrandbits(53) / (1 << 53) * sum(weights)
        for sample, weight in zip(samples, weights, strict=True):
            point -= weight
            if point < 0:
                return sample
        return samples[-1]

    def _probability(self, index: int, play: HandPlay, hand: int) -> float:
        total = chosen = 0.0
        for card in card_list(hand):
            key = (index, card, hand & MONTH_MASK_OF[card])
            weights = self.weights.get(key)
            if weights is None:
                weights = self.weights[key] = self._card_weights(play, card, hand)
            total += weights[0]
            chosen += weights[1]
        return max(chosen / total, FLOOR)  # chosen 0: not a play this hand could make

    def _card_weights(self, play: HandPlay, card: int, hand: int) -> tuple[float, float]:
        """The summed unnormalised softmax weight of the plays of ``card`` from ``hand`` at
        ``play``'s position, and the weight of the recorded play among them (0 if none)."""
        past = self.scratch
        past.table = play.table
        past.piles = list(play.piles)
        past.hands[play.seat] = hand
        total = chosen = 0.0
        for action in plays_of(card, past.capture_options(play.seat, card)):
            # centred on a capture's base value and clamped: the softmax is exact for values
            # within 1000 ± 5 600, far wider than the strategist's
            exponent = (self.model.value(past, play.seat, action) - 1000.0) / self.temperature
            weight = math.exp(min(max(exponent, -700.0), 700.0))
            total += weight
            if card == play.card and _same_capture(past, play, action.take):
                chosen = weight
        return total, chosen


def _same_capture(state: FishingState, play: HandPlay, take: int | None) -> bool:
    return chosen_capture(state, play.seat, play.card, take) == play.captured
