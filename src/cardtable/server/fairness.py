"""Fair shuffles and honest records: a live game's seed comes from the OS's CSPRNG and is
committed to, its moves are chained, and the finished record is signed.

When a table starts the server publishes
``commitment = SHA-256("cardtable-seed/1:" salt ":" seed)``; when the game ends it reveals
``seed`` and ``salt``. Every accepted move extends a hash chain that starts from the
commitment (:func:`chain_links`), and every frame carries its head, so a player can note
what the server said at any point. The downloaded record carries each move's link and an
Ed25519 signature by the server's own key (:class:`Signer`). Anyone holding the finished
game's JSON can then check that the deal was fixed before the first move, replay every
move, and find the first move that was reordered, dropped or altered (a record whose moves
were swapped can still replay legally: the chain and the signature are what catch it).

>>> sealed = Commitment.draw()
>>> sealed.matches(sealed.digest)
True
>>> Commitment(seed=7, salt="ab").digest == digest_of(7, "ab")
True
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from cardtable.core.errors import CardtableError, IllegalAction
from cardtable.core.record import GameRecord, replay

PREFIX = "cardtable-seed/1"
CHAIN_PREFIX = "cardtable-moves/1"
SIGNATURE = "Ed25519"
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


def canonical(data: Any) -> bytes:
    """The one byte string a JSON value is hashed and signed as (sorted keys, no spaces).

    Every move of every table is hashed into its chain: a value of strings, whole numbers,
    booleans, nulls, lists and objects goes through orjson, which writes those very bytes
    several times faster; anything else (a float, whose digits the two write differently;
    a number past 64 bits, which orjson refuses) through the standard library, which
    defines them.

    >>> canonical({"seat": 1, "action": {"type": "play", "card": "08-1", "take": None}})
    b'{"action":{"card":"08-1","take":null,"type":"play"},"seat":1}'
    >>> canonical({"at": 1e16}), canonical({"n": 2**70})
    (b'{"at":1e+16}', b'{"n":1180591620717411303424}')
    """
    if _plain(data):
        try:
            return orjson.dumps(data, option=orjson.OPT_SORT_KEYS)
        except orjson.JSONEncodeError:  # a lone surrogate: the standard library's error
            pass
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _plain(value: Any) -> bool:
    """Whether orjson and the standard library write ``value`` alike (see canonical): one
    loop over it (every move of every table comes here: the recursion was a tenth of a
    move's cost in a loaded server)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            for key, inner in item.items():
                if not isinstance(key, str):
                    return False
                stack.append(inner)
        elif isinstance(item, list):
            stack.extend(item)
        elif not (isinstance(item, str | int) or item is None):  # (orjson refuses ints past
            return False  # 64 bits: canonical falls back to the standard library)
    return True


def chain_start(commitment: str) -> str:
    return hashlib.sha256(f"{CHAIN_PREFIX}:{commitment}".encode()).hexdigest()


class ChainKey:
    """A deal's salt as the key of its chain's links, set up once: a link then costs a
    copy of the keyed state (a loaded server links every move of every table; a one-shot
    HMAC set its key up again each time, at nearly twice the cost)."""

    __slots__ = ("_keyed",)

    def __init__(self, salt: str) -> None:
        self._keyed = hmac.new(salt.encode(), digestmod=hashlib.sha256)

    def link(self, previous: str, move: Mapping[str, Any]) -> str:
        """The chain's link after ``move`` (see :func:`next_link`)."""
        mac = self._keyed.copy()
        mac.update(previous.encode() + b":" + canonical(move))
        return mac.hexdigest()


def next_link(previous: str, move: Mapping[str, Any], salt: str) -> str:
    """The chain's link after ``move`` (``{"seat", "action"}`` as the log writes it).
    Keyed by the deal's secret salt (an HMAC): while the game runs, a player who sees the
    head before and after a hidden move (an Ohanami keep, a word being written) cannot
    try the few moves it could be; once the salt is revealed anyone can check the chain.

    >>> move = {"seat": 0, "action": {"type": "koi-koi"}}
    >>> message = b"ab:" + canonical(move)
    >>> next_link("ab", move, "s") == hmac.digest(b"s", message, "sha256").hex()
    True
    """
    return ChainKey(salt).link(previous, move)


def chain_links(commitment: str, salt: str, moves: Iterable[Mapping[str, Any]]) -> list[str]:
    """Each move's link, in order: link n commits to the deal and to moves 1..n.

    >>> move = {"seat": 0, "action": {"type": "koi-koi"}}
    >>> chain_links("c0ffee", "ab", [move]) == [next_link(chain_start("c0ffee"), move, "ab")]
    True
    >>> chain_links("c0ffee", "ab", [move]) == chain_links("c0ffee", "cd", [move])
    False
    """
    links, link, key = [], chain_start(commitment), ChainKey(salt)
    for move in moves:
        link = key.link(link, move)
        links.append(link)
    return links


def head(commitment: str, links: Sequence[str]) -> str:
    """The chain's head after ``links`` (its start before any move)."""
    return links[-1] if links else chain_start(commitment)


class Signer:
    """The server's Ed25519 key: it signs the records it hands out.

    >>> signer = Signer(Signer.new_key())
    >>> signed = signer.sign({"game": "koi-koi", "log": []})
    >>> signature_problem(signed, signer.public_key), signature_problem(signed, "00" * 32)
    (None, 'signed by another key than this server')
    >>> signed["log"].append({"seat": 0})
    >>> signature_problem(signed, None)
    'the signature does not match: the file was changed after the server signed it'
    """

    def __init__(self, private_key: bytes) -> None:
        from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: PLC0415
            Ed25519PrivateKey,
        )
        from cryptography.hazmat.primitives.serialization import (  # noqa: PLC0415
            Encoding,
            PublicFormat,
        )

        self._key = Ed25519PrivateKey.from_private_bytes(private_key)
        self.public_key = self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw).hex()
        # a second secret for short proofs the server alone checks (record.js keeps them)
        self._mac_key = hashlib.sha256(b"cardtable-proof/1:" + private_key).digest()

    @staticmethod
    def new_key() -> bytes:
        return secrets.token_bytes(32)  # an Ed25519 private key is any 32 random bytes

    def mac(self, data: Any) -> str:
        """A proof that this server said ``data`` (HMAC-SHA256 of its canonical JSON):
        checked by this server only, in microseconds.

        >>> signer = Signer(bytes(32))
        >>> proof = signer.mac({"a": 1})
        >>> signer.proves({"a": 1}, proof), signer.proves({"a": 2}, proof)
        (True, False)
        """
        return hmac.new(self._mac_key, canonical(data), hashlib.sha256).hexdigest()

    def proves(self, data: Any, proof: object) -> bool:
        return isinstance(proof, str) and hmac.compare_digest(self.mac(data), proof)

    def sign(self, record: dict[str, Any]) -> dict[str, Any]:
        unsigned = {k: v for k, v in record.items() if k != "signature"}
        value = self._key.sign(canonical(unsigned)).hex()
        return {
            **unsigned,
            "signature": {"algorithm": SIGNATURE, "key": self.public_key, "value": value},
        }


def seal(data: dict[str, Any], sealed: Commitment, signer: Signer) -> dict[str, Any]:
    """A finished game's record (``GameRecord.to_json``) as the server hands it out: the
    seed revealed with its commitment, each move's link of the chain, and signed."""
    fairness = {
        "commitment": sealed.digest,
        "seed": sealed.seed,
        "salt": sealed.salt,
        "links": chain_links(sealed.digest, sealed.salt, data.get("log") or ()),
    }
    return signer.sign({**data, "fairness": fairness})


def signature_problem(data: Mapping[str, Any], trusted_key: str | None) -> str | None:
    """What is wrong with ``data``'s signature (None: signed, unchanged, and by
    ``trusted_key`` when one is given)."""
    signature = data.get("signature")
    if not isinstance(signature, Mapping):
        return "the record is not signed by a server"
    try:
        from cryptography.exceptions import InvalidSignature  # noqa: PLC0415
        from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: PLC0415
            Ed25519PublicKey,
        )
    except ImportError:
        return "the signature cannot be checked without: pip install 'cardtable[web]'"
    if signature.get("algorithm") != SIGNATURE:
        return f"the record is signed with an unknown method (expected {SIGNATURE})"
    unsigned = {k: v for k, v in data.items() if k != "signature"}
    try:
        if not is_hex(signature.get("key"), 64) or not is_hex(signature.get("value"), 128):
            raise ValueError("not a key and a signature")
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(str(signature["key"])))
        key.verify(bytes.fromhex(str(signature["value"])), canonical(unsigned))
    except (KeyError, ValueError, UnicodeError, InvalidSignature):
        return "the signature does not match: the file was changed after the server signed it"
    if trusted_key is not None and not hmac.compare_digest(str(signature["key"]), trusted_key):
        return "signed by another key than this server"
    return None


def is_hex(value: object, length: int | None = None) -> bool:
    """Whether ``value`` is lowercase hex (of ``length`` characters): what a salt, a link,
    a key and a signature are; anything else in a record is not read further.

    >>> is_hex("0f" * 16, 32), is_hex("\\ud800"), is_hex("0F")
    (True, False, False)
    """
    return (
        isinstance(value, str)
        and bool(value)
        and all(c in "0123456789abcdef" for c in value)
        and (length is None or len(value) == length)
    )


def chain_problem(fairness: Mapping[str, Any], record: GameRecord) -> tuple[str | None, int | None]:
    """Whether the file's moves are the ones the server chained: a problem and the first
    move (from 1) that differs, or (None, None)."""
    signed = fairness.get("links")
    if not isinstance(signed, list) or not all(is_hex(link, 64) for link in signed):
        return "the record carries no chain of its moves", None
    if not is_hex(fairness.get("salt")) or not is_hex(fairness.get("commitment"), 64):
        return "fairness block unreadable", None
    moves = (move.to_json() for move in record.log)
    mine = chain_links(str(fairness.get("commitment")), str(fairness.get("salt")), moves)
    for number, (ours, theirs) in enumerate(zip(mine, signed, strict=False), 1):
        if ours != theirs:
            return (
                f"move {number} is not the move the server recorded there "
                "(moves reordered, dropped or altered)",
                number,
            )
    if len(mine) != len(signed):
        number = min(len(mine), len(signed)) + 1
        kind = "is missing" if len(mine) < len(signed) else "was never recorded by the server"
        return f"move {number} {kind} (the server recorded {len(signed)} moves)", number
    return None, None


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
    #: the moves are the ones the server chained, and the record is signed and unchanged
    chain_ok: bool = False
    signature_ok: bool = False
    #: the first move (from 1) that differs from the server's chain
    altered_move: int | None = None
    #: the key the record is signed with (compare it with the server's /api/signing-key)
    signed_by: str | None = None

    @property
    def ok(self) -> bool:
        return self.commitment_ok and self.replay_ok and self.chain_ok and self.signature_ok

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "commitment_ok": self.commitment_ok,
            "replay_ok": self.replay_ok,
            "moves": self.moves,
            "scores": list(self.scores),
            "problems": list(self.problems),
            "failed_move": self.failed_move,
            "chain_ok": self.chain_ok,
            "signature_ok": self.signature_ok,
            "altered_move": self.altered_move,
            "signed_by": self.signed_by,
        }


def verify(data: Mapping[str, Any], trusted_key: str | None = None) -> Verdict:
    """Check a finished game's commitment, replay its whole move log, check its moves
    against the server's chain and its signature (by ``trusted_key``, when given).

    ``data`` is the JSON the server lets players download: a game record plus a
    ``"fairness"`` object with ``commitment``, ``seed``, ``salt`` and the moves' ``links``,
    and the server's ``"signature"``.
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
        except (KeyError, TypeError, ValueError, OverflowError):
            problems.append("fairness block unreadable")
    replay_ok, moves, scores = False, 0, tuple[int, ...]()
    failed: dict[str, Any] | None = None
    chain_ok, altered = False, None
    signature = signature_problem(data, trusted_key) if isinstance(data, Mapping) else "no record"
    if signature is not None:
        problems.append(signature)
    try:
        record = GameRecord.from_json(data)
        if isinstance(fairness, Mapping):
            broken, altered = chain_problem(fairness, record)
            chain_ok = broken is None
            if broken is not None:
                problems.append(broken)
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
        problems.append(f"the move log does not replay: {error.public_message()}")
    signed = data.get("signature") if isinstance(data, Mapping) else None
    key = signed.get("key") if isinstance(signed, Mapping) else None
    signed_by = key if isinstance(key, str) and is_hex(key, 64) else None
    return Verdict(
        commitment_ok, replay_ok, moves, tuple(scores), tuple(problems), failed,
        chain_ok=chain_ok, signature_ok=signature is None, altered_move=altered,
        signed_by=signed_by,
    )  # fmt: skip


def verdict_json(data: Mapping[str, Any], trusted_key: str | None) -> dict[str, Any]:
    """:func:`verify`'s verdict as JSON: what a compute worker sends back."""
    return verify(data, trusted_key).to_json()


def is_whole(value: object) -> bool:
    """Whether ``value`` is a whole number a record may hold (a seed, a seat): not a bool,
    not infinite, not NaN, not astronomically large.

    >>> [is_whole(v) for v in (7, 7.0, 7.5, float("inf"), float("nan"), True, "7", 2**80)]
    [True, True, False, False, False, False, False, False]
    """
    if isinstance(value, float):
        return value.is_integer() and abs(value) < 2**64
    return isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**64


#: what each field of an uploaded record must be, where it is present (the seed always)
RECORD_FIELDS: dict[str, tuple[tuple[type, ...], str]] = {
    "format": ((str,), "a text"),
    "game": ((str,), "a game id"),
    "options": ((dict, type(None)), "an object"),
    "deals": ((list, type(None)), "a list"),
    "log": ((list, type(None)), "a list"),
    "fairness": ((dict, type(None)), "an object"),
    "signature": ((dict, type(None)), "an object"),
}
FAIRNESS_FIELDS: dict[str, tuple[tuple[type, ...], str]] = {
    "commitment": ((str,), "a text"),
    "salt": ((str,), "a text"),
    "links": ((list,), "a list"),
}


def field_problems(data: Mapping[str, Any]) -> list[str]:
    """The fields of an uploaded record that are not what they must be, each named (never
    its value): checked before anything of the record is used.

    >>> field_problems({"game": "koi-koi", "seed": 1e400, "fairness": {"seed": "x"}})
    ["'seed' must be a whole number", "'fairness.seed' must be a whole number"]
    >>> field_problems({"game": 7, "seed": 3, "log": [{"seat": -1e400}]})
    ["'game' must be a game id", "'log[1].seat' must be a whole number"]
    """
    found = [
        f"{name!r} must be {words}"
        for name, (kinds, words) in RECORD_FIELDS.items()
        if name in data and not isinstance(data[name], kinds)
    ]
    if not is_whole(data.get("seed")):
        found.append("'seed' must be a whole number")
    fairness = data.get("fairness")
    if isinstance(fairness, Mapping):
        found += [
            f"'fairness.{name}' must be {words}"
            for name, (kinds, words) in FAIRNESS_FIELDS.items()
            if name in fairness and not isinstance(fairness[name], kinds)
        ]
        if "seed" in fairness and not is_whole(fairness["seed"]):
            found.append("'fairness.seed' must be a whole number")
    log = data.get("log")
    for number, entry in enumerate(log if isinstance(log, list) else (), 1):
        if isinstance(entry, Mapping):
            seat = entry.get("seat")
        else:
            seat = entry[0] if isinstance(entry, list) and len(entry) == 2 else None
        if not is_whole(seat):
            found.append(f"'log[{number}].seat' must be a whole number")
            break
    return found


def failed_move_text(failed: Mapping[str, Any]) -> str:
    """The move that does not replay, as a person reads it.

    >>> failed_move_text({"move": 37, "seat": 2, "action": "play 03-1", "reason": "no"})
    'move 37 (seat 2: play 03-1): not legal here — no'
    """
    return (
        f"move {failed['move']} (seat {failed['seat']}: {failed['action']}): "
        f"not legal here — {failed['reason']}"
    )
