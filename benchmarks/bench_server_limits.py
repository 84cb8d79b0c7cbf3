"""What the server's hardening costs and protects (issue 17), on loopback.

1. Spectators: the latency of a move (sent → the mover's state frame) on a table watched by
   0, 250 and 1 000 spectators, and the frames their joining cost (linear, not quadratic:
   a spectator joining is sent one state, and nobody else hears of it).
2. Hint flood: a bot's reply time (a human's move → the bot's answering state frame, bot
   delay 0) at a quiet server, then while seats at other tables ask for hints back to back.

    python benchmarks/bench_server_limits.py --spectators 0 250 1000 --moves 30 --hint-seats 12
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.server_helpers import ServerProcess, http, seat_keys

from benchmarks.common import save_figures

SERVE = ("--no-address-limits",)


async def state_at(socket: Any, version: int) -> dict[str, Any]:
    while True:
        frame = json.loads(await socket.recv())
        if frame["type"] == "state" and frame["version"] >= version:
            return frame


def watch(ws: str, spectators: int, ready: Any, stop: Any, received: Any) -> None:
    """``spectators`` sockets on the table at ``ws`` (in a process of their own), each
    counting the frames it gets until ``stop``."""

    async def crowd() -> None:
        watchers = []
        for _ in range(spectators):
            watcher = await connect(ws, max_size=2**20)
            await state_at(watcher, 0)
            received.value += 1
            watchers.append(watcher)
        ready.set()

        async def count(socket: Any) -> None:
            while not stop.is_set():
                try:
                    await asyncio.wait_for(socket.recv(), 0.2)
                    received.value += 1
                except TimeoutError:
                    continue

        await asyncio.gather(*(count(w) for w in watchers))
        for watcher in watchers:
            await watcher.close()

    asyncio.run(crowd())


async def spectated_moves(url: str, spectators: int, moves: int) -> dict[str, float]:
    _, created = http("POST", f"{url}/api/tables", {"game": "koi-koi", "seats": ["human"] * 2})
    table_id, keys = created["id"], seat_keys(created)
    ws = url.replace("http", "ws") + f"/ws/tables/{table_id}"
    seats = [await connect(f"{ws}?seat={s}&key={k}", max_size=2**20) for s, k in keys.items()]
    frames = [await state_at(s, 0) for s in seats]
    # the crowd reads its frames in a process of its own: in this one, reading a thousand
    # frames a move would be the players' wait, not the server's
    context = multiprocessing.get_context("spawn")
    ready, stop, received = context.Event(), context.Event(), context.Value("l", 0)
    started = time.perf_counter()
    crowd = context.Process(target=watch, args=(ws, spectators, ready, stop, received))
    crowd.start()
    await asyncio.to_thread(ready.wait, 600)
    join_seconds = time.perf_counter() - started
    latencies = []
    rng = random.Random(1)
    version = frames[0]["version"]
    for _ in range(moves):
        mover = 0 if frames[0]["view"]["legal_actions"] else 1
        if frames[mover]["table"]["status"] == "finished" or frames[mover]["table"]["round_break"]:
            break  # the round is over: the moves so far are the sample
        action = rng.choice(frames[mover]["view"]["legal_actions"])
        sent = time.perf_counter()
        await seats[mover].send(json.dumps({"type": "action", "action": action}))
        frames[mover] = await state_at(seats[mover], version + 1)
        latencies.append(time.perf_counter() - sent)
        frames[1 - mover] = await state_at(seats[1 - mover], version + 1)
        version += 1
    await asyncio.sleep(0.5)
    stop.set()
    await asyncio.to_thread(crowd.join, 60)
    for socket in seats:
        await socket.close()
    return {
        "spectators": spectators,
        "join_seconds": round(join_seconds, 2),
        "frames_to_spectators": received.value,
        "moves": len(latencies),
        "move_ms_median": round(1000 * statistics.median(latencies), 2),
        "move_ms_max": round(1000 * max(latencies), 2),
    }


async def bot_replies(url: str, seconds: float) -> list[float]:
    """A human against the random bot, for ``seconds`` (a new match when one ends): the
    seconds from each of the human's moves to the bot's answer."""
    rng = random.Random(2)
    replies: list[float] = []
    stop = time.monotonic() + seconds
    while time.monotonic() < stop:
        body = {"game": "koi-koi", "seats": ["human", "bot:random"]}
        _, created = http("POST", f"{url}/api/tables", body)
        ws = url.replace("http", "ws") + f"/ws/tables/{created['id']}"
        async with connect(f"{ws}?seat=0&key={created['key']}", max_size=2**20) as socket:
            frame = await state_at(socket, 0)
            while time.monotonic() < stop and frame["table"]["status"] != "finished":
                legal = frame["view"]["legal_actions"]
                if frame["table"]["round_break"]:  # the round is over: on to the next
                    await socket.send(json.dumps({"type": "next_round"}))
                    while (frame := await state_at(socket, frame["version"]))["table"][
                        "round_break"
                    ]:
                        pass
                    continue
                if not legal:
                    frame = await state_at(socket, frame["version"] + 1)
                    continue
                sent = time.perf_counter()
                await socket.send(json.dumps({"type": "action", "action": rng.choice(legal)}))
                frame = await state_at(socket, frame["version"] + 1)
                while (
                    not frame["view"]["legal_actions"]
                    and frame["table"]["status"] != "finished"
                    and not frame["table"]["round_break"]
                ):
                    frame = await state_at(socket, frame["version"] + 1)  # the bot's move(s)
                replies.append(time.perf_counter() - sent)
    return replies


async def ask_hints(url: str, stop: asyncio.Event, answered: list[int]) -> None:
    """One seat asking for hints back to back (a new table whenever its turn passes)."""
    _, created = http("POST", f"{url}/api/tables", {"game": "koi-koi", "seats": ["human"] * 2})
    keys = seat_keys(created)
    ws = url.replace("http", "ws") + f"/ws/tables/{created['id']}"
    sockets = [await connect(f"{ws}?seat={s}&key={k}", max_size=2**20) for s, k in keys.items()]
    frames = [await state_at(s, 0) for s in sockets]
    mover = sockets[0 if frames[0]["view"]["legal_actions"] else 1]
    while not stop.is_set():
        await mover.send(json.dumps({"type": "hint"}))
        while True:
            frame = json.loads(await mover.recv())
            if frame["type"] in ("hint", "error"):
                answered[0] += frame["type"] == "hint"
                break
        if frame["type"] == "error":
            await asyncio.sleep(0.05)  # refused as busy: ask again a little later
    for socket in sockets:
        await socket.close()


async def hint_flood(url: str, seats: int, seconds: float) -> dict[str, float]:
    quiet = await bot_replies(url, seconds)
    stop = asyncio.Event()
    answered = [0]
    flood = [asyncio.create_task(ask_hints(url, stop, answered)) for _ in range(seats)]
    await asyncio.sleep(1.0)
    loaded = await bot_replies(url, seconds)
    stop.set()
    await asyncio.gather(*flood)
    quiet_ms, loaded_ms = 1000 * statistics.median(quiet), 1000 * statistics.median(loaded)
    return {
        "hint_seats": seats,
        "seconds": seconds,
        "hints_answered": answered[0],
        "bot_replies_flood": len(loaded),
        "bot_reply_ms_median_quiet": round(quiet_ms, 2),
        "bot_reply_ms_median_flood": round(loaded_ms, 2),
        "bot_reply_ms_max_flood": round(1000 * max(loaded), 2),
        "ratio": round(loaded_ms / quiet_ms, 2),
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        server = ServerProcess(f"sqlite:///{folder}/bench.db", options=SERVE)
        server.start()
        try:
            spectated = [await spectated_moves(server.url, n, args.moves) for n in args.spectators]
            flood = await hint_flood(server.url, args.hint_seats, args.flood_seconds)
        finally:
            server.stop()
    return {"spectators": spectated, "hint_flood": flood}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, nargs="+", default=[0, 250, 1000])
    parser.add_argument("--moves", type=int, default=30)
    parser.add_argument("--hint-seats", type=int, default=12)
    parser.add_argument("--flood-seconds", type=float, default=10.0)
    args = parser.parse_args()
    figures = asyncio.run(run(args))
    for row in figures["spectators"]:
        print(
            f"{row['spectators']:>5} spectators: joined in {row['join_seconds']} s "
            f"({row['frames_to_spectators']} frames to them), move median "
            f"{row['move_ms_median']} ms, max {row['move_ms_max']} ms"
        )
    flood = figures["hint_flood"]
    print(
        f"bot reply median {flood['bot_reply_ms_median_quiet']} ms quiet, "
        f"{flood['bot_reply_ms_median_flood']} ms with {flood['hint_seats']} seats asking "
        f"for hints ({flood['hints_answered']} answered, {flood['bot_replies_flood']} bot "
        f"replies, max {flood['bot_reply_ms_max_flood']} ms): {flood['ratio']}x"
    )
    print(f"figures: {save_figures('server_limits', figures)}")


if __name__ == "__main__":
    main()
