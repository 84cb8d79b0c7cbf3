"""Arena throughput: games per second with 1 and 2 worker processes (the rule-based
``medium`` against ``greedy``; one round per hanafuda game), and the speed-up.

.venv/bin/python benchmarks/bench_arena.py --games 500
"""

from __future__ import annotations

import argparse
import time

from cardtable.arena import run, schedule
from common import save_figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500, help="deals per pairing")
    args = parser.parse_args()
    figures = {}
    for game, options in (
        ("koi-koi", {"rounds": 1}),
        ("bakappana", {"rounds": 1}),
        ("ohanami", {}),
    ):
        deals = args.games if game != "ohanami" else max(1, args.games // 10)
        jobs = schedule(game, ["medium", "greedy"], games=deals, seed=1, options=options)
        for workers in (1, 2):
            start = time.perf_counter()
            run(jobs, workers=workers)
            rate = len(jobs) / (time.perf_counter() - start)
            figures[f"{game} jobs={workers}"] = rate
            print(f"{game:<10} jobs={workers}  {rate:8.1f} games/s")
        speedup = figures[f"{game} jobs=2"] / figures[f"{game} jobs=1"]
        figures[f"{game} speed-up"] = speedup
        print(f"{game:<10} 2 jobs / 1 job: {speedup:.2f}x")
    save_figures("arena", figures)


if __name__ == "__main__":
    main()
