"""Drawing hanafuda in the terminal: coloured cards, the table, piles, hand and moves."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardtable.core.actions import Action
from cardtable.core.game import spec_of
from cardtable.core.results import RoundResult
from cardtable.core.state import State
from cardtable.core.terminal import TerminalFrontEnd, score_table
from cardtable.games.hanafuda.actions import KoiKoi, Play, Shobu, Take
from cardtable.games.hanafuda.deck import (
    CARDS,
    Kind,
    card_index,
    iter_cards,
    kind_name,
    value_of,
)
from cardtable.games.hanafuda.events import Source
from cardtable.games.hanafuda.fishing import FishingState, Phase
from cardtable.games.hanafuda.hana_awase import HanaAwaseState
from cardtable.games.hanafuda.koikoi import KoiKoiState
from cardtable.games.hanafuda.options import card_points_score
from cardtable.games.hanafuda.yaku import Yaku
from cardtable.locales import catalogue, message

KIND_STYLE = {
    Kind.LIGHT: "bold black on yellow",
    Kind.ANIMAL: "bold white on red",
    Kind.RIBBON: "bold white on magenta",
    Kind.PLAIN: "black on bright_green",
}
KIND_MARK = {Kind.LIGHT: "★", Kind.ANIMAL: "◆", Kind.RIBBON: "▮", Kind.PLAIN: "·"}
_SOURCE_VERBS = {
    Source.HAND: "plays",
    Source.STOCK: "flips",
    Source.STOCK_KEPT: "flips_keeps",
}


def said(key: str, lang: str, **values: object) -> str:
    """A word of the hanafuda terminal (games/hanafuda/locales) in ``lang``."""
    return message(f"hanafuda.term.{key}", lang, **values)


#: a card's label (``cardtable play --labels``) by its index, or None for no labels
Labeller = Callable[[int], str] | None


def card_label(index: int, lang: str = "en", points: bool = True) -> str:
    """Month, kind and (where the game counts them) points: ``3 · light · 20``.

    >>> card_label(8, "pl"), card_label(8, "ru", points=False)
    ('3 · jasna · 20 pkt', '3 · яркая')
    """
    card = CARDS[index]
    parts = [str(card.month), kind_name(card.kind, lang)]
    if points:
        parts.append(said("point_one" if card.value == 1 else "point_many", lang, value=card.value))
    return " · ".join(parts)


def card_chip(index: int, lang: str = "en", label: Labeller = None) -> Text:
    """``[03-1 ★ Curtain]`` in its kind's colours (with its label after it, dimmed)."""
    card = CARDS[index]
    chip = Text(f" {card.code} {KIND_MARK[card.kind]} {card.name(lang)} ", KIND_STYLE[card.kind])
    if label is not None:
        chip.append(f" {label(index)}", "dim")
    return chip


def card_long(index: int, lang: str = "en", points: bool = True) -> Text:
    """The chip (the name in the player's language only), the plant, kind and, where the
    game counts them (``points``; not koi-koi), the card's points: for menus.

    >>> card_long(8, "en").plain, card_long(8, "en", points=False).plain
    (' 03-1 ★ Curtain  — cherry light, 20 pts', ' 03-1 ★ Curtain  — cherry light')
    """
    card = CARDS[index]
    plant, kind = card.plant.name(lang).lower(), kind_name(card.kind, lang)
    text = card_chip(index, lang)
    if not points:
        text.append(said("card_kind", lang, plant=plant, kind=kind), "dim")
        return text
    value = said("point_one" if card.value == 1 else "point_many", lang, value=card.value)
    text.append(said("card_long", lang, plant=plant, kind=kind, points=value), "dim")
    return text


def chips(mask: int, lang: str, empty: str = "—", label: Labeller = None) -> Text:
    """Cards in a line (for narration, where a line is short)."""
    out = Text()
    for index in iter_cards(mask):
        if out:
            out.append(" ")
        out.append_text(card_chip(index, lang, label))
    return out or Text(empty, "dim")


def chip_row(
    label: str, mask: int, lang: str, empty: str = "—", labeller: Labeller = None
) -> RenderableType:
    """A labelled row of cards that wraps between cards, never inside one."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(width=8, no_wrap=True)
    grid.add_column()
    items = [card_chip(i, lang, labeller) for i in iter_cards(mask)] or [Text(empty, "dim")]
    grid.add_row(Text(label, "bold"), Columns(items, padding=(0, 1)))
    return grid


def cards_of(codes_: Sequence[str]) -> int:
    return sum(1 << card_index(code) for code in codes_)


def yaku_line(made: Sequence[Yaku]) -> Text:
    text = Text("  ")
    for y in made:
        text.append(f" {y.name} {y.points} ", "bold black on bright_cyan")
        text.append(" ")
    return text


def pile_summary(mask: int, lang: str) -> Text:
    """A captured pile, lights first, compactly: codes coloured by kind."""
    out = Text()
    for kind in Kind:
        group = [i for i in iter_cards(mask) if CARDS[i].kind is kind]
        for index in group:
            out.append(CARDS[index].code, KIND_STYLE[kind])
            out.append(" ")
    return out or Text("—", "dim")


class HanafudaRenderer:
    def __init__(self, names: Sequence[str], lang: str = "en") -> None:
        self.names = list(names)
        self.lang = lang
        self.labels = False  # ``cardtable play --labels``: each card's month, kind, points

    def labeller(self, state: FishingState) -> Labeller:
        """How this table labels its cards (None without --labels); points only in the
        games that count card values (not koi-koi)."""
        if not self.labels:
            return None
        points = card_points_score(state.game.options)
        return lambda index: card_label(index, self.lang, points)

    # -- the board ---------------------------------------------------------------------
    def board(self, state: State, seat: int | None, reveal: bool = False) -> RenderableType:
        assert isinstance(state, FishingState)
        lang = self.lang
        labels = self.labeller(state)
        title = said(
            "round_title",
            lang,
            title=spec_of(state.game.id).title,
            number=state.round_no,
            rounds=state.game.options.rounds,  # type: ignore[attr-defined]
            dealer=self.names[state.dealer],
        )
        scores = Table.grid(padding=(0, 2))
        scores.add_column()
        scores.add_column(justify="right")
        scores.add_column(justify="right")
        scores.add_column()
        for other in range(state.n):
            marker = "▶ " if other in state.to_move else "  "
            hand = state.hands[other].bit_count()
            scores.add_row(
                Text(marker + self.names[other], "bold" if other == seat else ""),
                Text(said("match", lang, points=f"{state.totals[other]:+d}")),
                self._pile_score(state, other, lang),
                Text(said("in_hand", lang, count=hand)) + pile_summary(state.piles[other], lang),
            )
            made = state.pile_yaku(other)
            if made:
                scores.add_row("", "", "", yaku_line(made))
        parts: list[RenderableType] = [
            scores,
            Text(""),
            chip_row(said("table", lang), state.table, lang, said("empty", lang), labels),
            Text(said("stock", lang, count=len(state.stock) - state.stock_pos), "dim"),
        ]
        if state.pending >= 0:
            flipped = said("flipped", lang)
            parts.append(Text.assemble((flipped, "bold"), card_chip(state.pending, lang, labels)))
        if seat is not None:
            parts.append(chip_row(said("hand", lang), state.hands[seat], lang, labeller=labels))
        if reveal:
            for other in range(state.n):
                if other != seat:
                    parts.append(chip_row(f"{self.names[other]}", state.hands[other], self.lang))
        return Panel(Group(*parts), title=title, title_align="left", border_style="cyan")

    @staticmethod
    def _pile_score(state: FishingState, seat: int, lang: str) -> Text:
        if isinstance(state, KoiKoiState):  # koi-koi scores yaku only
            calls = state.calls[seat]
            text = said("yaku_total", lang, points=state.yaku_total(seat))
            called = said("calls", lang, calls=calls) if calls else ""
            return Text(text + called, "bold" if calls else "")
        return Text(said("pile", lang, points=value_of(state.piles[seat])))

    # -- moves -------------------------------------------------------------------------
    def describe(self, state: State, seat: int, action: Action) -> Text:
        assert isinstance(state, FishingState)
        if isinstance(action, Play):
            points = card_points_score(state.game.options)
            text = Text(said("play", self.lang)) + card_long(action.card, self.lang, points)
            options = state.capture_options(seat, action.card)
            matches = options[0] if len(options) == 1 else 0
            if action.take is not None:
                matches = next((o for o in options if o & -o == 1 << action.take), 0)
            if matches:
                text.append(said("takes", self.lang), "bold green")
                text.append_text(chips(matches, self.lang))
                stolen = matches & ~state.table
                if stolen:
                    text.append(said("from_pile", self.lang), "bold yellow")
                text.append(self._gain(state, seat, matches | 1 << action.card), "bold green")
            else:
                text.append(said("to_table", self.lang), "dim")
            return text
        if isinstance(action, Take):
            points = card_points_score(state.game.options)
            return Text(said("take", self.lang)) + card_long(action.card, self.lang, points)
        if isinstance(action, KoiKoi):
            return Text(said("koikoi", self.lang), "bold")
        if isinstance(action, Shobu):
            return Text(said("shobu", self.lang), "bold")
        return Text(str(action))

    @staticmethod
    def _gain(state: FishingState, seat: int, gained: int) -> str:
        """What a capture scores, in what this game scores: its card points where they
        count (`` (+21)``), else the yaku it completes (`` (Tsukimi-zake)``) or nothing."""
        if card_points_score(state.game.options):
            return f" (+{value_of(gained)})"
        table = state.yaku_rows()
        if table is None:
            return ""
        mine = state.piles[seat]
        before = {y.key for y in table.evaluate(mine, state.table)}
        after = table.evaluate(mine | gained, state.table & ~gained)
        made = [y.name for y in after if y.key not in before]
        return f" ({', '.join(made)})" if made else ""

    def menu(self, state: State, seat: int, actions: Sequence[Action]) -> list[Text] | None:
        return None  # the numbered list of moves

    def match_input(self, state: State, actions: Sequence[Action], typed: str) -> list[int]:
        """Indices of actions a typed card code refers to (``03-1`` or ``3-1``)."""
        try:
            index = card_index(typed)
        except ValueError:
            return []
        found = []
        for number, action in enumerate(actions):
            played = isinstance(action, Play) and index in (action.card, action.take)
            taken = isinstance(action, Take) and action.card == index
            if played or taken:
                found.append(number)
        return found

    def typed_action(self, state: State, seat: int, typed: str) -> Action | None:
        """The move a typed card code names when it is none of the legal ones (the CLI
        then says why the rules refuse it)."""
        try:
            index = card_index(typed)
        except ValueError:
            return None
        if isinstance(state, FishingState) and state.phase is Phase.TAKE:
            return Take(index)
        return Play(index)

    def prompt_title(self, state: State, seat: int) -> str:
        assert isinstance(state, FishingState)
        if state.phase is Phase.TAKE:
            return said("prompt_take", self.lang)
        if state.phase is Phase.DECIDE:
            made = ", ".join(f"{y.name} {y.points}" for y in state.pile_yaku(seat))
            return said("prompt_decide", self.lang, made=made)
        return said("prompt_play", self.lang)

    # -- what happened -------------------------------------------------------------------
    def mark(self, state: State) -> tuple[int, int]:
        assert isinstance(state, FishingState)
        return (state.round_no, len(state.capture_log))  # a count: nothing to unpack

    def narrate(self, state: State, mark: tuple[int, int]) -> list[Text]:
        assert isinstance(state, FishingState)
        round_before, count = mark
        # A finished round's events move to previous_events when the next round is dealt.
        events = state.events if state.round_no == round_before else state.previous_events
        lines = []
        labels = self.labeller(state)
        for event in events[count:]:
            text = Text(f"{self.names[event.seat]}: ", "bold")
            text.append(said(_SOURCE_VERBS[event.source], self.lang))
            text.append_text(card_chip(event.card, self.lang, labels))
            if event.captured:
                text.append(said("narrate_takes", self.lang), "green")
                text.append_text(chips(event.captured, self.lang, label=labels))
            else:
                text.append(said("narrate_table", self.lang), "dim")
            lines.append(text)
        return lines

    def opening(self, state: State) -> list[Text]:
        """How the dealer was chosen and any misdeal, at the start of a round."""
        assert isinstance(state, FishingState)
        lang = self.lang
        you = message("term.you", lang)
        lines = []
        draw = state.dealer_draw
        if draw is not None and state.round_no == 1 and not state.log:
            for number, drawn in enumerate(draw.passes):
                text = Text(said("dealer_draw" if number == 0 else "draw_again", lang), "bold")
                for seat, card in drawn:
                    text.append(f"{self.names[seat]} ")
                    text.append_text(card_chip(card, self.lang))
                    text.append("  ")
                lines.append(text)
        dealer = self.names[state.dealer]
        key = "round_you_deal" if dealer == you else "round_deals"
        lines.append(Text(said(key, lang, number=state.round_no, dealer=dealer), "bold"))
        if isinstance(state, HanaAwaseState):
            for line in state.teyaku_lines:
                if line.points > 0:
                    who = self.names[line.seat]
                    plains = line.rule.removeprefix("teyaku:")
                    key = "teyaku_you" if who == you else "teyaku"
                    text = Text(said(key, lang, who=who, plains=plains), "bold")
                    text.append_text(chips(cards_of(line.cards), lang))
                    text.append(said("collects", lang, points=line.points), "green")
                    lines.append(text)
        for reason, table in state.misdeals:
            known = catalogue(lang).get(f"hanafuda.term.misdeal.{reason}", reason)
            lines.append(
                Text.assemble(
                    (said("dealt_again", lang, reason=known), "yellow"), chips(table, lang)
                )
            )
        return lines

    def announce(self, seat: int, action: Action) -> Text | None:
        """A decision said aloud (card plays are narrated from the events)."""
        if isinstance(action, KoiKoi):
            return Text(said("calls_koikoi", self.lang, name=self.names[seat]), "bold magenta")
        if isinstance(action, Shobu):
            return Text(said("calls_shobu", self.lang, name=self.names[seat]), "bold magenta")
        return None

    def round_summary(self, result: RoundResult) -> RenderableType:
        known = result.outcome in ("drawn", "exhausted", "lucky_hand")
        outcome = said(f"outcome.{result.outcome}", self.lang) if known else ""
        title = said("round_result", self.lang, number=result.number, outcome=outcome)
        return score_table(result, self.names, title, said("round_total", self.lang), self.lang)


FRONT_END = TerminalFrontEnd(renderer=HanafudaRenderer)
