"""The coach: how much a move gave away against the strong bot's evaluation, and why.

The evaluation is the ``hard`` bot's search (ISMCTS with greedy playouts) run from the
seat's information set: every iteration re-deals what the seat cannot see, and the search
is seeded from what the seat *can* see (its own view), so re-dealing the unseen cards
changes no number and no note. Each searched move gets its mean reward in [0, 1] (half
the chance to win the game, half the margin, as the bot itself judges); a move is
*clearly worse* when the bot's own choice is worth at least ``THRESHOLD`` more. A move the
first search flags is searched again against the bot's choice alone (:func:`look_again`),
which judges it: the first search overstates gaps.

The review plots the seat's chances after each of its moves (the played move's value) and
marks the largest *swings*: the moves that gave away most against the bot's choice, with
that choice and its reasons. Where no move did, it still says what the curve shows of a
game lost clearly (:func:`read_curve`): a deal bad from the first move, small losses that
added up, or chances that fell between the seat's moves (the draws and the other
players); "no clear mistake" only when the curve agrees.

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
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any

from cardtable.agents.base import Shortlisting, actions_for, make_agent
from cardtable.agents.hints import Hint, Reason, explainer, named
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
#: the second look at a flagged move (:func:`look_again`) searches at least this many
#: iterations: shared by two moves, enough to tell a gap of THRESHOLD from none at
#: NOISE_SIGMAS (a standard error near 0.035)
CONFIRM_ITERATIONS = 300
#: the review shows at most this many moves
REVIEW_MOVES = 5
#: the review's reading of the curve (chances in [0, 1], 0.5 even): a game ending at or
#: under LOST_AT was lost clearly; one starting at or under AGAINST_AT was against the seat
#: from its first move; a fall of at least FALL_AT between two of its moves is marked
LOST_AT = 0.3
AGAINST_AT = 0.4
FALL_AT = 0.2
#: a game not lost clearly and without a swing still names, for next time, the moves that
#: gave away at least COSTLY_AT (a won game teaches too), at most COSTLY_MOVES of them
COSTLY_AT = 0.03
COSTLY_MOVES = 3


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
    rollout = make_agent("greedy", state.game.id, public_seed(state, seat))
    if isinstance(rollout, Shortlisting) and len(legal) > ROOT_WIDTH:
        listed = rollout.shortlist(state, seat, legal, ROOT_WIDTH)
        legal = [*listed, include] if include in legal and include not in listed else listed
    return search_moves(state, seat, legal, iterations)


def search_moves(
    state: State, seat: int, moves: Sequence[Action], iterations: int, again: int = 0
) -> dict[Action, tuple[int, float]]:
    """The search of :func:`evaluate` among ``moves`` only (``again``: the how-manieth
    look, which changes the seed and nothing else: still nothing hidden)."""
    seed = (public_seed(state, seat) + again) % 2**31
    rollout = make_agent("greedy", state.game.id, seed)
    bot = ISMCTSAgent(iterations=max(iterations, 2 * len(moves)), seed=seed, rollout=rollout)
    root = bot.search(state.clone(), seat, list(moves), shortlist=False)
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
    value: float = 0.5  # the seat's chances after the played move (the review's curve)
    confirmed: bool = False  # flagged by a first search, borne out by the second look

    @property
    def clearly_worse(self) -> bool:
        return self.confirmed or self.loss >= max(THRESHOLD, NOISE_SIGMAS * self.noise)

    @property
    def before(self) -> float:
        """The seat's chances before the move: after the bot's choice."""
        return self.value + self.loss

    def to_json(self, lang: str = "en", names: Sequence[str] = ()) -> JSON:
        game = explainer(self.game_id)
        better = Hint(self.game_id, self.better, self.reasons)
        return {
            "played": self.played.to_json(),
            # the moves named, not ordered ("You played Wisteria; better: Peony — ...")
            "played_text": named(game, self.played, lang),
            "better": self.better.to_json(),
            "better_text": better.text(lang, names, bare=True),
            "reasons": [r.to_json() for r in self.reasons],
            "loss": round(self.loss, 3),
            "value": round(self.value, 3),
        }


def judge(
    state: State, seat: int, played: Action, iterations: int, confirm: bool = True
) -> Judgement:
    """``played`` (by ``seat`` in ``state``, before it is applied) against the strong bot's
    evaluation from ``seat``'s information set. A move the search finds clearly worse is
    judged again by :func:`look_again` (unless not ``confirm``: the first search alone, as
    benchmarks/coach_false_alarms.py measures the coach before it)."""
    values = evaluate(state, seat, iterations, include=played)
    best = max(values, key=lambda action: values[action][1])
    judged = gap(state.game.id, values, best, played)
    if confirm and judged.clearly_worse:
        judged = look_again(state, seat, judged, iterations)
    if not judged.loss:
        return judged
    game = explainer(state.game.id)
    reasons = () if game is None else tuple(game.explain(state, seat, best))
    return replace(judged, reasons=reasons)


def look_again(state: State, seat: int, flagged: Judgement, iterations: int) -> Judgement:
    """A move the first search flagged, judged again by the bot's choice and the move alone
    (another seed, at least ``CONFIRM_ITERATIONS``): its loss and chances are that search's,
    and it stays clearly worse when that search bears the gap out — at least half of
    ``THRESHOLD`` and beyond ``NOISE_SIGMAS`` of its noise.

    The first search overstates gaps: its best is the largest of several noisy means, and
    a move it seldom tried keeps an unlucky low mean; that made moves as good as the bot's
    look clearly worse (Ohanami's wide choices: benchmarks/coach_false_alarms.py). Two
    moves alone, each tried often, show the gap without either bias; a gap the first search
    found is only confirmed there, not found again, so its bar is lower."""
    best, played = flagged.better, flagged.played
    values = search_moves(state, seat, [best, played], max(iterations, CONFIRM_ITERATIONS), again=1)
    again = gap(state.game.id, values, best, played)
    bar = max(THRESHOLD / 2, NOISE_SIGMAS * again.noise)
    return replace(again, confirmed=bool(again.loss) and again.loss >= bar)


def gap(
    game_id: str, values: dict[Action, tuple[int, float]], best: Action, played: Action
) -> Judgement:
    """What ``played`` gives away against ``best`` in one search's ``values`` (no reasons)."""
    tried, mean = values.get(played, values[best])
    loss = max(0.0, values[best][1] - mean)
    if played == best or loss == 0.0:
        return Judgement(game_id, played, played, 0.0, (), value=mean)
    noise = REWARD_SPREAD * math.sqrt(1 / tried + 1 / values[best][0])
    return Judgement(game_id, played, best, loss, (), noise, value=mean)


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


def costliest(judged: Sequence[tuple[int, Judgement]], limit: int = COSTLY_MOVES) -> list[int]:
    """The log numbers of the moves that gave away most, none clearly worse needed: at
    least ``COSTLY_AT`` each, at most ``limit``, in game order."""
    costly = sorted((j for j in judged if j[1].loss >= COSTLY_AT), key=lambda j: -j[1].loss)
    return sorted(number for number, _ in costly[:limit])


@dataclass(frozen=True)
class Reading:
    """What the review's curve says of the game, in one word and the numbers behind it.

    ``kind``: ``swings`` (moves gave chances away: they are the review), ``costs`` (none
    did and the game was not lost clearly, a won one too: its costliest moves are the
    review), ``clean`` (not even those), and for a game lost clearly without a swing:
    ``against`` (chances low from the first move: the deal), ``small`` (the seat's own
    small losses, ``given`` in all, outweigh the falls between its moves) or ``fell`` (the
    chances fell between the seat's moves: ``fall`` is the pair of moves around the
    largest such fall, when one stands out)."""

    kind: str
    start: float  # the chances before the first reviewed move
    end: float  # ...and after the last
    given: float = 0.0  # what the seat's moves gave away in all
    fall: tuple[int, int] | None = None

    def to_json(self) -> JSON:
        fall = None if self.fall is None else list(self.fall)
        return {"kind": self.kind, "start": round(self.start, 3), "end": round(self.end, 3),
                "given": round(self.given, 3), "fall": fall}  # fmt: skip


def read_curve(judged: Sequence[tuple[int, Judgement]], lost: bool) -> Reading:
    """The review's verdict on the curve of ``judged`` (in game order); ``lost``: the seat
    ended below another. "No clear mistake" (``clean``) only when no move is a swing and
    the game was not lost clearly: a clear loss is put down to what the curve shows."""
    if not judged:
        return Reading("clean", 0.5, 0.5)
    start, end = judged[0][1].before, judged[-1][1].value
    given = sum(j.loss for _, j in judged)
    if worst(judged):
        return Reading("swings", start, end, given)
    if not lost or end > LOST_AT:
        return Reading("costs" if costliest(judged) else "clean", start, end, given)
    if start <= AGAINST_AT:
        return Reading("against", start, end, given)
    falls = [(a[1].value - b[1].before, a[0], b[0]) for a, b in pairwise(judged)]
    if given >= sum(max(drop, 0.0) for drop, _, _ in falls):
        return Reading("small", start, end, given)
    drop, after, before = max(falls)
    return Reading("fell", start, end, given, (after, before) if drop >= FALL_AT else None)


def reviewed(judged: Sequence[tuple[int, Judgement]], reading: Reading) -> list[int]:
    """The log numbers of the moves the review lists, given what its curve says: the
    swings, or in a game not lost clearly without one, its costliest moves."""
    if reading.kind == "swings":
        return worst(judged)
    return costliest(judged) if reading.kind == "costs" else []


def behind(final: State, seat: int) -> bool:
    """Whether ``seat`` finished the game (``final``: its last state) below another seat."""
    scores = final.scores()
    return scores[seat] < max(scores)


def review(record: GameRecord, seat: int, iterations: int) -> list[tuple[int, Judgement]]:
    """The review's swings in one call (the terminal and tests; the server judges move by
    move)."""
    steps = review_steps(record, seat)
    judged = [(s.number, judge(s.state, seat, s.action, iterations)) for s in steps]
    keep = set(worst(judged))
    return [j for j in judged if j[0] in keep]


def coach_budget(game_id: str, iterations: int | None) -> int:
    """The search budget: the server's setting, or the game's own hard-bot budget."""
    return iterations if iterations else spec_of(game_id).info.search_iterations
