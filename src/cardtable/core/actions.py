"""Actions and the move log.

Every game's actions are frozen dataclasses that implement :class:`Action`: they turn
into JSON with ``to_json()`` and back with the game's ``parse_action``; ``str(action)``
reads well in logs and menus.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple, Protocol, runtime_checkable

from cardtable.core.errors import IllegalAction

JSON = dict[str, Any]


@runtime_checkable
class Action(Protocol):
    """What every game's action provides."""

    def to_json(self) -> JSON: ...


class LoggedMove(NamedTuple):
    """One entry of ``state.log``: who acted, and what they did."""

    seat: int
    action: Action

    def to_json(self) -> JSON:
        return {"seat": self.seat, "action": self.action.to_json()}


def action_type(data: Mapping[str, Any], known: Mapping[str, object]) -> str:
    """Read and check the ``type`` field of an action's JSON (shared by the parsers)."""
    if not isinstance(data, Mapping):
        raise IllegalAction(f"an action must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if kind not in known:
        choices = ", ".join(sorted(known))
        raise IllegalAction(
            f"unknown action type {kind!r}; expected one of: {choices}", given=[kind]
        )
    return str(kind)
