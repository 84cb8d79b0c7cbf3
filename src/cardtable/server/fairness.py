"""Fair shuffles: a live game's seed comes from the OS's CSPRNG and is committed to.

When a table starts the server publishes
``commitment = SHA-256("cardtable-seed/1:" salt ":" seed)``; when the game ends it reveals
``seed`` and ``salt``. Anyone holding the finished game's JSON can
then check that the deal was fixed before the first move and replay every move.

>>> sealed = Commitment.draw()
>>> sealed.matches(sealed.digest)
True
>>> Commitment(seed=7, salt="ab").digest == digest_of(7, "ab")
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from cardtable.core.errors import CardtableError, IllegalAction
from cardtable.core.record import GameRecord, replay

PREFIX = "cardtable-seed/1"
#: Seeds stay below 2**53 so that every JSON reader, browsers included, reads them exactly
#: (a browser has to rebuild the committed text from the number); the 128-bit salt, not
#: the seed's size, is what stops anyone from finding the seed from its commitment.
SEED_BITS = 53


def digest_of(seed: int, salt: str) -> str:
    """The published commitment to ``seed`` (hex SHA-256)."""
    return hashlib.sha256(f"{PREFIX}:{salt}:{seed}".encode()).hexdigest()


@dataclass(frozen=True)
class Commitment:
    """A seed with the salt that hides it until it is revealed."""

    seed: int
    salt: str

    @classmethod
    def draw(cls) -> Commitment:
        return cls(seed=secrets.randbits(SEED_BITS), salt=secrets.token_hex(16))

    @property
    def digest(self) -> str:
        return digest_of(self.seed, self.salt)

    def matches(self, published: str) -> bool:
        return hmac.compare_digest(self.digest, published)


@dataclass(frozen=True)
class Verdict:
    """What ``cardtable verify`` found in a game file."""

    commitment_ok: bool
    replay_ok: bool
    moves: int
    scores: tuple[int, ...]
    problems: tuple[str, ...]
    #: the first move that does not replay: its number (from 1), seat, action and reason
    failed_move: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.commitment_ok and self.replay_ok

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "commitment_ok": self.commitment_ok,
            "replay_ok": self.replay_ok,
            "moves": self.moves,
            "scores": list(self.scores),
            "problems": list(self.problems),
            "failed_move": self.failed_move,
        }


def verify(data: Mapping[str, Any]) -> Verdict:
    """Check a finished game's commitment and replay its whole move log.

    ``data`` is the JSON the server lets players download: a game record plus a
    ``"fairness"`` object with ``commitment``, ``seed`` and ``salt``.
    """
    problems: list[str] = []
    fairness = data.get("fairness") if isinstance(data, Mapping) else None
    commitment_ok = False
    if not isinstance(fairness, Mapping):
        problems.append("no fairness block: this game was not dealt with a committed seed")
    else:
        try:
            sealed = Commitment(seed=int(fairness["seed"]), salt=str(fairness["salt"]))
            commitment_ok = sealed.matches(str(fairness["commitment"]))
            if not commitment_ok:
                problems.append("the revealed seed and salt do not match the commitment")
            if int(data.get("seed", -1)) != sealed.seed:
                commitment_ok = False
                problems.append("the game was played from another seed than the revealed one")
        except (KeyError, TypeError, ValueError) as error:
            problems.append(f"fairness block unreadable: {error!r}")
    replay_ok, moves, scores = False, 0, tuple[int, ...]()
    failed: dict[str, Any] | None = None
    try:
        record = GameRecord.from_json(data)
        state = replay(record.game, record.options, record.seed, (), deals=record.deals)
        for number, (seat, action) in enumerate(record.log, 1):
            try:
                state.apply(seat, action)
            except IllegalAction as error:
                failed = {"move": number, "seat": seat, "action": str(action), "reason": str(error)}
                problems.append(f"the move log does not replay: {failed_move_text(failed)}")
                break
        else:
            replay_ok, moves, scores = True, len(record.log), state.scores()
    except CardtableError as error:
        problems.append(f"the move log does not replay: {error}")
    return Verdict(commitment_ok, replay_ok, moves, tuple(scores), tuple(problems), failed)


def failed_move_text(failed: Mapping[str, Any]) -> str:
    """The move that does not replay, as a person reads it.

    >>> failed_move_text({"move": 37, "seat": 2, "action": "play 03-1", "reason": "no"})
    'move 37 (seat 2: play 03-1): not legal here — no'
    """
    return (
        f"move {failed['move']} (seat {failed['seat']}: {failed['action']}): "
        f"not legal here — {failed['reason']}"
    )
