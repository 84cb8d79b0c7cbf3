"""The fishing mechanics shared by every hanafuda game (games/hanafuda/pages/bakappana.md,
"The deck" to "End of the round"; each game's page says what it changes).

One round: deal (redealt on a misdeal), then turns in play order starting at the dealer.
A turn plays a hand card and then flips the top stock card; each is *resolved* against
the table: no card of its month -> it joins the table; one -> both are captured; two ->
the player chooses one; three -> all four are captured. With two players the stock
outlasts the hands, and the traditional rule plays stock-only turns until it is empty.

:class:`FishingState` implements that once; each game subclasses it and fills in the
hooks: how a round is scored (its pure function in :mod:`.scoring`, fed the round's facts),
who deals next, and (for koi-koi) decisions between turns.

Seats are fixed for the whole match (0..N-1) and play goes up the seat numbers from the
dealer, so seat ``(dealer + 1) % N`` plays second ("p1" in the rules, on the dealer's right).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Sequence
from enum import StrEnum
from functools import partial
from typing import Any, Final, cast

from librt.vecs import append, vec
from mypy_extensions import i64, mypyc_attr

from cardtable.core.actions import Action
from cardtable.core.results import MatchResult, RoundResult
from cardtable.core.rng import RandomSource, Rng, shuffle_in_one_draw
from cardtable.core.state import KeepsRounds
from cardtable.games.hanafuda.actions import (
    MONTH_PLAYS,
    PLAY,
    TAKE,
    HanafudaAction,
    Play,
    Take,
    action_number,
    play_taking,
    plays_of,
)
from cardtable.games.hanafuda.capture import CAPTURES, captures_on
from cardtable.games.hanafuda.dealing import (
    DEAL_SIZES,
    Deal,
    DealerDraw,
    draw_first_dealer,
    month_misdeal,
    parse_deal,
    winner_deals_next,
)
from cardtable.games.hanafuda.deck import (
    CODES,
    FULL_DECK,
    NUM_CARDS,
    card_list,
    codes,
    count_cards,
    iter_cards,
    lowest_card,
    value_of,
)
from cardtable.games.hanafuda.events import (
    FROM_HAND,
    FROM_STOCK,
    CaptureEvent,
    event_json,
    packed_event,
    unpacked_event,
)
from cardtable.games.hanafuda.scoring import FinishedRound, RoundScoring
from cardtable.games.hanafuda.yaku import Yaku, YakuTable
from cardtable.locales import LANGUAGES, Localized, Reason, message, reason

JSON = dict[str, Any]

_SEAT_SETS: Final = tuple(frozenset({seat}) for seat in range(8))
_NOBODY: Final[frozenset[int]] = frozenset()


class Phase(StrEnum):
    """Where a turn stands; the values are what views, records and the browser show."""

    PLAY = "play"  # the player to move plays a hand card
    TAKE = "take"  # the flipped stock card matches two table cards: the player picks one
    DECIDE = "decide"  # koi-koi: go on or stop
    OVER = "over"


# Module-level aliases: a global look-up is cheaper than Phase.X on the engine's hot path
# (members are singletons, so the hot path compares them with `is`).
_PLAY: Final = Phase.PLAY
_TAKE: Final = Phase.TAKE
_DECIDE: Final = Phase.DECIDE
_OVER: Final = Phase.OVER


#: a phase's place in the RL observation's one-hot block
_PHASE_NUMBER: Final = {phase: number for number, phase in enumerate(Phase)}
#: seats an RL observation has room for (a game has at most four)
SEATS_SHOWN: Final = 4
#: _SHOWN_SEATS[players][seat]: the seats an observation's per-seat blocks show, from
#: ``seat`` round the table, -1 where a block has room for more seats than play
_SHOWN_SEATS: Final = tuple(
    tuple(
        tuple((seat + k) % players if k < players else -1 for k in range(SEATS_SHOWN))
        for seat in range(players)
    )
    for players in range(SEATS_SHOWN + 1)
)


#: koi-koi's two calls as each language writes them
CALLS = {"koi-koi": ("koi-koi", "koi-koi", "кои-кои"), "shōbu": ("shōbu", "shōbu", "сёбу")}


def action_said(action: Action) -> Localized:
    """A move named in a refusal ("not play 03-1"), in every language (English as ``str``)."""
    english = str(action)
    if english in CALLS:
        return Localized(*CALLS[english])
    if isinstance(action, Play | Take) and 0 <= action.card < NUM_CARDS:
        verb = "play" if isinstance(action, Play) else "take"
        take = action.take if isinstance(action, Play) else None
        said = []
        for lang in LANGUAGES[1:]:
            text = message(f"hanafuda.term.{verb}", lang) + CODES[action.card]
            if take is not None and 0 <= take < NUM_CARDS:
                text += " " + message("hanafuda.term.takes", lang).strip() + " " + CODES[take]
            said.append(text)
        return Localized(english, *said)
    return Localized(english, english, english)


def _either(options: Sequence[int]) -> Localized:
    """The cards that capture options start with, as "A or B" in every language."""
    codes = [CODES[lowest_card(option)] for option in options]
    return Localized(" or ".join(codes), " lub ".join(codes), " или ".join(codes))


def _chosen(options: Sequence[int], take: int | None) -> int | None:
    """The option ``take`` names, if any."""
    if take is None or not 0 <= take < NUM_CARDS:
        return None
    for option in options:
        if lowest_card(option) == take:
            return option
    return None


# open to interpreted subclasses: a new fishing game is a package of its own (docs/house.md),
# not a line of the compiled engine's list
@mypyc_attr(allow_interpreted_subclasses=True)
class FishingState(KeepsRounds):
    """A match of a fishing game in progress. Subclasses supply the scoring."""

    __slots__ = (
        "capture_log",
        "current",
        "custom_captures",
        "dealer",
        "dealer_draw",
        "dealt_hands",
        "explain_rounds",
        "forced_match",
        "halt_after_round",
        "hands",
        "misdeals",
        "n",
        "next_dealer",
        "pending",
        "phase",
        "piles",
        "previous_capture_log",
        "revealed",
        "rng",
        "round_no",
        "rounds",
        "start_table",
        "steals",
        "stock",
        "stock_only_turns",
        "stock_pos",
        "table",
        "unplayable",
    )

    #: class-level switch: the hot path skips the decision hooks of games without them
    has_decisions = False

    # -- construction -------------------------------------------------------------------
    def __init__(self, game: Any = None, seed: int = 0, deals: tuple[JSON, ...] = ()) -> None:
        if game is None:  # a blank for clone() to fill in (compiled, __new__ runs __init__)
            return
        self.begin(game, seed, deals)
        self.n: int = game.num_players
        self.rng = Rng(seed)
        self.round_no = 1
        #: rounds in the match (the option every fishing game has)
        self.rounds = int(getattr(game.options, "rounds", 1))
        self.totals = [0] * self.n
        self.results: list[RoundResult] = []
        #: this round's capture events, packed (:func:`packed_event`; read :attr:`events`)
        self.capture_log: list[int] = []
        self.previous_capture_log: tuple[int, ...] = ()
        self.dealer_draw: DealerDraw | None = None
        self.next_dealer: int | None = None
        self.hands = [0] * self.n
        #: the hands as this round dealt them (teyaku and lucky hands are scored from them)
        self.dealt_hands: tuple[int, ...] = ()
        self.piles = [0] * self.n
        self.table = 0
        self.stock: tuple[int, ...] = ()
        self.stock_pos = 0
        self.pending = -1
        self.phase = _PLAY
        self.current = 0
        self.dealer = 0
        self.start_table = 0
        self.misdeals: tuple[tuple[str, int], ...] = ()  # a tuple: clones share it safely
        #: cards in hand that may not be played now (a card just kept from the stock)
        self.unplayable = 0
        #: per seat, cards everybody has seen go into that hand (teyaku shown, flips kept)
        self.revealed = [0] * self.n
        #: True when a game overrides capture_options (wild cards, steals)
        self.custom_captures = False
        #: a player who can capture with a hand card must play one (Hana-awase 88)
        self.forced_match = False
        #: search copies stop at the end of the round instead of dealing the next
        self.halt_after_round = False
        #: score rounds with every score line; a search copy needs only the scores
        self.explain_rounds = True
        #: play stock-only turns once the hands are empty (2 players, traditional end)
        self.stock_only_turns = False
        self.configure()
        self._check_fixed_deals()
        self._start_round()

    def configure(self) -> None:
        """Read options into plain attributes before the first deal (subclasses extend)."""
        # Two players play the stock out after the hands unless the game ends it early.
        early_end = getattr(self.game.options, "two_player_stop_when_hands_empty", False)
        self.stock_only_turns = self.n == 2 and not early_end

    def deal_sizes(self) -> tuple[int, int]:
        return DEAL_SIZES[self.n]

    def _check_fixed_deals(self) -> None:
        for k, data in enumerate(self.deals):
            parse_deal(data, self.n, self.deal_sizes(), f"deals[{k}]")

    # -- dealing ----------------------------------------------------------------------------
    def _start_round(self) -> None:
        fixed = None
        if self.round_no <= len(self.deals):
            where = f"deals[{self.round_no - 1}]"
            fixed = parse_deal(self.deals[self.round_no - 1], self.n, self.deal_sizes(), where)
        if fixed is not None and fixed.dealer is not None:
            self.dealer = fixed.dealer
        elif self.next_dealer is not None:
            self.dealer = self.next_dealer
        else:
            self.draw_dealer()
        self.misdeals = ()
        deal = fixed or self._random_deal()
        while deal.piles is None and (reason := self.misdeal_reason(deal)) is not None:
            self.misdeals += ((reason, deal.table),)
            self.on_misdeal(reason)
            deal = self._random_deal()
        self.hands = list(deal.hands)
        self.dealt_hands = deal.hands
        self.piles = list(deal.piles) if deal.piles is not None else [0] * self.n
        self.table = self.start_table = deal.table
        self.stock = deal.stock
        self.stock_pos = 0
        self.pending = -1
        if self.capture_log:
            self.previous_capture_log = tuple(self.capture_log)
        self.capture_log = []
        self.steals: list[tuple[int, int, int]] = []
        self.unplayable = 0
        self.revealed = [0] * self.n
        if self.on_round_start():
            self.begin_turn(self.dealer)

    def draw_dealer(self) -> None:
        """The first-dealer draw (§2.1) from the shuffled deck: it decides who deals."""
        self.dealer_draw = draw_first_dealer(self.rng.draws(range(NUM_CARDS)), self.n)
        self.dealer = self.dealer_draw.dealer

    def _random_deal(self) -> Deal:
        order = self.rng.permutation(NUM_CARDS)
        hand_size, table_size = self.deal_sizes()
        hands = [0] * self.n
        position = 0
        for step in range(self.n):  # hands go round in play order from the dealer
            hand = 0  # a local: compiled, a number in a list is boxed at every change
            for k in range(position, position + hand_size):
                hand |= 1 << order[k]
            hands[(self.dealer + step) % self.n] = hand
            position += hand_size
        table = 0
        for k in range(position, position + table_size):
            table |= 1 << order[k]
        position += table_size
        return Deal(self.dealer, tuple(hands), table, tuple(order[position:]))

    def misdeal_reason(self, deal: Deal) -> str | None:
        """Why a deal must be dealt again, or None (koi-koi adds lucky-hand reasons)."""
        if month_misdeal(deal.table) is not None:
            return "four cards of one month on the table"
        return None

    def on_misdeal(self, reason: str) -> None:
        """Called before a redeal (koi-koi re-draws the dealer in one case)."""

    def on_round_start(self) -> bool:
        """Called after each deal (teyaku, lucky hands); False when it ended the round."""
        return True

    # -- the protocol ------------------------------------------------------------------
    @property
    def to_move(self) -> frozenset[int]:
        return _NOBODY if self.phase is _OVER else _SEAT_SETS[self.current]

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    def legal_actions(self, seat: int) -> list[Action]:
        if seat != self.current or self.phase is _OVER:
            return []
        if self.phase is _PLAY:
            hand = self.hands[seat] & ~self.unplayable
            out: list[Action] = []
            if self.custom_captures or self.forced_match:
                # card by card; with forced_match only the cards that capture, if any does
                idle = 0  # the cards kept back: they capture nothing
                while hand:
                    card = lowest_card(hand)
                    hand &= hand - 1
                    options = self.capture_options(seat, card)
                    if options or not self.forced_match:
                        out.extend(plays_of(card, options))
                    else:
                        idle |= 1 << card
                if not out:
                    while idle:
                        out.append(PLAY[lowest_card(idle)])
                        idle &= idle - 1
                return out
            # One table look-up per month in hand (see MONTH_PLAYS): this is the hot path.
            table = self.table
            while hand:
                shift = lowest_card(hand) & ~3
                out.extend(MONTH_PLAYS[shift >> 2][hand >> shift & 15][table >> shift & 15])
                hand &= ~(15 << shift)
            return out
        if self.phase is _TAKE:
            options = self.capture_options(seat, self.pending)
            return [TAKE[lowest_card(option)] for option in options]
        return self.decision_actions(seat)

    def illegal_reason(self, seat: int, action: Action) -> Reason | None:
        if seat != self.current or self.phase is _OVER:
            return self.not_to_move_reason(seat)
        kind = type(action)
        if self.phase is _PLAY:
            if kind is not Play:
                return reason("illegal.hanafuda.play_first", action=action_said(action))
            return self._play_problem(seat, cast(Play, action))
        if self.phase is _TAKE:
            if kind is not Take:
                flipped = CODES[self.pending]
                return reason("illegal.hanafuda.choose_take", card=flipped)
            options = self.capture_options(seat, self.pending)
            if _chosen(options, cast(Take, action).card) is None:
                return reason(
                    "illegal.hanafuda.flipped_takes",
                    card=CODES[self.pending],
                    options=_either(options),
                    action=action_said(action),
                )
            return None
        return self.decision_problem(seat, action)

    def _play_problem(self, seat: int, action: Play) -> Reason | None:
        card, take = action.card, action.take
        if not 0 <= card < NUM_CARDS or not self.hands[seat] >> card & 1:
            return reason(
                "illegal.not_in_hand", card=CODES[card] if 0 <= card < NUM_CARDS else card
            )
        if self.unplayable >> card & 1:
            return reason("illegal.hanafuda.just_drawn", card=CODES[card])
        if self.custom_captures:
            options = self.capture_options(seat, card)
        else:  # captures_on inlined: apply checks every move
            options = CAPTURES[card >> 2][self.table >> (card & ~3) & 15]
        if len(options) >= 2:
            if take is None or _chosen(options, take) is None:
                return reason(
                    "illegal.hanafuda.say_take", card=CODES[card], options=_either(options)
                )
        elif take is not None:
            return reason("illegal.hanafuda.no_choice", card=CODES[card])
        if self.forced_match and not any(options):  # (0,): the card captures nothing
            hand = self.hands[seat] & ~self.unplayable
            capturing = [c for c in iter_cards(hand) if self.capture_options(seat, c)]
            if capturing:
                can = ", ".join(CODES[c] for c in capturing)
                return reason("illegal.hanafuda.forced_match", cards=can)
        return None

    def _perform(self, seat: int, action: Action) -> None:
        kind = type(action)
        if kind is Play:
            play = cast(Play, action)  # compiled, a cast reads the fields natively
            self.hands[seat] ^= 1 << play.card
            self.resolve(seat, play.card, play.take, FROM_HAND)
            if self.after_hand_play(seat):
                return
        elif kind is Take:
            self.resolve(seat, self.pending, cast(Take, action).card, FROM_STOCK)
            self.pending = -1
        else:
            self.perform_decision(seat, action)
            return
        self.end_turn(seat)

    # -- the turn ----------------------------------------------------------------------
    def capture_options(self, seat: int, card: int) -> tuple[int, ...]:
        """What ``card`` may capture, one mask per option: the capture rule
        (:func:`~.capture.captures`). Games with wild cards or steals override this and
        set ``custom_captures``."""
        return captures_on(self.table, card)

    def resolve(self, seat: int, card: int, take: int | None, source: int) -> None:
        """Match ``card`` against the table; ``take`` names the chosen option."""
        if self.custom_captures:
            options = self.capture_options(seat, card)
        else:  # captures_on inlined: every card of every playout comes here
            options = CAPTURES[card >> 2][self.table >> (card & ~3) & 15]
        if take is None:
            self.capture(seat, card, options[0] if options else 0, source)
        else:
            self.capture(seat, card, _chosen(options, take) or 0, source)

    def capture(self, seat: int, card: int, captured: int, source: int) -> None:
        """``card`` (from ``source``: FROM_HAND, FROM_STOCK) takes ``captured`` into the
        seat's pile, or joins the table (0)."""
        if captured:
            if self.custom_captures:  # a steal takes from piles too
                self.note_steals(seat, captured & ~self.table)
                self.take_cards(seat, captured)
            else:
                self.table &= ~captured
            self.piles[seat] |= captured | 1 << card
        else:
            self.table |= 1 << card
        self.capture_log.append(packed_event(seat, source, card, captured))

    def note_steals(self, seat: int, stolen: int) -> None:
        """Remember which of this capture's cards came from whose pile (views name them)."""
        for owner in range(self.n):
            if stolen & self.piles[owner]:
                self.steals.append((len(self.capture_log), owner, stolen & self.piles[owner]))

    def take_cards(self, seat: int, captured: int) -> None:
        """Remove captured cards from where they lie (the table; piles for steals)."""
        self.table &= ~captured

    def flip(self, seat: int) -> bool:
        """Turn over the top stock card; True when the player must choose what it takes."""
        card = self.stock[self.stock_pos]
        self.stock_pos += 1
        if self.custom_captures:
            options = self.capture_options(seat, card)
        else:  # captures_on inlined, as in resolve
            options = CAPTURES[card >> 2][self.table >> (card & ~3) & 15]
        if len(options) >= 2:
            self.pending = card
            self.phase = _TAKE
            return True
        self.capture(seat, card, options[0] if options else 0, FROM_STOCK)
        return self.after_flip(seat, card)

    # -- turn hooks (koi-koi turn variants) --------------------------------------------
    def begin_turn(self, seat: int) -> None:
        """A seat starts a turn with cards in hand (draw-first variants hook here)."""
        self.current = seat
        self.phase = _PLAY

    def after_hand_play(self, seat: int) -> bool:
        """After the hand card: flip the stock (if any is left, as in a position).
        True while the turn waits for input."""
        return self.stock_pos < len(self.stock) and self.flip(seat)

    def after_flip(self, seat: int, card: int) -> bool:
        """After a flipped card was resolved without a choice. True to wait for input."""
        return False

    def end_turn(self, seat: int, *, decided: bool = False) -> None:
        """After a turn: the game's say (koi-koi), the next player, or the round's end.

        ``decided`` is True when the player has just answered the decision for this turn.
        """
        while True:
            if self.has_decisions and not decided and self.after_turn(seat):
                return
            decided = False
            if self.round_finished():
                self.end_round()
                return
            seat = (seat + 1) % self.n
            if self.hands[seat]:
                self.begin_turn(seat)
                return
            self.current = seat
            if self.stock_pos >= len(self.stock):
                continue  # nothing to flip: the turn passes (positions only)
            if self.has_decisions:
                self.begin_stock_turn(seat)
            if self.flip(seat):  # a stock-only turn plays itself unless it needs a choice
                return

    def begin_stock_turn(self, seat: int) -> None:
        """A stock-only turn starts (games with decisions note the mover's yaku here)."""

    def round_may_end(self, seat: int, action: Action) -> bool:
        # a round ends when every hand is empty, so on a turn of a hand's last card (or of
        # the stock alone), or on a decision (koi-koi's shōbu)
        return self.phase is _DECIDE or count_cards(self.hands[seat]) <= 1

    def round_finished(self) -> bool:
        for hand in self.hands:  # a loop: compiled, any() is a call through the builtins
            if hand:
                return False
        return self.stock_pos >= len(self.stock) or not self.stock_only_turns

    # -- hooks for decisions between turns (koi-koi) ------------------------------------
    def after_turn(self, seat: int) -> bool:
        """The game's say after ``seat``'s turn: True when it asked for a decision or ended
        the round (subclasses that use it set ``has_decisions = True``)."""
        return False

    def decision_actions(self, seat: int) -> list[Action]:
        return []

    def decision_problem(self, seat: int, action: Action) -> Reason | None:
        return reason("illegal.hanafuda.not_now", action=action_said(action))

    def perform_decision(self, seat: int, action: Action) -> None:
        raise AssertionError("this game has no decisions between turns")

    # -- rounds and the match -------------------------------------------------------
    @abstractmethod
    def scoring(self) -> RoundScoring:
        """The game's pure scoring function of a finished round's facts: each game's state
        says its own (the score pad scores the rounds of a real table with it too)."""

    def score_round(self) -> RoundResult:
        """The finished round's result: :meth:`scoring` of :meth:`round_facts`, its
        score lines made when first read (never in a search copy)."""
        score, options, facts = self.scoring(), self.game.options, self.round_facts()
        result = score(options, facts, explain=False)
        if self.explain_rounds:
            result = result.explained_later(partial(score, options, facts))
        return result

    def round_facts(self) -> FinishedRound:
        """What this round left, as the scoring reads it (koi-koi adds its calls)."""
        piles, hands = tuple(self.piles), self.dealt_hands
        return FinishedRound(piles, self.table, self.dealer, self.round_no, hands, self.start_table)

    def choose_next_dealer(self, result: RoundResult) -> int:
        return winner_deals_next(result.scores, self.dealer)

    def match_finished(self) -> bool:
        return self.round_no >= self.rounds

    def end_round(self) -> None:
        result = self.score_round()
        self.results.append(result)
        for seat, points in enumerate(result.scores):
            self.totals[seat] += points
        self.next_dealer = self.choose_next_dealer(result)
        if self.halt_after_round or self.match_finished():
            self.phase = _OVER
            self.previous_capture_log = tuple(self.capture_log)
            return
        self.round_no += 1
        self._start_round()

    def result(self) -> MatchResult:
        return MatchResult(self.game.id, self.is_over, tuple(self.totals), tuple(self.results))

    # -- the round's story -------------------------------------------------------------
    @property
    def events(self) -> list[CaptureEvent]:
        """This round's capture events so far, in order."""
        return [unpacked_event(number) for number in self.capture_log]

    @property
    def previous_events(self) -> tuple[CaptureEvent, ...]:
        """The capture events of the round before this one (of this round once it is over)."""
        return tuple(unpacked_event(number) for number in self.previous_capture_log)

    # -- copies ---------------------------------------------------------------------------
    def clone(self) -> FishingState:
        new = type(self)()
        self.copy_into(new)
        return new

    def copy_into(self, new: FishingState) -> None:
        """Copy every field; subclasses with more slots extend this."""
        new.game = self.game
        new.seed = self.seed
        new.deals = self.deals
        new.log = self.log.copy()
        new.n = self.n
        new.rng = self.rng.clone()
        new.round_no = self.round_no
        new.rounds = self.rounds
        new.totals = self.totals.copy()
        new.results = self.results.copy()
        new.capture_log = self.capture_log.copy()
        new.steals = self.steals.copy()
        new.previous_capture_log = self.previous_capture_log
        new.dealer_draw = self.dealer_draw
        new.next_dealer = self.next_dealer
        new.hands = self.hands.copy()
        new.dealt_hands = self.dealt_hands
        new.piles = self.piles.copy()
        new.table = self.table
        new.stock = self.stock
        new.stock_pos = self.stock_pos
        new.pending = self.pending
        new.phase = self.phase
        new.current = self.current
        new.dealer = self.dealer
        new.start_table = self.start_table
        new.misdeals = self.misdeals
        new.stock_only_turns = self.stock_only_turns
        new.unplayable = self.unplayable
        new.revealed = self.revealed.copy()
        new.custom_captures = self.custom_captures
        new.forced_match = self.forced_match
        new.halt_after_round = self.halt_after_round
        new.explain_rounds = self.explain_rounds

    def end_at_round(self, *, explain: bool = False) -> None:
        """A copy that stops when this round is scored: a search copy scores it without
        lines (games whose lines cost much skip them when ``explain_rounds`` is off), the
        table's final board with them."""
        self.halt_after_round = True
        self.explain_rounds = explain

    def random_playout(self, rng: Rng, horizon: int) -> None:
        """Random moves until round ``horizon`` is scored (or the match ends), for search.

        The search's fast path: moves are drawn straight from the bitsets (a hand card
        at random, then one of its captures), without listing or validating them, and
        the log is not extended — use it on copies (determinizations) only.
        """
        while self.phase is not _OVER and len(self.results) == horizon:
            seat = self.current
            if self.phase is _PLAY:
                if self.forced_match:
                    actions = self.legal_actions(seat)
                    self._perform(seat, actions[rng.below(len(actions))])
                    continue
                hand = self.hands[seat] & ~self.unplayable
                for _ in range(rng.below(count_cards(hand))):
                    hand &= hand - 1
                card = lowest_card(hand)
                options = self.capture_options(seat, card)
                if len(options) < 2:
                    self._perform(seat, PLAY[card])
                else:
                    take = lowest_card(options[rng.below(len(options))])
                    self._perform(seat, play_taking(card, take))
            elif self.phase is _TAKE:
                options = self.capture_options(seat, self.pending)
                self._perform(seat, TAKE[lowest_card(options[rng.below(len(options))])])
            else:
                actions = self.decision_actions(seat)
                self._perform(seat, actions[rng.below(len(actions))])

    def pile_yaku(self, seat: int) -> list[Yaku]:
        """The yaku ``seat``'s pile holds now (games with yaku override; Bakappana has none)."""
        return []

    def yaku_rows(self) -> YakuTable | None:
        """The yaku table this game scores piles with (None: it has none)."""
        return None

    def pile_yaku_points(self, seat: int, pile: int, table: int) -> int:
        """What the yaku of ``pile`` would earn ``seat`` now, ``table`` lying on the table
        (the bots weigh a capture by it); a game whose yaku pay otherwise says so."""
        rows = self.yaku_rows()
        return 0 if rows is None else rows.total(pile, table)

    def yaku_progress(self, seat: int) -> list[JSON]:
        """The yaku ``seat``'s pile is close to and can still make (what the table shows
        as "Tanzaku 4/5"): the cards in other piles are out of its reach."""
        rows = self.yaku_rows()
        if rows is None:
            return []
        elsewhere = sum(pile for other, pile in enumerate(self.piles) if other != seat)
        return rows.progress_json(self.piles[seat], elsewhere)

    def draws_unseen_into_hands(self) -> bool:
        """Whether cards join hands unseen during a round (koi-koi's secret-draw turns):
        then a hand's past cannot be read from the cards it played."""
        return False

    def known_in_hands(self) -> list[int]:
        """Cards everyone knows are in each hand (shown for teyaku, kept from the stock)."""
        return [self.hands[seat] & self.revealed[seat] for seat in range(self.n)]

    def determinize(self, seat: int, rng: RandomSource) -> FishingState:
        """Resample the other hands, the unseen stock and every future deal."""
        new = self.clone()
        known = self.known_in_hands()
        seen = self.hands[seat] | self.table | sum(self.piles)
        if self.pending >= 0:
            seen |= 1 << self.pending
        # Cards taken from the stock are on the table, in piles, or in a hand: a card
        # drawn in secret (draw_then_two_hand_plays) is as unseen as the rest of that hand.
        for other in range(self.n):
            seen |= self.hands[other] & known[other]
        unseen = card_list(FULL_DECK & ~seen)
        shuffle_in_one_draw(unseen, rng)
        position = 0
        for other in range(self.n):
            if other == seat:
                continue
            kept = self.hands[other] & known[other]
            size = count_cards(self.hands[other]) - count_cards(kept)
            new.hands[other] = kept | sum(1 << c for c in unseen[position : position + size])
            position += size
        new.stock = self.stock[: self.stock_pos] + tuple(unseen[position:])
        # of another seat's dealt hand a seat knows only what was shown (a teyaku)
        new.dealt_hands = tuple(
            dealt if other == seat else dealt & self.revealed[other]
            for other, dealt in enumerate(self.dealt_hands)
        )
        new.rng = Rng.from_state(rng.getrandbits(64))
        new.deals = self.deals[: self.round_no]
        return new

    # -- numbers for learners (the RL encoder, :mod:`.encoding`) ---------------------------
    def legal_numbers(self, seat: int) -> list[int]:
        """The numbers (:func:`.actions.action_number`) of ``legal_actions(seat)``."""
        return [action_number(cast(HanafudaAction, a)) for a in self.legal_actions(seat)]

    def koikoi_calls(self, seat: int) -> int:
        """A seat's koi-koi calls this round (koi-koi's views show them)."""
        return 0

    def shown_yaku_total(self, seat: int) -> int:
        """The points of the yaku a seat's pile holds, where views show them (koi-koi)."""
        return 0

    def observation_numbers(self, seat: int) -> list[int]:
        """What ``view(seat, brief=True)`` shows, as whole numbers in the order of the RL
        observation (:class:`.encoding.HanafudaEncoder`), for learners that step many
        games at once: card sets (the seat's hand, the table, the flipped card, the piles
        from the seat round the table); then per seat from the seat round the table:
        hand sizes, scores, koi-koi calls, yaku totals, pile values; then the dealer's
        place after the seat, the phase, the stock, the round, the rounds, whether the
        seat is to move and the players. Per-seat entries are padded to four seats."""
        return list(self.observe_into(vec[i64](), seat))

    def observe_into(self, out: vec[i64], seat: int) -> vec[i64]:
        """``out`` with :meth:`observation_numbers` appended (a batch fills one vec)."""
        shown = _SHOWN_SEATS[self.n][seat]
        out = append(out, self.hands[seat])
        out = append(out, self.table)
        out = append(out, 1 << self.pending if self.pending >= 0 else 0)
        # one block a line, each seat shown from `seat` round the table (-1: no seat)
        for other in shown:
            out = append(out, self.piles[other] if other >= 0 else 0)
        for other in shown:
            out = append(out, count_cards(self.hands[other]) if other >= 0 else 0)
        for other in shown:
            out = append(out, self.totals[other] if other >= 0 else 0)
        for other in shown:
            out = append(out, self.koikoi_calls(other) if other >= 0 else 0)
        for other in shown:
            out = append(out, self.shown_yaku_total(other) if other >= 0 else 0)
        for other in shown:
            out = append(out, value_of(self.piles[other]) if other >= 0 else 0)
        out = append(out, (self.dealer - seat) % self.n)
        out = append(out, _PHASE_NUMBER[self.phase])
        out = append(out, len(self.stock) - self.stock_pos)
        out = append(out, self.round_no)
        out = append(out, self.rounds)
        out = append(out, 1 if self.phase is not _OVER and seat == self.current else 0)
        return append(out, self.n)

    # -- what a seat sees -------------------------------------------------------------
    def view(self, seat: int | None, *, brief: bool = False) -> JSON:
        data = self.public_view(brief)
        data.update(self.seat_part(seat, brief))
        return data

    def shared_view(self) -> JSON:
        return self.public_view(False)

    def moving_view(self) -> JSON:
        return self.public_view(False, with_round=False)

    def round_view(self) -> JSON:
        """The previous round's captures and result, this round's misdeals, the first
        dealer's draw."""
        data: JSON = {
            "previous_events": [event_json(number) for number in self.previous_capture_log],
            "misdeals": [{"reason": r, "table": codes(t)} for r, t in self.misdeals],
            "last_round": self.results[-1].to_json() if self.results else None,
        }
        if self.dealer_draw is not None:
            data["dealer_draw"] = self.dealer_draw.to_json()
        return data

    def round_key(self) -> object:
        # a new round replaces the previous captures; a finished one adds a result; a
        # misdeal adds one; the dealer's draw is made once a game
        return (self.round_no, len(self.results), len(self.misdeals))

    def own_view(self, seat: int | None) -> JSON:
        return self.seat_part(seat, False)

    def seat_part(self, seat: int | None, brief: bool) -> JSON:
        """What only ``seat`` sees: its hand and its legal moves."""
        data: JSON = {"seat": seat}
        if seat is not None:
            data["hand"] = codes(self.hands[seat])
            if not brief:
                data["legal_actions"] = [a.to_json() for a in self.legal_actions(seat)]
        return data

    def public_view(self, brief: bool, with_round: bool = True) -> JSON:
        """What every seat sees alike (the game's own additions in its override; without
        :meth:`round_view` when ``with_round`` is false)."""
        data: JSON = {
            "game": self.game.id,
            "players": self.n,
            "round": self.round_no,
            "rounds": self.rounds,
            "dealer": self.dealer,
            "phase": self.phase,
            "to_move": sorted(self.to_move),
            "table": codes(self.table),
            "piles": [codes(p) for p in self.piles],
            "pile_values": [value_of(p) for p in self.piles],
            "hand_sizes": [count_cards(h) for h in self.hands],
            "stock_size": len(self.stock) - self.stock_pos,
            "flipped": CODES[self.pending] if self.pending >= 0 else None,
            "scores": list(self.totals),
            "over": self.is_over,
        }
        if brief:
            return data
        events = data["events"] = [event_json(number) for number in self.capture_log]
        for index, owner, cards in self.steals:
            event = events[index]
            if "stolen" not in event:  # the shared event's own copy, with what was stolen
                event = events[index] = {**event, "stolen": []}
            event["stolen"].append({"seat": owner, "cards": codes(cards)})
        if with_round:
            data.update(self.round_view())
        data["yaku_progress"] = [self.yaku_progress(s) for s in range(self.n)]
        return data


class CompiledFishingState(FishingState):
    """The base of the fishing games compiled with the engine (koi-koi, Bakappana,
    Hana-awase): closed to interpreted subclasses, and with an ``__init__`` of its own.

    A compiled class's ``__new__`` runs ``__init__``; then Python calls the type's
    ``tp_init``, which a class without an ``__init__`` inherits. FishingState's runs
    ``__init__`` again (open to interpreted subclasses, whose ``__new__`` does not), so a
    game class right under it dealt every new state twice (issue 50: new rounds at
    0.80-0.84x). Here ``tp_init`` is a compiled class's own, which does nothing.
    """

    __slots__ = ()

    def __init__(self, game: Any = None, seed: int = 0, deals: tuple[JSON, ...] = ()) -> None:
        super().__init__(game, seed, deals)


# -- many games at once (cardtable.rl.vector) -------------------------------------------------
