"""The player key: a person's identity without an account. The browser makes it on its
first visit (128 random bits or more, web/js/player.js), keeps it, and carries it to
another device with "Continue on another device"; ratings, their history and the "your
turn" list hang on it. The server keeps only its SHA-256, so a stolen database names no
key that would let anybody play as someone else.

>>> key = "0123456789abcdef0123456789abcdef"
>>> player_hash(key) == player_hash(key.upper()), len(player_hash(key))
(True, 64)
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
