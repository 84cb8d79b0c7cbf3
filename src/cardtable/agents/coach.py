"""The coach: how much a move gave away against the strong bot's evaluation, and why.

The evaluation is the ``hard`` bot's search (ISMCTS with greedy playouts) run from the
seat's information set: every iteration re-deals what the seat cannot see, and the search
is seeded from what the seat *can* see (its own view), so re-dealing the unseen cards
changes no number and no note. Each searched move gets its mean reward in [0, 1] (half
the chance to win the game, half the margin, as the bot itself judges); a move is
*clearly worse* when the bot's own choice is worth at least ``THRESHOLD`` more.

>>> import cardtable
>>> state = cardtable.load("koi-koi", rounds=1).new_state(seed=4)
>>> seat = min(state.to_move)
>>> judged = judge(state, seat, state.legal_actions(seat)[0], iterations=40)
>>> judged.loss >= 0.0 and judged.better in state.legal_actions(seat)
True
>>> judge(state, seat, judged.better, iterations=40).loss
0.0
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.agents.base import Shortlisting, actions_for, make_agent
from cardtable.agents.hints import Hint, Reason, describe, explainer
from cardtable.agents.ismcts import ROOT_WIDTH, ISMCTSAgent
from cardtable.core.actions import Action
from cardtable.core.game import spec_of
from cardtable.core.record import GameRecord
from cardtable.core.state import State

JSON = dict[str, Any]

#: a move is clearly worse when the bot's choice is worth this much more (rewards in [0, 1])
THRESHOLD = 0.08
#: ...and more than this many standard errors of the difference: a move the search tried
#: a few times has a noisy mean (Ohanami's wide choices at a small budget)
NOISE_SIGMAS = 2.0
#: the standard deviation of one playout's reward assumed for that (rewards in [0, 1])
REWARD_SPREAD = 0.25
#: the review shows at most this many moves
REVIEW_MOVES = 5


def public_seed(state: State, seat: int) -> int:
    """A search seed from what ``seat`` sees (its own view), nothing hidden."""
    seen = json.dumps(state.view(seat), sort_keys=True, default=str)
    return int.from_bytes(hashlib.sha256(seen.encode()).digest()[:4], "big") % 2**31


def evaluate(
    state: State, seat: int, iterations: int, include: Action | None = None
) -> dict[Action, tuple[int, float]]:
    """The strong bot's value of ``seat``'s moves, searched from its information set: how
    often it tried each and the mean reward (``include``: a move that must be among them,
    though the bot would shortlist it away). Moves never tried are left out."""
    legal = actions_for(state, seat)
    if len(legal) == 1:
        return {legal[0]: (1, 0.5)}
    seed = public_seed(state, seat)
    rollout = make_agent("greedy", state.game.id, seed)
    bot = ISMCTSAgent(iterations=max(iterations, 2 * len(legal)), seed=seed, rollout=rollout)
    if isinstance(rollout, Shortlisting) and len(legal) > ROOT_WIDTH:
        listed = rollout.shortlist(state, seat, legal, ROOT_WIDTH)
        legal = [*listed, include] if include in legal and include not in listed else listed
    root = bot.search(state.clone(), seat, legal, shortlist=False)
    return {a: (c.visits, c.reward / c.visits) for a, c in root.children.items() if c.visits}


@dataclass(frozen=True)
class Judgement:
    """One move against the strong bot's: what it gave away and what was better, why."""

    game_id: str
    played: Action
    better: Action
    loss: float
    reasons: tuple[Reason, ...]
    noise: float = 0.0  # the standard error of the loss

    @property
    def clearly_worse(self) -> bool:
        return self.loss >= max(THRESHOLD, NOISE_SIGMAS * self.noise)

    def to_json(self, lang: str = "en", names: Sequence[str] = ()) -> JSON:
        game = explainer(self.game_id)
        better = Hint(self.game_id, self.better, self.reasons)
        return {
            "played": self.played.to_json(),
            "played_text": describe(game, self.played, lang),
            "better": self.better.to_json(),
            "better_text": better.text(lang, names),
            "reasons": [r.to_json() for r in self.reasons],
            "loss": round(self.loss, 3),
        }


def judge(state: State, seat: int, played: Action, iterations: int) -> Judgement:
    """``played`` (by ``seat`` in ``state``, before it is applied) against the strong bot's
    evaluation from ``seat``'s information set."""
    values = evaluate(state, seat, iterations, include=played)
    best = max(values, key=lambda action: values[action][1])
    tried, mean = values.get(played, values[best])
    loss = max(0.0, values[best][1] - mean)
    if played == best or loss == 0.0:
        return Judgement(state.game.id, played, played, 0.0, ())
    noise = REWARD_SPREAD * math.sqrt(1 / tried + 1 / values[best][0])
    game = explainer(state.game.id)
    reasons = () if game is None else tuple(game.explain(state, seat, best))
    return Judgement(state.game.id, played, best, loss, reasons, noise)


@dataclass(frozen=True)
class ReviewStep:
    """A move of the reviewed seat to judge: the state before it, and its place in the log."""

    number: int
    state: State
    action: Action


def review_steps(record: GameRecord, seat: int) -> list[ReviewStep]:
    """``seat``'s moves in a finished game that had a choice, each with the state before it."""
    steps = []
    states = record.states()  # one more than the moves: the final state has none
    for number, (state, (mover, action)) in enumerate(zip(states, record.log, strict=False)):
        if mover == seat and len(actions_for(state, seat)) > 1:
            steps.append(ReviewStep(number, state, action))
    return steps


def worst(judged: Sequence[tuple[int, Judgement]], limit: int = REVIEW_MOVES) -> list[int]:
    """The log numbers of the moves that gave away most, at most ``limit``, in game order."""
    costly = sorted((j for j in judged if j[1].clearly_worse), key=lambda j: -j[1].loss)
    return sorted(number for number, _ in costly[:limit])


def review(record: GameRecord, seat: int, iterations: int) -> list[tuple[int, Judgement]]:
    """The review in one call (the terminal and tests; the server judges move by move)."""
    steps = review_steps(record, seat)
    judged = [(s.number, judge(s.state, seat, s.action, iterations)) for s in steps]
    keep = set(worst(judged))
    return [j for j in judged if j[0] in keep]


def coach_budget(game_id: str, iterations: int | None) -> int:
    """The search budget: the server's setting, or the game's own hard-bot budget."""
    return iterations if iterations else spec_of(game_id).info.search_iterations
