"""A finished game as a browser's record keeps it ("Your record": web/js/record.js), with
the server's proof of it. The record lives in the browser, with no account; a game in it
carried to another browser ("Continue on another device") is taken only with its proof,
so a link cannot slip games nobody played, or a loss turned into a win, into someone's
record.

>>> entry = record_entry("koi-koi", 0, ["human", "bot:hard"], [29.0, 31], [1])
>>> entry
{'game': 'koi-koi', 'seats': ['you', 'hard'], 'scores': [29, 31], 'outcome': 'loss'}
>>> record_entry("koi-koi", 0, ["human", "human"], [29, 31], [1]) is None  # a person's table
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.server.fairness import Signer

JSON = dict[str, Any]
#: the fields of a record's game that its proof covers (the date and place are the
#: browser's own, and follow from these)
PROVEN_FIELDS = ("table", "game", "seats", "scores", "outcome")


def record_entry(
    game: str, seat: int, kinds: Sequence[str], scores: Sequence[float], winners: Sequence[int]
) -> JSON | None:
    """What the record keeps of a finished game for ``seat``, as record.js ``entryOf``
    writes it: only a game against bots alone (None for a table with another person)."""
    if any(not kind.startswith("bot:") for n, kind in enumerate(kinds) if n != seat):
        return None
    outcome = ("win" if len(winners) == 1 else "draw") if seat in winners else "loss"
    return {
        "game": game,
        "seats": [
            "you" if n == seat else kind.removeprefix("bot:") for n, kind in enumerate(kinds)
        ],
        "scores": [whole_if_whole(score) for score in scores],
        "outcome": outcome,
    }


def whole_if_whole(score: object) -> object:
    """29.0 as 29: a browser writes a whole number without its ".0"."""
    return int(score) if isinstance(score, float) and score.is_integer() else score


def proven_part(entry: Mapping[str, Any]) -> JSON:
    part = {name: entry.get(name) for name in PROVEN_FIELDS}
    if isinstance(part["scores"], list):
        part["scores"] = [whole_if_whole(score) for score in part["scores"]]
    return part


def proof_of(signer: Signer, table_id: str, entry: Mapping[str, Any]) -> str:
    return signer.mac(proven_part({**entry, "table": table_id}))


def is_proven(signer: Signer, entry: object) -> bool:
    """Whether a record's game carries this server's proof of exactly its result."""
    return isinstance(entry, Mapping) and signer.proves(proven_part(entry), entry.get("proof"))
