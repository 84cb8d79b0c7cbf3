"""Load run of the web app on loopback: N concurrent WebSocket clients playing real games.

The server runs as its own process (``cardtable serve`` on a fresh SQLite file, bots off:
every seat is a client). Clients are asyncio tasks in this process; each plays koi-koi
(12-round matches, so tables stay busy; "Next round" after each) with a think time, and
measures the time from sending an action to receiving the state frame that contains it
(action-to-update latency). Over the measured window (after the warm-up) it also gives
each process's CPU per action and its share of a core: the server's is what one action
costs it; a share near 1.0 is a saturated process (the server has one event loop, and so
has this load generator, whose CPU competes with the server's on a small machine).

    python benchmarks/bench_web.py --seats 1000 --think 1.0 --duration 60
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

import orjson
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.server_helpers import ServerProcess, http, seat_keys

from benchmarks.common import save_figures

WARM_UP = 10.0  # seconds of connecting and first moves left out of the latency figures


async def seat_client(
    url: str,
    table_id: str,
    seat: int,
    key: str,
    think: float,
    window: tuple[float, float],
    latencies: list[float],
    rng: random.Random,
    in_window: list[int],
) -> int:
    warm, stop = window
    actions = 0
    address = f"{url}/ws/tables/{table_id}?seat={seat}&key={key}"
    async with connect(address, max_size=2**20, compression=None) as socket:
        version = -1
        paused = False  # between rounds: the frame that ends the pause has the same version
        sent_at: float | None = None
        while time.monotonic() < stop:
            try:
                raw = await asyncio.wait_for(
                    socket.recv(), timeout=max(0.1, stop - time.monotonic())
                )
            except TimeoutError:
                break
            frame = orjson.loads(raw)  # the load generator's own CPU competes with the server's
            if frame["type"] != "state":
                continue
            pause = frame["table"].get("round_break")
            if pause is not None and sent_at is not None and frame["version"] > version:
                if time.monotonic() >= warm:  # the move that ended the round arrived
                    latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if pause is not None:  # a round ended: look at it a moment, then go on
                if seat in pause["waiting"] and not paused:
                    await asyncio.sleep(think * (0.5 + rng.random()))
                    await socket.send(json.dumps({"type": "next_round"}))
                paused = True
                continue
            if frame["version"] <= version and not paused:
                continue
            paused = False
            version = frame["version"]
            if sent_at is not None:
                if time.monotonic() >= warm:  # steady state only: not the connect storm
                    latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            legal = frame["view"].get("legal_actions") or []
            if not legal or frame["table"]["status"] == "finished":
                continue
            await asyncio.sleep(think * (0.5 + rng.random()))
            if time.monotonic() >= stop:
                break
            action = rng.choice(legal)
            if time.monotonic() >= warm:
                in_window[0] += 1
            sent_at = time.perf_counter()
            await socket.send(json.dumps({"type": "action", "action": action, "version": version}))
            actions += 1
    return actions


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far."""
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")


async def steady_cpu(pid: int, window: tuple[float, float], into: dict[str, float]) -> None:
    """The server's and this process's CPU seconds over the measured window only (not the
    tables' creation or the connect storm)."""
    for edge, name in zip(window, ("start", "end"), strict=True):
        await asyncio.sleep(max(0.0, edge - time.monotonic()))
        into[f"server_{name}"] = process_cpu(pid)
        into[f"client_{name}"] = time.process_time()


async def run(seats: int, think: float, duration: float) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        # every client comes from this one address: lift the per-address limits
        server = ServerProcess(f"sqlite:///{folder}/load.db", options=("--no-address-limits",))
        server.start()
        try:
            ws_url = server.url.replace("http", "ws")
            tables = []
            for _ in range(seats // 2):
                _, created = http(
                    "POST",
                    f"{server.url}/api/tables",
                    {"game": "koi-koi", "seats": ["human", "human"], "public": False},
                )
                tables.append((created["id"], seat_keys(created)))
            latencies: list[float] = []
            started = time.monotonic()
            window = (started + WARM_UP, started + WARM_UP + duration)
            rng = random.Random(1)
            in_window = [0]  # actions sent within the window
            steady: dict[str, float] = {}
            assert server.process is not None
            sampler = asyncio.create_task(steady_cpu(server.process.pid, window, steady))
            cpu_before = resource.getrusage(resource.RUSAGE_SELF)
            tasks = [
                seat_client(
                    ws_url,
                    table_id,
                    seat,
                    key,
                    think,
                    window,
                    latencies,
                    random.Random(rng.random()),
                    in_window,
                )
                for table_id, keys in tables
                for seat, key in keys.items()
            ]
            # the load generator's own collector pauses would count as server latency
            gc.freeze()
            gc.set_threshold(50_000, 50, 1000)
            counts = await asyncio.gather(*tasks, return_exceptions=True)
            await sampler
            elapsed = time.monotonic() - started
            cpu_after = resource.getrusage(resource.RUSAGE_SELF)
            client_cpu = (cpu_after.ru_utime + cpu_after.ru_stime) - (
                cpu_before.ru_utime + cpu_before.ru_stime
            )
            failures = [c for c in counts if isinstance(c, BaseException)]
            actions = sum(c for c in counts if isinstance(c, int))
            server_cpu = server_rss = 0.0
            if server.process is not None:
                stat = Path(f"/proc/{server.process.pid}/stat").read_text().split()
                ticks = os.sysconf("SC_CLK_TCK")
                server_cpu = (int(stat[13]) + int(stat[14])) / ticks
                status = Path(f"/proc/{server.process.pid}/status").read_text()
                server_rss = (
                    next(int(x.split()[1]) for x in status.splitlines() if x.startswith("VmRSS"))
                    / 1024
                )
        finally:
            server.stop()
    ordered = sorted(latencies)

    def pct(q: float) -> float:
        return (
            1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))]
            if ordered
            else float("nan")
        )

    steady_server = steady["server_end"] - steady["server_start"]
    steady_client = steady["client_end"] - steady["client_start"]
    per_action = 1000 / max(1, in_window[0])
    return {
        "seats": seats,
        "seats_held": seats - len(failures),
        "think_seconds": think,
        "duration_seconds": round(elapsed, 1),
        "actions": actions,
        "actions_per_second": round(actions / elapsed, 1),
        "latency_ms_p50": round(pct(0.50), 2),
        "latency_ms_p90": round(pct(0.90), 2),
        "latency_ms_p99": round(pct(0.99), 2),
        "latency_ms_mean": round(1000 * statistics.fmean(ordered), 2) if ordered else float("nan"),
        "server_cpu_seconds": round(server_cpu, 1),
        "server_rss_mb": round(server_rss, 1),
        "client_cpu_seconds": round(client_cpu, 1),
        "warm_up_seconds": WARM_UP,
        "client_failures": len(failures),
        # the measured window alone (after the warm-up): what one action costs each side
        "window_actions_per_second": round(in_window[0] / duration, 1),
        "server_cpu_ms_per_action": round(steady_server * per_action, 3),
        "server_cpu_share": round(steady_server / duration, 2),  # 1.0: one core saturated
        "client_cpu_ms_per_action": round(steady_client * per_action, 3),
        "client_cpu_share": round(steady_client / duration, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a client thinks")
    parser.add_argument("--duration", type=float, default=45.0)
    args = parser.parse_args()
    results = []
    for seats in args.seats:
        figures = asyncio.run(run(seats, args.think, args.duration))
        print(
            f"{figures['seats_held']:>5} seats held · "
            f"{figures['actions_per_second']:>7} actions/s · "
            f"p50 {figures['latency_ms_p50']} ms · p99 {figures['latency_ms_p99']} ms · "
            f"server CPU {figures['server_cpu_seconds']} s, RSS {figures['server_rss_mb']} MB, "
            f"client CPU {figures['client_cpu_seconds']} s\n"
            f"      window: {figures['window_actions_per_second']} actions/s · server "
            f"{figures['server_cpu_ms_per_action']} ms CPU/action "
            f"(share {figures['server_cpu_share']}) · client "
            f"{figures['client_cpu_ms_per_action']} ms/action "
            f"(share {figures['client_cpu_share']})"
        )
        results.append(figures)
    print(f"figures: {save_figures('web_load', results)}")


if __name__ == "__main__":
    main()
