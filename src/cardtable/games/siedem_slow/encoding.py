"""7 słów's RL encoding (the ``ENCODER`` capability): write one of the solver's best
words, lock, accept, challenge, vote; an observation of the seat's view."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from cardtable.core.actions import Action
from cardtable.core.encoding import (
    JSON,
    MAX_SEATS,
    BaseEncoder,
    Choice,
    Vector,
    one_hot,
    relative,
)
from cardtable.core.errors import IllegalAction
from cardtable.core.state import State
from cardtable.games.siedem_slow.game import (
    Accept,
    Challenge,
    Lock,
    SiedemSlowState,
    Submit,
    Vote,
)
from cardtable.games.siedem_slow.scoring import normalize
from cardtable.games.siedem_slow.solver import Solution, solve
from cardtable.games.siedem_slow.tables import COLUMN_VALUES, DECKS, ROUNDS

#: every letter of every deck, the one-hot order of a letter card
LETTERS = sorted({letter for deck in DECKS.values() for letter in deck.letters})


class SiedemSlowEncoder(BaseEncoder):
    """Write one of the solver's ``CANDIDATES`` best words for you (then flip when you
    may, else lock), lock without a word, accept the words, challenge a seat, vote; or,
    while nobody has flipped, write a candidate word without hurrying (``SLOW``).

    The writing is a race: every seat decides at once (:meth:`simultaneous`), and the
    round's fastest is drawn among the seats that chose to flip, or, when none did, among
    the slow writers; never by seat order.
    """

    score_scale = 150.0
    CANDIDATES = 16
    WORD, LOCK, ACCEPT = 0, 16, 17
    CHALLENGE = 18
    VOTE_YES, VOTE_NO = 18 + MAX_SEATS, 19 + MAX_SEATS
    SLOW = 20 + MAX_SEATS
    action_size = SLOW + CANDIDATES
    LETTERS = LETTERS
    observation_size = 8 * (len(LETTERS) + 2) + CANDIDATES + ROUNDS + 6 + MAX_SEATS * 3 + 4
    LAYOUT = (
        *(
            (f"slot_{k}", len(LETTERS) + 2, 0.0, 1.0, "letter (one-hot), value / 7, column / 5")
            for k in range(8)
        ),
        ("candidates", CANDIDATES, 0.0, 10.0, "points of the solver's best words / 40"),
        ("round", ROUNDS, 0.0, 1.0, "round 1-7 (one-hot)"),
        ("phase", 6, 0.0, 1.0, "writing, hourglass, overtime, review, vote, over (one-hot)"),
        ("scores", MAX_SEATS, -10.0, 10.0, "scores / 150 (viewer first)"),
        ("marks", MAX_SEATS, -10.0, 10.0, "box marks / 20 (viewer first)"),
        ("locked", MAX_SEATS, 0.0, 1.0, "1 for each seat whose word is locked"),
        ("dont_flip", 1, 0.0, 1.0, "1 when the viewer holds the don't-flip card"),
        ("may_flip", 1, 0.0, 1.0, "1 when the viewer may flip the hourglass"),
        ("players", 1, 0.0, 1.0, "players / 6"),
        ("fastest_known", 1, 0.0, 1.0, "1 once someone has flipped"),
    )

    def __init__(self) -> None:
        self._cache: dict[tuple[object, ...], list[Solution]] = {}

    def candidates(self, state: SiedemSlowState, seat: int) -> list[Solution]:
        """The solver's best legal words for this seat now (cached by what decides them:
        the area, the words played before, the seat and the options)."""
        played = tuple(w.word for words in state.played for w in words)
        key = (str(state.area), played, seat, state.options)
        if key not in self._cache:
            if len(self._cache) > 64:
                self._cache.clear()
            options = state.options
            found = solve(
                state.area,
                state.dictionary,
                top=self.CANDIDATES,
                better=options.better_card,
                veteran_letters=options.veteran_letters if seat in options.veterans else None,
                veteran_counts=options.veteran_counts,
                # solver words are dictionary words: only the family rule can refuse one
                allowed=lambda w: state.family_block(seat, w) is None,
            )
            self._cache[key] = found
        return self._cache[key]

    def index_of(self, state: State, seat: int, action: Action) -> int:
        assert isinstance(state, SiedemSlowState)
        if isinstance(action, Submit):
            words = [s.word for s in self.candidates(state, seat)]
            word = normalize(action.word)
            if word not in words:
                raise IllegalAction(f"{word.upper()} is not one of the candidate words")
            return words.index(word)
        if isinstance(action, Vote):
            return self.VOTE_YES if action.uphold else self.VOTE_NO
        if isinstance(action, Challenge):
            return self.CHALLENGE + action.seat
        simple = {Lock: self.LOCK, Accept: self.ACCEPT}
        if type(action) not in simple:
            raise IllegalAction(f"no number for {action!r}: a written word flips by itself")
        return simple[type(action)]

    def legal_indices(self, state: State, seat: int) -> list[int]:
        assert isinstance(state, SiedemSlowState)
        if seat not in state.to_move:
            return []
        if state.phase in ("writing", "hourglass", "overtime"):
            # free text is not listed by the engine: the candidates stand for it
            lock = [self.LOCK] if state.illegal_reason(seat, Lock()) is None else []
            words = len(self.candidates(state, seat))
            slow = range(self.SLOW, self.SLOW + words) if state.phase == "writing" else ()
            return [*range(words), *lock, *slow]
        return super().legal_indices(state, seat)

    def decode(self, state: State, seat: int, index: int) -> Action:
        assert isinstance(state, SiedemSlowState)
        if index not in self.legal_indices(state, seat):
            raise IllegalAction(f"action {index} is not legal for seat {seat} now")
        if index < self.CANDIDATES:
            return Submit(self.candidates(state, seat)[index].word)
        if index >= self.SLOW:
            return Submit(self.candidates(state, seat)[index - self.SLOW].word)
        if index == self.LOCK:
            return Lock()
        return super().decode(state, seat, index)

    def observe(self, view: JSON) -> Vector:
        seat, players = int(view["seat"]), int(view["players"])
        area = np.zeros((8, len(self.LETTERS) + 2), dtype=np.float32)
        for slot, card in enumerate(view["area"]):
            if card is not None:
                area[slot, self.LETTERS.index(card["letter"])] = 1.0
                area[slot, -2] = card["value"] / 7
                area[slot, -1] = card["column"] / max(COLUMN_VALUES)
        candidates = np.zeros(self.CANDIDATES, dtype=np.float32)
        for index, points in enumerate(view.get("candidate_points", [])[: self.CANDIDATES]):
            candidates[index] = points / 40
        phases = ("writing", "hourglass", "overtime", "review", "vote", "over")
        marks = [sum(m["value"] for m in ms) for ms in view["marks"]]
        parts = [
            area.ravel(),
            candidates,
            one_hot(int(view["round"]) - 1, ROUNDS),
            one_hot(phases.index(view["phase"]), 6),
            relative(view["scores"], seat, MAX_SEATS, self.score_scale),
            relative(marks, seat, MAX_SEATS, 20.0),
            relative(view["locked"], seat, MAX_SEATS),
            np.array(
                [
                    float(view.get("dont_flip") == seat),
                    float(bool(view.get("may_flip"))),
                    float(players) / MAX_SEATS,
                    float(view.get("fastest") is not None),
                ],
                dtype=np.float32,
            ),
        ]
        return np.concatenate(parts)

    def view_of(self, state: State, seat: int) -> JSON:
        """The seat's view plus the points of its candidate words (public to that seat:
        the solver only reads the area and the dictionary)."""
        assert isinstance(state, SiedemSlowState)
        view = state.view(seat, brief=True)
        if seat in state.to_move and state.phase in ("writing", "hourglass", "overtime"):
            view["candidate_points"] = [s.points for s in self.candidates(state, seat)]
        return view

    def simultaneous(self, state: State) -> bool:
        """Every step several seats face is decided together: the writing race, and the
        review (who challenges is not decided by seat order either)."""
        return len(state.to_move) > 1

    def resolve(
        self, state: State, choices: Mapping[int, Choice], rng: np.random.Generator
    ) -> None:
        """The writing race: the seats that chose to flip finish first, in a random order
        (the first of them flips), then the rest in a random order. A bot's own word
        (an engine action, not a number) counts as a choice to flip."""
        assert isinstance(state, SiedemSlowState)
        if state.phase != "writing":
            super().resolve(state, choices, rng)
            return
        actions = {seat: self.action_of(state, seat, choice) for seat, choice in choices.items()}
        hurry = [s for s, c in choices.items() if not isinstance(c, int) or c < self.CANDIDATES]
        rest = [s for s in choices if s not in hurry]
        order = [int(s) for s in rng.permutation(hurry)] + [int(s) for s in rng.permutation(rest)]
        for seat in order:
            try:
                state.apply(seat, actions[seat])
            except IllegalAction:  # refused once another seat's word is in (a family rule)
                state.apply(seat, Lock())
                continue
            self.after(state, seat, actions[seat])

    def after(self, state: State, seat: int, action: Action) -> None:
        """A chosen word is finished at once: it flips when the rules allow, else locks
        (one decision a round)."""
        assert isinstance(state, SiedemSlowState)
        writing = state.phase in ("writing", "hourglass", "overtime")
        if isinstance(action, Submit) and seat in state.to_move and writing:
            state.apply(seat, state.finish_action(seat))
