"""What the WebSocket stack alone costs an action: the floor under ``bench_web.py``'s figure.

The server here is one of the stacks of ``cardtable serve`` with no game behind it:
``--stack uvicorn``, uvicorn with its sans-I/O WebSocket protocol on uvloop, no per-frame
compression, a Starlette WebSocket route (the tables' sockets before issue 46, and every
other socket still); ``--stack picows``, picows on uvloop (a table's socket now:
server/table_transport.py). Each message a client sends is answered by one frame of
``--frame-bytes`` to each of the two seats of its table, as a move is, and nothing else
(no view, no store, no chain). The clients are ``bench_web.py``'s shape, in this process:
two a table, each sending a message about every two seconds (the seats of a table take
turns, each thinking about a second), so the server sees as many actions a second as
``bench_web.py``'s.
Whatever an action costs ``cardtable serve`` above this floor is the project's own: the
views, the encoding, the store, the chain, the timers.

    .venv/bin/python benchmarks/web_floor.py --seats 1000 --frame-bytes 4100 --stack picows
"""

from __future__ import annotations

import argparse
import asyncio
import random
import socket
import subprocess
import sys
import time

from websockets.asyncio.client import connect

from bench_web import process_cpu
from common import save_figures

WARM_UP = 8.0

SERVER = """
import sys
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket

port, size = int(sys.argv[1]), int(sys.argv[2])
frame = '{"type":"state","view":"' + "x" * max(0, size - 30) + '"}'
tables: dict[str, list[WebSocket]] = {}

async def seat(websocket: WebSocket) -> None:
    await websocket.accept()
    listeners = tables.setdefault(websocket.query_params["table"], [])
    listeners.append(websocket)
    try:
        while True:
            await websocket.receive_text()
            for listener in listeners:
                await listener.send_text(frame)
    except Exception:
        listeners.remove(websocket)

app = Starlette(routes=[WebSocketRoute("/ws", seat)])
uvicorn.run(app, port=port, log_level="warning", ws="websockets-sansio",
            ws_per_message_deflate=False)
"""

#: the tables' own way in since issue 46 (server/table_transport.py): picows, a send a call
PICOWS_SERVER = """
import asyncio
import sys
import uvloop
from picows import WSListener, WSMsgType, ws_create_server

port, size = int(sys.argv[1]), int(sys.argv[2])
frame = ('{"type":"state","view":"' + "x" * max(0, size - 30) + '"}').encode()
tables: dict[str, list] = {}

class Seat(WSListener):
    def __init__(self, table: str) -> None:
        self.listeners = tables.setdefault(table, [])

    def on_ws_connected(self, transport) -> None:
        self.listeners.append(transport)

    def on_ws_frame(self, transport, message) -> None:
        if message.msg_type == WSMsgType.TEXT:
            for listener in self.listeners:
                listener.send(WSMsgType.TEXT, frame)

    def on_ws_disconnected(self, transport) -> None:
        self.listeners.remove(transport)

async def main() -> None:
    server = await ws_create_server(
        lambda request: Seat(request.path.decode().split("table=")[1]), "127.0.0.1", port,
        use_aiofastnet=False,
    )
    await server.serve_forever()

uvloop.run(main())
"""
SERVERS = {"uvicorn": SERVER, "picows": PICOWS_SERVER}


async def client(port: int, seat: int, think: float, stop: float, sent: list[int]) -> None:
    rng = random.Random(seat)  # each seat thinks its own times
    address = f"ws://127.0.0.1:{port}/ws?table={seat // 2}"
    async with connect(address, max_size=2**20, compression=None) as websocket:

        async def read() -> None:
            async for _frame in websocket:
                pass

        reader = asyncio.create_task(read())
        while time.monotonic() < stop:
            await asyncio.sleep(think * (0.5 + rng.random()))
            await websocket.send('{"type":"action","action":{"type":"play"}}')
            sent[0] += 1
        reader.cancel()


async def measure(
    port: int, pid: int, seats: int, think: float, duration: float
) -> dict[str, float]:
    start = time.monotonic()
    stop = start + WARM_UP + duration
    sent = [0]
    clients = [asyncio.create_task(client(port, seat, think, stop, sent)) for seat in range(seats)]
    await asyncio.sleep(WARM_UP)
    cpu, actions = process_cpu(pid), sent[0]
    await asyncio.sleep(duration)
    cpu, actions = process_cpu(pid) - cpu, sent[0] - actions
    await asyncio.gather(*clients, return_exceptions=True)
    return {
        "actions_per_second": round(actions / duration, 1),
        "server_cpu_ms_per_action": round(1000 * cpu / max(actions, 1), 3),
    }


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def listening(port: int, seconds: float = 30.0) -> None:
    """Wait until the server takes connections."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seats", type=int, default=1000)
    parser.add_argument(
        "--think", type=float, default=2.0, help="mean seconds between a seat's messages"
    )
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--frame-bytes", type=int, default=4100, help="the size of each frame")
    parser.add_argument(
        "--stack", choices=sorted(SERVERS), default="uvicorn",
        help="uvicorn's WebSocket route (every socket but a table's) or picows (a table's)",
    )  # fmt: skip
    args = parser.parse_args()
    port = free_port()
    code = SERVERS[args.stack]
    server = subprocess.Popen([sys.executable, "-c", code, str(port), str(args.frame_bytes)])
    try:
        listening(port)
        figures = asyncio.run(measure(port, server.pid, args.seats, args.think, args.duration))
    finally:
        server.terminate()
        server.wait()
    figures |= {"seats": args.seats, "frame_bytes": args.frame_bytes, "stack": args.stack}
    print(
        f"{args.seats} seats, frames of {args.frame_bytes} bytes, {args.stack}: "
        f"{figures['actions_per_second']} actions/s, "
        f"server {figures['server_cpu_ms_per_action']} ms CPU/action (the stack alone)"
    )
    save_figures("web_floor", figures)


if __name__ == "__main__":
    main()
