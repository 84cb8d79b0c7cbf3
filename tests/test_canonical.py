"""The bytes a value is hashed and signed as (``fairness.canonical``) are the standard
library's sorted, compact JSON, whichever encoder writes them: a move's link in the hash
chain, a record's signature and every client's check depend on each byte."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.server.fairness import canonical

LEAVES = (
    st.none()
    | st.booleans()
    | st.integers()  # past 64 bits as well
    | st.integers(min_value=-(2**63), max_value=2**63 - 1)
    | st.floats()  # NaN and infinities too
    | st.text()  # lone surrogates too
    | st.text(alphabet=st.characters(max_codepoint=0x7F))
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


def standard(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


@settings(max_examples=3000)
@given(VALUES)
def test_canonical_bytes_are_the_standard_librarys(value: Any) -> None:
    try:
        expected: bytes | type[Exception] = standard(value)
    except Exception as error:  # a lone surrogate cannot be written as UTF-8
        expected = type(error)
    try:
        got: bytes | type[Exception] = canonical(value)
    except Exception as error:
        got = type(error)
    assert got == expected


def test_a_move_is_written_by_the_fast_encoder_and_a_float_is_not() -> None:
    move = {"seat": 0, "action": {"type": "play", "card": "08-1", "take": None}}
    assert canonical(move) == standard(move)
    assert canonical({"at": 0.1, "big": 1e300}) == b'{"at":0.1,"big":1e+300}'
