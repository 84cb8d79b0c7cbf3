"""Engine speed: random rounds per second through the public State API, and
clone()+random playouts per second (what search bots need).

    make bench            # or: .venv/bin/python benchmarks/bench_engine.py --seconds 3
    make bench C_PEER=~/open-hanafuda-ai/ai_sim KOIKOI_AI=~/KoiKoi-AI/koikoigame.py

Given a built ``ai_sim`` of open-hanafuda-ai (a C koi-koi engine whose AIs play each
other; ``--c-peer``) or KoiKoi-AI's ``koikoigame.py`` (a Python engine; ``--koikoi-ai``,
which needs numpy and torch to import), the same run times them too and prints koi-koi's
ratio to each: ai_sim's rounds a CPU second (its two cheapest AIs, 12-round games, its
own process), and KoiKoi-AI rounds played by random legal moves as ours are.

Figures go to the terminal and to benchmarks/results/engine.json. Speed is never
asserted in tests: these machines are shared and noisy, so compare ratios from one run.
"""

from __future__ import annotations

import argparse
import importlib.util
import platform
import random
import re
import resource
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

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


def c_peer_rounds(ai_sim: Path, games: int) -> float:
    """Rounds a CPU second of open-hanafuda-ai's ``ai_sim``: ``games`` 12-round games of its
    Normal AI against itself (model 0, the least thinking), timed as the child's CPU."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    ran = subprocess.run(
        [str(ai_sim), "-0", "0", "-1", "0", "-r", "12", "-l", str(games), "--seed=1"],
        capture_output=True,
        text=True,
        check=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    summary = re.search(r"^SUMMARY games=(\d+) seed=-?\d+ rounds=(\d+)", ran.stdout, re.M)
    if summary is None:
        raise SystemExit(f"{ai_sim} printed no SUMMARY line: is it open-hanafuda-ai's ai_sim?")
    rounds = int(summary.group(1)) * int(summary.group(2))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return rounds / cpu


def koikoi_ai_rounds(path: Path, seconds: float) -> float:
    """Rounds a CPU second of KoiKoi-AI's Python engine, random legal moves to the end of
    each round (its module has no move list: the legal moves follow its round states)."""
    spec = importlib.util.spec_from_file_location("koikoigame", path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except ImportError as error:
        raise SystemExit(f"{path} needs {error.name} to import (pip install it)") from None
    rng = random.Random(1)
    random.seed(1)  # its deals draw from the random module

    def one_round() -> int:
        game: Any = module.KoiKoiRoundState()
        while game.state != "round-over":
            if game.state == "discard":
                game.discard(rng.choice(game.hand[game.turn_player]))
            elif game.state == "draw":
                game.draw(None)
            elif game.state in ("discard-pick", "draw-pick"):
                pick = rng.choice(game.pairing_card) if game.wait_action else None
                (game.discard_pick if game.state == "discard-pick" else game.draw_pick)(pick)
            else:  # koikoi
                game.claim_koikoi(rng.choice([True, False]) if game.wait_action else None)
        return 1

    return measure(one_round, seconds)


def peers(args: argparse.Namespace, figures: dict[str, float]) -> None:
    """The peer engines' figures and koi-koi's ratio to each (when given)."""
    ours = figures.get("koi-koi 2p rounds (new_state + play)")
    if ours is None and (args.c_peer or args.koikoi_ai):
        ours = figures["koi-koi 2p rounds (new_state + play)"] = measure(
            random_rounds("koi-koi", 2), args.seconds
        )
    found: dict[str, float] = {}
    if args.c_peer:
        found["open-hanafuda-ai ai_sim rounds (AI vs AI)"] = c_peer_rounds(args.c_peer, 200)
    if args.koikoi_ai:
        found["KoiKoi-AI koikoigame rounds"] = koikoi_ai_rounds(args.koikoi_ai, args.seconds)
    for key, value in found.items():
        figures[key] = value
        print(f"{key:<48} {value:>12,.0f}   koi-koi here: {ours / value:5.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per figure")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--c-peer", type=Path, help="a built ai_sim of open-hanafuda-ai")
    parser.add_argument("--koikoi-ai", type=Path, help="KoiKoi-AI's koikoigame.py")
    args = parser.parse_args()
    for given in (args.c_peer, args.koikoi_ai):
        if given is not None and not given.is_file():
            parser.error(f"{given}: no such file")
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
    peers(args, figures)
    report = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "figures": figures,
    }
    save_figures("engine", report)


if __name__ == "__main__":
    main()
