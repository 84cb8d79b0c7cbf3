"""Reward modes of the environments: what a seat is paid after each step.

* ``"score"``: the change of the seat's own score (the game's scores; not zero-sum in
  every game);
* ``"margin"``: the change of the seat's score minus the mean change of the others'
  (zero-sum; for two players, own change minus the opponent's);
* ``"win-round"``: when a round ends, +1 for beating every other seat in that round's
  scores, -1 for losing to all, in between by the share beaten (others beaten minus
  others ahead, over the others); zero-sum;
* ``"win-match"``: the same on the match's final scores, paid once at its end.

>>> import cardtable
>>> state = cardtable.load("koi-koi", rounds=1).new_state(seed=1)
>>> tracker = Rewards("margin", state)
>>> tracker.collect(state)
[0.0, 0.0]
"""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.core.errors import OptionError
from cardtable.core.state import State

REWARD_MODES = ("score", "margin", "win-round", "win-match")


def ranking(scores: Sequence[float]) -> list[float]:
    """Each seat's (others beaten - others ahead) / others: 1 for a sole first place.

    >>> ranking([5, 2, 2])
    [1.0, -0.5, -0.5]
    """
    others = max(len(scores) - 1, 1)
    return [
        (sum(mine > s for s in scores) - sum(mine < s for s in scores)) / others for mine in scores
    ]


class Rewards:
    """Turns the state's scores into per-seat rewards of one mode; :meth:`collect` returns
    what was earned since the last call (or since the tracker was made)."""

    def __init__(self, mode: str, state: State) -> None:
        if mode not in REWARD_MODES:
            raise OptionError(f"reward must be one of {', '.join(REWARD_MODES)}, not {mode!r}")
        self.mode = mode
        self.reset(state)

    def reset(self, state: State) -> None:
        self.seen = state.scores()
        self.scores = list(self.seen)
        self.rounds = state.rounds_finished
        self.paid_match = False

    def collect(self, state: State) -> list[float]:
        seen = state.scores()
        if seen == self.seen and not state.is_over:
            return [0.0] * len(seen)  # most moves score nothing: every step asks
        self.seen = seen
        now = list(seen)
        players = len(now)
        out = [0.0] * players
        if self.mode in ("score", "margin"):
            change = [float(a - b) for a, b in zip(now, self.scores, strict=True)]
            if self.mode == "score" or players == 1:
                out = change
            else:
                total = sum(change)
                out = [c - (total - c) / (players - 1) for c in change]
        elif self.mode == "win-round":
            for index in range(self.rounds, state.rounds_finished):
                for seat, value in enumerate(ranking(state.round_scores(index))):
                    out[seat] += value
        elif state.is_over and not self.paid_match:
            out = ranking(now)
            self.paid_match = True
        self.scores = now
        if self.mode == "win-round":
            self.rounds = state.rounds_finished
        return out
