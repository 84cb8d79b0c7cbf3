"""The pause between rounds: a round ends on its final board, and the next one starts when
every human at the table has pressed "Next round".

The engine deals the next round in the same step that scores the last one, so the final
board is a copy of the game from before that step, told to stop at the round's end
(``State.end_at_round``) and given the same move. Meanwhile no bot moves and no clock
runs; with two or more humans a countdown moves the table on, so nobody stalls it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from cardtable.core.actions import Action
from cardtable.core.state import State
from cardtable.server.protocol import Encoded, joined

JSON = dict[str, Any]


@dataclass
class RoundBreak:
    final: State  # the game stopped on the final board of the round that just ended
    humans: frozenset[int]  # the seats that must press "Next round"
    deadline: float | None  # when the table moves on by itself (None: it waits)
    ready: set[int] = field(default_factory=set)
    #: rounds the same move ended after this one, with no move of their own (a koi-koi
    #: lucky hand shown at the next deal): their results, shown with this one
    also: list[JSON] = field(default_factory=list)
    #: each seat's view of the final board, encoded (see encoded_view)
    views: dict[int | None, Encoded] = field(default_factory=dict, repr=False, compare=False)
    #: the part of those views every seat sees alike, and its encoding (see _shared)
    shared: tuple[JSON, Encoded] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def after(
        cls,
        before: State,
        after: State,
        seat: int,
        action: Action,
        humans: Collection[int],
        now: float,
        countdown: float,
    ) -> RoundBreak:
        """The break after ``action`` (by ``seat``) ended the round ``before`` was in;
        ``after`` is the game once the move was made."""
        final = (
            before.clone()
        )  # ``before`` stays the board the move was made on (the coach judges it)
        final.end_at_round(explain=True)
        final.apply(seat, action)
        deadline = now + countdown if len(humans) > 1 else None
        also = [r.to_json() for r in after.result().rounds[final.rounds_finished :]]
        return cls(final, frozenset(humans), deadline, also=also)

    @property
    def round(self) -> int:
        return self.final.rounds_finished

    @property
    def waiting(self) -> list[int]:
        return sorted(self.humans - self.ready)

    @property
    def over(self) -> bool:
        return not self.waiting

    def press(self, seat: int) -> None:
        if seat in self.humans:
            self.ready.add(seat)

    def view(self, seat: int | None) -> JSON:
        """What ``seat`` sees of the final board: the round is over, the game is not."""
        return {**self._shared()[0], **self._own(seat)}

    def encoded_view(self, seat: int | None) -> Encoded:
        """:meth:`view`, encoded once a seat (the final board never changes, and every
        press of Next round sends the frames again)."""
        text = self.views.get(seat)
        if text is None:
            text = self.views[seat] = joined(self._shared()[1], Encoded.of(self._own(seat)))
        return text

    def _shared(self) -> tuple[JSON, Encoded]:
        """The part of the view every seat sees alike (``State.shared_view``), and its
        encoding: worked out once, as a move's frames do."""
        if self.shared is None:
            shared = self.final.shared_view()
            if "over" in shared:
                shared = {**shared, "over": False}
            self.shared = (shared, Encoded.of(shared))
        return self.shared

    def _own(self, seat: int | None) -> JSON:
        """``seat``'s own part of the view; it says the game is not over where the shared
        part does not (a game that shares nothing)."""
        own = self.final.own_view(seat)
        return own if "over" in self._shared()[0] else {**own, "over": False}

    def to_json(self) -> JSON:
        return {
            "round": self.round,
            "ready": sorted(self.ready),
            "waiting": self.waiting,
            "deadline": self.deadline,
            "also": self.also,
        }
