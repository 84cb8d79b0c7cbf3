"""Saved games: options, seed, fixed deals and the move log, as JSON; and replay."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardtable.core.actions import LoggedMove
from cardtable.core.errors import IllegalAction, OptionError
from cardtable.core.game import load
from cardtable.core.options import GameOptions

if TYPE_CHECKING:
    from cardtable.core.state import State

FORMAT = "cardtable-game/1"
JSON = dict[str, Any]


@dataclass(frozen=True)
class GameRecord:
    """A whole game as data: enough to rebuild every state it went through."""

    game: str
    options: Mapping[str, Any]
    seed: int
    deals: tuple[JSON, ...] = ()
    log: tuple[LoggedMove, ...] = ()

    @classmethod
    def of(cls, state: State) -> GameRecord:
        """Everything needed to rebuild ``state``: game, options, seed, deals, moves."""
        return cls(
            game=state.game.id,
            options=state.game.options.model_dump(mode="json"),
            seed=state.seed,
            deals=tuple(state.deals),
            log=tuple(state.log),
        )

    def to_json(self) -> JSON:
        return {
            "format": FORMAT,
            "game": self.game,
            "options": dict(self.options),
            "seed": self.seed,
            "deals": list(self.deals),
            "log": [move.to_json() for move in self.log],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameRecord:
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise OptionError(f"not a cardtable game record (expected format {FORMAT!r})")
        try:
            game = load(str(data["game"]), **dict(data.get("options") or {}))
            log = tuple(_logged_move(game.parse_action, entry) for entry in data.get("log") or ())
            return cls(
                game=game.id,
                options=game.options.model_dump(mode="json"),
                seed=int(data["seed"]),
                deals=tuple(dict(d) for d in data.get("deals") or ()),
                log=log,
            )
        except (KeyError, TypeError, ValueError, OverflowError) as error:
            if isinstance(error, OptionError | IllegalAction):
                raise
            raise OptionError(
                f"not a valid game record: {error!r}", public="not a valid game record"
            ) from None

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n")

    @classmethod
    def load_file(cls, path: str | Path) -> GameRecord:
        try:
            data = json.loads(Path(path).read_text())
        except json.JSONDecodeError as error:
            raise OptionError(f"{path} is not valid JSON: {error}") from None
        return cls.from_json(data)

    def replay(self) -> State:
        return replay(self.game, self.options, self.seed, self.log, deals=self.deals)

    def states(self) -> Iterable[State]:
        """The state before the first move, then after each move (clones)."""
        state = replay(self.game, self.options, self.seed, (), deals=self.deals)
        yield state.clone()
        for seat, action in self.log:
            state.apply(seat, action)
            yield state.clone()


def _logged_move(parse: Any, entry: Any) -> LoggedMove:
    if isinstance(entry, LoggedMove):
        return entry
    if isinstance(entry, Mapping):
        return LoggedMove(int(entry["seat"]), parse(entry["action"]))
    if isinstance(entry, Sequence) and len(entry) == 2:
        seat, action = entry
        return LoggedMove(int(seat), parse(action) if isinstance(action, Mapping) else action)
    raise IllegalAction(f"cannot read log entry {entry!r}")


def replay(
    game_id: str,
    options: Mapping[str, Any] | GameOptions,
    seed: int,
    log: Iterable[Any],
    deals: Sequence[Mapping[str, Any]] | None = None,
) -> State:
    """Rebuild a state from its options, seed and moves.

    Log entries may be :class:`LoggedMove`, ``(seat, action)`` pairs or their JSON form.
    """
    values = options.model_dump() if isinstance(options, GameOptions) else dict(options)
    game = load(game_id, **values)
    state = game.new_state(seed=seed, deals=deals)
    for entry in log:
        seat, action = _logged_move(game.parse_action, entry)
        state.apply(seat, action)
    return state
