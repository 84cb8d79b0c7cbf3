"""7 słów's RL encoding (the ``ENCODER`` capability): write one of the solver's best
words, lock, accept, challenge, vote; an observation of the seat's view."""

from __future__ import annotations

import numpy as np

from cardtable.core.actions import Action
from cardtable.core.encoding import JSON, MAX_SEATS, BaseEncoder, Vector, one_hot, relative
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


class SiedemSlowEncoder(BaseEncoder):
    """Write one of the solver's ``CANDIDATES`` best words for you (then flip when you
    may, else lock), lock without a word, accept the words, challenge a seat, vote."""

    score_scale = 150.0
    CANDIDATES = 16
    WORD, LOCK, ACCEPT = 0, 16, 17
    CHALLENGE = 18
    VOTE_YES, VOTE_NO = 18 + MAX_SEATS, 19 + MAX_SEATS
    action_size = 20 + MAX_SEATS
    LETTERS = sorted({letter for deck in DECKS.values() for letter in deck.letters})
    observation_size = 8 * (len(LETTERS) + 2) + CANDIDATES + ROUNDS + 6 + MAX_SEATS * 3 + 4

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
            return [*range(len(self.candidates(state, seat))), *lock]
        return super().legal_indices(state, seat)

    def decode(self, state: State, seat: int, index: int) -> Action:
        assert isinstance(state, SiedemSlowState)
        if index not in self.legal_indices(state, seat):
            raise IllegalAction(f"action {index} is not legal for seat {seat} now")
        if index < self.CANDIDATES:
            return Submit(self.candidates(state, seat)[index].word)
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

    def after(self, state: State, seat: int, action: Action) -> None:
        """A chosen word is finished at once: it flips when the rules allow, else locks
        (one decision a round)."""
        assert isinstance(state, SiedemSlowState)
        writing = state.phase in ("writing", "hourglass", "overtime")
        if isinstance(action, Submit) and seat in state.to_move and writing:
            state.apply(seat, state.finish_action(seat))
