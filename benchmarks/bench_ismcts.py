"""ISMCTS speed: determinize + tree walk + playout iterations per second, per game.

.venv/bin/python benchmarks/bench_ismcts.py --iterations 400
"""

from __future__ import annotations

import argparse
import random
import time

import cardtable
from cardtable.agents.ismcts import ISMCTSAgent
from common import save_figures

CASES = [("bakappana", 2), ("koi-koi", 2), ("hana-awase", 3), ("hana-awase-88", 3), ("ohanami", 3)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=400)
    args = parser.parse_args()
    figures = {}
    print(f"{'game':<16} {'iterations/s':>14}")
    for game_id, players in CASES:
        state = cardtable.load(game_id, players=players).new_state(seed=11)
        rng = random.Random(11)
        for _ in range(2):  # a little into the round
            for seat in sorted(state.to_move):
                state.apply(seat, rng.choice(state.legal_actions(seat)))
        seat = min(state.to_move)
        bot = ISMCTSAgent(iterations=args.iterations, seed=1)
        start = time.process_time()
        bot.choose(state, seat)
        figures[game_id] = args.iterations / (time.process_time() - start)
        print(f"{game_id:<16} {figures[game_id]:>14,.0f}")
    save_figures("ismcts", figures)


if __name__ == "__main__":
    main()
