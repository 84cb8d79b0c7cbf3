"""How hard the property tests and soaks push, decided in one place.

``make test`` and CI run the full counts (the default). ``make check`` sets
``CARDTABLE_TEST_PROFILE=check``: every soak plays a small share of its games and
hypothesis tries a few examples a property (tests/conftest.py loads the hypothesis
profile of the same name), for an answer in minutes while working.
"""

from __future__ import annotations

import os
import random

PROFILES = ("full", "check")
PROFILE = os.environ.get("CARDTABLE_TEST_PROFILE", "full")
if PROFILE not in PROFILES:
    raise ValueError(f"CARDTABLE_TEST_PROFILE={PROFILE!r}: one of {', '.join(PROFILES)}")
#: the share of a soak the check profile runs
CHECK_SHARE = 50
#: hypothesis examples a property gets in the check profile (it says nothing: 100)
CHECK_EXAMPLES = 10


def count(full: int, check: int | None = None) -> int:
    """A soak's size: ``full`` in the full profile; in the check profile ``check``, or a
    fiftieth of ``full`` (at least one)."""
    if PROFILE == "full":
        return full
    return check if check is not None else max(1, full // CHECK_SHARE)


def deep_checked(seed: int, share: int) -> bool:
    """Whether the game drawn as ``seed`` also gets a property test's dear checks: one game
    in ``share``. Drawn from the seed, not by hypothesis (its integers favour their least
    value: a drawn ``deep == 0`` of 0-19 came out in a third of the games, not a twentieth)."""
    return random.Random(f"deep {seed}").randrange(share) == 0
