"""Ohanami's rule pages (the ``DOCS`` capability); the page has no generated tables of its
own."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

#: the game's rule pages: GAME.md, and LANG/GAME.md for each translation
PAGES = Path(__file__).parent / "pages"

TABLES: dict[str, Callable[[str, str], str]] = {}
