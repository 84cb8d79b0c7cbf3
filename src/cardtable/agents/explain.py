"""Hints: what the ``hard`` bot would play, with one-line reasons a player can check.

A reason is data (a message key and its values) so the terminal and the browser can say it
in the player's language. Reasons read only what the hinted seat may see: its own hand, the
table and the captured piles.

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
from typing import Any

from cardtable.agents.base import make_agent
from cardtable.agents.hanafuda_strategist import chosen_capture, unseen_partners
from cardtable.core.actions import Action
from cardtable.core.state import State
from cardtable.games.hanafuda.actions import KoiKoi, Play, Shobu, Take
from cardtable.games.hanafuda.deck import CARDS, card_index, codes, value_of
from cardtable.games.hanafuda.fishing import FishingState
from cardtable.games.hanafuda.hana_awase import HanaAwaseState
from cardtable.games.hanafuda.koikoi import KoiKoiState
from cardtable.games.hanafuda.yaku import YakuTable
from cardtable.games.ohanami.deck import COLOUR_OF
from cardtable.games.ohanami.game import Keep, OhanamiState, Place
from cardtable.locales import message

JSON = dict[str, Any]


@dataclass(frozen=True)
class Reason:
    """One reason for a move: a message key (``hint.<kind>``) and the values it names."""

    kind: str
    values: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {"kind": self.kind, **self.values}

    def text(self, lang: str = "en", names: Sequence[str] = ()) -> str:
        shown = {k: _show(v, lang, names) for k, v in self.values.items()}
        return message(f"hint.{self.kind}", lang, **shown)


@dataclass(frozen=True)
class Hint:
    action: Action
    reasons: tuple[Reason, ...]

    def to_json(self, lang: str = "en", names: Sequence[str] = ()) -> JSON:
        return {
            "action": self.action.to_json(),
            "reasons": [r.to_json() for r in self.reasons],
            "text": self.text(lang, names),
        }

    def text(self, lang: str = "en", names: Sequence[str] = ()) -> str:
        said = "; ".join(r.text(lang, names) for r in self.reasons)
        return f"{describe(self.action, lang)}: {said}" if said else describe(self.action, lang)


def _show(value: Any, lang: str, names: Sequence[str] = ()) -> str:
    """Cards and players by name, colours and rows in words: ready for a message."""
    if not isinstance(value, dict):
        return str(value)
    if "card_codes" in value:
        return ", ".join(card_name(code, lang) for code in value["card_codes"])
    if "numbers" in value:
        return " ".join(str(n) for n in value["numbers"])
    if "seat" in value:
        seat = int(value["seat"])
        return names[seat] if seat < len(names) else f"#{seat + 1}"
    if "colours" in value:
        return ", ".join(f"{n} {message(f'colour.{c}', lang)}" for n, c in value["colours"])
    target = value.get("target")
    if target == "new":
        return message("hint.new_row", lang)
    if target == "discard":
        return message("hint.discard_pile", lang)
    return message("hint.row", lang, n=int(str(target)) + 1)


def card_name(code: str, lang: str = "en") -> str:
    card = CARDS[card_index(code)]
    return f"{card.name(lang)} ({code})"


def describe(action: Action, lang: str = "en") -> str:
    """The move itself, in words."""
    if isinstance(action, Play | Take):
        card = card_name(str(action.to_json()["card"]), lang)
        return message(f"hint.{action.to_json()['type']}", lang, card=card)
    if isinstance(action, KoiKoi):
        return "Koi-koi"
    if isinstance(action, Shobu):
        return "Shōbu"
    if isinstance(action, Keep):
        return message("hint.keep_action", lang)
    if isinstance(action, Place):
        return message("hint.place_action", lang)
    return str(action)


def hint(state: State, seat: int, *, bot: str = "hard", seed: int = 0) -> Hint:
    """What ``bot`` would play for ``seat`` now, and why (a copy is searched, not ``state``)."""
    action = make_agent(bot, state.game.id, seed=seed).choose(state.clone(), seat)
    return Hint(action, explain(state, seat, action))


def explain(state: State, seat: int, action: Action) -> tuple[Reason, ...]:
    if isinstance(state, FishingState):
        return _hanafuda(state, seat, action)
    if isinstance(state, OhanamiState):
        return _ohanami(action)
    return ()


# -- hanafuda ------------------------------------------------------------------------------
def _yaku_table(state: FishingState) -> YakuTable | None:
    return state.yaku_table if isinstance(state, KoiKoiState | HanaAwaseState) else None


def _hanafuda(state: FishingState, seat: int, action: Action) -> tuple[Reason, ...]:
    if isinstance(action, KoiKoi):
        return (Reason("koikoi"),)
    if isinstance(action, Shobu):
        points = state.yaku_total(seat) if isinstance(state, KoiKoiState) else 0
        return (Reason("shobu", {"points": points}),)
    if isinstance(action, Play):
        card, take = action.card, action.take
    elif isinstance(action, Take):
        card, take = state.pending, action.card
    else:
        return ()
    captured = chosen_capture(state, seat, card, take)
    if not captured:
        kind = "discard" if unseen_partners(state, seat, card) else "discard_safe"
        return (Reason(kind, {"card": {"card_codes": codes(1 << card)}}),)
    gained = captured | 1 << card
    reasons: list[Reason] = []
    table = _yaku_table(state)
    mine = state.piles[seat]
    for other in range(state.n):  # hana-awase 88 captures from the others' piles too
        stolen = gained & state.piles[other]
        if other != seat and stolen:
            cards = {"card_codes": codes(stolen)}
            reasons.append(Reason("steals", {"cards": cards, "player": {"seat": other}}))
    if table is not None:
        before = {y.key for y in table.evaluate(mine, state.table)}
        for made in table.evaluate(mine | gained, state.table & ~gained):
            if made.key not in before:
                reasons.append(Reason("makes", {"yaku": made.name, "points": made.points}))
        if not any(r.kind == "makes" for r in reasons):
            near = [
                row for row in table.rows
                if row.counts & gained
                and row.missing(mine | gained) == 1 and row.missing(mine) > 1
            ]  # fmt: skip
            if near:
                best = max(near, key=lambda row: row.points)
                reasons.append(Reason("near", {"yaku": best.name}))
        for other in range(state.n):
            if other == seat:
                continue
            theirs = state.piles[other]
            threatened = [
                row for row in table.rows
                if row.counts & gained and 0 < row.missing(theirs) <= 2
                and not row.requires & (mine | gained) & ~theirs
            ]  # fmt: skip
            if threatened:
                best = max(threatened, key=lambda row: row.points)
                reasons.append(Reason("denies", {"yaku": best.name, "player": {"seat": other}}))
                break
    cards = {"card_codes": codes(gained)}
    reasons.append(Reason("captures", {"cards": cards, "points": value_of(gained)}))
    return tuple(reasons)


# -- Ohanami -------------------------------------------------------------------------------
def _ohanami(action: Action) -> tuple[Reason, ...]:
    if isinstance(action, Keep):
        colours = {"colours": [[n, COLOUR_OF[n]] for n in action.cards]}
        return (Reason("keep", {"cards": {"numbers": list(action.cards)}, "colours": colours}),)
    if isinstance(action, Place):
        return tuple(
            Reason("place", {"card": card, "target": {"target": target}})
            for card, target in action.placements
        )
    return ()
