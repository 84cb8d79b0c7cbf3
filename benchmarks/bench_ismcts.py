"""ISMCTS speed: determinize + tree walk + playout iterations per second, per game.

Random playouts (the ``ismcts`` bot), one core (CPU time of this process), two figures:
- *position*: one position a few moves into a round, searched ``--repeats`` times after
  a short warm-up (the median is reported);
- *in play*: every search the bot makes in ``--games`` whole single-round games against
  greedy bots, from a fresh process state (caches such as the yaku totals start empty),
  so early and late positions of a round both count.

.venv/bin/python benchmarks/bench_ismcts.py --iterations 2000 --repeats 3 --games 4
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import cardtable
from cardtable.agents import make_agent
from cardtable.agents.ismcts import ISMCTSAgent
from cardtable.core.state import State
from common import save_figures

CASES = [("bakappana", 2), ("koi-koi", 2), ("hana-awase", 3), ("hana-awase-88", 3), ("ohanami", 3)]
#: Ohanami's playouts run to the end of the game: a tenth of the iterations
BUDGET_SHARE = {"ohanami": 0.1}


def position(game_id: str, players: int) -> State:
    state = cardtable.load(game_id, players=players).new_state(seed=11)
    rng = random.Random(11)
    for _ in range(2):  # a little into the round
        for seat in sorted(state.to_move):
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def iterations_per_second(state: State, iterations: int, seed: int) -> float:
    seat = min(state.to_move)
    bot = ISMCTSAgent(iterations=iterations, seed=seed)
    start = time.process_time()
    bot.choose(state, seat)
    return iterations / (time.process_time() - start)


def in_play(game_id: str, players: int, games: int, iterations: int) -> float:
    """Iterations per second over every search of seat 0 in whole games against greedy."""
    spent, searched = 0.0, 0
    for game in range(games):
        rounds = {} if game_id == "ohanami" else {"rounds": 1}  # Ohanami: one game
        state = cardtable.load(game_id, players=players, **rounds).new_state(seed=game)
        searcher = ISMCTSAgent(iterations=iterations, seed=game)
        others = [make_agent("greedy", game_id, game + seat) for seat in range(players)]
        while not state.is_over:
            for seat in sorted(state.to_move):
                if seat == 0 and len(state.legal_actions(seat)) > 1:
                    start = time.process_time()
                    action = searcher.choose(state, seat)
                    spent += time.process_time() - start
                    searched += iterations
                else:
                    action = others[seat].choose(state, seat)
                state.apply(seat, action)
    return searched / spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    figures = {}
    print(f"{'game':<16} {'in play /s':>11} {'position /s':>12} {'(slowest':>10} {'fastest)':>9}")
    for game_id, players in CASES:
        if args.game and game_id not in args.game:
            continue
        iterations = max(int(args.iterations * BUDGET_SHARE.get(game_id, 1)), 20)
        playing = in_play(game_id, players, args.games, iterations)
        state = position(game_id, players)
        iterations_per_second(state, max(iterations // 10, 20), seed=0)  # warm-up
        runs = [iterations_per_second(state, iterations, seed) for seed in range(args.repeats)]
        figures[game_id] = {
            "iterations": iterations,
            "in_play": playing,
            "position_median": statistics.median(runs),
            "position_runs": runs,
        }
        print(
            f"{game_id:<16} {playing:>11,.0f} {statistics.median(runs):>12,.0f}"
            f" {min(runs):>10,.0f} {max(runs):>9,.0f}"
        )
    save_figures("ismcts", figures)


if __name__ == "__main__":
    main()
