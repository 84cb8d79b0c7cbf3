"""Word bots for 7 słów: the solver's best words, from a pool sized by the bot's level.

A stronger bot knows more words: ``easy`` writes common words only (``wordfreq`` Zipf
frequency ≥ 3.5, about once per 3 million words of text) and not always its best,
``medium`` knows the rarer words too (Zipf ≥ 2), ``hard`` the whole dictionary. Each has
a simulated thinking time that real-time front ends wait before the bot locks its word
(or flips the hourglass, when it may); the engine itself has no clock.

>>> import cardtable
>>> from cardtable.agents import make_agent
>>> state = cardtable.load("siedem-slow", players=2, deck="en").new_state(seed=2)
>>> bot = make_agent("hard", "siedem-slow", seed=1)
>>> action = bot.choose(state, 0)
>>> type(action).__name__, state.word_problem(0, action.word) is None
('Submit', True)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from cardtable.agents.base import Agent, register_agent
from cardtable.core.actions import Action
from cardtable.core.errors import IllegalAction
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.games.siedem_slow.game import Accept, Lock, Phase, SiedemSlowState, Submit, Vote
from cardtable.games.siedem_slow.solver import solve


@dataclass(frozen=True)
class WordLevel:
    description: str
    min_zipf: float | None  # None: every dictionary word
    choose_among: int  # picks at random among this many best words
    think_seconds: float
    random_words: bool = False


LEVELS = {
    "random": WordLevel("writes a random dictionary word", None, 1, 20.0, random_words=True),
    "easy": WordLevel("common words only, not always its best (about 25 s)", 3.5, 8, 25.0),
    "medium": WordLevel("the best of the words a keen reader knows (about 18 s)", 2.0, 1, 18.0),
    "hard": WordLevel("the best word of the whole dictionary (about 10 s)", None, 1, 10.0),
}


class WordBot:
    """Writes the solver's choice from its pool, then flips if it may, else locks."""

    def __init__(self, level: str, seed: int | None = None) -> None:
        self.name = level
        self.level = LEVELS[level]
        self.rng = Rng(0 if seed is None else seed)

    def think_seconds(self) -> float:
        """How long this bot "writes" in real time (front ends wait this long)."""
        return self.level.think_seconds * (0.8 + 0.4 * self.rng.random())

    def word_for(self, state: SiedemSlowState, seat: int) -> str | None:
        """The word this bot writes now, or None when it finds none."""

        def allowed(word: str) -> bool:
            # dictionary words: only the family rule (a block or a warning) can refuse one
            return (
                state.family_block(seat, word) is None and state.family_warning(seat, word) is None
            )

        dictionary = state.dictionary
        if self.level.random_words:
            for _ in range(50):
                word = dictionary.random_word(self.rng)
                if allowed(word):
                    return word
            return None
        pool = None
        if self.level.min_zipf is not None:
            pool = dictionary.common_mask(self.level.min_zipf)
        options = state.options
        found = solve(
            state.area,
            dictionary,
            top=self.level.choose_among,
            better=options.better_card,
            veteran_letters=options.veteran_letters if seat in options.veterans else None,
            veteran_counts=options.veteran_counts,
            pool=pool,
            allowed=allowed,
        )
        if not found:
            return None
        return found[self.rng.below(len(found))].word

    def choose(self, state: State, seat: int) -> Action:
        if not isinstance(state, SiedemSlowState):
            raise IllegalAction("word bots play 7 słów only")
        if seat not in state.to_move:
            raise IllegalAction(f"seat {seat} has nothing to do now")
        if state.phase == Phase.REVIEW:
            return Accept()
        if state.phase == Phase.VOTE:
            return Vote(uphold=True)
        if state.entries[seat] is None:
            word = self.word_for(state, seat)
            if word is not None:
                return Submit(word)
            return Lock()
        return state.finish_action(seat)


def _factory(level: str) -> Callable[[str, int | None], Agent]:
    return lambda game_id, seed: WordBot(level, seed)


for _level, _spec in LEVELS.items():
    register_agent(_level, _spec.description, "siedem-slow", _factory(_level))
register_agent(
    "greedy", "the best word of the whole dictionary, at once", "siedem-slow", _factory("hard")
)
# A word's own score does not depend on the others' words, and both bonus boxes only grow
# with it, so the best legal word is dominant: search over candidate words would pick it.
register_agent(
    "ismcts", "the best word of the whole dictionary (dominant: no search needed)",
    "siedem-slow", _factory("hard"),
)  # fmt: skip
