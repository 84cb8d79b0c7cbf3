"""Word bots for 7 słów: the solver's best words, from a pool sized by the bot's level.

A stronger bot knows more words: ``easy`` writes common words only (``wordfreq`` Zipf
frequency ≥ 3.5, about once per 3 million words of text) and not always its best,
``medium`` knows the rarer words too (Zipf ≥ 2), ``hard`` the whole dictionary. Each has
a simulated thinking time that real-time front ends wait before the bot locks its word
(or flips the hourglass, when it may); the engine itself has no clock.

After the writing, bots referee as careful players do: they challenge a word that the
dictionary refuses (when words are checked only on a challenge) or that shares a root
with an earlier word (the family checker's warning), and vote on others' challenges by
that checker. ``medium`` and ``hard`` notice every such word; ``easy`` and ``random``
half of them, and ``easy`` sides with the challenger in a vote, ``random`` votes at random.

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
from enum import StrEnum

from cardtable.agents.base import Agent, BotSpec
from cardtable.core.actions import Action
from cardtable.core.errors import IllegalAction
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.games.siedem_slow.game import (
    Accept,
    Challenge,
    Lock,
    Phase,
    SiedemSlowState,
    Submit,
    Vote,
)
from cardtable.games.siedem_slow.solver import solve


class VoteBy(StrEnum):
    """How a bot votes on a challenged word of a shared root."""

    CHECKER = "checker"  # uphold when the family checker flags the word
    CHALLENGER = "challenger"  # side with whoever challenged
    CHANCE = "chance"


@dataclass(frozen=True)
class WordLevel:
    description: str
    min_zipf: float | None  # None: every dictionary word
    choose_among: int  # picks at random among this many best words
    think_seconds: float
    random_words: bool = False
    notices: float = 1.0  # share of challengeable words it challenges
    votes: VoteBy = VoteBy.CHECKER


LEVELS = {
    "random": WordLevel(
        "writes a random dictionary word", None, 1, 20.0, True, 0.5, VoteBy.CHANCE
    ),
    "easy": WordLevel(
        "common words only, not always its best (about 25 s)", 3.5, 8, 25.0,
        notices=0.5, votes=VoteBy.CHALLENGER,
    ),
    "medium": WordLevel("the best of the words a keen reader knows (about 18 s)", 2.0, 1, 18.0),
    "hard": WordLevel("the best word of the whole dictionary (about 10 s)", None, 1, 10.0),
}  # fmt: skip


class WordBot:
    """Writes the solver's choice from its pool, then flips if it may, else locks."""

    def __init__(self, level: str, seed: int | None = None) -> None:
        self.name = level
        self.level = LEVELS[level]
        self.rng = Rng(0 if seed is None else seed)
        self.noticed: dict[tuple[int, int], bool] = {}  # (round, seat): challenge its word?

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
            return self.review(state, seat)
        if state.phase == Phase.VOTE:
            return self.vote(state)
        if state.entries[seat] is None:
            word = self.word_for(state, seat)
            if word is not None:
                return Submit(word)
            return Lock()
        return state.finish_action(seat)

    def review(self, state: SiedemSlowState, seat: int) -> Challenge | Accept:
        """Challenge the next word a careful player would (one a call), then accept."""
        for target in state.challengeable(seat):
            if suspicious(state, target) and self._notices(state.round, target):
                return Challenge(target)
        return Accept()

    def _notices(self, round_number: int, target: int) -> bool:
        key = (round_number, target)
        if key not in self.noticed:  # decided once: a bot is asked again after each move
            self.noticed[key] = self.rng.random() < self.level.notices
        return self.noticed[key]

    def vote(self, state: SiedemSlowState) -> Vote:
        if self.level.votes == VoteBy.CHANCE:
            return Vote(uphold=self.rng.random() < 0.5)
        if self.level.votes == VoteBy.CHALLENGER:
            return Vote(uphold=True)
        assert state.vote is not None
        return Vote(uphold=suspicious(state, state.vote.target))


def suspicious(state: SiedemSlowState, target: int) -> bool:
    """Would a careful player expect a challenge of this seat's word to be upheld: the
    dictionary or the family rule refuses it, or it shares a root with an earlier word?"""
    word = state.entries[target]
    if not word:
        return False
    refused = state.dictionary.problem(word) or state.family_block(target, word)
    return refused is not None or state.warnings[target] is not None


def _factory(level: str) -> Callable[[str, int | None], Agent]:
    return lambda game_id, seed: WordBot(level, seed)


# A word's own score does not depend on the others' words, and both bonus boxes only grow
# with it, so the best legal word is dominant: search over candidate words would pick it.
BOTS = {
    **{level: BotSpec(spec.description, _factory(level)) for level, spec in LEVELS.items()},
    "greedy": BotSpec("the best word of the whole dictionary, at once", _factory("hard")),
    "ismcts": BotSpec(
        "the best word of the whole dictionary (dominant: no search needed)", _factory("hard")
    ),
}
