"""Hints: what the ``hard`` bot would play, with one-line reasons a player can check.

A reason is data (a message key and its values) so the terminal and the browser can say it
in the player's language. The browser names cards in words only; the terminal adds the
codes the player types (``codes``). Reasons read only what the hinted seat may see: its
own hand, the table and the captured piles. Each game explains its moves itself (the ``HINTS``
capability of its spec: ``explain``, ``describe`` and ``show`` for its own kinds of value).

>>> import cardtable
>>> state = cardtable.load("koi-koi", rounds=1).new_state(seed=4)
>>> seat = min(state.to_move)
>>> found = hint(state, seat, bot="strategist")
>>> found.action in state.legal_actions(seat)
True
>>> found.text("en").startswith("Play ")
True
>>> found.text("pl").startswith("Zagraj ")
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from cardtable.agents.base import make_agent
from cardtable.core.actions import Action
from cardtable.core.game import Capability, spec_of
from cardtable.core.state import State
from cardtable.locales import message, value_json

JSON = dict[str, Any]


@dataclass(frozen=True)
class Reason:
    """One reason for a move: a message key (``hint.<kind>``) and the values it names."""

    kind: str
    values: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"kind": self.kind, **{k: value_json(v) for k, v in self.values.items()}}

    def text(
        self,
        game: ModuleType | None,
        lang: str = "en",
        names: Sequence[str] = (),
        codes: bool = False,
    ) -> str:
        shown = {k: _show(game, v, lang, names, codes) for k, v in self.values.items()}
        return message(f"hint.{self.kind}", lang, **shown)


@dataclass(frozen=True)
class Hint:
    game_id: str
    action: Action
    reasons: tuple[Reason, ...]

    def to_json(self, lang: str = "en", names: Sequence[str] = ()) -> JSON:
        return {
            "action": self.action.to_json(),
            "reasons": [r.to_json() for r in self.reasons],
            "text": self.text(lang, names),
        }

    def text(
        self, lang: str = "en", names: Sequence[str] = (), codes: bool = False, bare: bool = False
    ) -> str:
        """The move and its reasons in ``lang`` (``codes``: with the card codes the
        terminal's player types; ``bare``: the move named without its verb, as the coach's
        note says it: "better: Peony — makes Hanami-zake", not an order to play it)."""
        game = explainer(self.game_id)
        said = "; ".join(r.text(game, lang, names, codes) for r in self.reasons)
        move = named(game, self.action, lang) if bare else describe(game, self.action, lang, codes)
        # a dash, not a colon: the move itself may end in "card: Geese"
        return f"{move} — {said}" if said else move


def explainer(game_id: str) -> ModuleType | None:
    """The game's hint module (None: the game gives no reasons, only the move)."""
    module: ModuleType | None = spec_of(game_id).optional(Capability.HINTS)
    return module


def _show(game: ModuleType | None, value: Any, lang: str, names: Sequence[str], codes: bool) -> Any:
    """Players by name, the game's own values (cards, colours) in words; any other value
    as it is, for :func:`message` to say (a yaku's :class:`Localized` name)."""
    if isinstance(value, dict) and "seat" in value:
        seat = int(value["seat"])
        return names[seat] if seat < len(names) else f"#{seat + 1}"
    shown = None if game is None else game.show(value, lang, codes=codes)
    return value if shown is None else str(shown)


def describe(game: ModuleType | None, action: Action, lang: str = "en", codes: bool = False) -> str:
    """The move itself, in words (``codes``: with the card codes a terminal player types)."""
    said = None if game is None else game.describe(action, lang, codes=codes)
    return str(action) if said is None else str(said)


def named(game: ModuleType | None, action: Action, lang: str = "en") -> str:
    """The move without its verb ("Wisteria (plain)", "koi-koi"), for a line that says what
    was played: the game's ``named`` where it has one, else the move as :func:`describe`
    says it."""
    naming = getattr(game, "named", None)
    said = None if naming is None else naming(action, lang)
    return describe(game, action, lang) if said is None else str(said)


def hint(state: State, seat: int, *, bot: str = "hard", seed: int = 0) -> Hint:
    """What ``bot`` would play for ``seat`` now, and why (a copy is searched, not ``state``)."""
    action = make_agent(bot, state.game.id, seed=seed).choose(state.clone(), seat)
    game = explainer(state.game.id)
    reasons = () if game is None else tuple(game.explain(state, seat, action))
    return Hint(state.game.id, action, reasons)
