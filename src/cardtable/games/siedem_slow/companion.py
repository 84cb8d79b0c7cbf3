"""7 słów score pad for the boxed game: the area and each player's word per round; the
engine checks every word (saying why one is refused), scores it, marks both bonus boxes,
applies challenges and their penalties, strikes out the two lowest words and breaks ties.

Each round the area the players laid out replaces the engine's own; then the words are
written, the first player to flip the hourglass flips it, and everybody else locks —
exactly the moves an online game is made of, so the pad and the engine cannot disagree.
A pad for one player is the solo game: each round says whether the word was locked before
the sand ran out, and the engine moves the hourglass on the SOLO card.

>>> pad = play_pad(2, {"deck": "en"}, [WordRound("MD|SS|J+2L|J+1Y", ("misjudges", ""), fastest=0)])
>>> [(line.seat, line.label, line.points) for line in pad.results[0].lines]
[(0, 'MISJUDGES: 23', 23), (1, '(no word): 0', 0), (0, 'Fastest player wins', 2)]
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.core.errors import CardtableError, OptionError
from cardtable.core.game import load
from cardtable.games.siedem_slow import (
    CLOCK,
    Accept,
    Area,
    Challenge,
    Flip,
    Lock,
    SiedemSlowState,
    Submit,
    TimeUp,
    Vote,
)
from cardtable.games.siedem_slow.area import LetterCard
from cardtable.games.siedem_slow.game import Phase
from cardtable.games.siedem_slow.scoring import normalize
from cardtable.games.siedem_slow.tables import COLUMN_VALUES, DECKS, ROWS_PER_COLUMN, SOLO_TARGET
from cardtable.locales import value_json

WRITING = (Phase.WRITING, Phase.HOURGLASS, Phase.OVERTIME)


class PadProblem(OptionError):
    """An entry the rules refuse; ``round`` and ``seat`` (0-based) say which."""

    def __init__(
        self,
        message: str,
        round_number: int,
        seat: int | None = None,
        why: tuple[str, dict[str, Any]] | None = None,
    ) -> None:
        super().__init__(message)
        self.round = round_number
        self.seat = seat
        self.why = why  # a refused word: its code and values (``pad.why.CODE``)


@dataclass(frozen=True)
class WordRound:
    """One round as the table saw it."""

    area: str  # "DS|PH+2|LN|KR": four columns (5, 4, 3, 2 points), two letters each
    words: tuple[str, ...]  # each player's word, "" for none
    fastest: int | None = None  # who flipped the hourglass first (None: nobody)
    challenges: tuple[tuple[int, int], ...] = ()  # (who challenges, whose word)
    upholds: tuple[bool, ...] = ()  # each player's vote when a family challenge is voted on
    late: bool = False  # solo: the word was locked after the sand ran out

    @classmethod
    def from_json(cls, data: Any) -> WordRound:
        if not isinstance(data, Mapping):
            raise OptionError("a round is an object with 'area' and 'words'")
        try:
            return cls(
                area=str(data.get("area", "")),
                words=tuple(str(w or "") for w in data.get("words") or ()),
                fastest=None if data.get("fastest") is None else int(data["fastest"]),
                challenges=tuple((int(a), int(b)) for a, b in data.get("challenges") or ()),
                upholds=tuple(bool(v) for v in data.get("upholds") or ()),
                late=bool(data.get("late", False)),
            )
        except (TypeError, ValueError) as error:
            raise OptionError(f"cannot read the round: {error!r}") from None

    @classmethod
    def from_text(cls, text: str, players: int) -> WordRound:
        """A round as typed on the command line: ``AREA;words;fastest;challenges;votes``,
        players counted from 1 (``cardtable companion siedem-slow --help``).

        >>> WordRound.from_text("MD|SS|J+2L|J+1Y;misjudges,judges;1;2>1;", 2).challenges
        ((1, 0),)
        """
        area, words_text, fastest, challenges, votes = (text.split(";") + [""] * 4)[:5]
        words = tuple(w.strip() for w in words_text.split(","))
        words += ("",) * (players - len(words))
        late = fastest.strip().lower() == "late"
        try:
            flipped = int(fastest) - 1 if fastest.strip() and not late else None
            pairs = []
            for challenge in filter(None, (c.strip() for c in challenges.split(","))):
                by, _, target = challenge.partition(">")
                pairs.append((int(by) - 1, int(target) - 1))
        except ValueError:
            raise OptionError(f"cannot read the round {text!r}: see --help") from None
        upholds = tuple(v.strip().lower() in ("y", "yes") for v in votes.split(",") if v.strip())
        return cls(area, words, flipped, tuple(pairs), upholds, late)


def new_pad(players: int, options: Mapping[str, Any]) -> SiedemSlowState:
    """A pad for 2 to 6 players, or 1 for the solo game with its SOLO card."""
    state = load("siedem-slow", **{**dict(options), "players": players}).new_state(seed=0)
    assert isinstance(state, SiedemSlowState)
    return state


def _writing_starts(state: SiedemSlowState) -> bool:
    return not state.is_over and state.phase == Phase.WRITING


def play_round(state: SiedemSlowState, entry: WordRound) -> None:
    """Enter one round into ``state`` (which must be at the start of a round)."""
    number, n = state.round, state.n
    if not _writing_starts(state):
        raise PadProblem("the game is over: no more rounds", number)
    if len(entry.words) != n:
        raise PadProblem(
            f"give {n} words (an empty one for no word), not {len(entry.words)}", number
        )
    try:
        state.area = Area.parse(entry.area, state.options.deck)
    except OptionError as error:
        why = area_problem(entry.area, state.options.deck)
        raise PadProblem(f"round {number}: {error}", number, why=why) from None
    _write_words(state, entry.words, number)
    _run_the_hourglass(state, entry, number)
    _settle_challenges(state, entry, number)


def _write_words(state: SiedemSlowState, words: Sequence[str], number: int) -> None:
    for seat, word in enumerate(words):
        if word.strip():
            reason: str | None = state.illegal_reason(seat, Submit(word.strip()))
            if reason is not None:
                code = state.word_problem_code(seat, word.strip())
                raise PadProblem(f"round {number}, player {seat + 1}: {reason}", number, seat, code)
            state.apply(seat, Submit(word.strip()))


def _run_the_hourglass(state: SiedemSlowState, entry: WordRound, number: int) -> None:
    """Who flipped the hourglass (or whether the solo word was late), then every seat
    locks its word."""
    if state.solo:
        if entry.fastest is not None:
            raise PadProblem("solo: nobody else flips the hourglass; say if you were late", number)
        if entry.late:
            state.apply(CLOCK, TimeUp())
    elif entry.late:
        raise PadProblem("only the solo game asks whether the word was late", number)
    if entry.fastest is not None:
        _flip(state, entry.fastest, number)
    elif not state.solo and state.timer is not None and state.timer[0] == "cap":
        state.apply(CLOCK, TimeUp())  # nobody flipped: the soft cap ran out
    while state.round == number and state.phase in WRITING:
        seat = min(state.to_move)
        reason = state.illegal_reason(seat, Lock())
        if reason is not None:
            message = f"round {number}: say who flipped the hourglass ({reason})"
            raise PadProblem(message, number, why=("who_flipped", {}))
        state.apply(seat, Lock())


def _flip(state: SiedemSlowState, seat: int, number: int) -> None:
    n = state.n
    reason = state.illegal_reason(seat, Flip()) if 0 <= seat < n else "there is no such player"
    if reason is not None:
        flip_code = "flip"
        if seat == state.holder:
            flip_code = "flip_holder"
        elif 0 <= seat < n and not state.entries[seat]:
            flip_code = "flip_no_word"
        raise PadProblem(
            f"round {number}: player {seat + 1} cannot flip the hourglass ({reason})",
            number,
            seat,
            (flip_code, {"player": seat + 1}),
        )
    state.apply(seat, Flip())


def _settle_challenges(state: SiedemSlowState, entry: WordRound, number: int) -> None:
    """The challenges and their votes as entered; every other word is accepted."""
    for challenger, target in entry.challenges:
        if state.round == number and phase_now(state) == Phase.REVIEW:
            reason = state.illegal_reason(challenger, Challenge(target))
            if reason is not None:
                why = ("challenge", {"player": challenger + 1, "target": target + 1})
                raise PadProblem(f"round {number}: {reason}", number, challenger, why)
            state.apply(challenger, Challenge(target))
        while state.round == number and phase_now(state) == Phase.VOTE:
            voter = min(state.to_move)
            uphold = entry.upholds[voter] if voter < len(entry.upholds) else False
            state.apply(voter, Vote(uphold))
    while state.round == number and state.phase in (Phase.REVIEW, Phase.VOTE):
        seat = min(state.to_move)
        state.apply(seat, Accept() if state.phase == Phase.REVIEW else Vote(False))


def area_problem(area: str, deck: str) -> tuple[str, dict[str, Any]]:
    """Why the area is refused, as a code (``pad.why.CODE``) naming the first wrong slot
    (0-7, column by column) and card.

    >>> area_problem("KO|TA|PS|IE", "pl")
    ('no_such_card', {'slot': 1, 'card': 'O', 'have': ''})
    >>> area_problem("K7|TA|PS|IE", "pl")[0]
    'not_a_letter'
    """
    spec = DECKS[deck]
    for column, text in enumerate(area.split("|")[: len(COLUMN_VALUES)]):
        tokens = re.findall(r"_|\w(?:\s*\+\s*\d)?|\S", text.strip())
        for row, token in enumerate(tokens[:ROWS_PER_COLUMN]):
            if token == "_":
                continue
            slot = column * ROWS_PER_COLUMN + row
            try:
                LetterCard.parse(token, spec)
            except OptionError:
                if re.fullmatch(r"[^\W\d_](\s*\+\s*\d)?", token) is None:
                    return "not_a_letter", {"slot": slot, "card": token}
                letter = token[0].upper()
                have = ", ".join(str(LetterCard(letter, b)) for b in spec.bonuses_of(letter))
                return "no_such_card", {"slot": slot, "card": token.upper(), "have": have}
    return "area", {}


def phase_now(state: SiedemSlowState) -> Phase:
    """The phase as it is now (each apply may change it; type checkers assume not)."""
    return state.phase


def play_pad(
    players: int, options: Mapping[str, Any], rounds: Sequence[WordRound]
) -> SiedemSlowState:
    """The engine state after entering ``rounds``."""
    state = new_pad(players, options)
    for entry in rounds:
        play_round(state, entry)
    return state


#: the browser pad that enters these rounds
PAD = "siedem-slow"
#: the names people say: /companion/words is the 7 słów pad
PAD_ALIASES = ("words", "7-slow")
#: the catalogue key of the lobby's link to the pad
LINK = "pad.words_link"


def results(game: str, options: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """Every saved round replayed through the engine: lines, bonus boxes, totals; at the end
    the strike-out and the winners; and the round being entered, or why it is refused."""
    players = int(options.get("players", 2))
    state = play_pad(players, options, [WordRound.from_json(r) for r in data.get("rounds", [])])
    out: dict[str, Any] = {
        "rounds": [r.to_json() for r in state.results],
        "totals": list(state.scores()),
        "marks": [
            [{"round": m.round, "box": m.box, "value": m.value} for m in marks]
            for marks in state.marks
        ],
        "over": state.is_over,
        "leaders": list(state.result().winners),
        "settlement": [],
    }
    if state.solo:
        target = SOLO_TARGET[state.options.difficulty]
        out["solo"] = {"field": state.field_name, "target": target}
    current = data.get("current")
    if current and not state.is_over:
        preview = state.clone()
        assert isinstance(preview, SiedemSlowState)
        try:
            entry = WordRound.from_json(current)
            out["warnings"] = [
                value_json(state.family_warning(seat, normalize(word))) if word.strip() else None
                for seat, word in enumerate(entry.words[: state.n])
            ]
            play_round(preview, entry)
            out["current"] = preview.results[len(state.results)].to_json()
        except PadProblem as problem:
            out["current_error"] = str(problem)
            out["current_error_seat"] = problem.seat
            if problem.why is not None:
                out["current_error_code"], out["current_error_values"] = problem.why
        except CardtableError as error:
            out["current_error"] = str(error)
    return out
