"""The base of the engine's frozen records (cards, yaku rows, actions, score lines).

Compiled by mypyc, a frozen dataclass cannot be unpickled field by field (its fields refuse
to be set), and hints send states to other processes pickled: a record pickles as its
class and its fields, and is built again by its constructor.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any


class Frozen:
    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), tuple(getattr(self, field.name) for field in fields(self)))  # type: ignore[arg-type]
