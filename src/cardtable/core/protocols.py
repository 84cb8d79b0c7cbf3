"""The protocols beside the State API: what a state asks of its game, and what search and
front ends ask of a state beyond that API.

They name no State, so :mod:`cardtable.core.state` builds on them (the four engine modules
stack as protocols, state, game, record; :mod:`cardtable.core.agent` sits on state). They
live apart from state because the compiled engine compiles that module, and a
runtime-checkable protocol is an interpreted class.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, runtime_checkable

from cardtable.core.actions import Action
from cardtable.core.options import GameOptions
from cardtable.core.rng import RandomSource


class GameLike(Protocol):
    """What a state needs of its game (``state.game``): :class:`cardtable.core.game.Game`
    is the one there is. Code that wants more of the game (its spec, its capabilities)
    asks :func:`cardtable.core.game.spec_of` with ``state.game.id``."""

    @property
    def id(self) -> str: ...
    @property
    def options(self) -> GameOptions: ...
    @property
    def num_players(self) -> int: ...
    @property
    def rounds_carry_over(self) -> bool:
        """A round builds on the ones before (the spec's ``GameInfo``)."""

    def parse_action(self, data: Mapping[str, Any]) -> Action: ...


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
    ``(kind, seconds)`` (None: none runs), the action it sends as
    :data:`cardtable.core.state.CLOCK` when the timer ends, the grace seconds it allows a
    move being typed, and whether play runs in real time now (bots then take their
    thinking time; no per-move clock runs)."""

    @property
    def timer(self) -> tuple[str, int] | None: ...
    @property
    def real_time(self) -> bool: ...
    def time_up(self) -> Action: ...
    def grace_seconds(self, kind: str) -> int: ...
