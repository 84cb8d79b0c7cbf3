"""The attack suite at soak counts (make bench-attack): the same checks as
tests/test_server_attack.py and tests/test_server_security.py, run longer, with the
counts an outside check reports: frames checked for hidden cards, fuzzed WebSocket
frames and HTTP requests, kill -9 runs and the acknowledged moves they kept.

Loopback only; every loop is bounded by its count. Prints one line a part and a summary.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server_helpers import FAST, ServerProcess, server_thread
from tests.socket_play import hidden_independent, play_game
from tests.test_server_attack import fuzz_table, kill_run
from tests.test_server_security import GAMES

from cardtable.server.app import create_app


def leak_check(games: int, folder: Path) -> int:
    """Whole random games over the sockets; every frame to every seat and spectator is
    checked against re-deals of what that seat cannot see. Returns the frames checked."""
    frames = 0

    def counted(seat: int | None, frame: dict[str, Any], replica: Any, table: Any) -> None:
        nonlocal frames
        hidden_independent(seat, frame, replica, table)
        frames += 1

    rng = random.Random(37)
    with TestClient(create_app(f"sqlite:///{folder / 'leak.db'}", FAST)) as client:
        for number in range(games):
            game, options, seats = GAMES[number % len(GAMES)]
            options = dict(options)
            if "players" not in options and game != "koi-koi":
                options["players"] = seats
            play_game(client, game, options, seats, rng, check=counted, spectate=True)
    return frames


def fuzz(messages: int, requests: int, folder: Path) -> tuple[int, int]:
    with server_thread(f"sqlite:///{folder / 'fuzz.db'}") as (url, _app):
        return fuzz_table(url, random.Random(3707), messages, requests)


def kills(runs: int, seconds: float, folder: Path) -> tuple[int, int, int]:
    server = ServerProcess(f"sqlite:///{folder / 'kill.db'}", options=("--no-address-limits",))
    tables = kept = 0
    try:
        server.start()
        for _ in range(runs):
            checked, moves = kill_run(server, seconds=seconds)
            tables, kept = tables + checked, kept + moves
    finally:
        server.stop()
    return runs, tables, kept


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=120, help="games checked for leaks")
    parser.add_argument("--messages", type=int, default=7000, help="fuzzed WebSocket frames")
    parser.add_argument("--requests", type=int, default=3200, help="fuzzed HTTP requests")
    parser.add_argument("--kill-runs", type=int, default=50, help="kill -9 runs (6 tables each)")
    parser.add_argument("--kill-after", type=float, default=3.5, help="seconds of play a run")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        started = time.monotonic()
        frames = leak_check(args.games, folder)
        print(f"hidden cards: {frames} frames of {args.games} games checked, none leaked")
        sent, asked = fuzz(args.messages, args.requests, folder)
        print(f"fuzz: {sent} WebSocket frames and {asked} HTTP requests, no 500, no traceback")
        runs, tables, kept = kills(args.kill_runs, args.kill_after, folder)
        print(f"kill -9: {runs} runs, {tables} tables, {kept} acknowledged moves, none lost")
        print(f"in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
