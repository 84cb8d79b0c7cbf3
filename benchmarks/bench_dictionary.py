"""7 słów dictionary and solver: index build time and peak memory, load time, solver time
per query over the full list, words validated per second, and whole bot games per second.

    make bench            # or: .venv/bin/python benchmarks/bench_dictionary.py --queries 200

The build runs in a fresh process with an empty cache folder, so its time and peak memory
(the process's maximum resident set) are the first-use cost a player pays once. Figures go
to the terminal and to benchmarks/results/dictionary.json.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time

from common import save_figures

BUILD = """
import json, resource, sys, time
from cardtable.games.siedem_slow.dictionary import load_dictionary
start = time.perf_counter()
words = load_dictionary("default", sys.argv[1])
built = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"words": len(words), "build_seconds": built, "peak_mb": peak}))
"""

LOAD = """
import json, sys, time
start = time.perf_counter()
from cardtable.games.siedem_slow.dictionary import load_dictionary
words = load_dictionary("default", sys.argv[1])
print(json.dumps({"load_seconds": time.perf_counter() - start}))
"""


def run_child(code: str, language: str, cache: str) -> dict[str, float]:
    env = {"CARDTABLE_CACHE_DIR": cache, "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-c", code, language], capture_output=True, text=True, check=True, env=env
    )
    return dict(json.loads(out.stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=100, help="random areas to solve")
    parser.add_argument("--languages", default="pl,en")
    args = parser.parse_args()

    import cardtable
    from cardtable.agents import make_agent
    from cardtable.core.rng import Rng
    from cardtable.games.siedem_slow import load_dictionary, solve
    from cardtable.games.siedem_slow.area import SETUP_ORDER, Area, DrawPile, deck_cards
    from cardtable.games.siedem_slow.tables import DECKS

    report: dict[str, dict[str, float]] = {}
    for language in args.languages.split(","):
        with tempfile.TemporaryDirectory() as cache:
            figures = run_child(BUILD, language, cache)
            figures.update(run_child(LOAD, language, cache))
        words = load_dictionary("default", language)
        rng = Rng(7)
        areas = []
        for _ in range(args.queries):
            area, pile = Area(), DrawPile(rng.shuffled(deck_cards(DECKS[language])))
            for slot in SETUP_ORDER:
                pile.fill(area, slot, rng)
            areas.append(area)
        solve(areas[0], words, top=10)  # page the matrix in
        times = []
        for area in areas:
            start = time.perf_counter()
            solve(area, words, top=10)
            times.append(time.perf_counter() - start)
        times.sort()
        figures["solve_ms_median"] = 1000 * times[len(times) // 2]
        figures["solve_ms_p90"] = 1000 * times[int(len(times) * 0.9)]
        sample = [words.words[int(i)] for i in range(0, len(words), max(1, len(words) // 20000))]
        sample += [w + "x" for w in sample]  # half of them refused
        start = time.perf_counter()
        for word in sample:
            words.problem(word)
        figures["validated_per_second"] = len(sample) / (time.perf_counter() - start)
        game = cardtable.load("siedem-slow", players=3, deck=language)
        bots = [
            make_agent(level, "siedem-slow", seed=n)
            for n, level in enumerate(["easy", "medium", "hard"])
        ]
        state = game.new_state(seed=1)  # warm: frequency pools are built once per list
        for bot in bots:
            bot.choose(state, 0)
        start, games = time.perf_counter(), 0
        while time.perf_counter() - start < 10 and games < 20:
            state = game.new_state(seed=games)
            while not state.is_over:
                seat = min(state.to_move)
                state.apply(seat, bots[seat].choose(state, seat))
            games += 1
        figures["bot_games_per_second"] = games / (time.perf_counter() - start)
        report[language] = figures
        print(
            f"{language}: {figures['words']:,.0f} words · build {figures['build_seconds']:.1f} s, "
            f"peak {figures['peak_mb']:.0f} MB · load {figures['load_seconds'] * 1000:.0f} ms · "
            f"solve median {figures['solve_ms_median']:.1f} ms "
            f"(p90 {figures['solve_ms_p90']:.1f}) · "
            f"{figures['validated_per_second']:,.0f} words validated/s · "
            f"{figures['bot_games_per_second']:.2f} 3-bot games/s"
        )
    save_figures("dictionary", report)


if __name__ == "__main__":
    main()
