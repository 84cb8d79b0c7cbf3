"""Arena throughput: games per second with 1 and 2 worker processes (greedy vs random).

.venv/bin/python benchmarks/bench_arena.py --games 200
"""

from __future__ import annotations

import argparse
import time

from cardtable.arena import run, schedule
from common import save_figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="deals per pairing")
    args = parser.parse_args()
    figures = {}
    for game, options in (
        ("koi-koi", {"rounds": 1}),
        ("bakappana", {"rounds": 1}),
        ("ohanami", {}),
    ):
        jobs = schedule(game, ["greedy", "random"], games=args.games, seed=1, options=options)
        for workers in (1, 2):
            start = time.perf_counter()
            run(jobs, workers=workers)
            rate = len(jobs) / (time.perf_counter() - start)
            figures[f"{game} jobs={workers}"] = rate
            print(f"{game:<10} jobs={workers}  {rate:8.1f} games/s")
    save_figures("arena", figures)


if __name__ == "__main__":
    main()
