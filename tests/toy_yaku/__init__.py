"""Tsuki-awase ("matching moons"), a toy two-player hanafuda fishing game with yaku of its
own, that exists only to show a new game joins the hanafuda family without touching it: a
subclass of the engine's ``FishingState`` (the compiled one, when the engine is compiled)
that names its round scoring and its yaku table, its options, its rule page and its words.
Importing it registers nothing; tests/test_house.py's fixture registers it, and the rule
page, ``cardtable rules``, the score pad, the bots (medium and hard), the hints, the RL
environments and the server all play it unchanged.

The deal and the play are the hanafuda fishing rules (games/hanafuda/pages/bakappana.md,
"A turn"); a round scores only the yaku of its four rows (pages/tsuki-awase.md).
"""

from tests.toy_yaku import game

__all__ = ["game"]
