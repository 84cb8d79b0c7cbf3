"""Hana-kazoe ("counting flowers"), a toy hanafuda fishing game that exists only to show a
new fishing game is a package of its own: a subclass of the engine's ``FishingState`` (the
compiled one, when the engine is compiled), its options, its scoring and its words, and
nothing else. Importing it registers nothing; tests/test_house.py's fixture registers it,
and the server, the RL environments, the arena and the CLI play it unchanged.

The deal and the play are the hanafuda fishing rules (games/hanafuda/pages/bakappana.md,
"A turn"); a round
scores one point a captured card and 4 more for each month captured whole.
"""

from tests.toy_flowers import game

__all__ = ["game"]
