"""7 słów, the real-time word game, for 1 to 6 players (rules/siedem-slow.md).

Everyone looks at the same 8 letter cards and writes one word at the same time. Time is an
input, not a hidden clock: front ends send the clock's events as actions, so the terminal,
the server and the tests drive a round alike:

* :class:`Submit` sets (or replaces) a seat's word; in the default ``validation="auto"``
  the dictionary and the word-family rule check it at once and say why they refuse it;
* :class:`Flip` locks the word and turns the hourglass: that seat is the round's fastest
  (not allowed to the holder of the don't-flip card). The rulebook says a player who has
  finished their word *must* flip while nobody has: so a seat that may flip finishes its
  word only by flipping;
* :class:`Lock` locks a word without flipping: for the don't-flip holder, a seat with no
  word, the solo game, the no-hourglass variant, and everyone once the sand runs;
* :class:`TimeUp`, sent by the clock as seat :data:`CLOCK`, ends the running timer: the
  hourglass (every word is locked as it stands), the optional soft cap when nobody flips
  (a countdown starts with no fastest player), or the solo hourglass (no bonus this round);
* :class:`Challenge`, :class:`Accept` and :class:`Vote` settle disputed words after the
  writing: the dictionary decides, and a shared-root warning goes to a vote.

Solo mode (``players=1``) is the same engine with the SOLO card's fields (§9).

>>> import cardtable
>>> from cardtable.games.siedem_slow import Submit, Flip, TimeUp, CLOCK
>>> game = cardtable.load("siedem-slow", players=2, deck="en")
>>> state = game.new_state(deals=[{"deck": "K T N S R L D C".split()}])
>>> str(state.area)
'DC|RL|NS|K+1T'
>>> state.apply(0, Submit("cardinals")); state.apply(0, Flip())
>>> state.apply(1, Submit("kit")); state.apply(CLOCK, TimeUp())
>>> state.results[0].scores  # 24 for the word, +2: the fastest player's box
(26, 5)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, cast

from pydantic import Field, model_validator

from cardtable.core.actions import Action, action_type
from cardtable.core.errors import IllegalAction, OptionError
from cardtable.core.game import Capability, GameInfo, GameSpec, register
from cardtable.core.options import GameOptions
from cardtable.core.results import MatchResult, RoundResult, ScoreLine
from cardtable.core.rng import RandomSource, Rng
from cardtable.core.state import KeepsRounds, State
from cardtable.games.siedem_slow.area import (
    REFILL_ORDER,
    SETUP_ORDER,
    Area,
    DrawPile,
    LetterCard,
    deck_cards,
    slide,
)
from cardtable.games.siedem_slow.dictionary import Dictionary, load_dictionary
from cardtable.games.siedem_slow.families import Families, families_for
from cardtable.games.siedem_slow.scoring import (
    BetterCard,
    VeteranCounts,
    WordScore,
    normalize,
    score_word,
)
from cardtable.games.siedem_slow.tables import (
    BONUS_BY_ROUND,
    CHALLENGE_PENALTY,
    DECKS,
    DROPPED_WORDS,
    FASTEST_NEEDS_WITH_MANY,
    HOURGLASS_SECONDS,
    MANY_PLAYERS,
    ROUNDS,
    SOLO_BONUS_MIN,
    SOLO_FIELDS,
    SOLO_FIELDS_BRUTAL,
    SOLO_MOVE_UP_MIN,
    SOLO_TARGET,
    Difficulty,
)
from cardtable.locales import Term

JSON = dict[str, Any]
#: The seat number the clock acts as (its only action is :class:`TimeUp`).
CLOCK = -1


# -- actions ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Submit:
    """Write (or rewrite) your word; it stays yours to change until you lock it."""

    word: str

    def to_json(self) -> JSON:
        return {"type": "submit", "word": self.word}

    def __str__(self) -> str:
        return f"write {self.word.upper()}"


@dataclass(frozen=True, slots=True)
class Flip:
    """Lock your word and turn the hourglass: the others have 30 seconds."""

    def to_json(self) -> JSON:
        return {"type": "flip"}

    def __str__(self) -> str:
        return "flip the hourglass"


@dataclass(frozen=True, slots=True)
class Lock:
    """Lock your word (or no word at all) without flipping: you are done."""

    def to_json(self) -> JSON:
        return {"type": "lock"}

    def __str__(self) -> str:
        return "done"


@dataclass(frozen=True, slots=True)
class TimeUp:
    """The running timer ran out (sent by the clock, seat CLOCK)."""

    def to_json(self) -> JSON:
        return {"type": "time-up"}

    def __str__(self) -> str:
        return "time is up"


@dataclass(frozen=True, slots=True)
class Challenge:
    """Challenge the word of ``seat``: the dictionary (or a vote) decides."""

    seat: int

    def to_json(self) -> JSON:
        return {"type": "challenge", "seat": self.seat}

    def __str__(self) -> str:
        return f"challenge seat {self.seat}'s word"


@dataclass(frozen=True, slots=True)
class Accept:
    """Accept the words of this round (no more challenges from you)."""

    def to_json(self) -> JSON:
        return {"type": "accept"}

    def __str__(self) -> str:
        return "accept the words"


@dataclass(frozen=True, slots=True)
class Vote:
    """Vote on a challenged word of the same family: uphold the challenge, or not."""

    uphold: bool

    def to_json(self) -> JSON:
        return {"type": "vote", "uphold": self.uphold}

    def __str__(self) -> str:
        return "uphold the challenge" if self.uphold else "let the word stand"


WordAction = Submit | Flip | Lock | TimeUp | Challenge | Accept | Vote
_SIMPLE: dict[str, WordAction] = {
    "flip": Flip(),
    "lock": Lock(),
    "time-up": TimeUp(),
    "accept": Accept(),
}


def parse_action(data: Mapping[str, Any]) -> WordAction:
    kind = action_type(data, {**_SIMPLE, "submit": Submit, "challenge": Challenge, "vote": Vote})
    if kind in _SIMPLE:
        return _SIMPLE[kind]
    if kind == "submit":
        word = data.get("word")
        if not isinstance(word, str) or len(word) > 100:
            raise IllegalAction("submit needs 'word': a string of at most 100 characters")
        return Submit(word)
    if kind == "challenge":
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise IllegalAction("challenge needs 'seat': the seat whose word you challenge")
        return Challenge(seat)
    uphold = data.get("uphold")
    if not isinstance(uphold, bool):
        raise IllegalAction("vote needs 'uphold': true or false")
    return Vote(uphold)


# -- options --------------------------------------------------------------------------------
class SiedemSlowOptions(GameOptions):
    players: int = Field(3, ge=1, le=6, description="Number of players, 1 (solo) to 6.")
    deck: Literal["pl", "en"] = Field(
        "pl", description="Letter deck and language: pl (7 słów) or en (Wordsy); provisional."
    )
    dictionary: str = Field(
        "default",
        description="Word list: default (the language's system list) or a file path.",
        # a file path on the machine that runs the game: a server never takes it from a client
        json_schema_extra={"x-local-only": True},
    )
    rounds: int = Field(ROUNDS, ge=1, le=ROUNDS, description="Rounds in the game (7).")
    variant: Literal["standard", "no-hourglass"] = Field(
        "standard",
        description="no-hourglass: no timer; a main player stands in for the fastest (§10).",
    )
    validation: Literal["auto", "challenge"] = Field(
        "auto",
        description=(
            "auto: the dictionary checks each word as it is written; challenge: words are "
            "checked only when another player challenges them (the table game)."
        ),
    )
    family_rule: Literal["lemma+root", "lemma", "word"] = Field(
        "lemma+root",
        description=(
            "No word of a family used in an earlier round: lemma+root blocks the same lemma "
            "and warns (challengeable) on a shared root; lemma only blocks; word blocks "
            "only the identical word."
        ),
    )
    own_families: bool = Field(
        True, description="The family rule covers your own earlier words too (§8 REC)."
    )
    better_card: BetterCard = Field(
        "value",
        description=(
            "Two cards of a letter, the word holds it once: the card worth more scores "
            "(value) or the one in the better column (column)."
        ),
    )
    fastest_needs: int = Field(
        FASTEST_NEEDS_WITH_MANY,
        ge=1,
        le=5,
        description="With 5-6 players, opponents the fastest must tie or beat for the 2nd box.",
    )
    failed_fastest: Literal["compare-zero", "no-first-box"] = Field(
        "compare-zero",
        description=(
            "The fastest word fails a challenge: others beat a 0 (compare-zero) or nobody "
            "marks the 1st box this round."
        ),
    )
    veterans: tuple[int, ...] = Field(
        (), description="Seats playing the veteran handicap (only 4 letters at full value)."
    )
    veteran_letters: int = Field(4, ge=1, le=8, description="Full-value letters of a veteran.")
    veteran_counts: VeteranCounts = Field(
        "uses",
        description="Veteran letters count card uses (uses) or letters, both cards as one.",
    )
    difficulty: Difficulty = Field(
        "normal", description="Solo: normal 100, medium 110, hard 120, brutal 120 (no field 2)."
    )
    solo_turns_per_field: bool = Field(
        False, description="Solo house rule: on field 2 the hourglass runs twice (60 s)."
    )
    hourglass_seconds: int = Field(
        HOURGLASS_SECONDS, ge=5, le=300, description="Seconds of sand after the flip."
    )
    grace_seconds: int = Field(
        2, ge=0, le=10, description="Front ends: seconds to finish typing after the sand runs out."
    )
    flip_cap_seconds: int = Field(
        180,
        ge=0,
        le=3600,
        description="Nobody flips for this long: a countdown starts with no fastest (0: never).",
    )

    @model_validator(mode="after")
    def _check(self) -> SiedemSlowOptions:
        for seat in self.veterans:
            if not 0 <= seat < self.players:
                raise ValueError(f"veterans: there is no seat {seat} among {self.players}")
        if self.variant == "no-hourglass" and self.players < 2:
            raise ValueError("the no-hourglass variant needs 2 or more players (solo has SOLO)")
        return self


class Phase:
    WRITING = "writing"  # nobody has flipped (solo: the sand runs)
    HOURGLASS = "hourglass"  # someone flipped (or the soft cap ran out): 30 s
    OVERTIME = "overtime"  # solo: the sand ran out, the word may still be finished
    REVIEW = "review"  # words are revealed; challenges
    VOTE = "vote"  # a challenged word of a shared root goes to a vote
    OVER = "over"


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
    """A marked bonus box: round, box 1 ("beat the fastest") or 2 ("fastest wins"), value."""

    round: int
    box: int
    value: int


class SiedemSlowState(KeepsRounds, State):
    """A game of 7 słów in progress."""

    __slots__ = (
        "accepted",
        "area",
        "areas",
        "challenged",
        "dictionary",
        "entries",
        "failed",
        "families",
        "fastest",
        "field",
        "holder",
        "in_time",
        "locked",
        "main",
        "marks",
        "n",
        "options",
        "penalties",
        "phase",
        "pile",
        "played",
        "results",
        "rng",
        "round",
        "round_lines",
        "totals",
        "vote",
        "warnings",
    )

    def __init__(self, game: Any, seed: int, deals: tuple[JSON, ...]) -> None:
        self.begin(game, seed, deals)
        self.options = cast(SiedemSlowOptions, game.options)
        self.n: int = self.options.players
        self.rng = Rng(seed)
        self.dictionary: Dictionary = load_dictionary(self.options.dictionary, self.options.deck)
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
        self.entries: list[str | None] = [None] * self.n
        self.warnings: list[str | None] = [None] * self.n
        self.locked = [False] * self.n
        self.fastest: int | None = None
        self.in_time = False
        self.accepted = [False] * self.n
        self.challenged: set[int] = set()
        self.failed: set[int] = set()
        self.vote: dict[str, Any] | None = None
        self.round_lines: list[ScoreLine] = []

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
            return frozenset(s for s in self.vote["voters"] if s not in self.vote["votes"])
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
            turns = 2 if options.solo_turns_per_field and self.field_name == "2" else 1
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

    @property
    def field_name(self) -> str:
        return self.solo_fields[self.field]

    @property
    def solo_fields(self) -> tuple[str, ...]:
        return SOLO_FIELDS_BRUTAL if self.options.difficulty == "brutal" else SOLO_FIELDS

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

    def challengeable(self, seat: int) -> list[int]:
        """Seats whose word ``seat`` may challenge now."""
        if self.phase != Phase.REVIEW or self.accepted[seat]:
            return []
        out = []
        for target in range(self.n):
            word = self.entries[target]
            if target == seat or target in self.challenged or not word:
                continue
            if self.options.validation == "challenge" or self.warnings[target]:
                out.append(target)
        return out

    def legal_actions(self, seat: int) -> list[Action]:
        if seat not in self.to_move:
            return []
        if self.phase == Phase.REVIEW:
            return [*(Challenge(t) for t in self.challengeable(seat)), Accept()]
        if self.phase == Phase.VOTE:
            return [Vote(True), Vote(False)]
        return [self.finish_action(seat)]

    def illegal_reason(self, seat: int, action: Action) -> str | None:
        if isinstance(action, TimeUp):
            if seat != CLOCK:
                return f"only the clock (seat {CLOCK}) says the time is up"
            if self.timer is None:
                return "no timer is running now"
            return None
        if seat not in self.to_move:
            return self.not_to_move_reason(seat)
        if self.phase in (Phase.REVIEW, Phase.VOTE):
            if isinstance(action, Challenge):
                if self.phase == Phase.VOTE:
                    return "one challenge at a time: vote on the one in progress first"
                if action.seat not in self.challengeable(seat):
                    return self._why_not_challenge(seat, action.seat)
                return None
            if action in self.legal_actions(seat):
                return None
            if self.phase == Phase.VOTE:
                return "vote on the challenged word first (uphold or not)"
            return "the words are being reviewed: challenge one or accept them"
        if isinstance(action, Submit):
            return self.word_problem(seat, action.word)
        if isinstance(action, Flip):
            if self.options.variant != "standard" or self.solo:
                return "there is no hourglass to flip in this game"
            if self.phase != Phase.WRITING:
                return "the hourglass is already running"
            if seat == self.holder:
                return "you hold the don't-flip card: you may not flip this round"
            if not self.entries[seat]:
                return "write your word before you flip"
            return None
        if isinstance(action, Lock):
            if self.entries[seat] and self.may_flip(seat):
                return (
                    "nobody has flipped the hourglass yet: the first to finish a word must flip it"
                )
            return None
        return f"{action} is not a move in the writing phase"

    def _why_not_challenge(self, seat: int, target: int) -> str:
        if not 0 <= target < self.n:
            return f"there is no seat {target}"
        if target == seat:
            return "you cannot challenge your own word"
        if target in self.challenged:
            return "that word was challenged already"
        if not self.entries[target]:
            return "that seat wrote no word"
        return (
            "the dictionary already accepted that word; only a word flagged as sharing a "
            "root can be challenged"
        )

    def word_problem(self, seat: int, word: str) -> str | None:
        """Why ``seat`` may not write ``word`` now (None: it may)."""
        text = normalize(word)
        if not text:
            return "write a word"
        if self.options.validation == "challenge":
            if not text.isalpha():
                return "letters only, one word"
            return None
        problem = self.dictionary.problem(text)
        if problem is None:
            problem = self.family_block(seat, text)
        return None if problem is None else f"{word.strip().upper()}: {problem}"

    def earlier_words(self, seat: int) -> list[tuple[int, PlayedWord]]:
        """(round, word) of the earlier rounds that the family rule compares ``seat`` with."""
        out = []
        for number, words in enumerate(self.played, 1):
            for played in words:
                if played.seat == seat and not self.options.own_families:
                    continue
                out.append((number, played))
        return out

    def family_block(self, seat: int, word: str) -> str | None:
        rule = self.options.family_rule
        for number, played in self.earlier_words(seat):
            same = (
                played.word == word
                if rule == "word"
                else played.word == word or self.families.same_lemma(word, played.word)
            )
            if same:
                return f"same family as {played.word.upper()} used in round {number}"
        return None

    def family_warning(self, seat: int, word: str) -> str | None:
        if self.options.family_rule != "lemma+root":
            return None
        for number, played in self.earlier_words(seat):
            root = self.families.shared_root(word, played.word)
            if root is not None:
                return (
                    f"shares the root {root.upper()}- with {played.word.upper()} "
                    f"(round {number}): others may challenge it"
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
            assert self.vote is not None
            self.vote["votes"][seat] = action.uphold
            if set(self.vote["votes"]) >= set(self.vote["voters"]):
                self._count_votes()

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

    def _review_needed(self) -> bool:
        if self.solo:
            return False
        return any(self.challengeable_by_anyone(t) for t in range(self.n))

    def challengeable_by_anyone(self, target: int) -> bool:
        if not self.entries[target] or self.n < 2:
            return False
        return self.options.validation == "challenge" or self.warnings[target] is not None

    # -- challenges (§8) -------------------------------------------------------------------
    def _challenge(self, challenger: int, target: int) -> None:
        self.challenged.add(target)
        word = self.entries[target]
        assert word is not None
        problem = self.dictionary.problem(word) or self.family_block(target, word)
        if problem is not None:
            self._settle(challenger, target, upheld=True, why=problem)
            return
        if self.warnings[target] is not None:
            voters = [s for s in range(self.n) if s not in (target, challenger)]
            self.vote = {
                "challenger": challenger,
                "target": target,
                "voters": voters,
                "votes": {},
                "why": self.warnings[target],
            }
            if voters:
                self.phase = Phase.VOTE
            else:
                self._count_votes()
            return
        self._settle(challenger, target, upheld=False, why="the dictionary accepts it")

    def _count_votes(self) -> None:
        vote = self.vote
        assert vote is not None
        upheld = 1 + sum(1 for v in vote["votes"].values() if v)  # the challenger's own
        total = 1 + len(vote["voters"])
        self.vote = None
        self.phase = Phase.REVIEW
        why = f"{vote['why']}; {upheld} of {total} voted it the same family"
        self._settle(vote["challenger"], vote["target"], upheld=upheld * 2 > total, why=why)

    def _settle(self, challenger: int, target: int, *, upheld: bool, why: str) -> None:
        word = (self.entries[target] or "").upper()
        if upheld:
            self.failed.add(target)
            self.round_lines.append(
                ScoreLine.of(
                    target, "challenge:upheld", 0, "line.challenge_upheld", word=word, why=why
                )
            )
        else:
            self.penalties[challenger] += 1
            self.round_lines.append(
                ScoreLine.of(
                    challenger,
                    "challenge:failed",
                    -CHALLENGE_PENALTY,
                    "line.challenge_failed",
                    word=word,
                    why=why,
                )
            )
        self._maybe_end_review()

    def _maybe_end_review(self) -> None:
        if self.phase != Phase.REVIEW:
            return
        open_challenges = any(self.challengeable(s) for s in range(self.n) if not self.accepted[s])
        if all(self.accepted) or not open_challenges:
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
        first_value, second_value = BONUS_BY_ROUND[self.round]
        marks: list[tuple[int, int, int]] = []
        if self.solo:
            marks = self._solo_marks(points[0], first_value, second_value, lines)
        else:
            lead = self.fastest if self.options.variant == "standard" else self.main
            if lead is not None:
                marks = self._boxes(lead, points, first_value, second_value)
        for seat, box, value in marks:
            self.marks[seat].append(Mark(self.round, box, value))
            said = "line.bonus_beat_fastest" if box == 1 else "line.bonus_fastest"
            if self.options.variant == "no-hourglass":
                said = "line.bonus_beat_main" if box == 1 else "line.bonus_main"
            if self.solo:
                said = "line.solo_bonus_field_1" if box == 2 else "line.solo_bonus"
            lines.append(ScoreLine.of(seat, f"bonus:{box}", value, said))
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
        slide(self.area, self.pile)
        for slot in REFILL_ORDER:
            self.pile.fill(self.area, slot, self.rng)
        self.round += 1
        self._start_round()

    def _boxes(
        self, lead: int, points: list[int], first_value: int, second_value: int
    ) -> list[tuple[int, int, int]]:
        """The two bonus boxes (§5): others beat the lead; the lead beats the others."""
        marks = []
        lead_failed = lead in self.failed
        if not (lead_failed and self.options.failed_fastest == "no-first-box"):
            for seat in range(self.n):
                if seat != lead and seat not in self.failed and points[seat] > points[lead]:
                    marks.append((seat, 1, first_value))
        if not lead_failed:
            others = [points[s] for s in range(self.n) if s != lead]
            if self.n >= MANY_PLAYERS:
                won = sum(p <= points[lead] for p in others) >= self.options.fastest_needs
            else:
                won = points[lead] >= max(others)
            if won:
                marks.append((lead, 2, second_value))
        return sorted(marks)

    def _solo_marks(
        self, points: int, first_value: int, second_value: int, lines: list[ScoreLine]
    ) -> list[tuple[int, int, int]]:
        """The solo bonus and the hourglass's move on the SOLO card (§9)."""
        marks = []
        field = self.field_name
        if self.in_time and points >= SOLO_BONUS_MIN:
            marks.append((0, 2, second_value) if field == "1" else (0, 1, first_value))
        fields = self.solo_fields
        if points >= SOLO_MOVE_UP_MIN:
            if self.in_time:
                self.field = 0
        elif field == "red":
            self.penalties[0] += 1
            lines.append(ScoreLine.of(0, "solo:penalty", -CHALLENGE_PENALTY, "line.solo_penalty"))
            self.field = fields.index("red") if "2" not in fields else fields.index("2")
        else:
            self.field += 1
        return marks

    def _next_main(self) -> int:
        """No-hourglass variant: fewest 2nd-box marks, then fewest 1st-box marks, then the
        nearest clockwise from the current main player (who may stay)."""
        assert self.main is not None
        order = [(self.main + k) % self.n for k in range(1, self.n + 1)]

        def key(seat: int) -> tuple[int, int, int]:
            seconds = sum(1 for m in self.marks[seat] if m.box == 2)
            firsts = sum(1 for m in self.marks[seat] if m.box == 1)
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
                "solo-won"
                if self.totals[0] >= SOLO_TARGET[self.options.difficulty]
                else "solo-lost"
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
        return self.totals[0] >= SOLO_TARGET[self.options.difficulty]

    # -- copies and hidden information --------------------------------------------------
    def clone(self) -> SiedemSlowState:
        new = object.__new__(SiedemSlowState)
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
        new.vote = None if self.vote is None else {**self.vote, "votes": dict(self.vote["votes"])}
        new.round_lines = self.round_lines.copy()
        return new

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
                    word = self.dictionary.words[rng.getrandbits(32) % len(self.dictionary)]
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
        if revealed:
            data["words"] = [
                {"seat": s, "word": self.entries[s], "warning": self.warnings[s]}
                for s in range(self.n)
            ]
            data["challenged"] = sorted(self.challenged)
            if self.vote is not None:
                data["vote"] = {
                    "challenger": self.vote["challenger"],
                    "target": self.vote["target"],
                    "why": self.vote["why"],
                    "voted": sorted(self.vote["votes"]),
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
            data["warning"] = self.warnings[seat]
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


SPEC = register(
    GameSpec(
        id="siedem-slow",
        title="7 słów",
        summary="Real-time word game for 1-6: one word a round from 8 letter cards.",
        options_model=SiedemSlowOptions,
        start=SiedemSlowState,
        parse_action=parse_action,
        presets={
            "default": {},
            "solo": {"players": 1},
            "english": {"deck": "en"},
            "no-hourglass": {"variant": "no-hourglass"},
            "table": {"validation": "challenge"},
        },
        info=GameInfo(players=(1, 6), simultaneous=True, clock=True),
        family="siedem-slow",
        capabilities={
            Capability.BOTS: "cardtable.games.siedem_slow.bots:BOTS",
            Capability.ENCODER: "cardtable.games.siedem_slow.encoding:SiedemSlowEncoder",
            Capability.TERMINAL: "cardtable.games.siedem_slow.terminal:FRONT_END",
            Capability.COMMANDS: "cardtable.games.siedem_slow.commands:COMMANDS",
            Capability.COMPANION: "cardtable.games.siedem_slow.companion",
            Capability.DOCS: "cardtable.games.siedem_slow.docs:TABLES",
        },
    )
)
