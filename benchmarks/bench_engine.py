"""Engine speed: random rounds per second through the public State API, and
clone()+random playouts per second (what search bots need).

    make bench            # or: .venv/bin/python benchmarks/bench_engine.py --seconds 3

Figures go to the terminal and to benchmarks/results/engine.json. Speed is never
asserted in tests: these machines are shared and noisy, so compare ratios from one run.
"""

from __future__ import annotations

import argparse
import platform
import time
from collections.abc import Callable

import cardtable
from cardtable.core.rng import Rng
from cardtable.core.state import State
from common import save_figures


def measure(work: Callable[[], int], seconds: float) -> float:
    """Units of work per CPU second (process time, steadier on a shared machine), best of three."""
    rates = []
    for _ in range(3):
        done, start = 0, time.process_time()
        while (elapsed := time.process_time() - start) < seconds / 3:
            done += work()
        rates.append(done / elapsed)
    return max(rates)


def play_randomly(state: State, rng: Rng) -> None:
    """Random legal moves to the end, through the public API only (every seat to move
    acts, so simultaneous games work too)."""
    while not state.is_over:
        for seat in sorted(state.to_move):
            actions = state.legal_actions(seat)
            state.apply(seat, actions[rng.below(len(actions))])


def one_round(game_id: str) -> dict[str, int]:
    """Options for a single round (a whole game of Ohanami, which has no rounds option)."""
    return {} if game_id == "ohanami" else {"rounds": 1}


def random_rounds(game_id: str, players: int) -> Callable[[], int]:
    """One new seeded round played to the end by random legal moves."""
    game = cardtable.load(game_id, players=players, **one_round(game_id))
    rng = Rng(1)
    seeds = iter(range(10**12))

    def work() -> int:
        play_randomly(game.new_state(seed=next(seeds)), rng)
        return 1

    return work


def playouts(game_id: str, players: int) -> Callable[[], int]:
    """clone() of a fresh deal, then a random playout to the end of the round."""
    root: State = cardtable.load(game_id, players=players, **one_round(game_id)).new_state(seed=7)
    rng = Rng(2)

    def work() -> int:
        play_randomly(root.clone(), rng)
        return 1

    return work


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    args = parser.parse_args()
    figures: dict[str, float] = {}
    print(f"{'benchmark':<48} {'per second':>12}")
    cases = [
        ("bakappana", 2),
        ("bakappana", 3),
        ("bakappana", 4),
        ("koi-koi", 2),
        ("hana-awase", 3),
        ("hana-awase-88", 3),
        ("ohanami", 2),
        ("ohanami", 3),
        ("ohanami", 4),
    ]
    kinds = (("rounds (new_state + play)", random_rounds), ("clone+playout", playouts))
    for game_id, players in cases:
        if args.game and game_id not in args.game:
            continue
        for name, make in kinds:
            key = f"{game_id} {players}p {name}"
            figures[key] = measure(make(game_id, players), args.seconds)
            print(f"{key:<48} {figures[key]:>12,.0f}")
    report = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "figures": figures,
    }
    save_figures("engine", report)


if __name__ == "__main__":
    main()
