"""The error a table's request is refused with: its message for people, its code for pages."""

from __future__ import annotations

from collections.abc import Iterable

from cardtable.core.errors import CardtableError


class TableError(CardtableError):
    """A request about a table that cannot be honoured (the message says why)."""

    def __init__(
        self, message: str, code: str = "bad_request", given: Iterable[object] = ()
    ) -> None:
        super().__init__(message, given=given)
        self.code = code
