"""The hanafuda RL observation as machine words (compiled with the engine, see
:mod:`cardtable.compiled`): what :class:`.encoding.HanafudaEncoder` makes arrays of.

An observation is a seat's :meth:`~.fishing.FishingState.observation_numbers` in two
parts: the seven card sets (bitsets: hand, table, flipped card, four piles), which numpy
unpacks to 0/1 columns, and the *tail*, every other column as a float: the five per-seat
blocks divided by their scales, the dealer and phase one-hot, the stock, the round, to
move and the players. A batch appends row after row to two ``vec``\\ s that numpy reads
in place (``np.frombuffer``), so a learner stepping many games pays no Python object a
column.

>>> numbers = vec[i64](range(34))
>>> card_sets, tail = numbers_into(numbers, 1, [1.0] * 5)
>>> list(card_sets)
[0, 1, 2, 3, 4, 5, 6]
>>> len(tail) == TAIL_SIZE, tail[0], tail[20:28]
(True, 7.0, vec[float]([0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]))
"""

from __future__ import annotations

from typing import Final

from librt.vecs import append, vec
from mypy_extensions import i64

from cardtable.games.hanafuda.actions import action_of_number
from cardtable.games.hanafuda.fishing import SEATS_SHOWN, FishingState, Phase

#: bitsets a row starts with: the hand, the table, the flipped card, a pile per seat shown
CARD_SETS: Final = 3 + SEATS_SHOWN
#: per-seat blocks: hand sizes, scores, koi-koi calls, yaku totals, pile values
PER_SEAT_BLOCKS: Final = 5
PHASE_COUNT: Final = len(Phase)
#: numbers after the per-seat blocks: dealer, phase, stock, round, rounds, to move, players
SINGLES: Final = 7
NUMBERS: Final = CARD_SETS + PER_SEAT_BLOCKS * SEATS_SHOWN + SINGLES
#: the tail's floats: per-seat blocks, dealer and phase one-hot, stock, round, to move,
#: players
TAIL_SIZE: Final = PER_SEAT_BLOCKS * SEATS_SHOWN + SEATS_SHOWN + PHASE_COUNT + 4
#: what the stock count is divided by (the most a stock holds after a two-player deal)
STOCK_SCALE: Final = 24.0


def numbers_into(numbers: vec[i64], rows: int, scales: list[float]) -> tuple[vec[i64], vec[float]]:
    """The card sets and tails of ``rows`` rows of :data:`NUMBERS` numbers each
    (``observation_numbers``, or the encoder's reading of a view); each per-seat block
    is divided by its entry of ``scales``. Clipping to the layout's ranges is the
    encoder's."""
    card_sets = vec[i64](capacity=CARD_SETS * rows)
    tail = vec[float](capacity=TAIL_SIZE * rows)
    for row in range(rows):
        start = row * NUMBERS
        for block in range(CARD_SETS):
            card_sets = append(card_sets, numbers[start + block])
        start += CARD_SETS
        for position in range(PER_SEAT_BLOCKS * SEATS_SHOWN):
            scale = scales[position // SEATS_SHOWN]
            tail = append(tail, float(numbers[start + position]) / scale)
        start += PER_SEAT_BLOCKS * SEATS_SHOWN
        dealer, phase = numbers[start], numbers[start + 1]
        for place in range(SEATS_SHOWN):
            tail = append(tail, 1.0 if place == dealer else 0.0)
        for number in range(PHASE_COUNT):
            tail = append(tail, 1.0 if number == phase else 0.0)
        tail = append(tail, float(numbers[start + 2]) / STOCK_SCALE)
        tail = append(tail, float(numbers[start + 3]) / max(float(numbers[start + 4]), 1.0))
        tail = append(tail, float(numbers[start + 5]))
        tail = append(tail, float(numbers[start + 6]) / SEATS_SHOWN)
    return card_sets, tail


def observation_parts(
    states: list[FishingState], seats: list[int], scales: list[float]
) -> tuple[vec[i64], vec[float]]:
    """The card sets and tails (:func:`numbers_into`) of every state's observation for
    its seat, row after row."""
    numbers = vec[i64](capacity=NUMBERS * len(states))
    for row in range(len(states)):
        numbers = states[row].observe_into(numbers, seats[row])
    return numbers_into(numbers, len(states), scales)


def legal_cells(states: list[FishingState], seats: list[int], width: int) -> vec[i64]:
    """Where the masks of many states have a 1, as cells of one flat array ``width``
    numbers a row: ``row * width + number`` for each legal action number of a row's seat
    (a ``vec``, which numpy reads in place)."""
    cells = vec[i64]()
    for row in range(len(states)):
        for number in states[row].legal_numbers(seats[row]):
            cells = append(cells, row * width + number)
    return cells


def play_numbers(states: list[FishingState], numbers: list[int]) -> list[int]:
    """Each state's seat to move plays its action number, checked as ``apply`` checks a
    move (an illegal one raises IllegalAction, after the rows before it have moved). The
    rows whose round ended: only then do a fishing game's scores change."""
    ended: list[int] = []
    for row in range(len(states)):
        state = states[row]
        rounds = len(state.results)
        state.apply(state.current, action_of_number(numbers[row]))
        if len(state.results) != rounds:
            ended.append(row)
    return ended
