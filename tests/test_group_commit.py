"""Group commit (issue 38): the moves of one turn of the event loop, from every table, are
written in one transaction; each is still committed before its table goes on, a taken
number fails only its own move, a refusing database fails them all, and a table being
stopped still applies a move whose write went through."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError

from cardtable.server.store import StorageUnavailable, Store, TableRow
from cardtable.server.tables import durable

from .test_server_restart import postgres  # noqa: F401  (the fixture)


def store_with_tables(url: str | Path, ids: list[str]) -> Store:
    store = Store(url if isinstance(url, str) else f"sqlite:///{url}")
    for table_id in ids:
        store.add_table(
            TableRow(
                id=table_id,
                game="koi-koi",
                preset=None,
                options={},
                seats=[],
                seed=1,
                salt="s",
                commitment="c",
                public=False,
                move_seconds=0,
                status="playing",
                created_at=time.time(),
            )
        )
    return store


def commits(store: Store) -> list[int]:
    """A count of the transactions the store commits from now on, through SQLAlchemy or
    straight through the driver (the moves' hot path)."""
    counted = [0]

    def count(_connection: Any) -> None:
        counted[0] += 1

    event.listen(store.engine, "commit", count)
    straight = store.engine.raw_connection

    class Counted:
        def __init__(self, connection: Any) -> None:
            self.connection = connection

        def __getattr__(self, name: str) -> Any:
            return getattr(self.connection, name)

        def commit(self) -> None:
            self.connection.commit()
            counted[0] += 1

    store.engine.raw_connection = lambda: Counted(straight())  # type: ignore[method-assign]
    return counted


def test_moves_of_many_tables_share_one_commit(tmp_path: Path) -> None:
    store = store_with_tables(tmp_path / "g.db", ["a", "b", "c"])
    counted = commits(store)

    async def play() -> list[float]:
        writes = [store.append_move(t, 0, 0, {"type": "x", "n": t}) for t in "abc"]
        return list(await asyncio.gather(*writes))

    times = asyncio.run(play())
    assert counted[0] == 1
    assert all(at > 0 for at in times)
    for t in "abc":
        assert [m.action for m in store.moves(t)] == [{"type": "x", "n": t}]
    store.close()


def test_a_taken_number_fails_only_its_own_move(tmp_path: Path) -> None:
    taken_number_fails_alone(store_with_tables(tmp_path / "g.db", ["a", "b"]))


@pytest.mark.slow  # a PostgreSQL cluster
def test_group_commit_on_postgresql(postgres: str) -> None:  # noqa: F811
    """PostgreSQL aborts a whole transaction on a taken number: the rest still stand."""
    store = store_with_tables(postgres, ["a", "b", "c"])
    counted = commits(store)

    async def play() -> list[float]:
        return list(await asyncio.gather(*(store.append_move(t, 0, 0, {"t": t}) for t in "abc")))

    assert len(asyncio.run(play())) == 3 and counted[0] == 1
    assert [m.action for m in store.moves("c")] == [{"t": "c"}]
    taken_number_fails_alone(store, first=1)


def taken_number_fails_alone(store: Store, first: int = 0) -> None:

    async def play() -> list[float | BaseException]:
        await store.append_move("a", first, 0, {"first": True})
        writes = [
            store.append_move("a", first, 1, {"second": True}),
            store.append_move("b", first, 0, {}),
        ]
        return list(await asyncio.gather(*writes, return_exceptions=True))

    taken, other = asyncio.run(play())
    assert isinstance(taken, IntegrityError)
    assert isinstance(other, float)
    assert [m.action for m in store.moves("a")][first:] == [{"first": True}]
    assert len(store.moves("b")) == first + 1
    store.close()


def test_a_refusing_database_fails_every_move_of_the_turn(tmp_path: Path) -> None:
    store = store_with_tables(tmp_path / "g.db", ["a", "b"])
    refusing = [True]

    def read_only(connection: Any, _record: Any, _proxy: Any) -> None:
        cursor = connection.cursor()
        cursor.execute(f"PRAGMA query_only = {int(refusing[0])}")
        cursor.close()

    event.listen(store.engine, "checkout", read_only)

    async def play() -> list[float | BaseException]:
        writes = [store.append_move(t, 0, 0, {}) for t in "ab"]
        return list(await asyncio.gather(*writes, return_exceptions=True))

    first, second = asyncio.run(play())
    assert isinstance(first, StorageUnavailable) and isinstance(second, StorageUnavailable)
    assert first is not second
    assert not store.health.ok
    refusing[0] = False
    assert all(isinstance(at, float) for at in asyncio.run(play()))  # and it heals
    assert store.health.ok
    store.close()


def test_a_cancelled_wait_still_gets_the_write() -> None:
    async def play() -> tuple[float, bool]:
        written: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        waiting = asyncio.create_task(durable(written))
        await asyncio.sleep(0)
        waiting.cancel()  # the table is being stopped while its move is written
        await asyncio.sleep(0)
        written.set_result(12.5)
        return await waiting

    assert asyncio.run(play()) == (12.5, True)


def test_a_cancelled_write_is_not_waited_for() -> None:
    async def play() -> None:
        written: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        waiting = asyncio.create_task(durable(written))
        await asyncio.sleep(0)
        written.cancel()
        await waiting

    with pytest.raises(asyncio.CancelledError):
        asyncio.run(play())


def test_a_kept_connection_closed_underneath_costs_no_move(tmp_path: Path) -> None:
    """The moves' connection is kept between turns; when the database closes it meanwhile
    (a restart, an idle timeout), the next turn's moves are written on a fresh one, as the
    pool's check before each checkout would have done, and nobody is told of a failure."""
    store = store_with_tables(tmp_path / "g.db", ["a"])

    async def write(number: int) -> float:
        return await store.append_move("a", number, 0, {"type": "x", "n": number})

    asyncio.run(write(0))
    kept = store.move_writer.connection
    assert kept is not None
    kept.dbapi_connection.close()  # gone under the server's feet
    assert asyncio.run(write(1)) > 0
    assert [m.action["n"] for m in store.moves("a")] == [0, 1]
    assert store.health.ok
    store.close()
