"""The player key: a person's identity without an account. The browser makes it on its
first visit (128 random bits or more, web/js/player.js), keeps it, and carries it to
another device with "Continue on another device"; ratings, their history and the "your
turn" list hang on it. The server keeps only its SHA-256, so a stolen database names no
key that would let anybody play as someone else.

>>> key = "0123456789abcdef0123456789abcdef"
>>> player_hash(key) == player_hash(key.upper()), len(player_hash(key))
(True, 64)
>>> wrapped = wrap_seat_key(key, "t1", 0, "IL0UBNPyK-i5f2JW7r8HBHca")
>>> unwrap_seat_key(key, "t1", 0, wrapped), "IL0" in wrapped
('IL0UBNPyK-i5f2JW7r8HBHca', False)
>>> player_hash("too-short")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
cardtable.server.errors.TableError: a player key is 32 to 64 letters a-f and digits ...
"""

from __future__ import annotations

import hashlib
import re

from cardtable.server.errors import TableError

#: hex, at least 128 bits
KEY_PATTERN = re.compile(r"[0-9a-f]{32,64}")


def player_hash(key: str) -> str:
    """What the server keeps of a player key (a refusal for anything that is none)."""
    key = key.strip().lower()
    if not KEY_PATTERN.fullmatch(key):
        raise TableError(
            "a player key is 32 to 64 letters a-f and digits (128 random bits or more)",
            "bad_player",
        )
    return hashlib.sha256(f"cardtable-player:{key}".encode()).hexdigest()


def maybe_player_hash(key: str | None) -> str | None:
    return None if not key else player_hash(key)


def _pad(key: str, table_id: str, seat: int) -> bytes:
    """64 bytes made from the player key and the seat, used once: one seat has one key."""
    normal = key.strip().lower()
    return hashlib.sha512(f"cardtable-seat:{normal}:{table_id}:{seat}".encode()).digest()


def wrap_seat_key(key: str, table_id: str, seat: int, seat_key: str) -> str:
    """A seat's key as the server may keep it for the player: XOR with a pad only the
    player key makes (the server keeps its hash, which gives no pad), in hex."""
    return _xor(seat_key.encode()[:64], _pad(key, table_id, seat)).hex()


def unwrap_seat_key(key: str, table_id: str, seat: int, wrapped: str) -> str:
    """The seat key :func:`wrap_seat_key` wrapped (nonsense, never a key, for another
    player key)."""
    return _xor(bytes.fromhex(wrapped), _pad(key, table_id, seat)).decode(errors="replace")


def _xor(data: bytes, pad: bytes) -> bytes:
    return bytes(a ^ b for a, b in zip(data, pad, strict=False))
