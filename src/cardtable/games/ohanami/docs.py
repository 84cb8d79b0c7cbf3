"""What Ohanami's page says where (the ``DOCS`` capability): the section that explains
each kind of score line; the page has no generated tables of its own."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

#: the game's rule pages: GAME.md, and LANG/GAME.md for each translation
PAGES = Path(__file__).parent / "pages"

#: rule-key prefix of a score line -> the heading of the game's page that explains it
SECTIONS: dict[str, dict[str, str]] = {"ohanami": {"colour": "Scoring"}}

TABLES: dict[str, Callable[[str, str], str]] = {}
