"""A game's browser client as its spec hands it out (the ``WEB`` capability): the folder of
its package that holds the client, served at ``/games/FOLDER/``; its renderer module there
(exporting ``render(root, ctx)``); its score pad page, if it has one; its deck page (served
at ``/cards``), if it has one; and the card data its card art draws from."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class WebClient:
    package: str  # the game package whose web/ folder is served
    folder: str  # the URL folder: /games/FOLDER/
    renderer: str = "render.js"
    style: str = "style.css"  # the table's styles for this game (linked when the file exists)
    pad: str | None = None  # the score pad page, when the game has a COMPANION scorer
    deck: str | None = None  # the page that shows every card and what it counts for
    card_data: Callable[[], dict[str, Any]] | None = None

    @property
    def root(self) -> Path:
        return Path(str(resources.files(self.package) / "web"))

    @property
    def has_style(self) -> bool:
        return (self.root / self.style).is_file()

    def url(self, name: str) -> str:
        return f"/games/{self.folder}/{name}"
