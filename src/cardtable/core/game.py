"""Games: a registered spec (id, options, presets, how to start and parse) plus chosen options.

>>> import cardtable
>>> game = cardtable.load("bakappana", players=3, rounds=1)
>>> game.id, game.options.players
('bakappana', 3)
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.core.actions import Action
from cardtable.core.errors import OptionError
from cardtable.core.options import GameOptions, build_options
from cardtable.core.state import State

JSON = dict[str, Any]
StateFactory = Callable[["Game", int, tuple[JSON, ...]], State]
ActionParser = Callable[[Mapping[str, Any]], Action]


@dataclass(frozen=True)
class GameSpec:
    """How a game registers itself once."""

    id: str
    title: str
    summary: str
    options_model: type[GameOptions]
    start: StateFactory
    parse_action: ActionParser
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    family: str = ""


class Game:
    """A game with its options fixed: the factory of states."""

    __slots__ = ("options", "spec")

    def __init__(self, spec: GameSpec, options: GameOptions) -> None:
        self.spec = spec
        self.options = options

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def players(self) -> int:
        return int(getattr(self.options, "players", 0))

    def new_state(
        self, seed: int | None = None, deals: Sequence[Mapping[str, Any]] | None = None
    ) -> State:
        """A new game. Same seed and same moves give the same game on any machine.

        ``deals`` fixes the deal of the first rounds (one mapping per round); rounds beyond
        the list are dealt from the seed. Without a seed one is drawn from the OS's CSPRNG
        and kept in ``state.seed``.
        """
        if seed is None:
            seed = secrets.randbits(63)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"a seed must be an integer, not {seed!r}")
        fixed = tuple(deals or ())
        for k, deal in enumerate(fixed):
            if not isinstance(deal, Mapping):
                raise OptionError(f"deals[{k}] must be a mapping, not {type(deal).__name__}")
        return self.spec.start(self, seed, tuple(dict(d) for d in fixed))

    def parse_action(self, data: Mapping[str, Any]) -> Action:
        """The action a JSON object describes (raises IllegalAction when malformed)."""
        return self.spec.parse_action(data)

    def __repr__(self) -> str:
        changed = self.options.changed()
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"cardtable.load({self.id!r}{args})"


_REGISTRY: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    if spec.id in _REGISTRY and _REGISTRY[spec.id] is not spec:
        raise ValueError(f"game id {spec.id!r} is registered twice")
    _REGISTRY[spec.id] = spec
    return spec


def game_ids() -> list[str]:
    """Ids of every registered game, in registration order."""
    return list(_REGISTRY)


def spec_of(game_id: str) -> GameSpec:
    try:
        return _REGISTRY[game_id]
    except KeyError:
        valid = ", ".join(_REGISTRY)
        raise OptionError(f"unknown game {game_id!r}; valid games: {valid}") from None


def load(game_id: str, preset: str | None = None, **options: Any) -> Game:
    """A game by id, from a named preset and house rules that override it."""
    spec = spec_of(game_id)
    chosen = build_options(spec.options_model, game_id, spec.presets, preset, options)
    return Game(spec, chosen)
