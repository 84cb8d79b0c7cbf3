"""ISMCTS (greedy playouts, as the ``hard`` level) against greedy as its iteration budget
grows: win rate with 95 % intervals, plotted to benchmarks/results/ismcts_scaling.png.
Mirrored deals, one round per game.

    .venv/bin/python benchmarks/ismcts_scaling.py --game koi-koi --games 100 --jobs 2
"""

from __future__ import annotations

import argparse

from cardtable.agents.base import make_agent, register_agent
from cardtable.agents.ismcts import ISMCTSAgent
from cardtable.arena import records, run, schedule
from common import RESULTS, save_figures


def budget_bot(iterations: int) -> str:
    name = f"ismcts-{iterations}"
    register_agent(
        name,
        f"ISMCTS with {iterations} iterations and greedy playouts",
        "*",
        lambda game_id, seed: ISMCTSAgent(
            iterations=iterations, seed=seed, rollout=make_agent("greedy", game_id, seed)
        ),
    )
    return name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="koi-koi")
    parser.add_argument("--games", type=int, default=10, help="deals per budget")
    parser.add_argument("--budgets", default="30,100,300,1000,3000")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    points = []
    for iterations in (int(b) for b in args.budgets.split(",")):
        bot = budget_bot(iterations)
        options = {} if args.game == "ohanami" else {"rounds": 1}
        jobs = schedule(args.game, [bot, "greedy"], games=args.games, seed=5, options=options)
        # workers are forked from this process, so they know the budget bots registered here
        record = records(run(jobs, workers=args.jobs))[bot]
        low, high = record.interval()
        points.append((iterations, record.win_rate, low, high))
        print(f"{iterations:>6} iterations: win rate {record.win_rate:.1%} ({low:.1%}–{high:.1%})")
    save_figures("ismcts_scaling", points)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [p[0] for p in points]
    figure, axis = plt.subplots(figsize=(6, 4))
    axis.errorbar(
        xs,
        [p[1] for p in points],
        yerr=[[p[1] - p[2] for p in points], [p[3] - p[1] for p in points]],
        marker="o",
        capsize=4,
    )
    axis.axhline(0.5, color="grey", linestyle="--")
    axis.set_xscale("log")
    axis.set_xlabel("ISMCTS iterations per move")
    axis.set_ylabel("win rate against greedy")
    axis.set_title(f"{args.game}: ISMCTS budget scaling")
    figure.tight_layout()
    figure.savefig(RESULTS / "ismcts_scaling.png")


if __name__ == "__main__":
    main()
