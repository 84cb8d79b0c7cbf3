"""What an action costs the server's own code, without sockets: many koi-koi tables of two
people each, held by a Hub on a fresh SQLite file, every seat a listener that takes its
frame as a WebSocket would and sends nothing on; the moves go through LiveTable.act (the
write, the move, the views, the frames) and "Next round" through next_round, a table at a
time, as a loaded server takes them. The figure is CPU microseconds an action (the
"Next round" presses counted in); beside the web load run (bench_web.py), which adds the
WebSocket stack and the event loop, this is the part of an action the project's code
decides. It runs against any revision's sources (PYTHONPATH), so ``compare_revisions.py
--only table`` sets two side by side.

    python benchmarks/bench_table.py --tables 200 --actions 20000
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from benchmarks.common import save_figures


class QuietListener:
    """A seat's socket that takes each frame and keeps only its size."""

    def __init__(self, seat: int) -> None:
        self.seat: int | None = seat
        self.received = 0

    async def send_text(self, text: str) -> None:
        self.received += len(text)

    async def close(self, code: str) -> None:
        pass


async def play(tables: int, actions: int, seed: int) -> dict[str, Any]:
    from cardtable.server.hub import Hub, TableRequest
    from cardtable.server.store import Store

    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        hub = Hub(Store(f"sqlite:///{folder}/bench.db"))
        live = []
        for _ in range(tables):
            request = TableRequest(game="koi-koi", seats=("human", "human"), public=False)
            table, _keys = await hub.create(request)
            listeners = [QuietListener(0), QuietListener(1)]
            for listener in listeners:
                await table.join(listener)
            live.append((table, listeners))
        gc.collect()
        gc.freeze()
        done = presses = 0
        started_cpu, started = time.process_time(), time.perf_counter()
        playing = [table for table, _ in live]
        while done < actions and playing:
            pick = rng.randrange(len(playing))
            table = playing[pick]
            if table.finished:  # its match is over: the others play on
                playing[pick] = playing[-1]
                playing.pop()
                continue
            if table.round_break is not None:
                for seat in table.round_break.waiting:
                    await table.next_round(seat)
                    presses += 1
                continue
            seat = min(table.state.to_move)
            action = rng.choice(table.state.legal_actions(seat))
            await table.act(seat, action, expect_version=table.version)
            done += 1
        cpu, wall = time.process_time() - started_cpu, time.perf_counter() - started
        sent = sum(listener.received for _, listeners in live for listener in listeners)
        for table, _ in live:
            await table.stop()
        hub.store.close()
    return {
        "tables": tables,
        "actions": done,
        "next_round_presses": presses,
        "cpu_us_per_action": round(1e6 * cpu / done, 1),
        "wall_us_per_action": round(1e6 * wall / done, 1),
        "frame_bytes_per_action": round(sent / done),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--actions", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", action="append", default=[], help="(koi-koi only: ignored)")
    args = parser.parse_args()
    figures = asyncio.run(play(args.tables, args.actions, args.seed))
    print(
        f"{figures['actions']} actions at {figures['tables']} tables: "
        f"{figures['cpu_us_per_action']} us CPU an action "
        f"({figures['wall_us_per_action']} us wall, {figures['next_round_presses']} presses, "
        f"{figures['frame_bytes_per_action']} bytes of frames an action)"
    )
    print(f"figures: {save_figures('table', figures)}")


if __name__ == "__main__":
    main()
