"""The hanafuda games' RL encoding (the ``ENCODER`` capability): 386 numbered actions and
an observation of the seat's view.

>>> import cardtable
>>> state = cardtable.load("koi-koi").new_state(seed=1)
>>> seat = min(state.to_move)
>>> encoder = HanafudaEncoder()
>>> mask = encoder.mask(state, seat)
>>> int(mask.sum()) == len(state.legal_actions(seat))
True
>>> encoder.decode(state, seat, int(mask.argmax())) in state.legal_actions(seat)
True
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from functools import lru_cache
from typing import cast

import numpy as np

from cardtable.core.actions import Action
from cardtable.core.encoding import JSON, BaseEncoder, Mask, Vector
from cardtable.core.errors import IllegalAction
from cardtable.core.state import State
from cardtable.games.hanafuda.actions import (
    ACTION_NUMBERS,
    KoiKoi,
    Play,
    Shobu,
    Take,
    action_number,
    action_of_number,
)
from cardtable.games.hanafuda.deck import CODES, NUM_CARDS, card_list, cards
from cardtable.games.hanafuda.fishing import (
    FishingState,
    legal_cells,
    observation_rows,
)
from cardtable.games.hanafuda.fishing import play_numbers as play_fishing_numbers

PHASES = ("play", "take", "decide", "over")
#: FishingState.observation_numbers: card sets (hand, table, flipped, four piles), five
#: per-seat blocks of four, seven single numbers
_CARD_SETS = 7
_SEATS = 4  # seats an observation has room for
_NUMBERS = _CARD_SETS + 5 * _SEATS + 7


def _fishing(state: State) -> FishingState:
    if not isinstance(state, FishingState):
        raise IllegalAction(f"the hanafuda encoder cannot read a {type(state).__name__}")
    return state


def numbers_of_view(view: JSON) -> list[int]:
    """A seat's view (``brief`` will do) as the numbers
    :meth:`FishingState.observation_numbers` gives for it: the observation's reference."""
    seat, players = int(view["seat"]), int(view["players"])
    piles = [cards(pile) for pile in view["piles"]]
    flipped = view.get("flipped")
    numbers = [cards(view.get("hand") or ()), cards(view["table"])]
    numbers.append(cards([flipped]) if isinstance(flipped, str) else 0)
    numbers += [piles[(seat + k) % players] if k < players else 0 for k in range(_SEATS)]
    zeros = [0] * players
    for values in (
        view["hand_sizes"],
        view["scores"],
        view.get("koikoi_calls", zeros),
        view.get("yaku_totals", zeros),
        view.get("pile_values", zeros),
    ):
        numbers += [values[(seat + k) % players] if k < players else 0 for k in range(_SEATS)]
    numbers += [
        (int(view["dealer"]) - seat) % players,
        PHASES.index(view["phase"]),
        int(view["stock_size"]),
        int(view["round"]),
        int(view["rounds"]),
        int(seat in view["to_move"]),
        players,
    ]
    return numbers


@lru_cache(maxsize=8)
def _int64s(count: int) -> struct.Struct:
    """The layout of ``count`` little-endian 64-bit integers."""
    return struct.Struct(f"<{count}q")


def _fishing_batch(states: Sequence[State]) -> list[FishingState]:
    """The states of a batch (a batch holds one game: its first state is checked)."""
    if states:
        _fishing(states[0])
    return cast(list[FishingState], list(states))


# -- hanafuda -------------------------------------------------------------------------------


class HanafudaEncoder(BaseEncoder):
    """Play a card (48), play a card taking one of its month's cards (48 x 4), take a card
    for the flipped stock card (48), koi-koi, shōbu; the wild lightning's plays (96): 386
    actions (:mod:`.actions` numbers them).

    Observation: own hand, table, flipped card, every pile (the viewer's first), hand
    sizes, stock, scores, dealer, round, koi-koi calls and yaku totals; ``LAYOUT`` names
    the blocks (per-seat blocks start with the viewer and go round the table).
    """

    SEATS = _SEATS
    action_size = ACTION_NUMBERS
    observation_size = NUM_CARDS * (3 + SEATS) + SEATS * 6 + 4 + 4
    LAYOUT = (
        ("hand", NUM_CARDS, 0.0, 1.0, "the viewer's hand, one value per card (deck order)"),
        ("table", NUM_CARDS, 0.0, 1.0, "the cards on the table"),
        ("flipped", NUM_CARDS, 0.0, 1.0, "the stock card just flipped, waiting for a take"),
        *(
            (f"pile_{k}", NUM_CARDS, 0.0, 1.0, f"captured cards of seat viewer+{k}")
            for k in range(SEATS)
        ),
        ("hand_sizes", SEATS, 0.0, 2.0, "cards in each hand / 8"),
        ("scores", SEATS, -10.0, 10.0, "match scores / 100, clipped"),
        ("koikoi_calls", SEATS, 0.0, 10.0, "koi-koi calls this round / 3"),
        ("yaku_totals", SEATS, 0.0, 10.0, "points of the yaku each pile holds / 10"),
        ("pile_values", SEATS, 0.0, 10.0, "card points of each pile / 100"),
        ("dealer", SEATS, 0.0, 1.0, "who deals (one-hot, viewer first)"),
        ("phase", len(PHASES), 0.0, 1.0, "play, take, decide, over (one-hot)"),
        ("stock", 1, 0.0, 2.0, "cards in the stock / 24"),
        ("round", 1, 0.0, 2.0, "round number / rounds"),
        ("to_move", 1, 0.0, 1.0, "1 when the viewer is to act"),
        ("players", 1, 0.0, 1.0, "players / 4"),
    )

    def index_of(self, state: State, seat: int, action: Action) -> int:
        if not isinstance(action, Play | Take | KoiKoi | Shobu):
            raise IllegalAction(f"no number for {action!r}")
        return action_number(action)

    def legal_indices(self, state: State, seat: int) -> list[int]:
        return _fishing(state).legal_numbers(seat)

    def named(self, state: State, seat: int, index: int) -> Action:
        return action_of_number(index)  # interned; refuses a number outside the space

    def decode(self, state: State, seat: int, index: int) -> Action:
        action = self.named(state, seat, index)
        if state.illegal_reason(seat, action) is not None:
            raise IllegalAction(f"action {index} ({action}) is not legal for seat {seat} now")
        return action

    def observe_states(self, states: Sequence[State], seats: Sequence[int]) -> Vector:
        """:meth:`observe` of many states at once, from the engine's card sets and counts
        (:meth:`FishingState.observation_numbers`, what each seat's view shows) in a few
        array operations: what a learner stepping many games pays per step. A test keeps
        it equal to :meth:`observe` of the views."""
        flat = observation_rows(_fishing_batch(states), list(seats))
        # packed by struct, then read as an array: twice as fast as np.array of the ints
        packed = _int64s(len(flat)).pack(*flat)
        numbers = np.frombuffer(packed, dtype=np.int64).reshape(len(states), _NUMBERS)
        rows = np.arange(len(states))
        out = np.zeros((len(states), self.observation_size), dtype=np.float32)
        card_sets = numbers[:, :_CARD_SETS].astype("<u8").view(np.uint8)
        bits = np.unpackbits(card_sets, axis=1, bitorder="little")
        out[:, : _CARD_SETS * NUM_CARDS] = bits.reshape(len(states), _CARD_SETS, 64)[
            :, :, :NUM_CARDS
        ].reshape(len(states), -1)
        start, seats_shown = _CARD_SETS * NUM_CARDS, self.SEATS
        per_seat = numbers[:, _CARD_SETS : _CARD_SETS + 5 * seats_shown].astype(np.float64)
        divisors = np.repeat(self._divisors(), seats_shown)
        out[:, start : start + 5 * seats_shown] = np.clip(per_seat / divisors, -10.0, 10.0)
        start += 5 * seats_shown
        dealer, phase, stock, round_no, rounds, to_move, players = numbers[:, -7:].T
        out[rows, start + dealer] = 1.0
        start += seats_shown
        out[rows, start + phase] = 1.0
        start += len(PHASES)
        out[:, start] = stock / 24.0
        out[:, start + 1] = round_no / np.maximum(rounds, 1)
        out[:, start + 2] = to_move
        out[:, start + 3] = players / seats_shown
        return out

    def masks(self, states: Sequence[State], seats: Sequence[int]) -> Mask:
        cells = legal_cells(_fishing_batch(states), list(seats), self.action_size)
        out = np.zeros((len(states), self.action_size), dtype=np.int8)
        out.reshape(-1)[cells] = 1
        return out

    def play_numbers(self, states: Sequence[State], numbers: Sequence[int]) -> list[int]:
        return play_fishing_numbers(_fishing_batch(states), list(numbers))

    def seats_to_move(self, states: Sequence[State]) -> list[int]:
        return [state.current for state in _fishing_batch(states)]

    def observe(self, view: JSON) -> Vector:
        return self.vector_of(numbers_of_view(view))

    def observe_state(self, state: State, seat: int) -> Vector:
        return self.vector_of(_fishing(state).observation_numbers(seat))

    def _divisors(self) -> tuple[float, ...]:
        """What the per-seat blocks are divided by: hand sizes, scores, koi-koi calls, yaku
        totals, pile values (the layout's docs say the same)."""
        return (8.0, self.score_scale, 3.0, 10.0, self.score_scale)

    def vector_of(self, numbers: Sequence[int]) -> Vector:
        """The observation of one seat's numbers (:meth:`FishingState.observation_numbers`
        or :func:`numbers_of_view`): one array filled in place, as every step needs."""
        ones: list[int] = []
        for block in range(_CARD_SETS):
            ones += [block * NUM_CARDS + card for card in card_list(numbers[block])]
        seats = self.SEATS
        tail = [0.0] * (seats * 6 + len(PHASES) + 4)
        divisors = self._divisors()
        for position in range(5 * seats):
            value = numbers[_CARD_SETS + position] / divisors[position // seats]
            tail[position] = min(max(value, -10.0), 10.0)
        dealer, phase, stock, round_no, rounds, to_move, players = numbers[-7:]
        position = 5 * seats
        tail[position + dealer] = 1.0
        position += seats
        tail[position + phase] = 1.0
        position += len(PHASES)
        tail[position : position + 4] = (
            stock / 24.0,
            round_no / max(rounds, 1),
            float(to_move),
            players / seats,
        )
        out = np.zeros(self.observation_size, dtype=np.float32)
        out[ones] = 1.0
        out[_CARD_SETS * NUM_CARDS :] = tail
        return out

    def deal_cards(self) -> tuple[str, ...]:
        return CODES

    def deal(self, probe: State, dealer: int, order: Sequence[str]) -> JSON:
        """Hands in seat order, then the table, then the stock (top first), in the sizes
        of ``probe``'s deal."""
        view = probe.view(None)
        hands, start = [], 0
        for size in view["hand_sizes"]:
            hands.append(list(order[start : start + size]))
            start += size
        table = list(order[start : start + len(view["table"])])
        start += len(table)
        return {"dealer": dealer, "hands": hands, "table": table, "stock": list(order[start:])}
