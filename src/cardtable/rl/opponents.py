"""The built-in bots as opponents of a batch of games (``VectorGames`` and
``CardtableVectorEnv`` of :mod:`cardtable.rl.vector`): ``greedy`` and ``strategist`` choose
in the batch, the search levels (``hard``, ``ismcts``: about a second a move) on a pool
of worker processes. The workers are spawned and import the script that started them: a
script makes its env under ``if __name__ == "__main__":`` (else each worker runs the
script again and fails, and the step raises ``BrokenProcessPool``).

>>> from cardtable.rl.vector import VectorGames
>>> games = VectorGames("koi-koi", 4, seed=1, rounds=1)
>>> bots = BatchBots("greedy", "koi-koi", seed=2)
>>> rows = [0, 1, 2, 3]
>>> step = games.step(bots.actions(games, rows), rows)

Each move is chosen by a bot made for it (a few microseconds), seeded from this object's
generator, so a run is the same whether the moves are chosen here or in ``jobs`` workers,
and whatever order the workers finish in.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from cardtable.agents import make_agent
from cardtable.core.actions import Action
from cardtable.core.encoding import BaseEncoder
from cardtable.core.state import State

#: action numbers, one a row
Actions = npt.NDArray[np.int64]


class Batch(Protocol):
    """What the bots read of a batch of games (``VectorGames`` is one): each row's state,
    the seat to move in given rows, and the encoder that numbers the actions."""

    @property
    def states(self) -> Sequence[State]: ...
    @property
    def encoder(self) -> BaseEncoder: ...
    def seats(self, rows: Sequence[int]) -> npt.NDArray[np.int64]: ...


#: one move to choose: the state, the seat to move, the seed of the bot that chooses it
Move = tuple[State, int, int]


def choose_moves(name: str, game_id: str, moves: Sequence[Move]) -> list[Action]:
    """Each move chosen by a fresh bot ``name`` seeded for it (a worker runs this too)."""
    return [make_agent(name, game_id, seed=seed).choose(state, seat) for state, seat, seed in moves]


class BatchBots:
    """The bot ``name`` playing whichever rows of a batch it is handed. ``jobs`` > 1
    chooses on that many worker processes (for the search levels; the rule-based bots are
    faster in the batch). Close it (or use it in ``with``) to stop the workers."""

    def __init__(self, name: str, game_id: str, *, seed: int = 0, jobs: int = 0) -> None:
        make_agent(name, game_id, seed=0)  # an unknown name is refused here, not mid-run
        self.name = name
        self.game_id = game_id
        self.jobs = jobs
        self.reseed(seed)
        self._pool: ProcessPoolExecutor | None = None

    def reseed(self, seed: int) -> None:
        """Start the bots' seeds again from ``seed`` (an environment's reset does)."""
        self.rng = np.random.default_rng([seed, 2])

    def actions(self, games: Batch, rows: Sequence[int]) -> Actions:
        """The bots' action numbers for ``rows`` of ``games`` (for each row's seat to move)."""
        states = [games.states[row] for row in rows]
        seats = games.seats(rows).tolist()
        seeds = self.rng.integers(0, 2**62, len(states)).tolist()
        chosen = self._choose(list(zip(states, seats, seeds, strict=True)))
        encoder = games.encoder
        numbers = [
            encoder.index_of(state, seat, action)
            for state, seat, action in zip(states, seats, chosen, strict=True)
        ]
        return np.array(numbers, dtype=np.int64)

    def _choose(self, moves: list[Move]) -> list[Action]:
        if self.jobs <= 1 or len(moves) < 2:
            return choose_moves(self.name, self.game_id, moves)
        if self._pool is None:
            # spawned, not forked: the parent may hold threads (torch's, a server's)
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(self.jobs, mp_context=context)
        parts = [part for part in np.array_split(np.arange(len(moves)), self.jobs) if len(part)]
        chunks = [[moves[index] for index in part] for part in parts]
        names, games = [self.name] * len(chunks), [self.game_id] * len(chunks)
        return [
            action for done in self._pool.map(choose_moves, names, games, chunks) for action in done
        ]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __enter__(self) -> BatchBots:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()
