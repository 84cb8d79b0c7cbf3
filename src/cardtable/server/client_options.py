"""What a web client may ask a game to be: one function decides it, and every path of the
server that loads a game from what a client sent (a new table, a rematch, a companion pad,
an uploaded record to verify, a replay) goes through it.

>>> game_for_client("koi-koi", None, {"rounds": 1}).options.rounds
1
>>> try:
...     game_for_client("koi-koi", None, {"preset": "nintendo"})
... except OptionError as refused:
...     print(str(refused).split(";")[0])
unknown option 'preset' for koi-koi
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from typing import Any

from cardtable.core.errors import OptionError
from cardtable.core.game import Game, GameSpec, load, spec_of
from cardtable.core.options import GameOptions


def local_only_options(spec: GameSpec) -> frozenset[str]:
    """Options that name things on the server's machine (files): not settable over the web."""
    return _local_only(spec.options_model)


@cache  # a model's schema is fixed; making it costs more than the rest of a new table
def _local_only(model: type[GameOptions]) -> frozenset[str]:
    properties = model.model_json_schema().get("properties", {})
    return frozenset(name for name, schema in properties.items() if schema.get("x-local-only"))


def game_for_client(game_id: Any, preset: Any, options: Any) -> Game:
    """The game a web client asks for, or an OptionError saying why it may not have it.

    Only the game's own option names are taken (a name such as ``preset`` would otherwise
    collide with :func:`load`'s own parameters), and an option that names a file on the
    server keeps its default."""
    if not isinstance(game_id, str):
        raise OptionError("'game' must be a game id")
    spec = spec_of(game_id)
    if preset is not None and not isinstance(preset, str):
        raise OptionError("'preset' must be a preset name")
    if not isinstance(options, Mapping):
        raise OptionError("'options' must be a JSON object")
    fields = spec.options_model.model_fields
    unknown = [str(name) for name in options if name not in fields]
    if unknown:
        valid = ", ".join(fields)
        raise OptionError(
            f"unknown option {unknown[0]!r} for {game_id}; valid options: {valid}", given=unknown
        )
    for name in local_only_options(spec) & set(options):
        if options[name] != fields[name].default:
            raise OptionError(
                f"option {name} can only be changed on the command line, not over the web"
            )
    return load(game_id, preset, **options)


def check_record_options(data: Any) -> None:
    """Refuse a game record (to verify or replay) whose game could not be made over the web."""
    if not isinstance(data, Mapping):
        raise OptionError("a game record is a JSON object")
    game_for_client(data.get("game"), None, data.get("options") or {})
