"""Self-play positions for the learned evaluator: every decision of seeded single-round
games between bots, seen from each seat, with what the round then paid.

A row is one seat's observation at one decision (the game's RL encoder, the match context
zeroed: :func:`cardtable.agents.network.context_mask`), the move made when that seat was
the one to move and its bot chose it (``-1`` otherwise: a random move teaches no policy),
its legal moves, and the seat's round margin (its round score less the other's). Both
seats' views are kept at every decision, the mover's first: the search asks the value of a
position from the searching seat's view, whoever is to move.

>>> samples = play_rounds("koi-koi", rounds=2, bots=("greedy",), seed=1)
>>> len(samples) == len(samples.margins) and samples.moves().size > 0
True
>>> bool((samples.margins == -samples.margins[samples.partner()]).all())
True
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.agents.base import make_agent
from cardtable.agents.ismcts import ISMCTSAgent
from cardtable.agents.network import binary_prefix, context_mask, network_input
from cardtable.core.encoding import BaseEncoder, encoder_for
from cardtable.core.game import load
from cardtable.core.rng import Rng

#: called with the number of rounds played so far
Progress = Callable[[int], None]
Rows = npt.NDArray[np.int64]


@dataclass
class Samples:
    """Positions as arrays, one row each (see the module docstring); the card bits and
    the legal moves are packed eight to a byte."""

    cards: npt.NDArray[np.uint8]
    tail: npt.NDArray[np.float32]
    legal: npt.NDArray[np.uint8]
    actions: npt.NDArray[np.int16]
    margins: npt.NDArray[np.int16]
    card_features: int
    action_size: int
    #: how the rows were played (game, rounds, bots, ...): a data file says what it holds
    recipe: dict[str, Any] = field(default_factory=dict)
    #: how long the self-play took (kept with the data: a run that reads it reports it)
    seconds: float = 0.0

    def __len__(self) -> int:
        return len(self.margins)

    def observations(self, rows: Rows | slice = slice(None)) -> npt.NDArray[np.float32]:
        """The observation vectors of ``rows``."""
        bits = np.unpackbits(self.cards[rows], axis=1, count=self.card_features)
        return np.concatenate([bits.astype(np.float32), self.tail[rows]], axis=1)

    def masks(self, rows: Rows | slice = slice(None)) -> npt.NDArray[np.bool_]:
        """The legal moves of ``rows`` (none for a row whose seat was not to move)."""
        return np.unpackbits(self.legal[rows], axis=1, count=self.action_size).astype(bool)

    def moves(self) -> Rows:
        """The rows with a move to learn."""
        return np.flatnonzero(self.actions >= 0)

    def partner(self) -> Rows:
        """Each row's partner: the other seat's view of the same moment."""
        return np.arange(len(self)) ^ 1

    def save(self, path: str) -> None:
        sizes = np.array([self.card_features, self.action_size])
        np.savez_compressed(
            path,
            cards=self.cards,
            tail=self.tail,
            legal=self.legal,
            actions=self.actions,
            margins=self.margins,
            sizes=sizes,
            recipe=np.array(json.dumps(self.recipe, sort_keys=True)),
            seconds=np.array(self.seconds),
        )

    @classmethod
    def load(cls, path: str) -> Samples:
        with np.load(path) as data:
            card_features, action_size = (int(n) for n in data["sizes"])
            return cls(
                data["cards"],
                data["tail"],
                data["legal"],
                data["actions"],
                data["margins"],
                card_features,
                action_size,
                json.loads(str(data["recipe"])) if "recipe" in data else {},
                float(data["seconds"]) if "seconds" in data else 0.0,
            )

    @classmethod
    def joined(cls, parts: Sequence[Samples]) -> Samples:
        """Several sample sets as one (rows stay in pairs: each set has an even count)."""
        return cls(
            np.concatenate([p.cards for p in parts]),
            np.concatenate([p.tail for p in parts]),
            np.concatenate([p.legal for p in parts]),
            np.concatenate([p.actions for p in parts]),
            np.concatenate([p.margins for p in parts]),
            parts[0].card_features,
            parts[0].action_size,
        )


def play_rounds(
    game_id: str,
    rounds: int,
    bots: Sequence[str] = ("strategist", "greedy"),
    epsilon: float = 0.1,
    seed: int = 0,
    progress: Progress | None = None,
    iterations: int | None = None,
) -> Samples:
    """``rounds`` seeded single-round two-player games; in each, the two seats' bots are
    drawn from ``bots`` and play a random move ``epsilon`` of the time (so that the
    positions are not only the ones the bots reach). ``iterations``: the budget of the
    searching bots (``hard``), when not the game's own."""
    game = load(game_id, rounds=1)
    encoder = encoder_for(game)
    context = context_mask(encoder)
    rng = Rng(seed)
    agents = {name: make_agent(name, game_id, seed) for name in sorted(set(bots))}
    for agent in agents.values():
        if iterations is not None and isinstance(agent, ISMCTSAgent):
            agent.iterations = iterations
    observations: list[npt.NDArray[np.float32]] = []
    legal: list[npt.NDArray[np.bool_]] = []
    actions: list[int] = []
    margins: list[int] = []
    for number in range(rounds):
        state = game.new_state(seed=seed * 1_000_003 + number)
        if state.num_players != 2:
            raise ValueError(f"self-play reads two-player games, not {state.num_players}")
        seats = [agents[bots[rng.below(len(bots))]] for _ in range(2)]
        row_seats: list[int] = []
        while not state.is_over:
            mover = min(state.to_move)
            legal_numbers = encoder.legal_indices(state, mover)
            explore = rng.random() < epsilon
            if explore:
                played = legal_numbers[rng.below(len(legal_numbers))]
                action = encoder.named(state, mover, played)
            else:
                action = seats[mover].choose(state, mover)
                played = encoder.index_of(state, mover, action)
            for seat in (mover, 1 - mover):
                observations.append(network_input(encoder, state, seat, context))
                mask = np.zeros(encoder.action_size, dtype=bool)
                if seat == mover:
                    mask[legal_numbers] = True
                legal.append(mask)
                actions.append(-1 if explore or seat != mover else played)
                row_seats.append(seat)
            state.apply(mover, action)
        scores = state.round_scores(0)
        margins += [scores[seat] - scores[1 - seat] for seat in row_seats]
        if progress is not None:
            progress(number + 1)
    return _packed(encoder, observations, legal, actions, margins)


def _packed(
    encoder: BaseEncoder,
    observations: list[npt.NDArray[np.float32]],
    legal: list[npt.NDArray[np.bool_]],
    actions: list[int],
    margins: list[int],
) -> Samples:
    stacked = np.stack(observations).astype(np.float32)
    cards = binary_prefix(encoder)
    if not np.isin(stacked[:, :cards], (0.0, 1.0)).all():
        raise ValueError("the observation's card sets are not bits")
    return Samples(
        np.packbits(stacked[:, :cards] > 0.5, axis=1),
        stacked[:, cards:],
        np.packbits(np.stack(legal), axis=1),
        np.array(actions, dtype=np.int16),
        np.array(margins, dtype=np.int16),
        cards,
        encoder.action_size,
    )
