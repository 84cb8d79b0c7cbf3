"""Challenges after the writing (games/siedem_slow/pages/siedem-slow.md, "Words that are not
allowed"): who may challenge which word, the dictionary's verdict, the vote on a shared root,
and the penalty for a failed challenge.

The dictionary settles a challenge at once: a word it refuses (or one of a family already
used) is struck; one it accepts costs the challenger a penalty. A word that only shares a
root with an earlier one goes to the other players' vote; the challenger's own vote counts
for upholding, and a strict majority strikes the word.

>>> why = reason("siedem.why.root", root="KOT", word="KOTEK", number=1)
>>> vote = FamilyVote(challenger=0, target=1, voters=(2, 3), why=why)
>>> vote = vote.cast(2, uphold=True).cast(3, uphold=False)
>>> vote.complete, vote.upheld, vote.total
(True, 2, 3)
"""

from __future__ import annotations

from abc import abstractmethod
from dataclasses import dataclass, replace

from cardtable.core.results import ScoreLine
from cardtable.core.state import KeepsRounds
from cardtable.games.siedem_slow.dictionary import Dictionary
from cardtable.games.siedem_slow.options import SiedemSlowOptions
from cardtable.games.siedem_slow.tables import CHALLENGE_PENALTY, Phase
from cardtable.locales import Reason, reason


@dataclass(frozen=True, slots=True)
class FamilyVote:
    """The vote on a challenged word that shares a root with an earlier one."""

    challenger: int
    target: int
    voters: tuple[int, ...]  # everyone but the challenger and the word's writer
    why: Reason  # the family checker's warning
    upheld_by: frozenset[int] = frozenset()
    let_stand_by: frozenset[int] = frozenset()

    @property
    def voted(self) -> frozenset[int]:
        return self.upheld_by | self.let_stand_by

    @property
    def complete(self) -> bool:
        return self.voted >= set(self.voters)

    @property
    def upheld(self) -> int:
        """Votes to strike the word: the challenger's own and every voter's who agreed."""
        return 1 + len(self.upheld_by)

    @property
    def total(self) -> int:
        return 1 + len(self.voters)

    def cast(self, seat: int, *, uphold: bool) -> FamilyVote:
        if uphold:
            return replace(self, upheld_by=self.upheld_by | {seat})
        return replace(self, let_stand_by=self.let_stand_by | {seat})


class Challenges(KeepsRounds):
    """The review of a round's words, the part of :class:`~.state.SiedemSlowState` that
    settles challenges. It owns the review's fields and the phase it moves between review
    and vote; the rest it reads from the state."""

    __slots__ = ("accepted", "challenged", "failed", "phase", "round_lines", "vote")

    phase: Phase
    accepted: list[bool]
    challenged: set[int]
    failed: set[int]
    round_lines: list[ScoreLine]
    vote: FamilyVote | None
    # kept by the state
    n: int
    options: SiedemSlowOptions
    dictionary: Dictionary
    entries: list[str | None]
    warnings: list[Reason | None]
    penalties: list[int]

    @abstractmethod
    def family_block(self, seat: int, word: str) -> Reason | None:
        """Why ``word`` repeats a family already used (None: it does not)."""

    @abstractmethod
    def _score_round(self) -> None:
        """Score the round once its words are settled."""

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

    def challengeable_by_anyone(self, target: int) -> bool:
        if not self.entries[target] or self.n < 2:
            return False
        return self.options.validation == "challenge" or self.warnings[target] is not None

    def _review_needed(self) -> bool:
        return any(self.challengeable_by_anyone(t) for t in range(self.n))

    def _why_not_challenge(self, seat: int, target: int) -> Reason:
        if not 0 <= target < self.n:
            return reason("illegal.siedem.no_seat", seat=target)
        if target == seat:
            return reason("illegal.siedem.own_word")
        if target in self.challenged:
            return reason("illegal.siedem.challenged_already")
        if not self.entries[target]:
            return reason("illegal.siedem.no_word")
        return reason("illegal.siedem.accepted")

    def _challenge(self, challenger: int, target: int) -> None:
        self.challenged.add(target)
        word = self.entries[target]
        assert word is not None
        problem = self.dictionary.problem(word) or self.family_block(target, word)
        if problem is not None:
            self._settle(challenger, target, upheld=True, why=problem)
            return
        warning = self.warnings[target]
        if warning is not None:
            voters = tuple(s for s in range(self.n) if s not in (target, challenger))
            self.vote = FamilyVote(challenger, target, voters, warning)
            if voters:
                self.phase = Phase.VOTE
            else:
                self._count_votes()
            return
        self._settle(challenger, target, upheld=False, why=reason("siedem.why.accepted"))

    def _cast_vote(self, seat: int, uphold: bool) -> None:
        assert self.vote is not None
        self.vote = self.vote.cast(seat, uphold=uphold)
        if self.vote.complete:
            self._count_votes()

    def _count_votes(self) -> None:
        vote = self.vote
        assert vote is not None
        self.vote = None
        self.phase = Phase.REVIEW
        why = reason("siedem.why.voted", why=vote.why, upheld=vote.upheld, total=vote.total)
        upheld = vote.upheld * 2 > vote.total
        self._settle(vote.challenger, vote.target, upheld=upheld, why=why)

    def _settle(self, challenger: int, target: int, *, upheld: bool, why: Reason) -> None:
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
