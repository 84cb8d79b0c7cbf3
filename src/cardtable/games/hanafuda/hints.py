"""Why the hard bot's hanafuda move is good, as reasons a player can check (the ``HINTS``
capability): captures, yaku made or one card away, yaku denied, steals, safe discards."""

from __future__ import annotations

from typing import Any

from cardtable.agents.hints import Reason
from cardtable.core.actions import Action
from cardtable.core.state import State
from cardtable.games.hanafuda.actions import KoiKoi, Play, Shobu, Take
from cardtable.games.hanafuda.bots.strategist import chosen_capture, unseen_partners
from cardtable.games.hanafuda.deck import CARDS, card_index, codes, value_of
from cardtable.games.hanafuda.fishing import FishingState
from cardtable.games.hanafuda.hana_awase import HanaAwaseState
from cardtable.games.hanafuda.koikoi import KoiKoiState
from cardtable.games.hanafuda.yaku import YakuTable
from cardtable.locales import message


def card_name(code: str, lang: str = "en") -> str:
    card = CARDS[card_index(code)]
    return f"{card.name(lang)} ({code})"


def describe(action: Action, lang: str) -> str | None:
    if isinstance(action, Play | Take):
        card = card_name(str(action.to_json()["card"]), lang)
        return message(f"hint.{action.to_json()['type']}", lang, card=card)
    if isinstance(action, KoiKoi):
        return "Koi-koi"
    if isinstance(action, Shobu):
        return "Shōbu"
    return None


def show(value: Any, lang: str) -> str | None:
    if isinstance(value, dict) and "card_codes" in value:
        return ", ".join(card_name(code, lang) for code in value["card_codes"])
    return None


def _yaku_table(state: FishingState) -> YakuTable | None:
    return state.yaku_table if isinstance(state, KoiKoiState | HanaAwaseState) else None


def explain(state: State, seat: int, action: Action) -> tuple[Reason, ...]:
    assert isinstance(state, FishingState)
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
