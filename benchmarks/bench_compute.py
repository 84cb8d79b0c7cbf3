"""The compute pool (issue 38), on loopback, figures as ratios of one run:

1. Hard-bot moves a second through the pool with 1 and with 2 worker processes (koi-koi
   positions, the hard level's whole budget each).
2. A random bot's reply time (a person's move -> the bot's answering state frame), p50
   and p99, at a quiet server, then beside 20 and 100 tables of hard bots from another
   address whose people play back at once, so the hard bots think all the time.

    python benchmarks/bench_compute.py --moves 40 --replies 40 --tables 0 20 100
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.server_helpers import server_thread
from tests.test_compute import post, seated

import cardtable
from benchmarks.common import save_figures
from cardtable.agents import make_agent
from cardtable.server.settings import Settings
from cardtable.server.workers import Workers, bot_move


def positions(count: int) -> list[tuple[Any, int]]:
    """Koi-koi positions along games the greedy bot plays against itself."""
    rng = random.Random(5)
    found: list[tuple[Any, int]] = []
    greedy = make_agent("greedy", "koi-koi", seed=1)
    while len(found) < count:
        state = cardtable.load("koi-koi", rounds=1).new_state(seed=rng.randrange(10**6))
        while not state.is_over and len(found) < count:
            seat = min(state.to_move)
            if len(state.legal_actions(seat)) > 1 and rng.random() < 0.3:
                found.append((state.clone(), seat))
            state.apply(seat, greedy.choose(state, seat))
    return found


async def moves_a_second(workers: int, moves: int) -> float:
    pool = Workers(Settings(compute="local", bot_workers=workers, bot_seconds=60.0))
    # every process started and its imports done before the clock runs
    await asyncio.gather(*(pool.bot(time.sleep, 1.0) for _ in range(workers)))
    await asyncio.gather(
        *(
            pool.bot(bot_move, "hard", "koi-koi", 0, *positions(1)[0], time.time() + 9)
            for _ in range(workers)
        )
    )
    work = positions(moves)
    started = time.perf_counter()
    await asyncio.gather(
        *(
            pool.bot(bot_move, "hard", "koi-koi", n, state, seat, time.time() + 60)
            for n, (state, seat) in enumerate(work)
        )
    )
    took = time.perf_counter() - started
    pool.close()
    return moves / took


def play_back(socket: Any, stop: threading.Event, rng: random.Random) -> None:
    """A person who answers at once with a random legal move, until told to stop."""
    while not stop.is_set():
        try:
            frame = json.loads(socket.recv(timeout=0.2))
        except TimeoutError:
            continue
        except Exception:
            return
        view = frame.get("view") or {}
        if frame.get("type") == "state" and frame["seat"] in view.get("to_move", ()):
            legal = view.get("legal_actions") or []
            if legal:
                move = {"type": "action", "action": rng.choice(legal), "version": frame["version"]}
                socket.send(json.dumps(move))
            elif frame["table"].get("round_break"):
                socket.send(json.dumps({"type": "next_round"}))


def replies(url: str, count: int) -> list[float]:
    """Seconds from each of a person's moves to the random bot's answer (koi-koi)."""
    times: list[float] = []
    rng = random.Random(9)
    while len(times) < count:
        created = post(url, {"game": "koi-koi", "seats": ["human", "bot:random"]}, "127.0.0.3")
        with seated(url, created, "127.0.0.3") as socket:
            sent, at = None, 0.0  # the version the last move was sent at, and when
            while len(times) < count:
                frame = json.loads(socket.recv(timeout=120))
                if frame["type"] != "state":
                    continue
                view = frame["view"]
                if frame["table"]["status"] == "finished":
                    break
                if frame["table"].get("round_break"):
                    socket.send(json.dumps({"type": "next_round"}))
                    continue
                if 0 in view["to_move"] and view.get("legal_actions"):
                    if sent is not None and frame["version"] >= sent + 2:  # the bot moved
                        times.append(time.perf_counter() - at)
                    action = rng.choice(view["legal_actions"])
                    socket.send(json.dumps({"type": "action", "action": action}))
                    sent, at = frame["version"], time.perf_counter()
    return times


def beside_hard_tables(tables: int, count: int, folder: Path) -> dict[str, float]:
    settings = Settings(compute="local", bot_workers=2, bot_delay=0.0).relaxed()
    body = {"game": "koi-koi", "seats": ["human", "bot:hard"], "options": {"rounds": 12}}
    with server_thread(f"sqlite:///{folder / f'load{tables}.db'}", settings) as (url, _app):
        stop = threading.Event()
        with ExitStack() as stack:
            for n in range(tables):
                socket = stack.enter_context(seated(url, post(url, body, "127.0.0.2"), "127.0.0.2"))
                args = (socket, stop, random.Random(n))
                threading.Thread(target=play_back, args=args, daemon=True).start()
            time.sleep(2.0 if tables else 0.0)  # the hard bots are busy before we measure
            replies(url, 2)  # not timed: the pool's workers may still be starting
            times = replies(url, count)
            stop.set()
    times.sort()
    return {
        "hard_tables": tables,
        "replies": len(times),
        "p50_ms": round(1000 * statistics.median(times), 1),
        "p99_ms": round(1000 * times[min(len(times) - 1, int(0.99 * len(times)))], 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=40, help="hard-bot moves timed per pool")
    parser.add_argument("--replies", type=int, default=40, help="random-bot replies timed")
    parser.add_argument("--tables", type=int, nargs="+", default=[0, 20, 100])
    args = parser.parse_args()
    one = asyncio.run(moves_a_second(1, args.moves))
    two = asyncio.run(moves_a_second(2, args.moves))
    print(f"hard-bot moves/s: 1 worker {one:.2f}, 2 workers {two:.2f} ({two / one:.2f}x)")
    figures: dict[str, Any] = {"moves_a_second": {"1": one, "2": two, "ratio": two / one}}
    rows = []
    with tempfile.TemporaryDirectory() as temp:
        for tables in args.tables:
            row = beside_hard_tables(tables, args.replies, Path(temp))
            print(f"random bot beside {tables} hard tables: p50 {row['p50_ms']} ms, "
                  f"p99 {row['p99_ms']} ms ({row['replies']} replies)")  # fmt: skip
            rows.append(row)
    figures["random_bot_replies"] = rows
    print(f"figures in {save_figures('compute', figures)}")


if __name__ == "__main__":
    main()
