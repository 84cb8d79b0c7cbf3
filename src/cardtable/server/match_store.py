"""What quick match and ratings keep in the store of record, so that every process of a
cluster sees the same queue (server/matchmaking.py) and the same ratings: the tickets of
people waiting, the tables made from them, each player's Glicko-2 rating per game and its
history. Tables of the same declarative base as server/store.py's, so SQLite and
PostgreSQL run the same code and the tables are made with the others.

A ticket goes ``waiting`` → ``pairing`` (two tickets taken in one transaction: nobody else
can take either) → ``matched``; or → ``bot`` (its person took the bot offered), ``left``
(DELETE, or another ticket of the same player took its place). A matched ticket holds its
seat's key only until the page has surely gone to the table (:data:`KEY_SECONDS`), then
``expired``: a stolen database names no live seat key. A pair whose table was never seated
(its process died in between) waits again after :data:`PAIRING_SECONDS`.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import JSON, Boolean, Float, Integer, String, delete, select, update
from sqlalchemy.orm import Mapped, mapped_column

from cardtable.server.glicko import Glicko
from cardtable.server.store import Base, Store, _again_if_raced, reads, writes

R = TypeVar("R", bound=Base)

#: how long a matched ticket keeps the seat's key for the page (or the terminal) polling it
KEY_SECONDS = 600.0
#: a pair not seated by then was left by a process that died: both wait again
PAIRING_SECONDS = 60.0


class TicketRow(Base):
    """One person waiting for a quick match (or matched, for as long as they look)."""

    __tablename__ = "match_tickets"

    id: Mapped[str] = mapped_column(String(40), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    preset: Mapped[str] = mapped_column(String(40))  # "": the game's default
    rated: Mapped[bool] = mapped_column(Boolean)
    #: the table's move clock: 0 for a live game (the server's), or days (day_clock.py)
    move_seconds: Mapped[int] = mapped_column(Integer, default=0)
    name: Mapped[str] = mapped_column(String(40))
    player: Mapped[str] = mapped_column(String(64), index=True)  # the key's hash, or ""
    address: Mapped[str] = mapped_column(String(64))
    rating: Mapped[float] = mapped_column(Float)  # for "nearest rating first"
    created_at: Mapped[float] = mapped_column(Float)
    #: the last look while waiting; once matched, when the pair was seated
    polled_at: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(16), index=True, default="waiting")
    table_id: Mapped[str] = mapped_column(String(32), default="")
    seat: Mapped[int] = mapped_column(Integer, default=-1)
    seat_key: Mapped[str] = mapped_column(String(64), default="")


class QuickTableRow(Base):
    """A table made by quick match: whether it is rated, which player sits where, and
    whether its result has been counted in their ratings."""

    __tablename__ = "quick_tables"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    rated: Mapped[bool] = mapped_column(Boolean)
    players: Mapped[list[str]] = mapped_column(JSON)  # per seat: the key's hash, or ""
    settled: Mapped[bool] = mapped_column(Boolean, default=False, index=True)
    created_at: Mapped[float] = mapped_column(Float)


class RatingRow(Base):
    """A player's Glicko-2 rating in one game."""

    __tablename__ = "ratings"

    player: Mapped[str] = mapped_column(String(64), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[float] = mapped_column(Float)

    def glicko(self) -> Glicko:
        return Glicko(self.rating, self.deviation, self.volatility)


class RatingHistoryRow(Base):
    """A player's rating in a game after one rated game (the record page's graph)."""

    __tablename__ = "rating_history"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    player: Mapped[str] = mapped_column(String(64), index=True)
    game: Mapped[str] = mapped_column(String(40))
    at: Mapped[float] = mapped_column(Float)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    table_id: Mapped[str] = mapped_column(String(32))


class PlayerSeatRow(Base):
    """A seat a player holds (day_clock.py's "Your turn" on any device of theirs): its seat
    key wrapped with the player key (player_keys.wrap_seat_key), which the server never
    keeps, so only the player's own request opens it."""

    __tablename__ = "player_seats"

    player: Mapped[str] = mapped_column(String(64), primary_key=True)  # the key's hash
    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    wrapped: Mapped[str] = mapped_column(String(128))
    at: Mapped[float] = mapped_column(Float)


def make_tables(store: Store) -> None:
    """This module's tables, where the store was made before it was imported."""
    rows = (TicketRow, QuickTableRow, RatingRow, RatingHistoryRow, PlayerSeatRow)
    Base.metadata.create_all(store.engine, tables=[row.__table__ for row in rows])  # type: ignore[misc]


@dataclass(frozen=True)
class Queue:
    """Who counts as waiting: a ticket polled within ``alive_seconds``."""

    alive_seconds: float

    def alive_since(self, now: float) -> float:
        return now - self.alive_seconds


@writes
def add_ticket(store: Store, row: TicketRow) -> None:
    """Queue ``row``; an earlier waiting ticket of the same player leaves the queue (a
    person is never given a seat in two matches at once)."""
    with store.session() as session:
        if row.player:
            session.execute(
                update(TicketRow)
                .where(TicketRow.player == row.player, TicketRow.status == "waiting")
                .values(status="left")
            )
        session.add(row)


@reads
def row_of(store: Store, model: type[R], key: str) -> R | None:
    """The row of ``model`` (a ticket, a quick table) by its key, if there is one."""
    with store.session() as session:
        return session.get(model, key)


def ticket(store: Store, ticket_id: str) -> TicketRow | None:
    return row_of(store, TicketRow, ticket_id)


@writes
def polled(store: Store, ticket_id: str, now: float) -> None:
    with store.session() as session:
        session.execute(update(TicketRow).where(TicketRow.id == ticket_id).values(polled_at=now))


def _move(store: Store, ids: list[str], before: str, after: str, **values: Any) -> bool:
    """Every ticket of ``ids`` from status ``before`` to ``after`` in one transaction, or
    none (another process took one of them first)."""
    with store.session() as session:
        moved = session.execute(
            update(TicketRow)
            .where(TicketRow.id.in_(ids), TicketRow.status == before)
            .values(status=after, **values)
        )
        if moved.rowcount != len(ids):  # type: ignore[attr-defined]
            session.rollback()
            return False
    return True


@writes
def pair(store: Store, own: TicketRow, now: float, queue: Queue, window: float) -> TicketRow | None:
    """The waiting ticket ``own`` is paired with: same game, preset, kind and pace, another
    player, still polled, the nearest rating within ``window`` points (the older of two
    alike). Both are taken (status ``pairing``) before this returns; None: nobody fits."""
    with store.session() as session:
        candidates = list(
            session.scalars(
                select(TicketRow).where(
                    TicketRow.game == own.game,
                    TicketRow.preset == own.preset,
                    TicketRow.rated == own.rated,
                    TicketRow.move_seconds == own.move_seconds,
                    TicketRow.status == "waiting",
                    TicketRow.id != own.id,
                    TicketRow.polled_at >= queue.alive_since(now),
                )
            )
        )
    fits = [
        c
        for c in candidates
        if not (own.player and c.player == own.player)
        and abs(c.rating - own.rating) <= max(window, _window(now - c.created_at))
    ]
    for partner in sorted(fits, key=lambda c: (abs(c.rating - own.rating), c.created_at)):
        if _move(store, [own.id, partner.id], "waiting", "pairing"):
            return partner
        if not _move(store, [own.id], "waiting", "waiting"):
            return None  # own was taken meanwhile (paired by another request): not twice
    return None


def _window(waited: float) -> float:
    """How far apart two ratings may be after ``waited`` seconds: 100 points at once, 25
    more every second (after a minute anybody will do)."""
    return 100.0 + 25.0 * max(0.0, waited)


window_after = _window


@writes
def seat_pair(store: Store, seats: list[tuple[str, int, str]], table_id: str, now: float) -> None:
    """The paired tickets get their seats: (ticket, seat, seat key) each."""
    with store.session() as session:
        for ticket_id, seat, key in seats:
            session.execute(
                update(TicketRow)
                .where(TicketRow.id == ticket_id)
                .values(status="matched", table_id=table_id, seat=seat, seat_key=key, polled_at=now)
            )


@writes
def unpair(store: Store, ids: list[str]) -> None:
    """The table of a pair could not be made: both wait again, where they were."""
    _move(store, ids, "pairing", "waiting")


@writes
def take(store: Store, ticket_id: str, status: str) -> bool:
    """Take a waiting ticket out of the queue (``left``, ``bot``): False when it was no
    longer waiting (matched meanwhile, say)."""
    return _move(store, [ticket_id], "waiting", status)


@reads
def waiting_counts(store: Store, now: float, queue: Queue) -> Counter[str]:
    """How many people wait for each game."""
    with store.session() as session:
        games = session.scalars(
            select(TicketRow.game).where(
                TicketRow.status == "waiting", TicketRow.polled_at >= queue.alive_since(now)
            )
        )
        return Counter(games)


@writes
def tidy_tickets(store: Store, now: float, forget_before: float) -> None:
    """Forget tickets unseen since ``forget_before``; drop the seat keys of tickets matched
    :data:`KEY_SECONDS` ago (``expired``); put pairs stuck in ``pairing`` back to waiting."""
    with store.session() as session:
        session.execute(delete(TicketRow).where(TicketRow.polled_at < forget_before))
        session.execute(
            update(TicketRow)
            .where(TicketRow.status == "matched", TicketRow.polled_at < now - KEY_SECONDS)
            .values(status="expired", seat_key="")
        )
        session.execute(
            update(TicketRow)
            .where(TicketRow.status == "pairing", TicketRow.polled_at < now - PAIRING_SECONDS)
            .values(status="waiting")
        )


@writes
def add_quick_table(store: Store, row: QuickTableRow) -> None:
    with store.session() as session:
        session.add(row)


def quick_table(store: Store, table_id: str) -> QuickTableRow | None:
    return row_of(store, QuickTableRow, table_id)


@reads
def unsettled(store: Store, players: list[str] | None = None) -> list[QuickTableRow]:
    """Rated tables whose result is not yet in the ratings (of ``players``' tables)."""
    with store.session() as session:
        rows = session.scalars(
            select(QuickTableRow).where(QuickTableRow.rated, ~QuickTableRow.settled)
        )
        return [r for r in rows if players is None or set(players) & set(r.players)]


@reads
def ratings(store: Store, players: list[str], game: str | None = None) -> list[RatingRow]:
    with store.session() as session:
        query = select(RatingRow).where(RatingRow.player.in_(players))
        if game is not None:
            query = query.where(RatingRow.game == game)
        return list(session.scalars(query))


@reads
def history(store: Store, player: str) -> list[RatingHistoryRow]:
    with store.session() as session:
        return list(
            session.scalars(
                select(RatingHistoryRow)
                .where(RatingHistoryRow.player == player)
                .order_by(RatingHistoryRow.at)
            )
        )


@writes
def settle(store: Store, table: QuickTableRow, scores: list[float]) -> bool:
    """Count a rated table's result in its players' ratings, once (False when another
    process did it first): ``scores`` per seat, 1 a win, 0.5 a draw, 0 a loss. Each player
    is rated against the others as they stood before this game."""

    def settled() -> bool:
        now = time.time()
        with store.session() as session:
            taken = session.execute(
                update(QuickTableRow)
                .where(QuickTableRow.table_id == table.table_id, ~QuickTableRow.settled)
                .values(settled=True)
            )
            if taken.rowcount != 1:  # type: ignore[attr-defined]
                return False
            rows = {
                player: session.get(RatingRow, (player, table.game), with_for_update=True)
                for player in table.players
            }
            before = {p: (r.glicko() if r else Glicko()) for p, r in rows.items()}
            for seat, player in enumerate(table.players):
                games = [
                    (before[other], 0.5 + (scores[seat] - scores[n]) / 2)
                    for n, other in enumerate(table.players)
                    if n != seat
                ]
                after = before[player].after(games)
                row = rows[player]
                if row is None:
                    row = RatingRow(player=player, game=table.game, games=0)
                    session.add(row)
                    rows[player] = row
                row.rating, row.deviation, row.volatility = (
                    after.rating, after.deviation, after.volatility,
                )  # fmt: skip
                row.games, row.updated_at = row.games + 1, now
                session.add(
                    RatingHistoryRow(
                        player=player, game=table.game, at=now, rating=after.rating,
                        deviation=after.deviation, table_id=table.table_id,
                    )
                )  # fmt: skip
        return True

    return _again_if_raced(settled)


@reads
def player_seats(store: Store, player: str, most: int) -> list[PlayerSeatRow]:
    """The newest ``most`` seats ``player`` holds."""
    with store.session() as session:
        query = select(PlayerSeatRow).where(PlayerSeatRow.player == player)
        return list(session.scalars(query.order_by(PlayerSeatRow.at.desc()).limit(most)))


@writes
def hold_seats(store: Store, rows: list[PlayerSeatRow]) -> None:
    """Remember the seats of ``rows`` that are not remembered yet (two tabs may say the
    same seat at once: the second finds it)."""

    def add() -> None:
        with store.session() as session:
            for row in rows:
                if session.get(PlayerSeatRow, (row.player, row.table_id, row.seat)) is None:
                    session.add(row)

    _again_if_raced(add)


@writes
def let_go_seats(store: Store, player: str, table_ids: list[str]) -> None:
    """Forget ``player``'s seats at these (finished or gone) tables."""
    with store.session() as session:
        session.execute(
            delete(PlayerSeatRow).where(
                PlayerSeatRow.player == player, PlayerSeatRow.table_id.in_(table_ids)
            )
        )
