"""Fixed-size tensors for learning: observations from ``state.view(seat)`` only, and a
discrete action space per game family with a legal-action mask.

An observation is built from the seat's view and nothing else, so it cannot leak a card
the seat may not see (a test compares observations across determinizations). Actions are
numbered once per family; ``decode`` turns a number back into the engine's action.

>>> import cardtable
>>> encoder = encoder_for(cardtable.load("koi-koi"))
>>> state = cardtable.load("koi-koi").new_state(seed=1)
>>> seat = min(state.to_move)
>>> mask = encoder.mask(state, seat)
>>> int(mask.sum()) == len(state.legal_actions(seat))
True
>>> encoder.decode(state, seat, int(mask.argmax())) in state.legal_actions(seat)
True
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.core.actions import Action
from cardtable.core.errors import IllegalAction
from cardtable.core.game import Game
from cardtable.core.state import State
from cardtable.games.hanafuda.actions import KOIKOI, SHOBU, KoiKoi, Play, Shobu, Take
from cardtable.games.hanafuda.deck import INDEX_OF_CODE, NUM_CARDS
from cardtable.games.ohanami.game import Keep, OhanamiState, Place, Target, cards_in
from cardtable.games.siedem_slow.game import (
    Accept,
    Challenge,
    Lock,
    SiedemSlowState,
    Submit,
    Vote,
)
from cardtable.games.siedem_slow.scoring import normalize
from cardtable.games.siedem_slow.solver import Solution, solve
from cardtable.games.siedem_slow.tables import COLUMN_VALUES, DECKS, ROUNDS

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
JSON = dict[str, Any]
MAX_SEATS = 6
#: Scores are squashed into about [-1, 1] by this scale.
SCORE_SCALE = {"hanafuda": 100.0, "ohanami": 150.0, "siedem-slow": 150.0}


class BaseEncoder(ABC):
    """What an environment needs of a game family: subclasses number the actions and turn
    a view into a vector; masks and decoding follow from the numbering."""

    observation_size = 0
    action_size = 0

    @abstractmethod
    def observe(self, view: JSON) -> Vector:
        """The fixed-size vector of a seat's view."""

    @abstractmethod
    def index_of(self, state: State, seat: int, action: Action) -> int:
        """The number of a legal ``action`` of ``seat``."""

    def legal_indices(self, state: State, seat: int) -> list[int]:
        return [self.index_of(state, seat, action) for action in state.legal_actions(seat)]

    def mask(self, state: State, seat: int) -> Mask:
        mask = np.zeros(self.action_size, dtype=np.int8)
        if seat in state.to_move:
            mask[self.legal_indices(state, seat)] = 1
        return mask

    def decode(self, state: State, seat: int, index: int) -> Action:
        for action in state.legal_actions(seat):
            if self.index_of(state, seat, action) == index:
                return action
        raise IllegalAction(f"action {index} is not legal for seat {seat} now")


def _bits(codes: Sequence[str] | None) -> Vector:
    out = np.zeros(NUM_CARDS, dtype=np.float32)
    if codes:
        out[[INDEX_OF_CODE[code] for code in codes]] = 1.0
    return out


def _relative(values: Sequence[Any], seat: int, size: int, scale: float = 1.0) -> Vector:
    """Per-seat numbers rotated so the viewer comes first, padded to ``size``."""
    out = np.zeros(size, dtype=np.float32)
    count = len(values)
    for offset in range(count):
        out[offset] = float(values[(seat + offset) % count]) / scale
    return out


def _one_hot(index: int, size: int) -> Vector:
    out = np.zeros(size, dtype=np.float32)
    if 0 <= index < size:
        out[index] = 1.0
    return out


# -- hanafuda -------------------------------------------------------------------------------
PHASES = ("play", "take", "decide", "over")


class HanafudaEncoder(BaseEncoder):
    """Play a card (48), play a card taking one of its month's cards (48 x 4), take a card
    for the flipped stock card (48), koi-koi, shōbu: 290 actions.

    Observation: own hand, table, flipped card, every pile (the viewer's first), hand
    sizes, stock, scores, dealer, round, koi-koi calls and yaku totals.
    """

    SEATS = 4
    PLAY, PLAY_TAKE, TAKE = 0, NUM_CARDS, NUM_CARDS * 5
    KOIKOI, SHOBU = NUM_CARDS * 6, NUM_CARDS * 6 + 1
    action_size = NUM_CARDS * 6 + 2
    observation_size = NUM_CARDS * (3 + SEATS) + SEATS * 6 + 4 + 4

    def index_of(self, state: State, seat: int, action: Action) -> int:
        if isinstance(action, Play):
            if action.take is None:
                return self.PLAY + action.card
            return self.PLAY_TAKE + action.card * 4 + action.take % 4
        if isinstance(action, Take):
            return self.TAKE + action.card
        if isinstance(action, KoiKoi):
            return self.KOIKOI
        if isinstance(action, Shobu):
            return self.SHOBU
        raise IllegalAction(f"no number for {action!r}")

    def decode(self, state: State, seat: int, index: int) -> Action:
        # Built straight from the number; the engine's apply checks it is legal.
        action: Action
        if not 0 <= index < self.action_size:
            raise IllegalAction(f"there is no action {index} (0..{self.action_size - 1})")
        if index < self.PLAY_TAKE:
            action = Play(index)
        elif index < self.TAKE:
            card, kind = divmod(index - self.PLAY_TAKE, 4)
            action = Play(card, card - card % 4 + kind)
        elif index < self.KOIKOI:
            action = Take(index - self.TAKE)
        else:
            action = KOIKOI if index == self.KOIKOI else SHOBU
        if state.illegal_reason(seat, action) is not None:
            raise IllegalAction(f"action {index} ({action}) is not legal for seat {seat} now")
        return action

    def observe(self, view: JSON) -> Vector:
        # One array filled in place: this runs on every step of a learner.
        seat, players = int(view["seat"]), int(view["players"])
        index = INDEX_OF_CODE
        ones = [index[code] for code in view.get("hand") or ()]
        ones += [NUM_CARDS + index[code] for code in view["table"]]
        flipped = view.get("flipped")
        if isinstance(flipped, str):
            ones.append(2 * NUM_CARDS + index[flipped])
        for offset in range(players):
            base = (3 + offset) * NUM_CARDS
            ones += [base + index[code] for code in view["piles"][(seat + offset) % players]]
        seats = self.SEATS
        tail = [0.0] * (seats * 6 + len(PHASES) + 4)
        scale = SCORE_SCALE["hanafuda"]
        zeros = [0] * players
        position = 0
        for values, divisor in (
            (view["hand_sizes"], 8.0),
            (view["scores"], scale),
            (view.get("koikoi_calls", zeros), 3.0),
            (view.get("yaku_totals", zeros), 10.0),
            (view.get("pile_values", zeros), scale),
        ):
            for offset in range(players):
                value = values[(seat + offset) % players] / divisor
                tail[position + offset] = min(max(value, -10.0), 10.0)
            position += seats
        tail[position + (int(view["dealer"]) - seat) % players] = 1.0
        position += seats
        tail[position + PHASES.index(view["phase"])] = 1.0
        position += len(PHASES)
        tail[position : position + 4] = (
            view["stock_size"] / 24.0,
            view["round"] / max(view["rounds"], 1),
            float(seat in view["to_move"]),
            players / seats,
        )
        out = np.zeros(self.observation_size, dtype=np.float32)
        out[ones] = 1.0
        out[(3 + seats) * NUM_CARDS :] = tail
        return out


# -- Ohanami --------------------------------------------------------------------------------
TARGETS: tuple[Target, ...] = (0, 1, 2, "new", "discard")
OHANAMI_PAIRS = {pair: i for i, pair in enumerate(combinations(range(1, 121), 2))}


class OhanamiEncoder(BaseEncoder):
    """Keep a pair of cards (7 140), or place the kept pair: which card first (lower or
    higher) and where each goes (row 0-2, a new row, the discard): 50; 7 190 actions."""

    SEATS = 4
    KEEP = 0
    PLACE = len(OHANAMI_PAIRS)
    action_size = len(OHANAMI_PAIRS) + 2 * len(TARGETS) ** 2
    observation_size = 120 * 3 + 3 * 4 + SEATS * 4 + SEATS + 3 + 4

    def index_of(self, state: State, seat: int, action: Action) -> int:
        if isinstance(action, Keep):
            return self.KEEP + OHANAMI_PAIRS[action.cards]
        if isinstance(action, Place):
            cards = [card for card, _ in action.placements]
            targets = [TARGETS.index(target) for _, target in action.placements]
            targets += [4] * (2 - len(targets))
            higher_first = int(len(cards) == 2 and cards[0] > cards[1])
            return self.PLACE + higher_first * 25 + targets[0] * 5 + targets[1]
        raise IllegalAction(f"no number for {action!r}")

    def observe(self, view: JSON) -> Vector:
        seat, players = int(view["seat"]), int(view["players"])
        cards = np.zeros((3, 120), dtype=np.float32)
        for row, key in enumerate(("hand", "kept")):
            for card in view.get(key, ()):
                cards[row, card - 1] = 1.0
        rows = np.zeros((3, 4), dtype=np.float32)
        for index, row in enumerate(view["gardens"][seat][:3]):
            for card in row:
                cards[2, card - 1] = 1.0
            rows[index] = (1.0, row[0] / 120, row[-1] / 120, len(row) / 15)
        colours = np.zeros((self.SEATS, 4), dtype=np.float32)
        for offset in range(players):
            counts = view["colour_counts"][(seat + offset) % players]
            colours[offset] = [counts[c] / 15 for c in ("blue", "green", "grey", "pink")]
        parts = [
            cards.ravel(),
            rows.ravel(),
            colours.ravel(),
            _relative(view["scores"], seat, self.SEATS, SCORE_SCALE["ohanami"]),
            _one_hot(int(view["stage"]) - 1, 3),
            np.array(
                [
                    float(view["pick"]) / 5,
                    float(view["phase"] == "place"),
                    float(view["pass_to"] == "left"),
                    float(players) / self.SEATS,
                ],
                dtype=np.float32,
            ),
        ]
        return np.concatenate(parts)

    def decode(self, state: State, seat: int, index: int) -> Action:
        if isinstance(state, OhanamiState) and index >= self.PLACE:
            # any order of placements the rules allow, not only the listed representative
            offset = index - self.PLACE
            kept = cards_in(state.kept[seat])
            if len(kept) == 2 and offset // 25:
                kept = kept[::-1]
            targets = (TARGETS[offset % 25 // 5], TARGETS[offset % 5])
            action = Place(tuple(zip(kept, targets, strict=False)))
            if state.illegal_reason(seat, action) is None:
                return action
        return super().decode(state, seat, index)


# -- 7 słów ---------------------------------------------------------------------------------
class SiedemSlowEncoder(BaseEncoder):
    """Write one of the solver's ``CANDIDATES`` best words for you (then flip when you
    may, else lock), lock without a word, accept the words, challenge a seat, vote."""

    CANDIDATES = 16
    WORD, LOCK, ACCEPT = 0, 16, 17
    CHALLENGE = 18
    VOTE_YES, VOTE_NO = 18 + MAX_SEATS, 19 + MAX_SEATS
    action_size = 20 + MAX_SEATS
    LETTERS = sorted({letter for deck in DECKS.values() for letter in deck.letters})
    observation_size = 8 * (len(LETTERS) + 2) + CANDIDATES + ROUNDS + 6 + MAX_SEATS * 3 + 4

    def __init__(self) -> None:
        self._cache: dict[tuple[object, ...], list[Solution]] = {}

    def candidates(self, state: SiedemSlowState, seat: int) -> list[Solution]:
        """The solver's best legal words for this seat now (cached by what decides them:
        the area, the words played before, the seat and the options)."""
        played = tuple(w.word for words in state.played for w in words)
        key = (str(state.area), played, seat, state.options)
        if key not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            options = state.options
            found = solve(
                state.area,
                state.dictionary,
                top=self.CANDIDATES,
                better=options.better_card,
                veteran_letters=options.veteran_letters if seat in options.veterans else None,
                veteran_counts=options.veteran_counts,
                # solver words are dictionary words: only the family rule can refuse one
                allowed=lambda w: state.family_block(seat, w) is None,
            )
            self._cache[key] = found
        return self._cache[key]

    def index_of(self, state: State, seat: int, action: Action) -> int:
        assert isinstance(state, SiedemSlowState)
        if isinstance(action, Submit):
            words = [s.word for s in self.candidates(state, seat)]
            word = normalize(action.word)
            if word not in words:
                raise IllegalAction(f"{word.upper()} is not one of the candidate words")
            return words.index(word)
        if isinstance(action, Vote):
            return self.VOTE_YES if action.uphold else self.VOTE_NO
        if isinstance(action, Challenge):
            return self.CHALLENGE + action.seat
        simple = {Lock: self.LOCK, Accept: self.ACCEPT}
        if type(action) not in simple:
            raise IllegalAction(f"no number for {action!r}: a written word flips by itself")
        return simple[type(action)]

    def legal_indices(self, state: State, seat: int) -> list[int]:
        assert isinstance(state, SiedemSlowState)
        if seat not in state.to_move:
            return []
        if state.phase in ("writing", "hourglass", "overtime"):
            # free text is not listed by the engine: the candidates stand for it
            lock = [self.LOCK] if state.illegal_reason(seat, Lock()) is None else []
            return [*range(len(self.candidates(state, seat))), *lock]
        return super().legal_indices(state, seat)

    def decode(self, state: State, seat: int, index: int) -> Action:
        assert isinstance(state, SiedemSlowState)
        if index not in self.legal_indices(state, seat):
            raise IllegalAction(f"action {index} is not legal for seat {seat} now")
        if index < self.CANDIDATES:
            return Submit(self.candidates(state, seat)[index].word)
        if index == self.LOCK:
            return Lock()
        return super().decode(state, seat, index)

    def observe(self, view: JSON) -> Vector:
        seat, players = int(view["seat"]), int(view["players"])
        area = np.zeros((8, len(self.LETTERS) + 2), dtype=np.float32)
        for slot, card in enumerate(view["area"]):
            if card is not None:
                area[slot, self.LETTERS.index(card["letter"])] = 1.0
                area[slot, -2] = card["value"] / 7
                area[slot, -1] = card["column"] / max(COLUMN_VALUES)
        candidates = np.zeros(self.CANDIDATES, dtype=np.float32)
        for index, points in enumerate(view.get("candidate_points", [])[: self.CANDIDATES]):
            candidates[index] = points / 40
        phases = ("writing", "hourglass", "overtime", "review", "vote", "over")
        marks = [sum(m["value"] for m in ms) for ms in view["marks"]]
        parts = [
            area.ravel(),
            candidates,
            _one_hot(int(view["round"]) - 1, ROUNDS),
            _one_hot(phases.index(view["phase"]), 6),
            _relative(view["scores"], seat, MAX_SEATS, SCORE_SCALE["siedem-slow"]),
            _relative(marks, seat, MAX_SEATS, 20.0),
            _relative(view["locked"], seat, MAX_SEATS),
            np.array(
                [
                    float(view.get("dont_flip") == seat),
                    float(bool(view.get("may_flip"))),
                    float(players) / MAX_SEATS,
                    float(view.get("fastest") is not None),
                ],
                dtype=np.float32,
            ),
        ]
        return np.concatenate(parts)

    def view_for(self, state: SiedemSlowState, seat: int) -> JSON:
        """The seat's view plus the points of its candidate words (public to that seat:
        the solver only reads the area and the dictionary)."""
        view = state.view(seat, brief=True)
        if seat in state.to_move and state.phase in ("writing", "hourglass", "overtime"):
            view["candidate_points"] = [s.points for s in self.candidates(state, seat)]
        return view


def then_lock(state: SiedemSlowState, seat: int) -> None:
    """After a chosen word: flip when the rules allow, else lock (one decision a round)."""
    if seat in state.to_move and state.phase in ("writing", "hourglass", "overtime"):
        state.apply(seat, state.finish_action(seat))


ENCODERS: dict[str, Callable[[], BaseEncoder]] = {
    "hanafuda": HanafudaEncoder,
    "ohanami": OhanamiEncoder,
    "siedem-slow": SiedemSlowEncoder,
}


def encoder_for(game: Game) -> BaseEncoder:
    family = game.spec.family
    if family not in ENCODERS:
        raise IllegalAction(f"no RL encoding for {game.id} yet")
    return ENCODERS[family]()


def observe(encoder: BaseEncoder, state: State, seat: int) -> Vector:
    """The observation of ``seat``: built from its view only."""
    if isinstance(encoder, SiedemSlowEncoder):
        assert isinstance(state, SiedemSlowState)
        return encoder.observe(encoder.view_for(state, seat))
    return encoder.observe(state.view(seat, brief=True))


def apply(encoder: BaseEncoder, state: State, seat: int, index: int) -> None:
    """Play action number ``index`` for ``seat`` (an illegal number raises IllegalAction)."""
    action = encoder.decode(state, seat, index)
    state.apply(seat, action)
    if isinstance(action, Submit):
        assert isinstance(state, SiedemSlowState)
        then_lock(state, seat)
