"""Game options: pydantic models that validate house rules and describe themselves.

Each game declares one model (a subclass of :class:`GameOptions`) and a table of named
presets. :func:`build_options` merges a preset with explicit overrides and turns any
validation problem into an :class:`OptionError` that names the valid choices, so a typo
in ``--rule`` or in a web form gets an answer a person can act on.
"""

from __future__ import annotations

import types
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.fields import FieldInfo

from cardtable.core.errors import OptionError

OptionsT = TypeVar("OptionsT", bound="GameOptions")


def _schema_groups(schema: dict[str, Any], cls: type[Any]) -> None:
    """The model's JSON schema names its option groups in order (``x-groups``): those of
    ``GROUPS`` that one of its options is in."""
    used = {prop.get("x-group") for prop in schema.get("properties", {}).values()}
    schema["x-groups"] = [group for group in getattr(cls, "GROUPS", ()) if group in used]


def option(
    default: Any, description: str, *, group: str, local_only: bool = False, **rules: Any
) -> Any:
    """One option of a game's model: pydantic's ``Field`` with the group a form shows it
    in (``x-group``) and, for a value only the machine running the game may set (a file
    path), ``local_only`` (``x-local-only``); ``rules`` are Field's constraints (``ge``...).
    """
    extra: dict[str, Any] = {"x-group": group}
    if local_only:
        extra["x-local-only"] = True
    return Field(default, description=description, json_schema_extra=extra, **rules)


class GameOptions(BaseModel):
    """Base of every game's options: frozen, and unknown keys are errors.

    Each option names its group in its field (:func:`option`, ``group="yaku"``), and the
    model lists its groups once, in the order a form shows them (``GROUPS``); the
    JSON schema carries both (``x-group`` on each property, ``x-groups`` on the model).
    The words of an option live in the game's catalogue (docs/house.md, "Option words").
    """

    model_config = ConfigDict(
        extra="forbid", frozen=True, validate_default=True, json_schema_extra=_schema_groups
    )
    #: the option groups of the game, in the order a form shows them
    GROUPS: ClassVar[tuple[str, ...]] = ()

    def changed(self) -> dict[str, Any]:
        """The options that differ from the model's defaults (what a record needs)."""
        defaults = type(self)()
        return {
            name: value
            for name, value in self.model_dump(mode="json").items()
            if getattr(defaults, name) != getattr(self, name)
        }


@dataclass(frozen=True, slots=True)
class OptionInfo:
    """One option as the CLI, the docs and the web form show it."""

    name: str
    default: Any
    choices: tuple[Any, ...] | None
    description: str
    bounds: tuple[int | None, int | None] = (None, None)
    group: str | None = None
    local_only: bool = False

    def describe_values(self) -> str:
        if self.choices is not None:
            return ", ".join(_show(c) for c in self.choices)
        low, high = self.bounds
        if low is not None and high is not None:
            return f"{low}..{high}"
        if low is not None:
            return f">= {low}"
        return ""


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _choices(annotation: Any) -> tuple[Any, ...] | None:
    if annotation is bool:
        return (False, True)
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return tuple(typing.get_args(annotation))
    if origin is tuple:  # tuple[X, ...]: any number of X's choices (a set of cards)
        args = typing.get_args(annotation)
        return _choices(args[0]) if len(args) == 2 and args[1] is Ellipsis else None
    if origin in (typing.Union, types.UnionType):
        found: list[Any] = []
        for arg in typing.get_args(annotation):
            sub = _choices(arg)
            if sub:
                found.extend(sub)
        return tuple(found) or None
    return None


def _bounds(field: Any) -> tuple[int | None, int | None]:
    low = high = None
    for meta in field.metadata:
        low = getattr(meta, "ge", low)
        high = getattr(meta, "le", high)
    return low, high


def _extra(field: FieldInfo) -> dict[str, Any]:
    extra = field.json_schema_extra
    return extra if isinstance(extra, dict) else {}


def option_group(field: FieldInfo) -> str | None:
    """The group an option is shown in (its ``x-group``), if it names one."""
    group = _extra(field).get("x-group")
    return group if isinstance(group, str) else None


def describe(model: type[GameOptions]) -> list[OptionInfo]:
    """Every option of a model, in declaration order."""
    infos = []
    for name, field in model.model_fields.items():
        infos.append(
            OptionInfo(
                name=name,
                default=field.default,
                choices=_choices(field.annotation),
                description=field.description or "",
                bounds=_bounds(field),
                group=option_group(field),
                local_only=bool(_extra(field).get("x-local-only")),
            )
        )
    return infos


def _explain(model: type[GameOptions], error: ValidationError, game_id: str) -> str:
    infos = {info.name: info for info in describe(model)}
    lines = []
    for problem in error.errors():
        loc = problem.get("loc") or ()
        name = str(loc[0]) if loc else ""
        if problem["type"] == "extra_forbidden":
            valid = ", ".join(infos)
            lines.append(f"unknown option {name!r} for {game_id}; valid options: {valid}")
        elif name in infos:
            info = infos[name]
            given = problem.get("input")
            allowed = info.describe_values()
            hint = f" (valid: {allowed})" if allowed else ""
            lines.append(f"option {name}={given!r} is not valid for {game_id}{hint}")
        else:
            # A model-level check (a combination of options) explains itself.
            message = str(problem.get("msg", "invalid options"))
            lines.append(message.removeprefix("Value error, "))
    return "; ".join(lines)


def build_options(
    model: type[OptionsT],
    game_id: str,
    presets: Mapping[str, Mapping[str, Any]],
    preset: str | None = None,
    overrides: Mapping[str, Any] | None = None,
) -> OptionsT:
    """Validate ``preset`` + ``overrides`` into an options model, or raise OptionError.

    >>> from pydantic import Field
    >>> class Demo(GameOptions):
    ...     rounds: Literal[1, 3] = 3
    >>> build_options(Demo, "demo", {"short": {"rounds": 1}}, "short").rounds
    1
    >>> build_options(Demo, "demo", {}, None, {"rounds": 2})
    Traceback (most recent call last):
    ...
    cardtable.core.errors.OptionError: option rounds=2 is not valid for demo (valid: 1, 3)
    """
    values: dict[str, Any] = {}
    if preset is not None:
        if preset not in presets:
            valid = ", ".join(presets) or "(none)"
            raise OptionError(
                f"unknown preset {preset!r} for {game_id}; valid presets: {valid}", given=[preset]
            )
        values.update(presets[preset])
    values.update(overrides or {})
    try:
        return model.model_validate(values)
    except ValidationError as error:
        given = [p.get("input") for p in error.errors()] + [
            p["loc"][0] for p in error.errors() if p.get("loc")
        ]
        raise OptionError(_explain(model, error, game_id), given=given) from None


def parse_rule_value(text: str) -> Any:
    """Read a ``KEY=VALUE`` value typed on a command line: bools, ints, else the string."""
    lowered = text.strip().lower()
    if lowered in ("true", "on", "yes"):
        return True
    if lowered in ("false", "off", "no"):
        return False
    try:
        return int(lowered)
    except ValueError:
        return text.strip()


def parse_rules(pairs: Sequence[str]) -> dict[str, Any]:
    """``["scoring=simple", "rounds=3"]`` -> ``{"scoring": "simple", "rounds": 3}``."""
    rules: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise OptionError(f"--rule takes KEY=VALUE, not {pair!r}")
        rules[key.strip().replace("-", "_")] = parse_rule_value(value)
    return rules
