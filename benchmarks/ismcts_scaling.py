"""ISMCTS (greedy playouts, as the ``hard`` level) against greedy as its iteration budget
grows: the share of games it scores more (a tie counts half) and its margin a game, with
95 % intervals, plotted to benchmarks/results/ismcts_scaling_GAME.png. Mirrored deals,
one round per game; every game is kept in ismcts_scaling_GAME.jsonl beside the plot.

    .venv/bin/python benchmarks/ismcts_scaling.py --game koi-koi --games 200 --jobs 2
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cardtable.agents.base import make_agent, register_agent
from cardtable.agents.ismcts import ISMCTSAgent
from cardtable.arena import GameOutcome, head_to_head, run, schedule
from common import RESULTS, save_figures


def budget_bot(iterations: int) -> str:
    name = f"ismcts-{iterations}"
    register_agent(
        name,
        f"ISMCTS with {iterations} iterations and greedy playouts",
        lambda game_id, seed: ISMCTSAgent(
            iterations=iterations, seed=seed, rollout=make_agent("greedy", game_id, seed)
        ),
    )
    return name


def plot(game: str, points: list[dict[str, float]], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [p["iterations"] for p in points]
    figure, (share_axis, margin_axis) = plt.subplots(1, 2, figsize=(10, 4))
    for axis, key, even, label in (
        (share_axis, "share", 0.5, "share of games ahead of greedy (tie: half)"),
        (margin_axis, "margin", 0.0, "margin over greedy, points a game"),
    ):
        values = [p[key] for p in points]
        axis.errorbar(
            xs,
            values,
            yerr=[
                [v - p[f"{key}_low"] for v, p in zip(values, points, strict=True)],
                [p[f"{key}_high"] - v for v, p in zip(values, points, strict=True)],
            ],
            marker="o",
            capsize=4,
        )
        axis.axhline(even, color="grey", linestyle="--", label="as good as greedy")
        axis.set_xscale("log")
        axis.set_xticks(xs, [f"{x:,}" for x in xs])
        axis.minorticks_off()
        axis.set_xlabel("ISMCTS iterations per move")
        axis.set_ylabel(label)
        axis.legend(loc="lower right")
    games = int(points[0]["games"]) if points else 0
    figure.suptitle(f"{game}: ISMCTS against greedy by budget ({games} games a point, 95 %)")
    figure.tight_layout()
    figure.savefig(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="koi-koi")
    parser.add_argument("--games", type=int, default=10, help="deals per budget")
    parser.add_argument("--budgets", default="30,100,300,1000,3000")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    RESULTS.mkdir(exist_ok=True)
    journal = RESULTS / f"ismcts_scaling_{args.game}.jsonl"
    points: list[dict[str, float]] = []
    with journal.open("w") as out:
        for iterations in (int(b) for b in args.budgets.split(",")):
            bot = budget_bot(iterations)
            options = {} if args.game == "ohanami" else {"rounds": 1}
            jobs = schedule(args.game, [bot, "greedy"], games=args.games, seed=5, options=options)
            # workers are forked from this process, so they know the budget bots registered here
            outcomes: list[GameOutcome] = run(jobs, workers=args.jobs)
            out.writelines(json.dumps(o.to_json()) + "\n" for o in outcomes)
            (pair,) = head_to_head(outcomes, [bot, "greedy"])
            low, high = pair.interval()
            margin, margin_low, margin_high = pair.margin()
            points.append(
                {
                    "iterations": iterations,
                    "games": pair.games,
                    "share": pair.share,
                    "share_low": low,
                    "share_high": high,
                    "margin": margin,
                    "margin_low": margin_low,
                    "margin_high": margin_high,
                }
            )
            print(
                f"{iterations:>6} iterations: ahead in {pair.share:.1%} ({low:.1%}–{high:.1%}),"
                f" margin {margin:+.2f} ({margin_low:+.2f} … {margin_high:+.2f}) a game",
                flush=True,
            )
    save_figures(f"ismcts_scaling_{args.game}", points)
    plot(args.game, points, RESULTS / f"ismcts_scaling_{args.game}.png")


if __name__ == "__main__":
    main()
