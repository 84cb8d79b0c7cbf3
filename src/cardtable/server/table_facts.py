"""What every part of a live table reads of it: the table's facts, as a protocol, so the
parts (driver, frames) need not import the table that holds them."""

from __future__ import annotations

from typing import Protocol

from cardtable.core.lesson import Lesson
from cardtable.core.state import State
from cardtable.server.roster import Roster
from cardtable.server.round_break import RoundBreak
from cardtable.server.settings import Settings
from cardtable.server.store import TableRow
from cardtable.server.workers import Workers


class Compute(Protocol):
    """What a table's parts ask of the server: its settings and its compute pool."""

    @property
    def settings(self) -> Settings: ...
    @property
    def workers(self) -> Workers: ...


class TableFacts(Protocol):
    """A live table as its parts read it (server.tables.LiveTable is one)."""

    @property
    def id(self) -> str: ...
    @property
    def row(self) -> TableRow: ...
    @property
    def state(self) -> State: ...
    @property
    def version(self) -> int: ...
    @property
    def roster(self) -> Roster: ...
    @property
    def round_break(self) -> RoundBreak | None: ...
    @property
    def lesson(self) -> Lesson | None: ...
    @property
    def finished(self) -> bool: ...
