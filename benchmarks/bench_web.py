"""Load run of the web app on loopback: N concurrent WebSocket clients playing real games.

The server runs as its own process (``cardtable serve`` on a fresh SQLite file, bots off:
every seat is a client), or as a cluster (``--cluster N``: N processes behind nginx on a
scratch PostgreSQL, as ``make cluster`` runs them). Clients are asyncio tasks of this
process, or of ``--client-processes K`` processes of their own; each plays koi-koi
(12-round matches, so tables stay busy; "Next round" after each) with a think time, and
measures the time from sending an action to receiving the state frame that contains it
(action-to-update latency). Over the measured window (after the warm-up) it also gives
each process's CPU per action and its share of a core: the server's is what one action
costs it; a share near 1.0 is a saturated process (the server has one event loop, and so
has this load generator, whose CPU competes with the server's on a small machine).

    python benchmarks/bench_web.py --seats 1000 --think 1.0 --duration 60
    python benchmarks/bench_web.py --seats 5000 --cluster 3 --client-processes 8
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from multiprocessing import get_context
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


def process_rss_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return next(int(x.split()[1]) for x in status.splitlines() if x.startswith("VmRSS")) / 1024


async def steady_cpu(pids: list[int], window: tuple[float, float], into: dict[str, float]) -> None:
    """The servers' CPU seconds over the measured window only (not the tables' creation or
    the connect storm)."""
    for edge, name in zip(window, ("start", "end"), strict=True):
        await asyncio.sleep(max(0.0, edge - time.monotonic()))
        into[f"server_{name}"] = sum(process_cpu(pid) for pid in pids)


async def play_share(
    url: str, tables: list[tuple[str, dict[int, str]]], think: float,
    window: tuple[float, float], seed: float,
) -> dict[str, object]:  # fmt: skip
    """One load generator's seats, to the end of the window: its latencies, the actions it
    sent in the window, its CPU over the window."""
    latencies: list[float] = []
    in_window = [0]
    rng = random.Random(seed)
    cpu: dict[str, float] = {}

    async def own_cpu() -> None:
        for edge, name in zip(window, ("start", "end"), strict=True):
            await asyncio.sleep(max(0.0, edge - time.monotonic()))
            cpu[name] = time.process_time()

    sampler = asyncio.create_task(own_cpu())
    tasks = [
        seat_client(url, table_id, seat, key, think, window, latencies,
                    random.Random(rng.random()), in_window)
        for table_id, keys in tables
        for seat, key in keys.items()
    ]  # fmt: skip
    # the load generator's own collector pauses would count as server latency
    gc.freeze()
    gc.set_threshold(50_000, 50, 1000)
    counts = await asyncio.gather(*tasks, return_exceptions=True)
    await sampler
    return {
        "latencies": latencies,
        "in_window": in_window[0],
        "actions": sum(c for c in counts if isinstance(c, int)),
        "failures": sum(1 for c in counts if isinstance(c, BaseException)),
        "cpu": cpu["end"] - cpu["start"],
    }


def share_in_process(arguments: tuple[object, ...]) -> dict[str, object]:
    return asyncio.run(play_share(*arguments))  # type: ignore[arg-type]


@contextmanager
def servers(folder: str, cluster: int) -> Iterator[tuple[str, list[int]]]:
    """The server under load, every client coming from this one address (the per-address
    limits lifted): one process on SQLite, or ``cluster`` processes behind nginx on
    PostgreSQL (``make cluster``'s). Its URL and its processes' ids."""
    if cluster:
        from cardtable.server.local_cluster import local_cluster

        with local_cluster(cluster, port=0, serve_options=("--no-address-limits",)) as running:
            yield running.url, [n.process.pid for n in running.nodes if n.process is not None]
        return
    server = ServerProcess(f"sqlite:///{folder}/load.db", options=("--no-address-limits",))
    server.start()
    try:
        assert server.process is not None
        yield server.url, [server.process.pid]
    finally:
        server.stop()


async def run(
    seats: int, think: float, duration: float, client_processes: int = 1, cluster: int = 0
) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder, servers(folder, cluster) as (url, pids):
        tables = []
        for _ in range(seats // 2):
            _, created = http(
                "POST", f"{url}/api/tables",
                {"game": "koi-koi", "seats": ["human", "human"], "public": False},
            )  # fmt: skip
            tables.append((created["id"], seat_keys(created)))
        ws_url = url.replace("http", "ws")
        started = time.monotonic()
        window = (started + WARM_UP, started + WARM_UP + duration)
        steady: dict[str, float] = {}
        sampler = asyncio.create_task(steady_cpu(pids, window, steady))
        shares = [
            (ws_url, tables[n::client_processes], think, window, float(n))
            for n in range(client_processes)
        ]
        if client_processes == 1:
            results = [await play_share(*shares[0])]  # type: ignore[arg-type]
        else:  # each load generator a process of its own: the clients are not what saturates
            with ProcessPoolExecutor(client_processes, mp_context=get_context("spawn")) as pool:
                loop = asyncio.get_running_loop()
                results = list(await asyncio.gather(
                    *(loop.run_in_executor(pool, share_in_process, share) for share in shares)
                ))  # fmt: skip
        await sampler
        elapsed = time.monotonic() - started
        server_cpu = sum(process_cpu(pid) for pid in pids)
        server_rss = sum(process_rss_mb(pid) for pid in pids)
    latencies = sorted(x for r in results for x in r["latencies"])  # type: ignore[attr-defined]
    in_window = sum(int(r["in_window"]) for r in results)  # type: ignore[call-overload]
    actions = sum(int(r["actions"]) for r in results)  # type: ignore[call-overload]
    failures = sum(int(r["failures"]) for r in results)  # type: ignore[call-overload]
    client_cpu = sum(float(r["cpu"]) for r in results)  # type: ignore[arg-type]

    def pct(q: float) -> float:
        if not latencies:
            return float("nan")
        return 1000 * latencies[min(len(latencies) - 1, int(q * len(latencies)))]

    steady_server = steady["server_end"] - steady["server_start"]
    per_action = 1000 / max(1, in_window)
    return {
        "seats": seats,
        "seats_held": seats - failures,
        "think_seconds": think,
        "server_processes": len(pids),
        "client_processes": client_processes,
        "duration_seconds": round(elapsed, 1),
        "actions": actions,
        "actions_per_second": round(actions / elapsed, 1),
        "latency_ms_p50": round(pct(0.50), 2),
        "latency_ms_p90": round(pct(0.90), 2),
        "latency_ms_p99": round(pct(0.99), 2),
        "latency_ms_mean": round(1000 * statistics.fmean(latencies), 2)
        if latencies
        else float("nan"),
        "server_cpu_seconds": round(server_cpu, 1),
        "server_rss_mb": round(server_rss, 1),
        "warm_up_seconds": WARM_UP,
        "client_failures": failures,
        # the measured window alone (after the warm-up): what one action costs each side
        "window_actions_per_second": round(in_window / duration, 1),
        "server_cpu_ms_per_action": round(steady_server * per_action, 3),
        "server_cpu_share": round(steady_server / duration, 2),  # 1.0: one core saturated
        "client_cpu_ms_per_action": round(client_cpu * per_action, 3),
        "client_cpu_share": round(client_cpu / duration, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, nargs="+", default=[200, 1000])
    parser.add_argument("--think", type=float, default=1.0, help="mean seconds a client thinks")
    parser.add_argument("--duration", type=float, default=45.0)
    parser.add_argument(
        "--client-processes", type=int, default=1,
        help="load generator processes (the clients spread over them: not what saturates)",
    )  # fmt: skip
    parser.add_argument(
        "--cluster", type=int, default=0, metavar="N",
        help="N server processes behind nginx on PostgreSQL (make cluster's), not one on SQLite",
    )  # fmt: skip
    args = parser.parse_args()
    results = []
    for seats in args.seats:
        figures = asyncio.run(
            run(seats, args.think, args.duration, args.client_processes, args.cluster)
        )
        print(
            f"{figures['seats_held']:>5} seats held · "
            f"{figures['actions_per_second']:>7} actions/s · "
            f"p50 {figures['latency_ms_p50']} ms · p99 {figures['latency_ms_p99']} ms · "
            f"{figures['server_processes']} server process(es), CPU "
            f"{figures['server_cpu_seconds']} s, RSS {figures['server_rss_mb']} MB\n"
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
