"""The compute pool (issue 38): jobs in turn by address and table, deadlines that cut a
search to its budget, worker processes and a local Ray cluster playing a table's bots and
hints. Loopback only."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import pickle
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import ExitStack, contextmanager
from http.client import HTTPConnection
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

import cardtable
from cardtable.agents import make_agent
from cardtable.agents.base import EXPERT_SECONDS
from cardtable.agents.ismcts import ISMCTSAgent
from cardtable.core.game import spec_of
from cardtable.server.settings import Settings
from cardtable.server.workers import (
    BACKGROUND,
    FLOOR_SECONDS,
    HINT,
    MOVE,
    FairQueue,
    Job,
    Workers,
    bot_move,
    within,
)

from .server_helpers import eventually, server_thread


def jobs(queue: FairQueue) -> list[tuple[str, str, str]]:
    return [(j.address, j.table, j.kind) for j in iter(queue.pop, None)]


def test_the_queue_takes_addresses_then_tables_in_turn() -> None:
    loop = asyncio.new_event_loop()
    queue = FairQueue()
    arrivals = [("a", "t1", MOVE)] * 20 + [("a", "t2", MOVE), ("b", "t3", HINT)]
    for address, table, kind in arrivals:
        queue.push(Job(b"", kind, address, table, loop.create_future()))
    order = jobs(queue)
    # b's one job comes second, not after a's twenty; a's second table before its t1 queue
    assert order[:3] == [("a", "t1", MOVE), ("b", "t3", HINT), ("a", "t2", MOVE)]
    assert len(order) == len(arrivals)
    loop.close()


def test_background_jobs_wait_while_anything_else_waits() -> None:
    loop = asyncio.new_event_loop()
    queue = FairQueue()
    queue.push(Job(b"", BACKGROUND, "reviewer", "t1", loop.create_future()))
    queue.push(Job(b"", MOVE, "player", "t2", loop.create_future()))
    assert jobs(queue) == [("player", "t2", MOVE), ("reviewer", "t1", BACKGROUND)]
    loop.close()


def test_a_search_past_its_deadline_plays_its_best_move_found() -> None:
    """A move whose budget ran out while it waited gets the floor's search, not the
    level's whole budget, and still a legal move."""
    state = cardtable.load("koi-koi").new_state(seed=11)
    seat = min(state.to_move)
    legal = state.legal_actions(seat)
    late = within(make_agent("hard", "koi-koi", seed=3), deadline=time.time() - 5)
    assert isinstance(late, ISMCTSAgent) and late.seconds == FLOOR_SECONDS
    root = late.search(state.clone(), seat, legal)
    searched = sum(child.visits for child in root.children.values())
    assert 0 < searched < spec_of("koi-koi").info.search_iterations
    assert bot_move("hard", "koi-koi", 3, state, seat, deadline=time.time() - 5) in legal


def test_a_live_table_keeps_the_expert_clock_that_replays_run_without() -> None:
    """Elsewhere the iterations alone decide (issue 49); a live table's move stops at the
    level's clock, or sooner at the move's time left."""
    assert make_agent("expert", "koi-koi", seed=3).seconds is None  # type: ignore[attr-defined]
    live = within(make_agent("expert", "koi-koi", seed=3), deadline=time.time() + 60)
    assert isinstance(live, ISMCTSAgent) and live.seconds == EXPERT_SECONDS
    hard = within(make_agent("hard", "koi-koi", seed=3), deadline=time.time() + 60)
    assert isinstance(hard, ISMCTSAgent) and hard.seconds is not None and hard.seconds > 50


def test_hints_keep_a_slot_for_moves_and_wait_their_turn() -> None:
    async def scenario() -> None:
        settings = Settings(compute="threads", bot_workers=2, hint_workers=1, hint_queue=2)
        workers = Workers(settings)
        hints = [
            asyncio.create_task(workers.hint(time.sleep, 0.5, address="x", table="t"))
            for _ in range(3)
        ]
        while workers.hints_taken < 3:
            await asyncio.sleep(0.01)
        move = await asyncio.wait_for(workers.bot(sum, [2, 3], address="y", table="u"), 5)
        assert move == 5 and sum(h.done() for h in hints) <= 1
        await asyncio.gather(*hints)
        workers.close()

    asyncio.run(scenario())


def post(url: str, body: dict[str, Any], source: str) -> dict[str, Any]:
    host, port = url.removeprefix("http://").split(":")
    connection = HTTPConnection(host, int(port), timeout=30, source_address=(source, 0))
    connection.request(
        "POST", "/api/tables", json.dumps(body), {"Content-Type": "application/json"}
    )
    answer = connection.getresponse()
    assert answer.status == 201
    return dict(json.loads(answer.read()))


def drain(socket: Any, stop: threading.Event) -> None:
    """Read a socket's frames until told to stop (a person's page does)."""
    while not stop.is_set():
        try:
            socket.recv(timeout=0.2)
        except TimeoutError:
            continue
        except Exception:
            return


@contextmanager
def seated(url: str, created: dict[str, Any], source: str) -> Iterator[Any]:
    ws = url.replace("http", "ws")
    path = f"/ws/tables/{created['id']}?seat={created['seat']}&key={created['key']}"
    with connect(f"{ws}{path}", source_address=(source, 0)) as socket:
        yield socket


@pytest.mark.slow
def test_a_random_bot_replies_in_time_beside_twenty_tables_of_hard_bots(tmp_path: Path) -> None:
    """Twenty Ohanami tables of two hard bots each, made and sat at from one address, keep
    both workers busy; a random bot at another client's table replies within its delay
    plus 2 s, since that client's turn comes next whatever the first one queued."""
    settings = Settings(
        compute="local", bot_workers=2, bot_seconds=1.0, bot_delay=0.2, socket_idle_seconds=600
    ).relaxed()
    hard = {"game": "ohanami", "seats": ["human", "bot:hard", "bot:hard"]}
    with server_thread(f"sqlite:///{tmp_path / 'fair.db'}", settings) as (url, app):
        workers = app.state.hub.workers
        stop = threading.Event()
        with ExitStack() as stack:
            for _ in range(20):
                socket = stack.enter_context(seated(url, post(url, hard, "127.0.0.2"), "127.0.0.2"))
                threading.Thread(target=drain, args=(socket, stop), daemon=True).start()
            eventually(lambda: workers.queue.waiting[MOVE] >= 10, 60, "the hard bots queue")
            lone = post(url, {"game": "ohanami", "seats": ["human", "bot:random"]}, "127.0.0.3")
            with seated(url, lone, "127.0.0.3") as socket:
                started = time.monotonic()
                while True:
                    frame = json.loads(socket.recv(timeout=30))
                    if frame["type"] == "state" and 1 not in frame["view"]["to_move"]:
                        break
                waited = time.monotonic() - started
            assert workers.queue.waiting[MOVE] > 0, "the hard bots were done before: no test"
            stop.set()
    assert waited < settings.bot_delay + 2.0, waited


@pytest.mark.slow
def test_ray_plays_a_tables_bots_and_hints(tmp_path: Path) -> None:
    """A local Ray cluster started by the test on loopback runs a whole koi-koi round's
    hard-bot moves and a hint."""
    pytest.importorskip("ray")
    settings = Settings(compute="ray", bot_workers=2, bot_delay=0.0, bot_seconds=0.5).relaxed()
    body = {"game": "koi-koi", "seats": ["human", "bot:hard"], "options": {"rounds": 1}}
    with server_thread(f"sqlite:///{tmp_path / 'ray.db'}", settings) as (url, app):
        assert type(app.state.hub.workers.backend).__name__ == "RayBackend"
        created = post(url, body, "127.0.0.1")
        hinted = False
        with seated(url, created, "127.0.0.1") as socket:
            while True:
                frame = json.loads(socket.recv(timeout=60))
                if frame["type"] == "hint":
                    assert frame["action"]
                    hinted = True
                if frame["type"] != "state":
                    continue
                if frame["table"]["status"] == "finished":
                    break
                legal = frame["view"].get("legal_actions") or []
                if 0 in frame["view"]["to_move"] and legal:
                    if not hinted:
                        socket.send(json.dumps({"type": "hint", "lang": "en"}))
                        while (reply := json.loads(socket.recv(timeout=60)))["type"] != "hint":
                            assert reply["type"] in ("state", "presence"), reply
                        hinted = True
                    action = {"type": "action", "action": legal[0], "version": frame["version"]}
                    socket.send(json.dumps(action))
        bots = [m for m in app.state.hub.store.moves(created["id"]) if m.seat == 1]
        assert bots and hinted


def test_a_spectator_that_never_reads_holds_up_no_move(tmp_path: Path) -> None:
    """The players' frames go out at once; the spectators' are sent by the table's fan-out
    task afterwards, so a stuck spectator (a socket that never drains) delays nobody."""
    from fastapi.testclient import TestClient

    from cardtable.server.app import create_app

    from .server_helpers import FAST

    class Stuck:
        seat = None

        async def send_text(self, text: str) -> None:
            await asyncio.Event().wait()

    with TestClient(create_app(f"sqlite:///{tmp_path / 'fan.db'}", FAST)) as client:
        created = client.post(
            "/api/tables", json={"game": "koi-koi", "seats": ["human", "human"]}
        ).json()
        table = client.app.state.hub.tables[created["id"]]  # type: ignore[attr-defined]
        table.listeners.add(Stuck())

        async def broadcast_within(seconds: float) -> None:
            await asyncio.wait_for(table.frames.broadcast(), seconds)

        assert client.portal is not None
        client.portal.call(broadcast_within, 2.0)
        assert table.frames.fanout.queue  # the stuck spectator's frame is still on its way


def test_work_that_cannot_travel_runs_here() -> None:
    """A job that cannot be pickled is worked out in the server's threads instead of
    failing the table's driver."""

    async def scenario() -> None:
        workers = Workers(Settings(compute="threads", bot_workers=1))
        local = 21
        assert await workers.bot(lambda n: n * 2, local) == 42  # a lambda does not pickle
        assert workers.unpicklable == 1
        workers.close()

    asyncio.run(scenario())


def test_a_word_game_state_travels_to_a_worker_process() -> None:
    """7 słów's state holds the dictionary and the morphological analyser: they travel by
    name (a worker opens its own copy), so its bots use the process pool like any game's,
    and the worker answers the same as the server would."""
    state = cardtable.load("siedem-slow").new_state(seed=3)
    sent = pickle.dumps(state)
    assert len(sent) < 100_000  # the ~100 MB list is not in it
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        there = pool.submit(judged_in_worker, sent).result(timeout=120)
    assert there == judged_in_worker(sent)
    assert there[1] is True  # the analyser came along: śmiechy and śmiech are one word


def judged_in_worker(sent: bytes) -> tuple[int, bool, object]:
    """What a worker makes of the state: its list, its word families, a bot's move."""
    state = pickle.loads(sent)
    seat = min(state.to_move)
    move = make_agent("hard", "siedem-slow", seed=1).choose(state, seat)
    return len(state.dictionary), state.families.same_lemma("śmiechy", "śmiech"), move.to_json()
