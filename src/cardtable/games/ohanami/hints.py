"""What the hard bot keeps and where it places, in words (the ``HINTS`` capability)."""

from __future__ import annotations

from typing import Any

from cardtable.agents.hints import Reason
from cardtable.core.actions import Action
from cardtable.core.state import State
from cardtable.games.ohanami.deck import COLOUR_OF
from cardtable.games.ohanami.game import Keep, Place
from cardtable.locales import message


def describe(action: Action, lang: str, codes: bool = False) -> str | None:
    """The move in words (``codes`` changes nothing: Ohanami's cards are their numbers)."""
    if isinstance(action, Keep):
        return message("hint.keep_action", lang)
    if isinstance(action, Place):
        return message("hint.place_action", lang)
    return None


def show(value: Any, lang: str, codes: bool = False) -> str | None:
    if not isinstance(value, dict):
        return None
    if "numbers" in value:
        return " ".join(str(n) for n in value["numbers"])
    if "colours" in value:
        return ", ".join(f"{n} {message(f'colour.{c}', lang)}" for n, c in value["colours"])
    target = value.get("target")
    if target == "new":
        return message("hint.new_row", lang)
    if target == "discard":
        return message("hint.discard_pile", lang)
    if target is not None:
        return message("hint.row", lang, n=int(str(target)) + 1)
    return None


def explain(state: State, seat: int, action: Action) -> tuple[Reason, ...]:
    if isinstance(action, Keep):
        colours = {"colours": [[n, COLOUR_OF[n]] for n in action.cards]}
        return (Reason("keep", {"cards": {"numbers": list(action.cards)}, "colours": colours}),)
    if isinstance(action, Place):
        return tuple(
            Reason("place", {"card": card, "target": {"target": target}})
            for card, target in action.placements
        )
    return ()
