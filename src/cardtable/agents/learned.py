"""The learned evaluator in the search: a leaf's value read from the network's margin
head (:mod:`cardtable.agents.network`) instead of, or beside, a playout.

At a leaf the net gives the searching seat's round-margin distribution from that seat's
view (what it holds and sees: a determinization changes only the others' hands, which it
does not read); each margin is worth what the search's reward makes of the match score it
would lead to (:func:`cardtable.agents.ismcts.match_rewards`, here for two seats over all
margins at once), and the leaf's value is the expectation. Two seats only: the other
seat's reward is the rest of the point.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from cardtable.agents.network import Network, binary_prefix, context_mask, network_input
from cardtable.core.encoding import BaseEncoder
from cardtable.core.state import State


def two_seat_rewards(
    differences: npt.NDArray[np.float64], scale: float, rounds_left: int
) -> npt.NDArray[np.float64]:
    """A seat's search reward for each match-score difference (its total less the
    other's): :func:`cardtable.agents.ismcts.match_rewards` for two seats, vectorized."""
    margin = differences / scale
    if rounds_left:
        out: npt.NDArray[np.float64] = 0.5 + 0.5 * np.tanh(0.8 * margin / np.sqrt(rounds_left))
        return out
    win = np.where(differences > 0, 1.0, np.where(differences == 0, 0.5, 0.0))
    out = 0.5 * win + 0.25 * np.tanh(margin) + 0.25
    return out


class LearnedLeaf:
    """Leaf values for a two-seat search from a trained network (``ISMCTSAgent(leaf=…)``)."""

    def __init__(self, network: Network, encoder: BaseEncoder) -> None:
        self.network = network
        self.encoder = encoder
        self.context = context_mask(encoder)
        self.margins = network.margins
        self.bits = binary_prefix(encoder)

    @property
    def typical_margin(self) -> float:
        return self.network.typical_margin

    def rewards(self, state: State, seat: int, scale: float, rounds_left: int) -> list[float]:
        """Both seats' expected rewards at ``state``, judged from ``seat``'s view."""
        row = network_input(self.encoder, state, seat, self.context)
        chances = self.network.margin_chances(row, self.bits)
        totals = state.scores()
        already = totals[seat] - totals[1 - seat]
        value = float(chances @ two_seat_rewards(already + self.margins, scale, rounds_left))
        return [value, 1.0 - value] if seat == 0 else [1.0 - value, value]
