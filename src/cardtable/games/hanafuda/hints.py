"""Why the hard bot's hanafuda move is good, as reasons a player can check (the ``HINTS``
capability): captures, yaku made or brought nearer, yaku denied, steals, safe discards,
the risk of a koi-koi call; card points only in the games where they score. A yaku is
named as score lines name it (:meth:`YakuTable.name_of`): the romaji, and in Polish and
Russian its meaning beside it."""

from __future__ import annotations

from typing import Any

from cardtable.agents.hints import Reason
from cardtable.core.actions import Action
from cardtable.core.state import State
from cardtable.games.hanafuda.actions import KoiKoi, Play, Shobu, Take
from cardtable.games.hanafuda.bots.strategist import chosen_capture, unseen_partners
from cardtable.games.hanafuda.deck import CARDS, card_index, codes, value_of
from cardtable.games.hanafuda.fishing import FishingState
from cardtable.games.hanafuda.koikoi import KoiKoiState
from cardtable.games.hanafuda.options import card_points_score
from cardtable.games.hanafuda.yaku import YakuTable
from cardtable.locales import message


def card_name(code: str, lang: str = "en", codes: bool = False) -> str:
    """A card by its name, ``Geese``; with ``codes`` (the terminal, where the player types
    them) ``Geese (08-2)``."""
    name = CARDS[card_index(code)].name(lang)
    return f"{name} ({code})" if codes else name


def describe(action: Action, lang: str, codes: bool = False) -> str | None:
    if isinstance(action, Play | Take):
        card = card_name(str(action.to_json()["card"]), lang, codes)
        return message(f"hint.{action.to_json()['type']}", lang, card=card)
    if isinstance(action, KoiKoi | Shobu):
        return message(f"hint.{_call_key(action)}_action", lang)
    return None


def _call_key(action: KoiKoi | Shobu) -> str:
    """The catalogue's word for a call: ``koikoi`` or ``shobu``."""
    return "koikoi" if isinstance(action, KoiKoi) else "shobu"


def named(action: Action, lang: str) -> str | None:
    """The move without its verb: the card played or taken, or the call ("koi-koi")."""
    if isinstance(action, Play | Take):
        return card_name(str(action.to_json()["card"]), lang)
    if isinstance(action, KoiKoi | Shobu):
        return message(f"hint.{_call_key(action)}_call", lang)
    return None


def show(value: Any, lang: str, codes: bool = False) -> str | None:
    if isinstance(value, dict) and "card_codes" in value:
        return ", ".join(card_name(code, lang, codes) for code in value["card_codes"])
    return None


def _threat(state: FishingState, seat: int, table: YakuTable) -> Reason | None:
    """An opponent one card from a yaku it can still make: the risk of playing on."""
    for other in range(state.n):
        if other == seat:
            continue
        elsewhere = state.piles[seat]  # the cards it can no longer take from the table
        near = [p for p in table.progress(state.piles[other], elsewhere) if p.missing == 1]
        if near:
            best = max(near, key=lambda p: table.row(p.key).points)
            return Reason("threat", {"yaku": table.name_of(best.key), "player": {"seat": other}})
    return None


def _call(state: FishingState, seat: int, action: KoiKoi | Shobu) -> tuple[Reason, ...]:
    """Koi-koi or shōbu, said with its risk: whether an opponent is one card from a yaku."""
    table = state.yaku_rows()
    threat = None if table is None else _threat(state, seat, table)
    if isinstance(action, Shobu):
        points = state.yaku_total(seat) if isinstance(state, KoiKoiState) else 0
        shobu = Reason("shobu", {"points": points})
        return (shobu,) if threat is None else (shobu, threat)
    if threat is not None:
        return (Reason("koikoi_risky"), threat)
    return (Reason("koikoi", {"count": state.hands[seat].bit_count()}),)


def _progress(table: YakuTable, mine: int, gained: int, elsewhere: int) -> Reason | None:
    """How far the capture brings a yaku it adds to: one card away, or ``2 of 3 for
    Ino-shika-chō`` (of the yaku it can still make, the nearest)."""
    advanced = [
        p for p in table.progress(mine | gained, elsewhere)
        if table.row(p.key).counts & gained
    ]  # fmt: skip
    if not advanced:
        return None
    best = min(advanced, key=lambda p: (p.missing, -table.row(p.key).points))
    name = table.name_of(best.key)
    if best.missing == 1:
        return Reason("near", {"yaku": name})
    return Reason("progress", {"yaku": name, "have": best.have, "need": best.need})


def _steals(state: FishingState, seat: int, gained: int) -> list[Reason]:
    """The cards a capture takes from the others' piles (Hana-awase 88 captures there too)."""
    reasons = []
    for other in range(state.n):
        stolen = gained & state.piles[other]
        if other != seat and stolen:
            cards = {"card_codes": codes(stolen)}
            reasons.append(Reason("steals", {"cards": cards, "player": {"seat": other}}))
    return reasons


def _yaku_reasons(state: FishingState, seat: int, gained: int, table: YakuTable) -> list[Reason]:
    """What a capture of ``gained`` does for yaku: those it makes, else the one it brings
    nearest; and the opponent's yaku it denies."""
    mine = state.piles[seat]
    before = {y.key for y in table.evaluate(mine, state.table)}
    reasons = [
        Reason("makes", {"yaku": table.name_of(made.key), "points": made.points})
        for made in table.evaluate(mine | gained, state.table & ~gained)
        if made.key not in before
    ]
    if not reasons:
        elsewhere = 0  # the cards in the other piles, out of this seat's reach
        for pile in state.piles:
            elsewhere |= pile
        near = _progress(table, mine, gained, elsewhere & ~(mine | gained))
        if near is not None:
            reasons.append(near)
    denied = _denial(state, seat, gained, table)
    return reasons if denied is None else [*reasons, denied]


def _denial(state: FishingState, seat: int, gained: int, table: YakuTable) -> Reason | None:
    """The best yaku an opponent is well on the way to (half made, at most two cards short,
    still open to it) that the capture takes a card of."""
    for other in range(state.n):
        if other == seat:
            continue
        theirs = table.progress(state.piles[other], state.piles[seat])
        threatened = [table.row(p.key) for p in theirs if table.row(p.key).counts & gained]
        if threatened:
            best = max(threatened, key=lambda row: row.points)
            return Reason("denies", {"yaku": table.name_of(best.key), "player": {"seat": other}})
    return None


def explain(state: State, seat: int, action: Action) -> tuple[Reason, ...]:
    """Why ``action`` is good, in what scores in this game: yaku made, brought nearer or
    denied everywhere; card points only where they count (``card_points_score``)."""
    assert isinstance(state, FishingState)
    if isinstance(action, KoiKoi | Shobu):
        return _call(state, seat, action)
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
    reasons = _steals(state, seat, gained)
    table = state.yaku_rows()
    if table is not None:
        reasons += _yaku_reasons(state, seat, gained, table)
    cards = {"card_codes": codes(gained)}
    if card_points_score(state.game.options):
        reasons.append(Reason("captures_worth", {"cards": cards, "points": value_of(gained)}))
    elif reasons:  # koi-koi: the cards' values score nothing, so none is cited
        reasons.append(Reason("captures", {"cards": cards}))
    else:  # no yaku nearer, none denied: said so, not a bare "takes" with no why
        reasons.append(Reason("captures_nothing_better", {"cards": cards}))
    return tuple(reasons)
