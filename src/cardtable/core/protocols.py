"""The protocols beside the State API: what bots, search and front ends ask of a state.

They live apart from :mod:`cardtable.core.state` because the compiled engine compiles that
module, and a runtime-checkable protocol is an interpreted class.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from cardtable.core.actions import Action
from cardtable.core.rng import RandomSource

if TYPE_CHECKING:
    from cardtable.core.state import State


class Agent(Protocol):
    """A bot: ``choose`` returns a legal action for ``seat`` in ``state`` (cardtable.agents
    makes them; a terminal seat holds one)."""

    name: str

    def choose(self, state: State, seat: int) -> Action: ...


@runtime_checkable
class Searchable(Protocol):
    """What a search bot asks of a state beyond the State API (every State has it)."""

    @property
    def rounds_carry_over(self) -> bool: ...
    @property
    def rounds_finished(self) -> int: ...
    @property
    def rounds_planned(self) -> int | None: ...
    def round_scores(self, index: int) -> tuple[int, ...]: ...
    def end_at_round(self, *, explain: bool = False) -> None: ...
    def advance(self, seat: int, action: Action) -> None: ...


@runtime_checkable
class FastPlayout(Protocol):
    """A state that plays a random playout to the end of a round itself, with no move
    lists and no checks (the hanafuda engine), for search with random playouts."""

    def random_playout(self, rng: RandomSource, until: int) -> None: ...


@runtime_checkable
class Timed(Protocol):
    """A state of a game whose spec declares a clock: the timer a front end runs now, as
    ``(kind, seconds)`` (None: none runs), the action it sends as :data:`CLOCK` when the
    timer ends, the grace seconds it allows a move being typed, and whether play runs in
    real time now (bots then take their thinking time; no per-move clock runs)."""

    @property
    def timer(self) -> tuple[str, int] | None: ...
    @property
    def real_time(self) -> bool: ...
    def time_up(self) -> Action: ...
    def grace_seconds(self, kind: str) -> int: ...
