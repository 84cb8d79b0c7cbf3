"""Helpers for the web tests: servers on free ports, seat sockets, random legal play."""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import uvicorn

from cardtable.server.app import create_app
from cardtable.server.serving import uvicorn_config
from cardtable.server.settings import Settings

T = TypeVar("T")
ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"
# the per-address limits are lifted: the tests make hundreds of tables from one address;
# and a socket that waits for its turn through a long test on a busy machine is not idle
# and bots search in threads of the test's own process: a test makes many servers, and
# each would start its own worker processes (tests/test_compute.py runs those)
FAST = Settings(
    bot_delay=0.0,
    think_scale=0.02,
    socket_idle_seconds=3600,
    compute="threads",
    worker_niceness=0,  # where a test asks for worker processes: see FAIR_WORKERS
).relaxed()


def eventually(
    check: Callable[[], T],
    timeout: float = 20,
    what: str = "",
    pause: Callable[[float], object] = time.sleep,
) -> T:
    """Ask ``check`` until its answer is true, and return that answer; fail at the deadline
    with its last one. (A fixed sleep before an assertion fails on a busy machine and
    wastes time on an idle one.) ``pause(seconds)`` waits between asks: a browser test
    passes its page's wait, so the page's events are handled meanwhile."""
    deadline = time.monotonic() + timeout
    while not (answer := check()):
        if time.monotonic() > deadline:
            raise AssertionError(f"not after {timeout:g} s: {what or check}; last {answer!r}")
        pause(0.02)
    return answer


def reserve_port() -> socket.socket:
    """A socket that holds a free port (bound with SO_REUSEADDR, never listening) until it
    is closed: no other socket of the machine gets that port meanwhile, but a server that
    binds with SO_REUSEADDR, as uvicorn and PostgreSQL do, may listen on it. (Binding port
    0, closing and binding again let another test process take the port in between.)"""
    held = socket.socket()
    held.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    held.bind(("127.0.0.1", 0))
    return held


@contextmanager
def reserved_port() -> Iterator[int]:
    """A port held for a server of another process while the block runs."""
    with reserve_port() as held:
        yield int(held.getsockname()[1])


#: CARDTABLE_SLOW_ASSETS=MS delays each script, style sheet, catalogue and card list of the test
#: servers by up to MS milliseconds, at random: a slow line, where a page's parts come in any
#: order. CI's
#: machines are slower than this one; a page that draws before its parts are in fails there
#: first. Not set in make test; run the browser tier with it to find such races here.
SLOW_ASSETS_MS = float(os.environ.get("CARDTABLE_SLOW_ASSETS", "0"))


PAGE_PARTS = ("/static/", "/games/", "/api/locales/", "/api/cards", "/api/games")


def slow_assets(app: Any, most_ms: float) -> Any:
    """``app`` answering its static files after a random delay of up to ``most_ms``."""
    jitter = random.Random()

    async def served(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "http" and scope["path"].startswith(PAGE_PARTS):
            await asyncio.sleep(jitter.uniform(0, most_ms) / 1000)
        await app(scope, receive, send)

    return served


@contextmanager
def server_thread(db_url: str, settings: Settings = FAST) -> Iterator[tuple[str, Any]]:
    """The app under uvicorn in a thread of this process; yields its base URL and the app."""
    app = create_app(db_url, settings)
    served = slow_assets(app, SLOW_ASSETS_MS) if SLOW_ASSETS_MS else app
    server = uvicorn.Server(
        uvicorn_config(served, settings, "127.0.0.1", 0, app.state)
    )  # any free port
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    eventually(lambda: server.started or not thread.is_alive(), what="the test server starts")
    if not server.started:
        raise RuntimeError("the test server did not start")
    port = int(server.servers[0].sockets[0].getsockname()[1])
    try:
        yield f"http://127.0.0.1:{port}", app
    finally:
        server.should_exit = True
        thread.join(10)


#: a served process's workers at the tests' own priority: niced, as in production, they
#: wait minutes for a core on a machine the other tests keep busy
FAIR_WORKERS = ("--limit", "worker_niceness=0")


class ServerProcess:
    """``cardtable serve`` as a separate process (so it can be killed with SIGKILL)."""

    def __init__(
        self,
        db_url: str,
        port: int | None = None,
        options: tuple[str, ...] = (),
        wrapper: tuple[str, ...] = (),
    ) -> None:
        self.db_url = db_url
        # held until stop(): a restart after kill -9 finds its port still free
        self.held = None if port else reserve_port()
        self.port = port or int(self.held.getsockname()[1])  # type: ignore[union-attr]
        self.options = options  # more `cardtable serve` options
        self.wrapper = wrapper  # a command that runs the server (setpriv ...)
        self.process: subprocess.Popen[bytes] | None = None
        # its log (stderr) in a file, never a pipe: nobody reads a pipe while the server
        # runs, and a server that fills one (64 KiB of warnings) stops at its next line.
        # One file across restarts, appended to: a killed run's lines stay
        self.log = tempfile.TemporaryFile(mode="ab")  # noqa: SIM115 - read after stop()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [
            *self.wrapper, sys.executable, "-m", "cardtable", "serve", "--db", self.db_url,
            "--port", str(self.port), "--bot-delay", "0", *FAIR_WORKERS, *self.options,
        ]  # fmt: skip
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=self.log)
        process = self.process

        def answers() -> bool:
            try:
                with urllib.request.urlopen(f"{self.url}/api/tables", timeout=1):
                    return True
            except OSError:
                if process.poll() is not None:
                    raise RuntimeError(f"server exited: {self.said()}") from None
                return False

        eventually(answers, 60, "the server starts")

    def said(self) -> str:
        """What the server has written to its log (stderr) so far."""
        size = os.fstat(self.log.fileno()).st_size
        return os.pread(self.log.fileno(), size, 0).decode(errors="replace")

    def kill9(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.kill9()
        if self.held is not None:
            self.held.close()


def http(method: str, url: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def people_table(url: str, game: str = "koi-koi", people: int = 2) -> tuple[str, dict[int, str]]:
    """A new table of ``people`` human seats on the server at ``url``: its id, each seat's key."""
    status, created = http("POST", f"{url}/api/tables", {"game": game, "seats": ["human"] * people})
    assert status == 201, created
    return str(created["id"]), seat_keys(created)


def seat_keys(created: dict[str, Any]) -> dict[int, str]:
    """Every human seat's key from a create-table answer (the creator's and the invites)."""
    keys = {created["seat"]: created["key"]}
    for invite in created["invites"]:
        query = invite["url"].split("?", 1)[1]
        params = dict(part.split("=", 1) for part in query.split("&"))
        keys[int(params["seat"])] = params["key"]
    return keys


def random_action(view: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A random legal action from a seat's own view (what a client may know)."""
    legal = view.get("legal_actions") or []
    if view.get("game") == "siedem-slow" and view.get("phase") in ("writing", "hourglass"):
        return None  # words are free text: the tests write them themselves
    return rng.choice(legal) if legal else None


def idle_in_its_break(table: Any) -> bool:
    """The table rests in a round break with nothing due but a person's press: no bot move,
    no clock and no countdown to come (the driver's own next event). An explicit check that
    nothing will happen, where a sleep could only fail to catch it happening."""
    return table.round_break is not None and table.driver.next_event() == (
        table.round_break_over,
        None,
    )
