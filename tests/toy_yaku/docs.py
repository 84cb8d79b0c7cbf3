"""Tsuki-awase's rule page (the ``DOCS`` capability): its own folder, and the hanafuda
family's generated tables (its yaku table among them)."""

from pathlib import Path

from cardtable.games.hanafuda.docs import TABLES

#: the game's rule page: GAME.md (no translations yet: Polish and Russian readers get it in
#: English)
PAGES = Path(__file__).parent / "pages"

__all__ = ["PAGES", "TABLES"]
