"""Many server processes behind one address (issue 46): three ``cardtable serve --node``
processes on a scratch PostgreSQL, behind Debian's nginx running the documented
docs/deploy/nginx-cluster.conf (its ports put in). Loopback only: clients speak from
127.0.0.x, every part listens on 127.0.0.1."""

from __future__ import annotations

import json
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from collections.abc import Iterator
from http.client import HTTPConnection
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, expect
from websockets.sync.client import connect

from cardtable.server.local_cluster import LocalCluster, free_port, local_cluster, postgres_bin
from cardtable.server.store import Store

from .browser_helpers import browser, create_table, hanafuda_move, new_page, page_pause, shot
from .server_helpers import FAIR_WORKERS, eventually, seat_keys
from .test_day_clock import mover
from .test_server_restart import play_moves

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("nginx") is None, reason="nginx is installed by make test"),
]
PEOPLE = {"game": "koi-koi", "seats": ["human", "human"]}
__all__ = ["browser"]  # a fixture, used by name


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    postgres_bin()  # make test installs Debian's postgresql: without it this must fail
    with local_cluster(3, port=0, serve_options=FAIR_WORKERS) as running:
        yield running


def ask(url: str, method: str, path: str, body: Any = None, source: str = "127.0.0.2") -> Any:
    """Status, JSON and the node that answered, from a client at ``source``."""
    parts = urlsplit(url)
    connection = HTTPConnection(parts.hostname, parts.port, timeout=30, source_address=(source, 0))
    try:
        data = None if body is None else json.dumps(body)
        connection.request(method, path, data, {"Content-Type": "application/json"})
        answer = connection.getresponse()
        text = answer.read()
        return answer.status, json.loads(text or b"null"), answer.getheader("X-Cardtable-Node")
    finally:
        connection.close()


def holder(cluster: LocalCluster, table_id: str) -> str:
    """The node nginx sends the table's requests to."""
    status, _meta, node = ask(cluster.url, "GET", f"/api/tables/{table_id}")
    assert status == 200
    return str(node)


def test_tables_spread_over_the_processes_and_every_lobby_lists_them(
    cluster: LocalCluster,
) -> None:
    made = []
    for n in range(9):  # nine people, each at an address of their own
        status, created, _node = ask(
            cluster.url, "POST", "/api/tables", PEOPLE, f"127.0.0.{20 + n}"
        )
        assert status == 201, created
        made.append(created["id"])
    holders = Counter(holder(cluster, table_id) for table_id in made)
    assert len(holders) >= 2, holders  # consistent hashing spread them
    for node in cluster.nodes:  # each process's lobby has every process's tables

        def listed(node_url: str = node.url) -> bool:
            with urllib.request.urlopen(f"{node_url}/api/tables", timeout=10) as answer:
                ids = {entry["id"] for entry in json.loads(answer.read())}
            return set(made) <= ids

        eventually(listed, 20, f"{node.name}'s lobby lists every table")


def refusal(answer: Any) -> str:
    return str(answer["detail"]["code"]) if isinstance(answer, dict) else "?"


def test_the_table_limits_hold_across_the_processes(cluster: LocalCluster) -> None:
    answers = [ask(cluster.url, "POST", "/api/tables", PEOPLE, "127.0.0.50") for _ in range(16)]
    made = [body["id"] for status, body, _node in answers if status == 201]
    assert len({holder(cluster, table_id) for table_id in made}) >= 2  # made on several
    outcomes = Counter("made" if status == 201 else refusal(body) for status, body, _ in answers)
    # five tables nobody has moved at (unstarted_tables), then the rest of tables_burst's
    # ten spent on refusals: an address's limits in all, not in each of the three processes
    assert outcomes == {"made": 5, "unstarted_tables": 5, "rate_limited": 6}, outcomes


def test_requests_at_once_through_every_process_stay_within_the_unstarted_limit(
    cluster: LocalCluster,
) -> None:
    """Twelve tables asked for at once by one address reach the three processes together:
    each counts the table it is making before it reads the count, so no more than five are
    made (refusing one more than needed when two count at the same moment is allowed)."""
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(12) as pool:
        answers = list(
            pool.map(lambda _: ask(cluster.url, "POST", "/api/tables", PEOPLE, "127.0.0.52"),
                     range(12))
        )  # fmt: skip
    made = [body["id"] for status, body, _node in answers if status == 201]
    refused = Counter(refusal(body) for status, body, _node in answers if status != 201)
    assert 3 <= len(made) <= 5, (made, refused)
    assert set(refused) <= {"unstarted_tables", "rate_limited"}, refused
    # the refused tables' rows are gone: what counts is what was made
    store = Store(cluster.database)
    try:
        assert store.unstarted_count("127.0.0.52", 0.0) == len(made)
    finally:
        store.close()


def test_a_move_anywhere_frees_a_slot_of_the_unstarted_limit(cluster: LocalCluster) -> None:
    maker = "127.0.0.51"
    made = []
    for _ in range(5):
        status, created, _node = ask(cluster.url, "POST", "/api/tables", PEOPLE, maker)
        assert status == 201, created
        made.append(created)
    status, body, _node = ask(cluster.url, "POST", "/api/tables", PEOPLE, maker)
    assert (status, refusal(body)) == (429, "unstarted_tables")
    # a person moves at one of them, through nginx, at whichever process holds it
    played = play_moves(cluster.url, made[-1]["id"], seat_keys(made[-1]), 1, random.Random(5))
    assert len(played) == 1
    # the holder tells the store after the move's frames are out, off its event loop: on
    # a busy machine the next table may come a moment before that, and is then refused
    made_again = eventually(
        lambda: ask(cluster.url, "POST", "/api/tables", PEOPLE, maker)[0] == 201,
        what="a table made once the move freed a slot",
        pause=lambda _seconds: time.sleep(0.25),  # unhurried: table making has its own rate
    )
    assert made_again


def test_two_processes_given_one_table_never_both_accept_a_move(cluster: LocalCluster) -> None:
    _status, created, _node = ask(cluster.url, "POST", "/api/tables", PEOPLE, "127.0.0.60")
    keys, table_id = seat_keys(created), created["id"]
    first, second = cluster.nodes[0], cluster.nodes[1]
    sockets = {}
    views = {}
    for node in (first, second):  # past nginx: the same table in two processes at once
        port = node.port
        for seat, key in keys.items():
            ws = connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}?seat={seat}&key={key}")
            frame = json.loads(ws.recv(timeout=30))
            sockets[node.name, seat] = ws
            if frame.get("type") == "state" and frame["view"].get("legal_actions"):
                views[node.name] = (seat, frame)
    try:
        barrier = threading.Barrier(len(views))
        answers: dict[str, list[dict[str, Any]]] = {}

        def move(name: str) -> None:
            seat, frame = views[name]
            ws = sockets[name, seat]
            action = frame["view"]["legal_actions"][0]
            barrier.wait()
            ws.send(json.dumps({"type": "action", "action": action, "version": frame["version"]}))
            answers[name] = replies_until_settled(ws)

        threads = [threading.Thread(target=move, args=(name,)) for name in views]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
    finally:
        for ws in sockets.values():
            ws.close()
    assert len(views) == 2  # the seat to move, in each process
    meta = ask(cluster.url, "GET", f"/api/tables/{table_id}")[1]
    accepted = [name for name, said in answers.items() if any(is_moved_on(f) for f in said)]
    # one process took the move; the other refused it, or had let its copy go already
    assert meta["moves"] == 1 and len(accepted) == 1, (meta, answers)
    refused = next(name for name in answers if name not in accepted)
    assert any(frame.get("code") == "moved" for frame in answers[refused]), answers


def replies_until_settled(ws: Any) -> list[dict[str, Any]]:
    """What a socket hears after its move: a state frame past it, or the process letting
    the table go ("moved", then the connection closed)."""
    heard = []
    try:
        while True:
            frame = json.loads(ws.recv(timeout=10))
            heard.append(frame)
            if is_moved_on(frame) or frame.get("code") in ("moved", "stale", "illegal"):
                return heard
    except Exception:  # closed (4409) or quiet: what was heard is the answer
        return heard


def is_moved_on(frame: dict[str, Any]) -> bool:
    return frame.get("type") == "state" and frame["version"] >= 1


def test_a_killed_process_loses_no_move_and_its_tables_come_back(cluster: LocalCluster) -> None:
    _status, created, _node = ask(cluster.url, "POST", "/api/tables", PEOPLE, "127.0.0.70")
    keys, table_id = seat_keys(created), created["id"]
    rng = random.Random(46)
    acknowledged = len(play_moves(cluster.url, table_id, keys, 3, rng))
    first = cluster.node(holder(cluster, table_id))
    first.kill9()
    # its tables go to the next process on the ring: rebuilt from the move log, played on
    acknowledged += len(play_moves(cluster.url, table_id, keys, 3, rng))
    interim = holder(cluster, table_id)
    assert interim != first.name
    first.start()  # back: after nginx's fail_timeout its tables come back to it
    eventually(lambda: holder(cluster, table_id) == first.name, 30, "the table comes back")
    acknowledged += len(play_moves(cluster.url, table_id, keys, 3, rng))
    _status, meta, node = ask(cluster.url, "GET", f"/api/tables/{table_id}")
    assert node == first.name
    assert meta["moves"] == acknowledged  # nothing acknowledged lost, nothing doubled
    record = ask(cluster.url, "GET", f"/api/tables/{table_id}/replay")
    assert record[0] in (200, 409)  # the game may still be on: its replay waits


def test_every_answer_names_its_process_and_the_file_is_the_documented_one(
    cluster: LocalCluster,
) -> None:
    names = {
        ask(cluster.url, "GET", "/api/health", source=f"127.0.0.{80 + n}")[2] for n in range(9)
    }
    assert names <= {node.name for node in cluster.nodes} and len(names) >= 2
    config = Path(__file__).resolve().parent.parent / "src/cardtable/docs/deploy/nginx-cluster.conf"
    assert "hash $cardtable_table consistent;" in config.read_text()


def test_a_link_made_at_one_process_is_taken_at_another(cluster: LocalCluster) -> None:
    _status, created, _node = ask(cluster.url, "POST", "/api/tables", PEOPLE, "127.0.0.90")
    seats = [{"table": created["id"], "seat": created["seat"], "key": created["key"]}]
    status, link, maker = ask(cluster.url, "POST", "/api/transfers", {"seats": seats}, "127.0.0.90")
    assert status == 201, link
    other = next(node for node in cluster.nodes if node.name != maker)
    taken = ask(other.url, "POST", "/api/transfers/take", {"token": link["token"]})
    assert taken[0] == 200 and taken[1]["seats"] == seats
    again = ask(cluster.url, "POST", "/api/transfers/take", {"token": link["token"]})
    assert again[0] == 404  # once, in the whole cluster


def test_a_page_plays_on_when_its_process_is_killed(
    cluster: LocalCluster, browser: Browser
) -> None:
    """Through nginx in Chromium: a game against a bot; its process killed mid-game; the
    page says it reconnects, finds the table at the next process and plays on."""
    page = new_page(browser, locale="pl-PL", width=1366, height=800)
    table_id = create_table(page, cluster.url, "koi-koi", ["human", "bot:random"], {})

    def moves() -> int:
        return int(ask(cluster.url, "GET", f"/api/tables/{table_id}")[1]["moves"])

    def my_move() -> bool:
        return hanafuda_move(page) or bool(page.wait_for_timeout(100))

    def stored(count: int) -> bool:
        """Plays on (a click can land mid-animation and choose nothing) until ``count``
        moves are stored."""
        my_move()
        return moves() >= count

    eventually(
        lambda: stored(2), 60, "a move and the bot's answer are stored", pause=page_pause(page)
    )
    before = moves()
    killed = cluster.node(holder(cluster, table_id))
    killed.kill9()
    try:
        expect(page.locator("#banner")).to_contain_text("łączę ponownie", timeout=15_000)
        shot(page, "cluster-reconnecting-pl-1366")
        banner = page.locator("#banner")
        expect(banner).not_to_contain_text("łączę ponownie", timeout=30_000)  # back

        eventually(
            lambda: stored(before + 2),
            90,
            "the game goes on at the next process",
            pause=page_pause(page),
        )
        shot(page, "cluster-played-on-pl-1366")
        assert holder(cluster, table_id) != killed.name
        assert not page.errors  # type: ignore[attr-defined]
    finally:
        killed.start()  # the other tests of this cluster find all three processes


def test_ctrl_c_stops_the_whole_local_cluster() -> None:
    """``cardtable cluster`` (what ``make cluster`` runs): up on its address, and after
    Ctrl-C nothing of it is left listening (nginx, the processes, PostgreSQL)."""
    port = free_port()
    command = [
        sys.executable,
        "-m",
        "cardtable",
        "cluster",
        "--processes",
        "2",
        "--port",
        str(port),
    ]
    started = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert started.stdout is not None
        said = ""
        while "Ctrl-C" not in said:
            line = started.stdout.readline()
            assert line, f"the cluster ended before it started: {said}"
            said += line
        said = " ".join(said.split())
        ports = [port, *map(int, re.findall(r"on :(\d+)", said))]
        ports.append(int(re.search(r"127\.0\.0\.1:(\d+)/cardtable", said).group(1)))  # type: ignore[union-attr]
        assert len(ports) == 4, said
        assert ask(f"http://127.0.0.1:{port}", "GET", "/api/health")[0] == 200
        started.send_signal(signal.SIGINT)
        assert started.wait(60) == 0
    finally:
        if started.poll() is None:
            started.kill()
    for listening in ports:
        with socket.socket() as probe:
            assert probe.connect_ex(("127.0.0.1", listening)) != 0, f"port {listening} still open"


def test_quick_match_pairs_across_the_processes(cluster: LocalCluster) -> None:
    """Issue 47: the queue lives in the store. Six people press "Play now" at once, each
    at another process, and meet two by two: every ticket at exactly one table, of two."""
    tickets: dict[int, str] = {}

    def play_now(n: int) -> None:
        node = cluster.nodes[n % len(cluster.nodes)]
        body = {"game": "koi-koi", "rated": True, "player": f"{n:02d}" * 16}
        status, made, _node = ask(node.url, "POST", "/api/match", body, f"127.0.0.{60 + n}")
        assert status == 202, made
        tickets[n] = made["ticket"]

    people = [threading.Thread(target=play_now, args=(n,)) for n in range(6)]
    for person in people:
        person.start()
    for person in people:
        person.join(30)

    def seated(n: int) -> dict[str, Any] | None:
        node = cluster.nodes[(n + 1) % len(cluster.nodes)]  # asked at another process
        status, seen, _node = ask(node.url, "GET", f"/api/match/{tickets[n]}")
        assert status == 200, seen
        return seen if seen["status"] == "matched" else None

    matched = {n: eventually(lambda n=n: seated(n), 20, f"ticket {n} matched") for n in tickets}
    tables = Counter(seen["table"] for seen in matched.values())
    assert sorted(tables.values()) == [2, 2, 2], tables
    for table_id in tables:
        seats = {seen["seat"] for seen in matched.values() if seen["table"] == table_id}
        assert seats == {0, 1}
        status, meta, _node = ask(cluster.url, "GET", f"/api/tables/{table_id}")
        assert status == 200 and meta["waiting"] == []


def test_your_turn_at_any_process_leaves_the_table_where_it_is(cluster: LocalCluster) -> None:
    """Issue 47: a lobby's "Your turn" may be asked at any process; each says whose turn it
    is at a day-clock table, and none takes the table from the process that holds it."""
    body = {**PEOPLE, "public": False, "move_seconds": 86_400}
    status, created, _node = ask(cluster.url, "POST", "/api/tables", body, "127.0.0.70")
    assert status == 201, created
    table_id, keys = created["id"], seat_keys(created)
    to_move = mover(cluster.url, table_id, keys)
    store = Store(cluster.database)
    held_by = store.holders([table_id])  # the process that holds it, as the store says
    assert held_by, "the table is held"
    seats = [{"table": table_id, "seat": n, "key": k} for n, k in keys.items()]
    for node in cluster.nodes:
        status, answer, _node = ask(node.url, "POST", "/api/turns", {"seats": seats})
        assert status == 200, answer
        turns = {turn["seat"]: turn["your_turn"] for turn in answer["turns"]}
        assert turns == {to_move: True, 1 - to_move: False}, (node.name, turns)
    assert store.holders([table_id]) == held_by  # nobody took it on the way
    store.close()


def test_postgresql_programs_can_be_named_where_debian_has_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A machine with no Debian packages (the lent benchmark machine) names PostgreSQL's
    programs by CARDTABLE_POSTGRES_BIN: those are started, and a folder without them is
    refused by name."""
    from cardtable.server.local_cluster import ClusterError, scratch_postgres

    # a folder the postgres user may walk into (pytest's own are the owner's alone)
    folder = Path(tempfile.mkdtemp(prefix="cardtable-pg-bin-"))
    folder.chmod(0o755)
    try:
        named = folder / "bin"
        named.mkdir()
        monkeypatch.setenv("CARDTABLE_POSTGRES_BIN", str(named))
        with pytest.raises(ClusterError, match="CARDTABLE_POSTGRES_BIN"):
            postgres_bin()
        for program in postgres_bin_of_debian().iterdir():
            (named / program.name).symlink_to(program)
        assert postgres_bin() == named
        scratch = folder / "scratch"
        scratch.mkdir()
        with scratch_postgres(scratch) as url:
            store = Store(url)
            try:
                assert store.count("playing") == 0  # a live server, from the named folder
            finally:
                store.close()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def postgres_bin_of_debian() -> Path:
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: p.parts)
    assert found, "make test installs Debian's postgresql"
    return found[-1].parent


def test_rows_of_ended_or_old_tables_stop_counting_and_are_dropped(tmp_path: Path) -> None:
    """A row a process never dropped (it died, or its drop failed) is not counted once it
    is older than the limit's window, and the cluster's tidying drops it, as it drops the
    rows of tables that ended or were abandoned."""
    from .test_group_commit import store_with_tables

    store = store_with_tables(tmp_path / "t.db", ["old", "ended", "open"])
    try:
        for table_id in ("old", "ended", "open"):
            store.add_unstarted(table_id, "1.2.3.4")
        store.set_fields("ended", status="finished")
        assert store.unstarted_count("1.2.3.4", 0.0) == 3
        window = time.time() + 1.0  # every row is older than this
        assert store.unstarted_count("1.2.3.4", window) == 0
        store.forget_unstarted(0.0)  # none too old: the ended table's row goes alone
        assert store.unstarted_count("1.2.3.4", 0.0) == 2
        store.forget_unstarted(window)
        assert store.unstarted_count("1.2.3.4", 0.0) == 0
    finally:
        store.close()


def test_only_the_holder_writes_a_tables_seats(tmp_path: Path) -> None:
    """Two processes may hold copies of one table for a moment (nginx sends its sockets to
    the next process while one comes back): the copy another process took over never writes
    its older seats over the holder's; a table nobody is named for is written as before."""
    from .test_group_commit import store_with_tables

    store = store_with_tables(tmp_path / "t.db", ["held", "unheld"])
    try:
        store.hold("held", "n1")
        store.hold("held", "n2")  # the last to take it holds it
        older, newer = [{"claimed": False}], [{"claimed": True}]
        assert store.set_seats("held", newer, "n2")
        assert not store.set_seats("held", older, "n1")
        assert store.table("held").seats == newer  # type: ignore[union-attr]
        assert store.set_seats("unheld", newer, "n1")
        assert store.set_seats("held", older)  # one process on its own: no holders
        assert store.table("held").seats == older  # type: ignore[union-attr]
    finally:
        store.close()


def test_a_copy_another_process_took_refuses_a_seat_and_goes(tmp_path: Path) -> None:
    """A process asked to seat someone at a table that another process took over (the
    store names that one) writes nothing: 409 "moved" (asked again, through nginx, the
    holder answers), and its copy goes."""
    from dataclasses import replace

    from fastapi.testclient import TestClient

    from cardtable.server.app import create_app

    from .server_helpers import FAST

    app = create_app(f"sqlite:///{tmp_path / 'moved.db'}", replace(FAST, node="n1"))
    with TestClient(app) as client:
        body = {"game": "koi-koi", "seats": ["human", "human"], "public": True}
        table_id = client.post("/api/tables", json=body).json()["id"]
        assert client.get(f"/api/tables/{table_id}").status_code == 200  # n1 holds it
        hub = app.state.hub
        seats_before = hub.store.table(table_id).seats
        hub.store.hold(table_id, "n2")  # another process took it since
        answer = client.post(f"/api/tables/{table_id}/claim", json={})
        assert answer.status_code == 409 and answer.json()["detail"]["code"] == "moved"
        eventually(lambda: table_id not in hub.tables, 10, "the copy goes")
        assert hub.store.table(table_id).seats == seats_before  # no key written
