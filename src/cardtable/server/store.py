"""Persistence: every table is its options, seed and an append-only move log.

A move is committed to the database before any client hears of it, so a crash (even
``kill -9``) loses nothing that was acknowledged (the moves of one turn of the event
loop, from every table, share one transaction: :meth:`Store.append_move`); on start the
server replays each unfinished table's log to rebuild it exactly. SQLite (the embedded
default, in WAL mode) and PostgreSQL run the same code through SQLAlchemy 2.

When the database cannot be reached or written (a full disk, a read-only file, a server
gone), every call raises :class:`StorageUnavailable` instead of the driver's error, and
:attr:`Store.health` says so until a call succeeds again: nothing is half-saved, because a
move is applied only after its write returned.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import errno
import logging
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import wraps
from operator import itemgetter
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

import orjson
from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    String,
    create_engine,
    delete,
    event,
    exists,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import (
    DBAPIError,
    IntegrityError,
    InterfaceError,
    OperationalError,
    ProgrammingError,
    StatementError,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from cardtable.core.errors import CardtableError

log = logging.getLogger("cardtable.server")
P = ParamSpec("P")
R = TypeVar("R")


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    """One table: what is played, by whom, from which committed seed."""

    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    preset: Mapped[str | None] = mapped_column(String(40), nullable=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    seats: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    salt: Mapped[str] = mapped_column(String(64))
    commitment: Mapped[str] = mapped_column(String(64))
    public: Mapped[bool] = mapped_column(Boolean, default=True)
    move_seconds: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[str] = mapped_column(String(16), default="playing", index=True)
    created_at: Mapped[float] = mapped_column(Float)
    finished_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class MoveRow(Base):
    """One accepted move; ``number`` counts from 0 with no gaps."""

    __tablename__ = "moves"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)


class SecretRow(Base):
    """A server's own secret (its record-signing key), kept with its games so that every
    process and restart on one database signs with the same key."""

    __tablename__ = "secrets"

    name: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class CompanionRow(Base):
    """A score pad or round calculator for a game played with a physical deck."""

    __tablename__ = "companion"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(24))
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)


class HolderRow(Base):
    """Which process of a cluster holds each table live: the last one that took it (a
    process that finds another named here lets its copy go)."""

    __tablename__ = "holders"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    node: Mapped[str] = mapped_column(String(40))
    since: Mapped[float] = mapped_column(Float)


class LobbyRow(Base):
    """One open table as the lobby of the process holding it lists it; each process of a
    cluster writes its own rows, and every process reads them all."""

    __tablename__ = "lobby"

    node: Mapped[str] = mapped_column(String(40), primary_key=True)
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    listed_at: Mapped[float] = mapped_column(Float, index=True)
    entry: Mapped[dict[str, Any]] = mapped_column(JSON)


class BucketRow(Base):
    """A per-address token bucket that every process of a cluster spends from."""

    __tablename__ = "buckets"

    key: Mapped[str] = mapped_column(String(120), primary_key=True)
    tokens: Mapped[float] = mapped_column(Float)
    stamp: Mapped[float] = mapped_column(Float, index=True)


class UnstartedRow(Base):
    """A table made by an address where no person has moved yet, while a cluster's
    processes share the count (the process that made it, and the one holding it, differ)."""

    __tablename__ = "unstarted"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    creator: Mapped[str] = mapped_column(String(64), index=True)
    made_at: Mapped[float] = mapped_column(Float)


class TransferRow(Base):
    """A "continue on another device" link waiting to be taken (server/transfers.py), by
    the SHA-256 of its token."""

    __tablename__ = "transfers"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    address: Mapped[str] = mapped_column(String(64))
    expiry: Mapped[float] = mapped_column(Float)
    made: Mapped[float] = mapped_column(Float, index=True)
    size: Mapped[int] = mapped_column(Integer)
    packed: Mapped[bytes] = mapped_column(LargeBinary)


@dataclass(frozen=True)
class StoredMove:
    seat: int
    action: dict[str, Any]
    at: float


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL + NORMAL: a committed transaction survives a killed process (not a power cut),
    # and readers never block the writer.
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def make_engine(url: str) -> Engine:
    """An engine for ``sqlite:///path.db`` or ``postgresql+psycopg://…``."""
    if url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url.removeprefix("postgresql://")
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
    else:
        engine = create_engine(url, pool_pre_ping=True)
    try:
        Base.metadata.create_all(engine)
    except (ProgrammingError, IntegrityError):
        # the processes of a cluster started together after an upgrade each made the new
        # tables: the one that lost finds them made now
        Base.metadata.create_all(engine)
    return engine


class MoveWriter:
    """The hot path's one statement, the insert of a turn's moves, sent straight through the
    database driver: the statement is compiled once for the dialect, and each move's action
    encoded by orjson. Through SQLAlchemy's Core the same insert cost about four times the
    CPU (its execution context, and the JSON type's standard-library encoder), and every
    action of every table pays it. The driver's errors come out as SQLAlchemy's (a
    duplicate move number is an :class:`IntegrityError` on every database)."""

    COLUMNS = ("table_id", "number", "seat", "action", "at")

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        compiled = insert(MoveRow).compile(dialect=engine.dialect, column_keys=list(self.COLUMNS))
        self.sql = str(compiled)
        #: qmark drivers (sqlite3) take each row as a tuple in the statement's order,
        #: named-parameter ones (psycopg) as the dict itself
        order = tuple(compiled.positiontup or ()) if engine.dialect.positional else None
        self.pick: Callable[[dict[str, Any]], tuple[Any, ...]] | None = (
            None if order is None else itemgetter(*order)
        )
        self.driver_error: type[Exception] = engine.dialect.loaded_dbapi.Error
        self.taken_row: type[Exception] = engine.dialect.loaded_dbapi.IntegrityError
        #: the connection the moves are written on, kept between turns (the pool's checkout
        #: and return cost as much as the insert); dropped on any error, so the next turn
        #: opens a fresh one (a database back after a restart, a file writable again)
        self.connection: Any = None

    def insert(self, rows: list[dict[str, Any]]) -> None:
        params: list[Any] = []
        pick = self.pick
        for row in rows:
            encoded = {**row, "action": orjson.dumps(row["action"]).decode()}
            params.append(encoded if pick is None else pick(encoded))
        kept = self.connection is not None
        try:
            self._write(params)
        except self.driver_error as error:
            if not kept or isinstance(error, self.taken_row):
                raise self._said(params, error) from error
            # the kept connection may have been closed meanwhile (a database restarted, an
            # idle timeout): nothing was committed, so once more on a fresh one, as the
            # pool's check before each checkout would have done
            try:
                self._write(params)
            except self.driver_error as again:
                raise self._said(params, again) from again

    def _write(self, params: list[Any]) -> None:
        if self.connection is None:
            self.connection = self.engine.raw_connection()
        connection = self.connection
        try:
            cursor = connection.cursor()
            try:
                cursor.executemany(self.sql, params)
            finally:
                cursor.close()
            connection.commit()
        except self.driver_error as error:
            with contextlib.suppress(self.driver_error):  # a connection already broken
                connection.rollback()
            if not isinstance(error, self.taken_row):
                self.drop()  # a taken number is the row's fault, not the connection's
            raise

    def _said(self, params: list[Any], error: Exception) -> StatementError:
        """The driver's error as SQLAlchemy's (IntegrityError for a taken number)."""
        return DBAPIError.instance(
            self.sql, params, error, self.driver_error, dialect=self.engine.dialect
        )

    def drop(self) -> None:
        """Let the kept connection go (the pool discards it)."""
        connection, self.connection = self.connection, None
        if connection is not None:
            connection.invalidate()

    def close(self) -> None:
        """Give the kept connection back, to be closed with the pool's."""
        connection, self.connection = self.connection, None
        if connection is not None:
            connection.close()


class UnwritableFiles(OSError):
    """A database file exists but this process may not write it."""


class StorageUnavailable(CardtableError):
    """The database refused a read or a write; nothing of the request was saved."""

    code = "storage_unavailable"


@dataclass
class StorageHealth:
    """Whether the last call to the database worked, and since when it has not."""

    ok: bool = True
    since: float | None = None
    problem: str = ""

    def failed(self, error: BaseException) -> None:
        if self.ok:
            log.error("storage unavailable: %s", _first_line(error))
            self.ok, self.since = False, time.time()
        self.problem = _first_line(error)

    def worked(self) -> None:
        if not self.ok:
            log.warning("storage is back after %.0f s", time.time() - (self.since or 0))
            self.ok, self.since, self.problem = True, None, ""

    def to_json(self) -> dict[str, Any]:
        return {"ok": self.ok, "since": self.since, "problem": self.problem}


def _first_line(error: BaseException) -> str:
    text = str(getattr(error, "orig", None) or error)
    return text.splitlines()[0][:200] if text else type(error).__name__


def _guarded(method: Callable[P, R], *, writes: bool) -> Callable[P, R]:
    """A store call whose database errors become StorageUnavailable and mark the health;
    only a write that worked marks it healthy again (reads work on a read-only file)."""

    @wraps(method)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        store = args[0]
        assert isinstance(store, Store)
        try:
            if writes or store.mapped_for_writing:
                store.check_files()
            result = method(*args, **kwargs)
        except (OperationalError, InterfaceError, OSError) as error:  # not a refused row
            store.health.failed(error)
            # the pooled connections may hold the file as it was (SQLite opens a read-only
            # file read-only for good): the next try opens fresh ones. Not when the files
            # were found unwritable before SQLite touched them: closing the last connection
            # checkpoints into them, which is the very write that must not happen now
            if not isinstance(error, UnwritableFiles):
                store.engine.dispose()
            raise StorageUnavailable(
                "storage unavailable: nothing was saved, try again in a moment"
            ) from None
        if writes:
            store.health.worked()
            store.mapped_for_writing = bool(store.files)
        return result

    return call


def _settle(
    written: asyncio.Future[float], at: float = 0.0, error: Exception | None = None
) -> None:
    if written.done():  # given up by a loop that is closing
        return
    if error is not None:
        written.set_exception(error)
    else:
        written.set_result(at)


def _again_if_raced(work: Callable[[], R]) -> R:
    """``work``, once more if another process added the same new row first (the second
    try finds it)."""
    try:
        return work()
    except IntegrityError:
        return work()


def reads(method: Callable[P, R]) -> Callable[P, R]:
    return _guarded(method, writes=False)


def writes(method: Callable[P, R]) -> Callable[P, R]:
    return _guarded(method, writes=True)


class Store:
    """The server's only way to the database."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        self.move_writer = MoveWriter(self.engine)
        self.health = StorageHealth()
        #: moves asked for in this turn of the event loop, written together on the next
        self._pending: list[tuple[dict[str, Any], asyncio.Future[float]]] = []
        database = (
            self.engine.url.database if self.engine.url.get_backend_name() == "sqlite" else None
        )
        #: an SQLite database's files: the -shm one is memory-mapped by SQLite, and a write
        #: after it stopped being writable (made immutable, say) ends the process with SIGBUS,
        #: so each write first checks that all of them still are
        self.files = (
            [Path(database + suffix) for suffix in ("", "-wal", "-shm")]
            if database and database != ":memory:"
            else []
        )
        #: whether SQLite may hold the -shm file mapped for writing: it does once the files
        #: were writable while this process used them, and then a read through that map (a
        #: reader marks it too) also ends the process if the file became unwritable, so
        #: every call checks the files; files read-only from the start are mapped read-only
        self.mapped_for_writing = bool(self.files) and self._writable_now()

    def _writable_now(self) -> bool:
        try:
            self.check_files()
        except UnwritableFiles:
            return False
        return True

    def check_files(self) -> None:
        """Raise OSError when one of the database's files exists but cannot be written."""
        for file in self.files:
            if not os.access(file, os.W_OK) and file.exists():
                raise UnwritableFiles(errno.EACCES, f"{file.name} is readonly for this process")

    @contextmanager
    def session(self) -> Iterator[Session]:
        with Session(self.engine, expire_on_commit=False) as session, session.begin():
            yield session

    @writes
    def add_table(self, row: TableRow) -> None:
        with self.session() as session:
            session.add(row)

    @reads
    def table(self, table_id: str) -> TableRow | None:
        with self.session() as session:
            return session.get(TableRow, table_id)

    @reads
    def moves(self, table_id: str) -> list[StoredMove]:
        with self.session() as session:
            rows = session.scalars(
                select(MoveRow).where(MoveRow.table_id == table_id).order_by(MoveRow.number)
            )
            return [StoredMove(r.seat, dict(r.action), r.at) for r in rows]

    def append_move(
        self, table_id: str, number: int, seat: int, action: dict[str, Any]
    ) -> asyncio.Future[float]:
        """Have one move written durably: the future gives its time once it is committed,
        or the error (a duplicate number: IntegrityError; a database that refuses:
        StorageUnavailable). Group commit: the moves every table asks for in one turn of
        the event loop are written in one transaction, on the loop's next turn, so a busy
        server pays one commit for many moves, and still tells nobody of a move before it
        is on disk."""
        loop = asyncio.get_running_loop()
        written: asyncio.Future[float] = loop.create_future()
        if not self._pending:
            loop.call_soon(self._write_pending)
        row = {"table_id": table_id, "number": number, "seat": seat, "action": action}
        self._pending.append(({**row, "at": time.time()}, written))
        return written

    def _write_pending(self) -> None:
        batch, self._pending = self._pending, []
        try:
            self._insert_moves([row for row, _ in batch])
        except IntegrityError:  # one of them was taken: each on its own, so the rest stand
            for row, written in batch:
                try:
                    self._insert_moves([row])
                except Exception as error:
                    _settle(written, error=error)
                else:
                    _settle(written, row["at"])
        except Exception as error:  # StorageUnavailable: none of them was saved
            for _, written in batch:
                _settle(written, error=copy.copy(error))
        else:
            for row, written in batch:
                _settle(written, row["at"])

    @writes
    def _insert_moves(self, rows: list[dict[str, Any]]) -> None:
        self.move_writer.insert(rows)

    @writes
    def set_fields(self, table_id: str, **fields: Any) -> None:
        with self.session() as session:
            session.execute(update(TableRow).where(TableRow.id == table_id).values(**fields))

    @writes
    def set_seats(self, table_id: str, seats: list[dict[str, Any]], node: str = "") -> bool:
        """The table's seats, written by ``node`` (a cluster's process) only while it holds
        the table: a copy another process took over (the two reached at once, for a moment)
        never writes its older seats over the holder's. False where it was not written."""
        query = update(TableRow).where(TableRow.id == table_id)
        if node:
            holder = select(HolderRow.node).where(HolderRow.table_id == table_id)
            # no holder row (its write failed while the store was away): written as before
            query = query.where(func.coalesce(holder.scalar_subquery(), node) == node)
        with self.session() as session:
            return bool(session.execute(query.values(seats=seats)).rowcount)  # type: ignore[attr-defined]

    @reads
    def unfinished(self) -> list[TableRow]:
        """Tables being played (not finished, not abandoned)."""
        with self.session() as session:
            return list(session.scalars(select(TableRow).where(TableRow.status == "playing")))

    @reads
    def count(self, status: str) -> int:
        with self.session() as session:
            query = select(func.count()).select_from(TableRow).where(TableRow.status == status)
            return int(session.scalar(query) or 0)

    @writes
    def probe(self) -> None:
        """Does the database take writes now? A row about the size of a few moves is
        written and rolled back, so a full disk is found as well as a read-only file."""
        with self.engine.connect() as connection, connection.begin() as transaction:
            row = {
                "id": "~probe", "game": "", "options": {"probe": "x" * 8192}, "seats": [],
                "seed": 0, "salt": "", "commitment": "", "created_at": time.time(),
            }  # fmt: skip
            connection.execute(insert(TableRow), row)
            transaction.rollback()

    @reads
    def recent(self, limit: int, statuses: Sequence[str]) -> list[TableRow]:
        with self.session() as session:
            query = (
                select(TableRow)
                .where(TableRow.status.in_(list(statuses)))
                .order_by(TableRow.created_at.desc())
                .limit(limit)
            )
            return list(session.scalars(query))

    @writes
    def add_companion(self, row: CompanionRow) -> None:
        with self.session() as session:
            session.add(row)

    @reads
    def companion(self, pad_id: str) -> CompanionRow | None:
        with self.session() as session:
            return session.get(CompanionRow, pad_id)

    @writes
    def save_companion(self, pad_id: str, data: dict[str, Any]) -> None:
        with self.session() as session:
            session.execute(
                update(CompanionRow)
                .where(CompanionRow.id == pad_id)
                .values(data=data, updated_at=time.time())
            )

    @reads
    def kept_secret(self, name: str) -> str | None:
        with self.session() as session:
            row = session.get(SecretRow, name)
            return None if row is None else row.value

    def secret(self, name: str, make: Callable[[], str]) -> str:
        """The secret ``name``, made by ``make`` and kept the first time it is asked for
        (two processes asking at once keep the first one written): read, and written only
        when missing, so a read-only store still gives a secret it has."""
        kept = self.kept_secret(name)
        return kept if kept is not None else self._keep_secret(name, make)

    @writes
    def _keep_secret(self, name: str, make: Callable[[], str]) -> str:
        try:
            with self.session() as session:
                session.add(SecretRow(name=name, value=make()))
        except IntegrityError:
            pass  # another process wrote it first: that one counts
        with self.session() as session:
            kept = session.get(SecretRow, name)
            assert kept is not None
            return kept.value

    # -- what the processes of a cluster share (server/cluster.py) ----------------------------
    @writes
    def hold(self, table_id: str, node: str) -> None:
        """``node`` holds ``table_id`` live from now on."""

        def take() -> None:
            with self.session() as session:
                held = session.get(HolderRow, table_id, with_for_update=True)
                if held is None:
                    session.add(HolderRow(table_id=table_id, node=node, since=time.time()))
                else:
                    held.node, held.since = node, time.time()

        _again_if_raced(take)

    @reads
    def holders(self, table_ids: Sequence[str]) -> dict[str, str]:
        """The node holding each of ``table_ids`` (those that have one)."""
        with self.session() as session:
            rows = session.execute(
                select(HolderRow.table_id, HolderRow.node).where(HolderRow.table_id.in_(table_ids))
            )
            return {table_id: node for table_id, node in rows}

    @writes
    def publish_lobby(self, node: str, entries: dict[str, dict[str, Any]]) -> None:
        """``node``'s open tables, in place of what it listed before."""
        now = time.time()
        with self.session() as session:
            session.execute(delete(LobbyRow).where(LobbyRow.node == node))
            session.add_all(
                LobbyRow(node=node, table_id=table_id, listed_at=now, entry=entry)
                for table_id, entry in entries.items()
            )

    @reads
    def lobby_since(self, since: float) -> list[tuple[str, dict[str, Any]]]:
        """Every process's listed tables written after ``since`` (a process that stopped
        writing has died: its rows age out): (node, entry)."""
        with self.session() as session:
            rows = session.execute(
                select(LobbyRow.node, LobbyRow.entry).where(LobbyRow.listed_at > since)
            )
            return [(node, dict(entry)) for node, entry in rows]

    @writes
    def spend(self, key: str, per_second: float, burst: float, take: bool = True) -> bool:
        """A shared token bucket: whether ``key`` has a token (``take``: and take it)."""

        def spent() -> bool:
            now = time.time()
            with self.session() as session:
                row = session.get(BucketRow, key, with_for_update=True)
                if row is None:
                    row = BucketRow(key=key, tokens=burst, stamp=now)
                    session.add(row)
                tokens = min(burst, row.tokens + max(0.0, now - row.stamp) * per_second)
                allowed = tokens >= 1
                row.tokens, row.stamp = (tokens - 1 if allowed and take else tokens), now
            return allowed

        return _again_if_raced(spent)

    @writes
    def add_unstarted(self, table_id: str, creator: str) -> None:
        with self.session() as session:
            session.add(UnstartedRow(table_id=table_id, creator=creator, made_at=time.time()))

    @writes
    def drop_unstarted(self, table_id: str) -> None:
        """A person moved at ``table_id``, or it ended or was abandoned."""
        with self.session() as session:
            session.execute(delete(UnstartedRow).where(UnstartedRow.table_id == table_id))

    @reads
    def unstarted_count(self, creator: str, since: float) -> int:
        """Tables ``creator`` made after ``since`` where no person has moved yet (rows a
        process that died never dropped age out with ``since``)."""
        with self.session() as session:
            counted = session.scalar(
                select(func.count())
                .select_from(UnstartedRow)
                .where(UnstartedRow.creator == creator, UnstartedRow.made_at > since)
            )
            return int(counted or 0)

    @reads
    def transfers_waiting(self) -> list[tuple[str, str, int, float]]:
        """Every waiting link, oldest first: (key, address, size, expiry), not its bytes."""
        with self.session() as session:
            rows = session.execute(
                select(
                    TransferRow.key, TransferRow.address, TransferRow.size, TransferRow.expiry
                ).order_by(TransferRow.made)
            )
            return [(key, address, size, expiry) for key, address, size, expiry in rows]

    @writes
    def add_transfer(self, key: str, address: str, expiry: float, packed: bytes) -> None:
        with self.session() as session:
            session.add(TransferRow(key=key, address=address, expiry=expiry, made=time.time(),
                                    size=len(packed), packed=packed))  # fmt: skip

    @writes
    def drop_transfers(self, keys: Sequence[str]) -> None:
        if keys:
            with self.session() as session:
                session.execute(delete(TransferRow).where(TransferRow.key.in_(keys)))

    @writes
    def take_transfer(self, key: str) -> tuple[float, bytes] | None:
        """A waiting link's expiry and bytes, taken: no other process gets it again."""
        with self.session() as session:
            row = session.get(TransferRow, key, with_for_update=True)
            if row is None:
                return None
            taken = (row.expiry, bytes(row.packed))
            session.delete(row)
            return taken

    @writes
    def forget_buckets(self, before: float) -> None:
        """Buckets unused since ``before`` are full again: their rows can go."""
        with self.session() as session:
            session.execute(delete(BucketRow).where(BucketRow.stamp < before))

    @writes
    def forget_unstarted(self, before: float) -> None:
        """Rows no longer counted (made before ``before``) can go, and those of tables that
        ended or were abandoned (their process died before it said so)."""
        over = exists().where(TableRow.id == UnstartedRow.table_id, TableRow.status != "playing")
        with self.session() as session:
            session.execute(delete(UnstartedRow).where((UnstartedRow.made_at < before) | over))

    def close(self) -> None:
        try:
            self.check_files()
        except UnwritableFiles:  # closing would checkpoint into them: the WAL keeps it all
            log.warning("database files not writable: closed without a checkpoint")
            return
        self.move_writer.close()
        self.engine.dispose()
