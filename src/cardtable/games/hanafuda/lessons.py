"""The hanafuda guided first games (``Capability.LESSON``): a fixed deal in which each idea
comes up in order, every scripted move, and the coach's lines (``lesson.*`` keys in this
package's catalogues).

The ideas the hanafuda games share are declared once (:data:`IDEAS`): matching by month,
two matches and the choice, drawing from the stock, a threat denied, each kind of card
and its yaku, the first yaku, koi-koi or stop under risk.

>>> from cardtable.core.game import Capability, spec_of
>>> lesson = spec_of("koi-koi").capability(Capability.LESSON)
>>> [step.idea for step in lesson.steps_of(0)]
['match', 'choice', 'draw', 'threat', 'ribbons', 'plains', 'yaku', 'risk']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.core.actions import Action
from cardtable.core.lesson import Condition, Lesson, Step, found, read_lazily
from cardtable.core.state import State
from cardtable.games.hanafuda.actions import KoiKoi, Play, Shobu, Take
from cardtable.games.hanafuda.deck import (
    CARDS,
    CODES,
    MONTH_MASK_OF,
    Kind,
    card_index,
    cards,
    kind_name,
)
from cardtable.games.hanafuda.yaku import YakuDef, table_for
from cardtable.locales import message

JSON = dict[str, Any]


def full_deal(
    dealer: int, hands: Sequence[str], table: str, stock_top: str, hand_size: int
) -> JSON:
    """A whole deal from the cards that matter: the stock's top cards as given, the rest
    of the deck under them in card order (every card placed once)."""
    given = [code for part in (*hands, table, stock_top) for code in part.split()]
    rest = [code for code in CODES if code not in given]
    split = [hand.split() for hand in hands]
    assert all(len(hand) == hand_size for hand in split), "every hand holds hand_size cards"
    return {
        "dealer": dealer,
        "hands": split,
        "table": table.split(),
        "stock": [*stock_top.split(), *rest],
    }


def _table_matches(state: State, card: int) -> int:
    table = int(getattr(state, "table", 0))
    return (table & MONTH_MASK_OF[card]).bit_count()


def _after(state: State, seat: int, action: Action) -> State:
    after = state.clone()
    after.apply(seat, action)
    return after


def _yaku_made(state: State, seat: int, action: Action) -> bool:
    """The learner's own capture completes a yaku (the stock's card, unseen, plays no part:
    the coach names the yaku before the move)."""
    return bool(_new_yaku(state, seat, _captured(state, seat, action), "en"))


def _stock_took(state: State, seat: int, action: Action) -> bool:
    """The stock's card turned over after this move and took a card (or, a Take, the
    player chooses which of two it takes)."""
    if isinstance(action, Take):
        return True
    before = len(state.view(seat).get("events") or ())
    after = _after(state, seat, action).view(seat).get("events") or []
    return any(  # only this move's events: the round's earlier ones are kept in the view
        e.get("seat") == seat and e.get("from") == "stock" and e.get("captured")
        for e in after[before:]
    )


def _steals(state: State, seat: int, action: Action) -> bool:
    """The move takes a card from an opponent's captured pile (Hana-awase 88's rule)."""
    take = getattr(action, "take", None) if isinstance(action, Play) else None
    if take is None:
        return False
    piles = state.view(seat).get("piles") or []
    return any(CODES[take] in pile for n, pile in enumerate(piles) if n != seat)


def card_named(code: str, lang: str) -> str:
    """A card as the coach names it: ``Crane (pine, light)``; a plain card ``Pine (plain)``."""
    card = CARDS[card_index(code)]
    plant, kind, name = card.plant.name(lang), kind_name(card.kind, lang), card.name(lang)
    # Polish and Russian quote the name, which then stays as it is in any sentence
    quoted = {"pl": f"„{name}”", "ru": f"«{name}»"}.get(lang, name)
    return f"{quoted} ({kind})" if name == plant else f"{quoted} ({plant.lower()}, {kind})"


def _month_of(code: str, lang: str) -> str:
    return CARDS[card_index(code)].plant.name(lang).lower()


def _value(code: str) -> int:
    return CARDS[card_index(code)].value


def _new_yaku(state: State, seat: int, codes_: Sequence[str], lang: str) -> str:
    """The yaku the learner's pile makes once ``codes_`` join it (none already made), named
    as the score lines name them; the pile is open, so nothing hidden is read."""
    table = table_for(state.game.options)
    if table is None:
        return ""
    pile = cards((state.view(seat).get("piles") or [[]] * (seat + 1))[seat])
    before = {y.key for y in table.evaluate(pile)}
    made = [y.key for y in table.evaluate(pile | cards(codes_)) if y.key not in before]
    return ", ".join(getattr(table.name_of(key), lang, table.name_of(key).en) for key in made)


def _captured(state: State, seat: int, action: Action) -> list[str]:
    """The cards the move itself captures, played card first (none when it is laid):
    what the learner sees, never the stock's next card."""
    view = state.view(seat)
    if isinstance(action, Take):
        return [str(view.get("flipped") or ""), CODES[action.card]]
    if not isinstance(action, Play):
        return []
    played = CODES[action.card]
    if action.take is not None:
        return [played, CODES[action.take]]
    same = [str(c) for c in view.get("table") or [] if str(c)[:2] == played[:2]]
    return [played, *same] if len(same) in (1, 3) else []


def values(state: State, seat: int, action: Action | None, lang: str) -> dict[str, Any]:
    """The named values of the hanafuda coach's lines, from the state before ``action``:
    ``card`` (the card played, or the stock's card a Take places), ``month``, ``taken`` and
    ``points`` (the two cards' card points), ``source`` (the table or whose pile),
    ``drawn`` (the stock's card turned over, for a Take),
    ``yaku`` (made by the move), for a koi-koi call ``threat`` (the yaku an opponent is one
    card from); once the round is over ``cards``, ``par``, ``score`` (the
    game's) and ``round`` (this round's lines)."""
    view = state.view(seat)
    out: dict[str, Any] = {"players": view.get("players", state.num_players)}
    if state.is_over or action is None:
        out["cards"] = (view.get("pile_values") or [0] * (seat + 1))[seat]
        out["par"] = 264 // int(out["players"])
        out["score"] = (view.get("scores") or [0] * (seat + 1))[seat]
        lines = (view.get("last_round") or {}).get("lines") or []
        out["round"] = sum(int(line["points"]) for line in lines if line.get("seat") == seat)
        return out
    if isinstance(action, KoiKoi | Shobu):  # the call: the yaku an opponent is close to
        near = [row.said() for _other, row in _near_yaku(state, seat)]
        out["threat"] = ", ".join(getattr(name, lang, name.en) for name in near)
        return out
    captured = _captured(state, seat, action)
    played = CODES[action.card] if isinstance(action, Play) else str(view.get("flipped") or "")
    taken = captured[1:]
    source = message("lesson.hanafuda.from_table", lang)
    for n, pile in enumerate(view.get("piles") or []):
        if n != seat and any(code in pile for code in taken):
            source = message("lesson.hanafuda.from_pile", lang, n=n + 1)
    if played:
        out |= {"card": card_named(played, lang), "month": _month_of(played, lang)}
    out |= {
        "taken": ", ".join(card_named(code, lang) for code in taken),
        "taken_points": sum(_value(code) for code in taken),
        "points": sum(_value(code) for code in captured),
        "source": source,
        "yaku": _new_yaku(state, seat, captured, lang) if captured else "",
    }
    if isinstance(action, Take):  # the stock's card, turned over for all to see
        out["drawn"] = out["card"]
    return out


def _big_capture(state: State, seat: int, action: Action) -> bool:
    """The move captures one card, and one of the two is worth 10 or more."""
    captured = _captured(state, seat, action)
    return len(captured) == 2 and max(_value(code) for code in captured) >= 10


def _near_yaku(state: State, seat: int) -> list[tuple[int, YakuDef]]:
    """Each opponent's yaku one card away that it can still make, as (seat, row): what
    the learner may deny it, or must fear when it plays on (piles are open: nothing hidden
    is read)."""
    table = table_for(state.game.options)
    if table is None:
        return []
    piles = [cards(pile) for pile in state.view(seat).get("piles") or []]
    return [
        (other, table.row(near.key))
        for other, pile in enumerate(piles) if other != seat
        for near in table.progress(pile, piles[seat])
        if near.missing == 1
    ]  # fmt: skip


def _denies(state: State, seat: int, action: Action) -> bool:
    """The move takes a card an opponent needs for a yaku it is one card from."""
    taken = cards(_captured(state, seat, action))
    return any(row.counts & taken for _other, row in _near_yaku(state, seat))


def _captures_kind(kind: Kind, only: bool = False) -> Condition:
    """The move captures a card of ``kind`` (``only``: nothing but such cards)."""

    def shows(state: State, seat: int, action: Action) -> bool:
        kinds = [CARDS[card_index(code)].kind for code in _captured(state, seat, action)]
        return bool(kinds) and (all(k == kind for k in kinds) if only else kind in kinds)

    return shows


#: the ideas every hanafuda lesson brings up, each with the condition that shows it
IDEAS: dict[str, Condition] = {
    # a played card finds exactly one card of its month on the table
    "match": lambda s, n, a: isinstance(a, Play) and _table_matches(s, a.card) == 1,
    # two cards of the month lie there: the player chooses which to take
    "choice": lambda s, n, a: isinstance(a, Play) and a.take is not None and not _steals(s, n, a),
    # after the played card, the stock's top card turns over and takes a card too
    "draw": _stock_took,
    # a card of the month taken from an opponent's pile
    "steal": _steals,
    # the move takes a card worth 10 or more: what the round's count is made of
    "points": lambda s, n, a: isinstance(a, Play) and _big_capture(s, n, a),
    # the move completes the player's first yaku
    "yaku": _yaku_made,
    # the move takes a card an opponent needs for a yaku it is one card from
    "threat": _denies,
    # the move captures a ribbon: the ribbon yaku (Tanzaku, Akatan, Aotan)
    "ribbons": _captures_kind(Kind.RIBBON),
    # the move captures plain cards only: Kasu, ten of them
    "plains": _captures_kind(Kind.PLAIN, only=True),
    # koi-koi's call under risk: an opponent is one card from a yaku, so play on or stop
    "risk": lambda s, n, a: isinstance(a, (KoiKoi, Shobu)) and bool(_near_yaku(s, n)),
}


def _play(card: str, take: str | None = None) -> JSON:
    return {"type": "play", "card": card, "take": take}


def _koikoi() -> Lesson:
    """Koi-koi's guided round: a light, the sake cup chosen, the stock's choice, a threat
    stopped (the opponent's Ino-shika-chō), a ribbon and plains with their yaku, then
    Tsukimi-zake and the call under risk: the opponent is one card from Aotan, so stop."""
    deal = full_deal(
        0,
        ["01-1 09-4 06-3 03-2 04-3 08-1 02-3 12-2", "07-1 10-1 09-2 10-4 08-4 06-2 11-2 12-3"],
        "01-3 09-1 09-3 05-3 05-4 06-1 03-3 04-4",
        "07-3 10-3 05-1 10-2 02-1 07-4 01-4 03-4 06-4 07-2 11-3",
        hand_size=8,
    )
    script = (
        Step(0, _play("01-1"), "lesson.koi-koi.match", "match"),
        Step(1, _play("07-1")),
        Step(0, _play("09-4", "09-1"), "lesson.koi-koi.choice", "choice"),
        Step(0, {"type": "take", "card": "05-3"}, "lesson.koi-koi.draw", "draw"),
        Step(1, _play("10-1")),
        Step(0, _play("06-3"), "lesson.koi-koi.threat", "threat"),
        Step(1, _play("09-2")),
        Step(0, _play("03-2"), "lesson.koi-koi.ribbons", "ribbons"),
        Step(1, _play("10-4")),
        Step(0, _play("04-3"), "lesson.koi-koi.plains", "plains"),
        Step(1, _play("08-4")),
        Step(0, _play("08-1"), "lesson.koi-koi.yaku", "yaku"),
        Step(0, {"type": "shobu"}, "lesson.koi-koi.risk", "risk"),
    )
    return Lesson(
        game="koi-koi",
        options={"rounds": 1},
        seed=26,
        deals=(deal,),
        script=script,
        ideas=IDEAS,
        values=values,
        done="lesson.koi-koi.done",
    )


def _plain_line(state: State, action: Action) -> str:
    """The line of a learner's move that brings up no idea: what the card does here."""
    if isinstance(action, Take):
        return "lesson.hanafuda.play.stock"
    if isinstance(action, Play) and (action.take is not None or _table_matches(state, action.card)):
        return "lesson.hanafuda.play.take"
    return "lesson.hanafuda.play.lay"


#: the line at the round's end, by game (the default: the family's)
DONE = {"bakappana": "lesson.bakappana.done"}


def _searched(game_id: str) -> Lesson:
    """A lesson found by ``lesson_search`` (its seed and moves are data in ``lessons/``):
    each idea's step says the idea's line, the learner's other moves what their card does
    (the script is played once to see it); every line is filled by :func:`values`."""
    data = found(__package__, game_id)
    plain = Lesson(game=game_id, options=data["options"], seed=data["seed"], script=())
    state = plain.new_state()
    script: list[Step] = []
    for step in data["script"]:
        action = state.game.parse_action(step["action"])
        if "idea" in step:
            # the stock's card taking one of two is its own line (a Take: no card played)
            # a card laid on the table before the stock's turn says so
            lay = _plain_line(state, action) == "lesson.hanafuda.play.lay"
            take = "_stock" if isinstance(action, Take) else "_lay" if lay else ""
            say = f"lesson.hanafuda.idea.{step['idea']}{take if step['idea'] == 'draw' else ''}"
        else:
            say = _plain_line(state, action) if step["seat"] == plain.learner else ""
        script.append(Step(step["seat"], step["action"], say, step.get("idea", "")))
        state.apply(step["seat"], action)
    return Lesson(
        game=game_id,
        options=data["options"],
        seed=data["seed"],
        script=tuple(script),
        ideas=IDEAS,
        values=values,
        play_on="lesson.hanafuda.play_on",
        done=DONE.get(game_id, "lesson.hanafuda.done"),
    )


KOIKOI = _koikoi()
#: the lessons found by the search, read when first asked for (the search imports IDEAS)
__getattr__ = read_lazily(
    BAKAPPANA=lambda: _searched("bakappana"),
    HANA_AWASE=lambda: _searched("hana-awase"),
    HANA_AWASE_88=lambda: _searched("hana-awase-88"),
)
