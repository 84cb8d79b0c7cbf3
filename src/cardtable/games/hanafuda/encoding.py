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

import sys
from collections.abc import Sequence
from typing import cast

import numpy as np
from librt.vecs import vec
from mypy_extensions import i64

from cardtable.core.actions import Action
from cardtable.core.encoding import JSON, BaseEncoder, CardGroups, Mask, Vector
from cardtable.core.errors import IllegalAction
from cardtable.core.state import State
from cardtable.games.hanafuda.actions import (
    ACTION_NUMBERS,
    NUMBER_PLAY,
    NUMBER_PLAY_TAKE,
    NUMBER_TAKE,
    KoiKoi,
    Play,
    Shobu,
    Take,
    action_number,
    action_of_number,
)
from cardtable.games.hanafuda.deck import CODES, MONTHS, NUM_CARDS, cards
from cardtable.games.hanafuda.fishing import SEATS_SHOWN, FishingState, Phase
from cardtable.games.hanafuda.observation import (
    CARD_SETS,
    TAIL_SIZE,
    legal_cells,
    numbers_into,
    observation_parts,
)
from cardtable.games.hanafuda.observation import play_numbers as play_fishing_numbers

PHASES = tuple(phase.value for phase in Phase)
#: the cards of a month (the deck's order: month by month)
KINDS = NUM_CARDS // len(MONTHS)


def month_actions(month: int) -> tuple[int, ...]:
    """The numbers of what a month's cards do (:mod:`.actions`): play each of its cards
    (4), play one taking a card of the month (4 x 4), take one for the flipped card (4).

    >>> month_actions(0)[:5], month_actions(0)[-1]
    ((0, 1, 2, 3, 48), 243)
    """
    month_cards = range(month * KINDS, (month + 1) * KINDS)
    return (
        *(NUMBER_PLAY + card for card in month_cards),
        *(NUMBER_PLAY_TAKE + KINDS * card + take for card in month_cards for take in range(KINDS)),
        *(NUMBER_TAKE + card for card in month_cards),
    )


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
    numbers += [piles[(seat + k) % players] if k < players else 0 for k in range(SEATS_SHOWN)]
    zeros = [0] * players
    for values in (
        view["hand_sizes"],
        view["scores"],
        view.get("koikoi_calls", zeros),
        view.get("yaku_totals", zeros),
        view.get("pile_values", zeros),
    ):
        numbers += [values[(seat + k) % players] if k < players else 0 for k in range(SEATS_SHOWN)]
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

    SEATS = SEATS_SHOWN
    action_size = ACTION_NUMBERS
    observation_size = CARD_SETS * NUM_CARDS + TAIL_SIZE  # the card bits, then the tail
    CARD_GROUPS = CardGroups(
        blocks=("hand", "table", "flipped", *(f"pile_{k}" for k in range(SEATS_SHOWN))),
        groups=len(MONTHS),
        size=KINDS,
        actions=tuple(month_actions(month) for month in range(len(MONTHS))),
    )
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
        """:meth:`observe` of many states at once: the compiled engine writes each row's
        card sets and tail (:mod:`.observation`) into two buffers numpy reads in place,
        what a learner stepping many games pays per step. A test keeps it equal to
        :meth:`observe` of the views."""
        card_sets, tail = observation_parts(_fishing_batch(states), list(seats), self._scales)
        return self._vectors(card_sets, tail, len(states))

    def masks(self, states: Sequence[State], seats: Sequence[int]) -> Mask:
        cells = legal_cells(_fishing_batch(states), list(seats), self.action_size)
        out = np.zeros((len(states), self.action_size), dtype=np.int8)
        out.reshape(-1)[np.frombuffer(memoryview(cells), dtype=np.int64)] = 1
        return out

    def play_numbers(self, states: Sequence[State], numbers: Sequence[int]) -> list[int]:
        return play_fishing_numbers(_fishing_batch(states), list(numbers))

    def seats_to_move(self, states: Sequence[State]) -> list[int]:
        return [state.current for state in _fishing_batch(states)]

    def observe(self, view: JSON) -> Vector:
        return self.vector_of(numbers_of_view(view))

    def observe_state(self, state: State, seat: int) -> Vector:
        return self.vector_of(_fishing(state).observation_numbers(seat))

    @property
    def _scales(self) -> list[float]:
        """What the per-seat blocks are divided by: hand sizes, scores, koi-koi calls, yaku
        totals, pile values (the layout's docs say the same)."""
        return [8.0, self.score_scale, 3.0, 10.0, self.score_scale]

    def vector_of(self, numbers: Sequence[int]) -> Vector:
        """The observation of one seat's numbers (:meth:`FishingState.observation_numbers`
        or :func:`numbers_of_view`)."""
        card_sets, tail = numbers_into(vec[i64](numbers), 1, self._scales)
        row: Vector = self._vectors(card_sets, tail, 1)[0]
        return row

    def _vectors(self, card_sets: vec[i64], tail: vec[float], rows: int) -> Vector:
        """Observation rows from the card sets and tails of :mod:`.observation`."""
        out = np.empty((rows, self.observation_size), dtype=np.float32)
        if not rows:
            return out
        # each set's machine word as little-endian bytes (a copy only on big-endian
        # machines), so that bit k of the set is bit k of its bytes in little bit order
        words = np.frombuffer(memoryview(card_sets), dtype=np.int64)
        if sys.byteorder != "little":
            words = words.astype("<i8")
        bits = np.unpackbits(words.view(np.uint8).reshape(rows, -1), axis=1, bitorder="little")
        cards = CARD_SETS * NUM_CARDS
        out[:, :cards] = bits.reshape(rows, CARD_SETS, 64)[:, :, :NUM_CARDS].reshape(rows, -1)
        out[:, cards:] = np.frombuffer(memoryview(tail), dtype=np.float64).reshape(rows, TAIL_SIZE)
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
