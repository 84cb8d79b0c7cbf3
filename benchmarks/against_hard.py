"""What the top level could gain in koi-koi: variants of the search against ``hard`` (or
the level ``--against`` names: ``expert`` for a level above it) on mirrored single-round
deals (the arena's schedule and process pool; each game journalled as it ends).

Variants (each ISMCTS at the hard level's budget, greedy playouts unless said):

- ``expert``: the shipped level (hands dealt by the hand reader);
- ``strategist-playouts``: the hand reader, playouts by the strategist instead of greedy
  (about 0.8 s a move); ``strategist-playouts-1k`` the same with 1 000 iterations a move
  (about expert's time);
- ``for-points``: ``expert`` judging each playout by its margin as if four rounds were left
  (a single round is otherwise played to win it, not for its points);
- ``explore-0.35``, ``explore-1.4``: ``expert`` with half and twice its UCB exploration;
- ``learned``: the hand reader, each leaf judged by the learned evaluator alone (no
  playout: the shipped network, ``make train``);
- ``learned-mix``: the hand reader, a leaf judged half by its playout, half by the network;
- ``sees-hands``: an oracle told the other hand (only the stock order is dealt afresh):
  how much perfect hand reading could gain at most;
- ``sees-all``: an oracle told the stock order too.

The oracles read hidden cards on purpose: they bound what any honest bot can gain.

    .venv/bin/python benchmarks/against_hard.py --variants sees-hands,learned --deals 200 --jobs 2
    .venv/bin/python benchmarks/against_hard.py --variants strategist-playouts --against expert
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import IO, Any

from cardtable.agents.base import EXPERT_SECONDS, Agent, register_agent
from cardtable.agents.ismcts import EXPLORATION, search_level
from cardtable.agents.learned import LearnedLeaf
from cardtable.arena.tournament import GameOutcome, head_to_head, run, schedule
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.games.hanafuda.bots import read_hands, trained_network
from cardtable.games.hanafuda.encoding import HanafudaEncoder
from common import revealed_copy, save_figures

GAME = "koi-koi"


class TrueHands:
    """An oracle's dealer (see :func:`common.revealed_copy`)."""

    def __init__(self, state: State, stock: bool) -> None:
        self.state, self.stock = state, stock

    def sample(self, rng: Rng) -> State:
        copy: State = revealed_copy(self.state, self.stock, rng)
        return copy


def oracle(stock: bool) -> Any:
    def make(game_id: str, seed: int | None) -> Agent:
        return search_level(game_id, seed, belief=lambda state, seat: TrueHands(state, stock))

    return make


def learned(share: float) -> Any:
    def make(game_id: str, seed: int | None) -> Agent:
        network = trained_network(game_id)
        assert network is not None, "no trained network: make train"
        leaf = LearnedLeaf(network, HanafudaEncoder())
        return search_level(
            game_id, seed, belief=read_hands, live_seconds=EXPERT_SECONDS, leaf=leaf,
            leaf_share=share,
        )  # fmt: skip

    return make


def playouts(
    rollout: str, iterations: int | None = None, horizon: int = 0, exploration: float = EXPLORATION
) -> Any:
    def make(game_id: str, seed: int | None) -> Agent:
        return search_level(
            game_id, seed, rollout=rollout, belief=read_hands, iterations=iterations,
            live_seconds=EXPERT_SECONDS, horizon=horizon, exploration=exploration,
        )  # fmt: skip

    return make


VARIANTS = {
    "strategist-playouts": playouts("strategist"),
    "strategist-playouts-1k": playouts("strategist", 1000),
    "for-points": playouts("greedy", horizon=4),
    "explore-0.35": playouts("greedy", exploration=0.35),
    "explore-1.4": playouts("greedy", exploration=1.4),
    "learned": learned(1.0),
    "learned-mix": learned(0.5),
    "sees-hands": oracle(False),
    "sees-all": oracle(True),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="expert,learned,learned-mix,sees-hands")
    parser.add_argument("--deals", type=int, default=200, help="deals, each from both seats")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--against", default="hard", help="the level each variant meets")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/against_hard"))
    args = parser.parse_args()
    for name, make in VARIANTS.items():
        register_agent(name, f"benchmark variant {name}", make)  # the pool's forks see them
    args.out.mkdir(parents=True, exist_ok=True)
    figures: dict[str, Any] = {"game": GAME, "deals": args.deals}
    opponent = args.against
    for variant in args.variants.split(","):
        jobs = schedule(GAME, [variant, opponent], games=args.deals, seed=args.seed,
                        options={"rounds": 1})  # fmt: skip
        started = time.perf_counter()
        with (args.out / f"{variant}-{opponent}.jsonl").open("w") as journal:

            def kept(outcome: GameOutcome, journal: IO[str] = journal) -> None:
                journal.write(json.dumps(outcome.to_json()) + "\n")
                journal.flush()  # a long run can be read while it plays

            outcomes = run(jobs, workers=args.jobs, on_done=kept)
        (pairing,) = head_to_head(outcomes, [variant, opponent])
        share, interval, margin = pairing.figures()
        seconds = time.perf_counter() - started
        print(f"{variant:>12} – {opponent}: {share} ({interval}), margin {margin}, {seconds:.0f} s")
        figures[variant] = {"share": share, "interval": interval, "margin": margin}
    save_figures(f"against_{opponent}", figures)


if __name__ == "__main__":
    main()
