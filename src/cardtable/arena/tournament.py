"""Matches between bots: scheduling, playing, ratings and win rates.

A tournament is a list of :class:`GameJob` — a game, its options, the bot in each seat and
the seeds — played by :func:`play_job`, a pure function: the same job gives the same
:class:`GameOutcome` in this process, in a process pool or on another machine. Every deal
is played once per seating rotation (*mirrored deals*): each bot meets the same cards
from every seat, which cancels most of the luck of the deal.

>>> jobs = schedule("bakappana", ["greedy", "random"], games=2, seed=1, options={"rounds": 1})
>>> [job.bots for job in jobs]
[('greedy', 'random'), ('random', 'greedy'), ('greedy', 'random'), ('random', 'greedy')]
>>> jobs[0].deal_seed == jobs[1].deal_seed
True
"""

from __future__ import annotations

import hashlib
import json
import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, Literal

import cardtable
from cardtable.agents import make_agent
from cardtable.core.errors import OptionError
from cardtable.core.workers import BackendName, run_tasks

Mode = Literal["round-robin", "gauntlet"]


@dataclass(frozen=True)
class GameJob:
    index: int
    game: str
    options: Mapping[str, Any]
    bots: tuple[str, ...]  # the bot in each seat
    deal_seed: int  # the deal: shared by the rotations of one pairing
    bot_seed: int

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["options"] = dict(self.options)
        data["bots"] = list(self.bots)
        return data


@dataclass(frozen=True)
class GameOutcome:
    index: int
    game: str
    bots: tuple[str, ...]
    deal_seed: int
    scores: tuple[int, ...]
    winners: tuple[int, ...]  # seats
    moves: int

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for key in ("bots", "scores", "winners"):
            data[key] = list(data[key])
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameOutcome:
        return cls(
            int(data["index"]),
            str(data["game"]),
            tuple(str(b) for b in data["bots"]),
            int(data["deal_seed"]),
            tuple(int(s) for s in data["scores"]),
            tuple(int(w) for w in data["winners"]),
            int(data["moves"]),
        )

    def played(self, job: GameJob) -> bool:
        """Whether this is the outcome of ``job`` (same game, deal and seating)."""
        same = (self.index, self.game, self.bots, self.deal_seed)
        return same == (job.index, job.game, job.bots, job.deal_seed)


def _seed(*parts: object) -> int:
    digest = hashlib.sha256(repr(parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def schedule(
    game: str,
    bots: Sequence[str],
    *,
    games: int,
    seed: int,
    mode: Mode = "round-robin",
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
) -> list[GameJob]:
    """Jobs for ``games`` deals per pairing, each deal played from every seat rotation.

    ``round-robin`` meets every group of ``players`` different bots; ``gauntlet`` meets
    the first bot against groups of the others.
    """
    chosen = dict(options or {})
    if players is not None:
        chosen["players"] = players
    count = cardtable.load(game, **chosen).num_players
    if len(bots) < count and len(set(bots)) == len(bots):
        raise OptionError(f"{game} needs {count} players: name at least {count} bots")
    if mode == "gauntlet":
        hero, rest = bots[0], list(bots[1:])
        groups = [(hero, *group) for group in combinations(rest, count - 1)]
    else:
        groups = list(combinations(bots, count))
    jobs: list[GameJob] = []
    for group in groups:
        for deal in range(games):
            deal_seed = _seed(seed, game, group, deal)
            for shift in range(count):  # every seat once: mirrored deals
                seating = tuple(group[(seat + shift) % count] for seat in range(count))
                jobs.append(
                    GameJob(len(jobs), game, chosen, seating, deal_seed, _seed(deal_seed, shift))
                )
    return jobs


def read_outcomes(path: Path) -> list[GameOutcome]:
    """The games of an arena journal (``games.jsonl``: one outcome a line, as it finished).

    A line that is not an outcome is an :class:`OptionError` naming the line."""
    outcomes = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            outcomes.append(GameOutcome.from_json(json.loads(line)))
        except (ValueError, KeyError, TypeError):
            raise OptionError(f"{path}:{number} is not a game outcome") from None
    return outcomes


def play_job(job: GameJob) -> GameOutcome:
    """Play one scheduled game to the end (the unit of work of every backend)."""
    game = cardtable.load(job.game, **job.options)
    state = game.new_state(seed=job.deal_seed)
    agents = [make_agent(name, job.game, job.bot_seed + seat) for seat, name in enumerate(job.bots)]
    moves = 0
    while not state.is_over:
        for seat in sorted(state.to_move):
            state.apply(seat, agents[seat].choose(state, seat))
            moves += 1
    result = state.result()
    return GameOutcome(
        job.index, job.game, job.bots, job.deal_seed, result.scores, result.winners, moves
    )


def run(
    jobs: Sequence[GameJob],
    *,
    workers: int = 1,
    on_done: Callable[[GameOutcome], None] | None = None,
    backend: BackendName = "local",
    address: str | None = None,
) -> list[GameOutcome]:
    """Play every job and return the outcomes in job order.

    ``local`` plays here, or on a process pool when ``workers > 1``; ``ray`` sends the
    same :func:`play_job` to a Ray cluster (``address`` joins one; without it a local
    cluster of ``workers`` CPUs starts). Outcomes do not depend on the backend.
    """
    # small chunks: fast games share a trip to the worker, and a journal of slow ones
    # (search bots) is never far behind
    chunk = max(1, min(8, len(jobs) // (max(1, workers) * 8)))
    return run_tasks(
        play_job, jobs, workers=workers, backend=backend, address=address, chunksize=chunk,
        on_done=None if on_done is None else lambda _, outcome: on_done(outcome),
    )  # fmt: skip


# -- statistics --------------------------------------------------------------------------
@dataclass
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """A conservative skill estimate: mu - 3 sigma."""
        return self.mu - 3 * self.sigma


def ranks(scores: Sequence[float]) -> list[float]:
    """openskill's ranks of a game's scores: 0 for the best; ties share a rank."""
    distinct = sorted(set(scores), reverse=True)
    return [float(distinct.index(score)) for score in scores]


def ratings(outcomes: Iterable[GameOutcome]) -> dict[str, Rating]:
    """openskill (Plackett-Luce) ratings, updated game by game in job order."""
    from openskill.models import PlackettLuce  # noqa: PLC0415 - only the arena needs it

    model = PlackettLuce()
    current: dict[str, Any] = {}
    for outcome in outcomes:
        if len(set(outcome.bots)) < len(outcome.bots):
            continue  # a bot against itself teaches nothing
        teams = [[current.setdefault(name, model.rating(name=name))] for name in outcome.bots]
        rated = model.rate(teams, ranks=ranks(outcome.scores))
        for name, (player,) in zip(outcome.bots, rated, strict=True):
            current[name] = player
    return {name: Rating(player.mu, player.sigma) for name, player in current.items()}


@dataclass
class Record:
    """One bot's games in a tournament: wins count 1, shared wins 1/number of winners."""

    games: int = 0
    wins: float = 0.0
    score_total: int = 0
    scores: list[int] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        """Wilson 95 % confidence interval of the win rate."""
        return wilson_interval(self.win_rate, self.games, z)


def wilson_interval(share: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson confidence interval (95 % by default) of a share observed over ``n`` games."""
    if n == 0:
        return (0.0, 1.0)
    p = share
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class HeadToHead:
    """Bot ``first`` against bot ``second`` in the games where both sat: how often the first
    scored more (a tie counts half), and its margin per deal (the deal's seatings averaged,
    so most of the luck of the cards cancels)."""

    first: str
    second: str
    games: int = 0
    ahead: float = 0.0
    margins_by_deal: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))

    @property
    def share(self) -> float:
        return self.ahead / self.games if self.games else 0.0

    def interval(self, z: float = 1.96) -> tuple[float, float]:
        return wilson_interval(self.share, self.games, z)

    def figures(self) -> tuple[str, str, str]:
        """The share, its 95 % interval and the margin with its interval, as text."""
        low, high = self.interval()
        margin, margin_low, margin_high = self.margin()
        return (
            f"{self.share:.1%}",
            f"{low:.1%} – {high:.1%}",
            f"{margin:+.1f} ({margin_low:+.1f} … {margin_high:+.1f})",
        )

    def margin(self, z: float = 1.96) -> tuple[float, float, float]:
        """Mean margin of ``first`` per game, with its confidence interval over deals."""
        per_deal = [sum(m) / len(m) for m in self.margins_by_deal.values()]
        if not per_deal:
            return (0.0, 0.0, 0.0)
        mean = sum(per_deal) / len(per_deal)
        if len(per_deal) < 2:
            return (mean, mean, mean)
        spread = math.sqrt(sum((m - mean) ** 2 for m in per_deal) / (len(per_deal) - 1))
        half = z * spread / math.sqrt(len(per_deal))
        return (mean, mean - half, mean + half)


def head_to_head(outcomes: Iterable[GameOutcome], order: Sequence[str]) -> list[HeadToHead]:
    """Every pair of bots that met, the one earlier in ``order`` first.

    >>> games = [GameOutcome(0, "koi-koi", ("a", "b"), 7, (3, -3), (0,), 9),
    ...          GameOutcome(1, "koi-koi", ("b", "a"), 7, (1, -1), (0,), 9)]
    >>> (pair,) = head_to_head(games, ["a", "b"])
    >>> pair.games, pair.share, pair.margin()[0]
    (2, 0.5, 2.0)
    """
    rank = {name: index for index, name in enumerate(order)}
    pairs: dict[tuple[str, str], HeadToHead] = {}
    for outcome in outcomes:
        for seats in combinations(range(len(outcome.bots)), 2):
            one, other = sorted(seats, key=lambda s: rank.get(outcome.bots[s], len(rank)))
            a, b = outcome.bots[one], outcome.bots[other]
            if a == b:
                continue
            pair = pairs.setdefault((a, b), HeadToHead(a, b))
            margin = outcome.scores[one] - outcome.scores[other]
            pair.games += 1
            pair.ahead += 1.0 if margin > 0 else 0.5 if margin == 0 else 0.0
            pair.margins_by_deal[outcome.deal_seed].append(margin)
    return list(pairs.values())


def records(outcomes: Iterable[GameOutcome]) -> dict[str, Record]:
    """Per bot: games, wins (shared wins split), scores."""
    table: dict[str, Record] = defaultdict(Record)
    for outcome in outcomes:
        for seat, name in enumerate(outcome.bots):
            record = table[name]
            record.games += 1
            record.scores.append(outcome.scores[seat])
            record.score_total += outcome.scores[seat]
            if seat in outcome.winners:
                record.wins += 1 / len(outcome.winners)
    return dict(table)
