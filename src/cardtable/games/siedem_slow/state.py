"""The state of a 7 słów game (games/siedem_slow/pages/siedem-slow.md): the letter area and
deck, the writing with its hourglass, the round's scoring and bonus boxes, the end-game
strike-out, copies for search, and what each seat sees. Challenges live in :mod:`.challenges`,
the solo card in :mod:`.solo`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

from cardtable.core.actions import Action
from cardtable.core.errors import OptionError
from cardtable.core.results import MatchResult, RoundResult, ScoreLine
from cardtable.core.rng import RandomSource, Rng
from cardtable.games.siedem_slow.actions import (
    CLOCK,
    Accept,
    Challenge,
    Flip,
    Lock,
    Submit,
    TimeUp,
    Vote,
)
from cardtable.games.siedem_slow.area import (
    REFILL_ORDER,
    SETUP_ORDER,
    Area,
    DrawPile,
    LetterCard,
    deck_cards,
    slide,
)
from cardtable.games.siedem_slow.challenges import Challenges
from cardtable.games.siedem_slow.dictionary import load_dictionary
from cardtable.games.siedem_slow.families import Families, families_for
from cardtable.games.siedem_slow.options import SiedemSlowOptions
from cardtable.games.siedem_slow.scoring import WordScore, normalize, score_word
from cardtable.games.siedem_slow.solo import hourglass_turns, solo_fields, solo_round, solo_won
from cardtable.games.siedem_slow.tables import (
    BONUS_BY_ROUND,
    CHALLENGE_PENALTY,
    DECKS,
    DROPPED_WORDS,
    MANY_PLAYERS,
    ROUNDS,
    SOLO_TARGET,
    Box,
    Phase,
)
from cardtable.locales import Localized, Reason, Term, reason, value_json

JSON = dict[str, Any]


def action_said(action: Action) -> Localized:
    """A move named in a refusal, in every language (English as ``str``)."""
    english = str(action)
    if isinstance(action, Challenge):
        n = action.seat
        return Localized(english, f"zakwestionuj słowo miejsca {n}", f"оспорить слово места {n}")
    if isinstance(action, Accept):
        return Localized(english, "zaakceptuj słowa", "принять слова")
    if isinstance(action, Vote):
        return Localized(english, "głosuj", "голосовать")
    return Localized(english, english, english)


@dataclass(frozen=True, slots=True)
class PlayedWord:
    """One seat's word of a finished round, as the score sheet shows it."""

    seat: int
    word: str
    score: WordScore
    struck: bool = False  # lost a challenge: it scores 0

    @property
    def points(self) -> int:
        return 0 if self.struck else self.score.points

    def to_json(self) -> JSON:
        return {
            "seat": self.seat,
            "word": self.word,
            "points": self.points,
            "struck": self.struck,
            "cards": [c.to_json() for c in self.score.cards],
        }


@dataclass(frozen=True, slots=True)
class Mark:
    """A marked bonus box: the round, which box, and its value."""

    round: int
    box: Box
    value: int


class SiedemSlowState(Challenges):
    """A game of 7 słów in progress."""

    __slots__ = (
        "area",
        "areas",
        "dictionary",
        "entries",
        "families",
        "fastest",
        "field",
        "halt_after_round",
        "holder",
        "in_time",
        "locked",
        "main",
        "marks",
        "n",
        "options",
        "penalties",
        "pile",
        "played",
        "rng",
        "round",
        "warnings",
    )

    def __init__(self, game: Any, seed: int, deals: tuple[JSON, ...]) -> None:
        self.begin(game, seed, deals)
        self.options = cast(SiedemSlowOptions, game.options)
        self.n = self.options.players
        self.rng = Rng(seed)
        self.dictionary = load_dictionary(self.options.dictionary, self.options.deck)
        self.families: Families = families_for(self.options.deck)
        self.pile = DrawPile(self._starting_deck())
        self.area = Area()
        for slot in SETUP_ORDER:
            self.pile.fill(self.area, slot, self.rng)
        self.round = 1
        self.holder: int | None = None
        self.main: int | None = None
        if self.options.variant == "no-hourglass":
            self.main = self.rng.below(self.n)
        self.field = 0  # solo: index into the SOLO card's fields
        self.played: list[tuple[PlayedWord, ...]] = []
        self.areas: list[str] = []  # the area each finished round was played on
        self.marks: list[list[Mark]] = [[] for _ in range(self.n)]
        self.penalties = [0] * self.n
        self.totals = [0] * self.n
        self.results: list[RoundResult] = []
        self.halt_after_round = False
        self._start_round()

    def _starting_deck(self) -> list[LetterCard]:
        spec = DECKS[self.options.deck]
        if not self.deals:
            return self.rng.shuffled(deck_cards(spec))
        if len(self.deals) > 1 or set(self.deals[0]) != {"deck"}:
            raise OptionError("7 słów takes one deal: {'deck': [cards, top first]}")
        given = self.deals[0]["deck"]
        if not isinstance(given, Sequence) or isinstance(given, str):
            raise OptionError("deals[0]['deck'] is a list of cards such as 'K' or 'H+2'")
        cards = [LetterCard.parse(str(text), spec) for text in given]
        available = {(c.letter, c.bonus): 0 for c in deck_cards(spec)}
        for card in deck_cards(spec):
            available[card.letter, card.bonus] += 1
        for card in cards:
            key = (card.letter, card.bonus)
            available[key] = available.get(key, 0) - 1
            if available[key] < 0:
                raise OptionError(f"deals[0]: more {card} cards than the {spec.language} deck has")
        return cards[::-1]  # the top card is drawn first: it is the list's end

    def _start_round(self) -> None:
        self.phase = Phase.WRITING
        self.entries = [None] * self.n
        self.warnings = [None] * self.n
        self.locked = [False] * self.n
        self.fastest: int | None = None
        self.in_time = False
        self.accepted = [False] * self.n
        self.challenged = set()
        self.failed = set()
        self.vote = None
        self.round_lines = []

    # -- the protocol ----------------------------------------------------------------------
    @property
    def solo(self) -> bool:
        return self.n == 1

    @property
    def to_move(self) -> frozenset[int]:
        if self.phase in (Phase.WRITING, Phase.HOURGLASS, Phase.OVERTIME):
            return frozenset(s for s in range(self.n) if not self.locked[s])
        if self.phase == Phase.REVIEW:
            return frozenset(s for s in range(self.n) if not self.accepted[s])
        if self.phase == Phase.VOTE:
            assert self.vote is not None
            return frozenset(self.vote.voters) - self.vote.voted
        return frozenset()

    @property
    def is_over(self) -> bool:
        return self.phase == Phase.OVER

    @property
    def timer(self) -> tuple[str, int] | None:
        """The timer a front end should run now, as ``(kind, seconds)``; at its end it sends
        :class:`TimeUp` as seat :data:`CLOCK`. None: no timer runs."""
        options = self.options
        if self.solo and self.phase == Phase.WRITING:
            turns = hourglass_turns(self.field_name, turns_per_field=options.solo_turns_per_field)
            return ("hourglass", options.hourglass_seconds * turns)
        if self.phase == Phase.HOURGLASS:
            return ("hourglass", options.hourglass_seconds)
        if (
            self.phase == Phase.WRITING
            and options.variant == "standard"
            and options.flip_cap_seconds > 0
        ):
            return ("cap", options.flip_cap_seconds)
        return None

    def time_up(self) -> TimeUp:
        """What the clock sends (as seat CLOCK) when the timer runs out."""
        return TimeUp()

    def grace_seconds(self, kind: str) -> int:
        """Seconds a front end waits after the sand runs out for a word being typed."""
        return self.options.grace_seconds if kind == "hourglass" else 0

    @property
    def real_time(self) -> bool:
        """Words are being written: bots write on their own clock, not the move clock."""
        return self.phase in (Phase.WRITING, Phase.HOURGLASS, Phase.OVERTIME)

    @property
    def field_name(self) -> str:
        return self.solo_fields[self.field]

    @property
    def solo_fields(self) -> tuple[str, ...]:
        return solo_fields(self.options.difficulty)

    def may_flip(self, seat: int) -> bool:
        return (
            self.phase == Phase.WRITING
            and not self.solo
            and self.options.variant == "standard"
            and not self.locked[seat]
            and seat != self.holder
        )

    def finish_action(self, seat: int) -> Flip | Lock:
        """How a seat that has written its word ends its writing: flip when allowed."""
        return Flip() if self.entries[seat] and self.may_flip(seat) else Lock()

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_move:
            return []
        if self.phase == Phase.REVIEW:
            return [*(Challenge(t) for t in self.challengeable(seat)), Accept()]
        if self.phase == Phase.VOTE:
            return [Vote(True), Vote(False)]
        return [self.finish_action(seat)]

    def illegal_reason(self, seat: int, action: Action) -> Reason | None:
        if isinstance(action, TimeUp):
            return self._time_up_problem(seat)
        if seat not in self.to_move:
            return self.not_to_move_reason(seat)
        if self.phase in (Phase.REVIEW, Phase.VOTE):
            return self._review_problem(seat, action)
        if isinstance(action, Submit):
            return self.word_problem(seat, action.word)
        if isinstance(action, Flip):
            return self._flip_problem(seat)
        if isinstance(action, Lock):
            if self.entries[seat] and self.may_flip(seat):
                return reason("illegal.siedem.flip_first")
            return None
        return reason("illegal.siedem.not_writing", action=action_said(action))

    def _time_up_problem(self, seat: int) -> Reason | None:
        if seat != CLOCK:
            return reason("illegal.siedem.clock_only", seat=CLOCK)
        if self.timer is None:
            return reason("illegal.siedem.no_timer")
        return None

    def _review_problem(self, seat: int, action: Action) -> Reason | None:
        """A challenge, an acceptance or a vote after the writing (§8)."""
        if isinstance(action, Challenge):
            if self.phase == Phase.VOTE:
                return reason("illegal.siedem.one_challenge")
            if action.seat not in self.challengeable(seat):
                return self._why_not_challenge(seat, action.seat)
            return None
        if action in self.legal_actions(seat):
            return None
        if self.phase == Phase.VOTE:
            return reason("illegal.siedem.vote_first")
        return reason("illegal.siedem.review")

    def _flip_problem(self, seat: int) -> Reason | None:
        """Turning the hourglass (§5): the standard game, while writing, once, with a word."""
        if self.options.variant != "standard" or self.solo:
            return reason("illegal.siedem.no_hourglass")
        if self.phase != Phase.WRITING:
            return reason("illegal.siedem.running")
        if seat == self.holder:
            return reason("illegal.siedem.holder")
        if not self.entries[seat]:
            return reason("illegal.siedem.write_first")
        return None

    def word_problem(self, seat: int, word: str) -> Reason | None:
        """Why ``seat`` may not write ``word`` now (None: it may)."""
        text = normalize(word)
        if not text:
            return reason("illegal.siedem.write_a_word")
        if self.options.validation == "challenge":
            if not text.isalpha():
                return reason("illegal.siedem.letters_one_word")
            return None
        return self.dictionary_reason(seat, word)

    def dictionary_reason(self, seat: int, word: str) -> Reason | None:
        """Why the dictionary or the family rule refuses ``word`` (what a challenge would
        find; a table that checks words as they are written says it at once)."""
        text = normalize(word)
        shown = word.strip().upper()
        found = self.dictionary.problem_code(text)
        if found is not None:
            return reason(f"illegal.siedem.word.{found[0]}", word=shown, **found[1])
        family = self.same_family(seat, text)
        if family is None:
            return None
        number, earlier = family
        return reason("illegal.siedem.word.same_family", word=shown, earlier=earlier, round=number)

    def word_problem_code(self, seat: int, word: str) -> tuple[str, dict[str, Any]] | None:
        """:meth:`word_problem` as a code and its values (``pad.why.CODE`` in the
        catalogues), for a front end that says it in its reader's language."""
        text = normalize(word)
        if not text:
            return "empty", {}
        if self.options.validation == "challenge":
            return None if text.isalpha() else ("letters_only", {})
        found = self.dictionary.problem_code(text)
        if found is not None:
            return found[0], {"word": word.strip().upper(), **found[1]}
        rule = self.options.family_rule
        for number, played in self.earlier_words(seat):
            if played.word == text or (
                rule != "word" and self.families.same_lemma(text, played.word)
            ):
                return "same_family", {
                    "word": word.strip().upper(), "earlier": played.word.upper(), "round": number
                }  # fmt: skip
        return None

    def earlier_words(self, seat: int) -> list[tuple[int, PlayedWord]]:
        """(round, word) of the earlier rounds that the family rule compares ``seat`` with."""
        out = []
        for number, words in enumerate(self.played, 1):
            for played in words:
                if played.seat == seat and not self.options.own_families:
                    continue
                out.append((number, played))
        return out

    def same_family(self, seat: int, word: str) -> tuple[int, str] | None:
        """(round, WORD) of the earlier word of ``word``'s family that blocks it, or None."""
        rule = self.options.family_rule
        for number, played in self.earlier_words(seat):
            same = (
                played.word == word
                if rule == "word"
                else played.word == word or self.families.same_lemma(word, played.word)
            )
            if same:
                return number, played.word.upper()
        return None

    def family_block(self, seat: int, word: str) -> Reason | None:
        found = self.same_family(seat, word)
        if found is None:
            return None
        return reason("siedem.why.family", word=found[1], number=found[0])

    def family_warning(self, seat: int, word: str) -> Reason | None:
        if self.options.family_rule != "lemma+root":
            return None
        for number, played in self.earlier_words(seat):
            root = self.families.shared_root(word, played.word)
            if root is not None:
                return reason(
                    "siedem.why.root", root=root.upper(), word=played.word.upper(), number=number
                )
        return None

    def _perform(self, seat: int, action: Action) -> None:
        if isinstance(action, TimeUp):
            self._time_up()
        elif isinstance(action, Submit):
            word = normalize(action.word)
            self.entries[seat] = word
            self.warnings[seat] = self.family_warning(seat, word)
        elif isinstance(action, Flip):
            self.locked[seat] = True
            self.fastest = seat
            self.phase = Phase.HOURGLASS
            self._maybe_end_writing()
        elif isinstance(action, Lock):
            self.locked[seat] = True
            if self.solo and self.phase == Phase.WRITING:
                self.in_time = True
            self._maybe_end_writing()
        elif isinstance(action, Challenge):
            self._challenge(seat, action.seat)
        elif isinstance(action, Accept):
            self.accepted[seat] = True
            self._maybe_end_review()
        elif isinstance(action, Vote):
            self._cast_vote(seat, action.uphold)

    def _time_up(self) -> None:
        if self.solo:
            self.phase = Phase.OVERTIME
        elif self.phase == Phase.WRITING:  # the soft cap: a countdown with no fastest player
            self.phase = Phase.HOURGLASS
        else:
            self.locked = [True] * self.n
            self._maybe_end_writing()

    def _maybe_end_writing(self) -> None:
        if not all(self.locked):
            return
        if self._review_needed():
            self.phase = Phase.REVIEW
        else:
            self._score_round()

    # -- scoring (§4-§7, §9) -------------------------------------------------------------
    def word_score(self, seat: int, word: str) -> WordScore:
        options = self.options
        veteran = options.veteran_letters if seat in options.veterans else None
        return score_word(
            word,
            self.area,
            better=options.better_card,
            veteran_letters=veteran,
            veteran_counts=options.veteran_counts,
        )

    def _score_round(self) -> None:
        words = tuple(
            PlayedWord(s, self.entries[s] or "", self.word_score(s, self.entries[s] or ""),
                       s in self.failed)
            for s in range(self.n)
        )  # fmt: skip
        points = [w.points for w in words]
        lines = [
            ScoreLine.of(
                w.seat,
                "word",
                w.points,
                "line.word_struck" if w.struck else "line.word",
                () if w.struck else tuple(str(c.card) for c in w.score.cards),
                word=w.word.upper() or Term("line.no_word"),
                points=w.score.points,
            )
            for w in words
        ]
        lines += self.round_lines
        box_values = dict(
            zip((Box.BEAT_LEAD, Box.LEAD_WINS), BONUS_BY_ROUND[self.round], strict=True)
        )
        marks: list[tuple[int, Box]] = []
        if self.solo:
            marks = self._solo_marks(points[0], lines)
        else:
            lead = self.fastest if self.options.variant == "standard" else self.main
            if lead is not None:
                marks = self._boxes(lead, points)
        for seat, box in marks:
            value = box_values[box]
            self.marks[seat].append(Mark(self.round, box, value))
            lines.append(ScoreLine.of(seat, f"bonus:{box}", value, self._bonus_message(box)))
        scores = [0] * self.n
        for line in lines:
            scores[line.seat] += line.points
        for seat in range(self.n):
            self.totals[seat] += scores[seat]
        lead_seat = self.fastest if self.fastest is not None else (self.main or 0)
        outcome = "played" if self.fastest is not None or self.main is not None else "no-flip"
        self.results.append(
            RoundResult(self.round, lead_seat, tuple(scores), tuple(lines), outcome)
        )
        self.played.append(words)
        self.areas.append(str(self.area))
        if self.options.variant == "standard" and self.n >= 3:
            self.holder = self.fastest
        if self.options.variant == "no-hourglass":
            self.main = self._next_main()
        if self.round == self.options.rounds:
            self._end_game()
            return
        if self.halt_after_round:  # the round's area and words stay as they ended
            self.phase = Phase.OVER
            return
        slide(self.area, self.pile)
        for slot in REFILL_ORDER:
            self.pile.fill(self.area, slot, self.rng)
        self.round += 1
        self._start_round()

    def _bonus_message(self, box: Box) -> str:
        if self.solo:
            return "line.solo_bonus_field_1" if box == Box.LEAD_WINS else "line.solo_bonus"
        if self.options.variant == "no-hourglass":
            return "line.bonus_beat_main" if box == Box.BEAT_LEAD else "line.bonus_main"
        return "line.bonus_beat_fastest" if box == Box.BEAT_LEAD else "line.bonus_fastest"

    def _boxes(self, lead: int, points: list[int]) -> list[tuple[int, Box]]:
        """The two bonus boxes (§5): others beat the lead; the lead beats the others."""
        marks = []
        lead_failed = lead in self.failed
        if not (lead_failed and self.options.failed_fastest == "no-first-box"):
            for seat in range(self.n):
                if seat != lead and seat not in self.failed and points[seat] > points[lead]:
                    marks.append((seat, Box.BEAT_LEAD))
        if not lead_failed:
            others = [points[s] for s in range(self.n) if s != lead]
            if self.n >= MANY_PLAYERS:
                won = sum(p <= points[lead] for p in others) >= self.options.fastest_needs
            else:
                won = points[lead] >= max(others)
            if won:
                marks.append((lead, Box.LEAD_WINS))
        return sorted(marks)

    def _solo_marks(self, points: int, lines: list[ScoreLine]) -> list[tuple[int, Box]]:
        """The solo bonus and the marker's move on the SOLO card (§9)."""
        outcome = solo_round(
            points, in_time=self.in_time, field=self.field, fields=self.solo_fields
        )
        self.field = outcome.field
        if outcome.penalty:
            self.penalties[0] += 1
            lines.append(ScoreLine.of(0, "solo:penalty", -CHALLENGE_PENALTY, "line.solo_penalty"))
        return [] if outcome.box is None else [(0, outcome.box)]

    def _next_main(self) -> int:
        """No-hourglass variant: fewest 2nd-box marks, then fewest 1st-box marks, then the
        nearest clockwise from the current main player (who may stay)."""
        assert self.main is not None
        order = [(self.main + k) % self.n for k in range(1, self.n + 1)]

        def key(seat: int) -> tuple[int, int, int]:
            seconds = sum(1 for m in self.marks[seat] if m.box == Box.LEAD_WINS)
            firsts = sum(1 for m in self.marks[seat] if m.box == Box.BEAT_LEAD)
            return (seconds, firsts, order.index(seat))

        return min(range(self.n), key=key)

    def counted_words(self, seat: int) -> list[int]:
        """The word scores that count at the end, best first: all but the lowest two."""
        scores = sorted((words[seat].points for words in self.played), reverse=True)
        drop = min(DROPPED_WORDS, max(len(scores) - 1, 0)) if self.is_over else 0
        return scores[: len(scores) - drop]

    def _end_game(self) -> None:
        self.phase = Phase.OVER
        lines = []
        drop = min(DROPPED_WORDS, max(len(self.played) - 1, 0))
        for seat in range(self.n):
            mine = sorted(
                ((words[seat].points, number) for number, words in enumerate(self.played, 1)),
            )
            for points, number in mine[:drop]:
                word = self.played[number - 1][seat].word.upper() or Term("line.no_word")
                lines.append(
                    ScoreLine.of(
                        seat, "struck-out", -points, "line.struck_out", word=word, round=number
                    )
                )
        scores = [0] * self.n
        for line in lines:
            scores[line.seat] += line.points
        for seat in range(self.n):
            self.totals[seat] += scores[seat]
        outcome = "strike-out"
        if self.solo:
            outcome = (
                "solo-won" if solo_won(self.totals[0], self.options.difficulty) else "solo-lost"
            )
        self.results.append(
            RoundResult(len(self.played) + 1, 0, tuple(scores), tuple(lines), outcome)
        )

    def result(self) -> MatchResult:
        tiebreak = None
        if self.is_over:
            tiebreak = tuple(_lexicographic(self.counted_words(s)) for s in range(self.n))
        return MatchResult(
            self.game.id, self.is_over, tuple(self.totals), tuple(self.results), tiebreak
        )

    @property
    def solo_won(self) -> bool | None:
        if not self.solo or not self.is_over:
            return None
        return solo_won(self.totals[0], self.options.difficulty)

    # -- copies and hidden information --------------------------------------------------
    def clone(self) -> SiedemSlowState:
        # without __init__; object.__new__ refuses a subclass of the compiled State
        new = SiedemSlowState.__new__(SiedemSlowState)
        new.game, new.seed, new.deals, new.log = self.game, self.seed, self.deals, self.log.copy()
        new.options, new.n, new.rng = self.options, self.n, self.rng.clone()
        new.dictionary, new.families = self.dictionary, self.families
        new.pile, new.area = self.pile.copy(), self.area.copy()
        new.round, new.phase, new.holder, new.main = self.round, self.phase, self.holder, self.main
        new.field, new.in_time, new.fastest = self.field, self.in_time, self.fastest
        new.played = self.played.copy()
        new.areas = self.areas.copy()
        new.marks = [m.copy() for m in self.marks]
        new.penalties, new.totals = self.penalties.copy(), self.totals.copy()
        new.results = self.results.copy()
        new.entries, new.warnings = self.entries.copy(), self.warnings.copy()
        new.locked, new.accepted = self.locked.copy(), self.accepted.copy()
        new.challenged, new.failed = set(self.challenged), set(self.failed)
        new.vote = self.vote
        new.round_lines = self.round_lines.copy()
        new.halt_after_round = self.halt_after_round
        return new

    def end_at_round(self, *, explain: bool = False) -> None:
        """Stop when this round is scored, on its area and words, instead of dealing the
        next round."""
        self.halt_after_round = True

    def determinize(self, seat: int, rng: RandomSource) -> SiedemSlowState:
        """Resample what ``seat`` cannot see: the deck order, and the others' words while
        they are being written (a locked word becomes a random dictionary word, an unlocked
        one none yet)."""
        new = self.clone()
        rng.shuffle(new.pile.deck)
        new.rng = Rng.from_state(rng.getrandbits(64))
        if self.phase in (Phase.WRITING, Phase.HOURGLASS, Phase.OVERTIME):
            for other in range(self.n):
                if other == seat:
                    continue
                if self.locked[other] and len(self.dictionary):
                    word = self.dictionary.random_word(rng)
                    new.entries[other] = word
                    new.warnings[other] = new.family_warning(other, word)
                else:
                    new.entries[other] = None
                    new.warnings[other] = None
        return new

    # -- what a seat sees -----------------------------------------------------------------
    def view(self, seat: int | None, *, brief: bool = False) -> JSON:
        revealed = self.phase in (Phase.REVIEW, Phase.VOTE)
        data: JSON = {
            "game": self.game.id,
            "seat": seat,
            "players": self.n,
            "round": self.round,
            "rounds": self.options.rounds,
            # this round's two bonus boxes (beat the lead; the lead wins), for the coach
            "bonus_values": list(BONUS_BY_ROUND.get(self.round, ())),
            "phase": self.phase,
            "area": self.area.to_json(),
            "area_text": str(self.area),
            "deck_size": len(self.pile.deck),
            "discard": [str(c) for c in self.pile.discard],
            "to_move": sorted(self.to_move),
            "locked": list(self.locked),
            "fastest": self.fastest,
            "dont_flip": self.holder,
            "main": self.main,
            "timer": None
            if self.timer is None
            else {"kind": self.timer[0], "seconds": self.timer[1]},
            "history": [[w.to_json() for w in words] for words in self.played],
            "areas": list(self.areas),
            "marks": [
                [{"round": m.round, "box": m.box, "value": m.value} for m in ms]
                for ms in self.marks
            ],
            "penalties": list(self.penalties),
            "scores": list(self.totals),
            "last_round": self.results[-1].to_json() if self.results else None,
            "over": self.is_over,
        }
        if len(self.results) > len(self.played) > 0:
            # the game has ended and last_round is its strike-out: the final round's own
            # lines (a challenge and its outcome among them) would show only in the sheet
            data["final_round"] = self.results[-2].to_json()
        if revealed:
            data["words"] = [
                {"seat": s, "word": self.entries[s], "warning": value_json(self.warnings[s])}
                for s in range(self.n)
            ]
            data["challenged"] = sorted(self.challenged)
            if self.vote is not None:
                data["vote"] = {
                    "challenger": self.vote.challenger,
                    "target": self.vote.target,
                    "word": self.entries[self.vote.target],  # the browser's vote prompt names it
                    "why": value_json(self.vote.why),
                    "voted": sorted(self.vote.voted),
                }
        if self.solo:
            data["solo"] = {
                "difficulty": self.options.difficulty,
                "target": SOLO_TARGET[self.options.difficulty],
                "field": self.field_name,
                "fields": list(self.solo_fields),
                "in_time": self.in_time,
                "won": self.solo_won,
            }
        if seat is not None and 0 <= seat < self.n:
            entry = self.entries[seat]
            data["entry"] = entry
            data["warning"] = value_json(self.warnings[seat])
            data["may_flip"] = self.may_flip(seat)
            if not brief:  # learners read the brief view every step: no scoring there
                data["entry_points"] = None if not entry else self.word_score(seat, entry).points
                data["legal_actions"] = [a.to_json() for a in self.legal_actions(seat)]
        return data


def _lexicographic(scores: list[int]) -> int:
    """Best word, then the next best...: one int that compares like the list (§7 tie-break)."""
    key = 0
    for points in sorted(scores, reverse=True)[: ROUNDS - DROPPED_WORDS]:
        key = key * 256 + points
    return key
