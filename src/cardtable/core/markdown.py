"""Markdown tables for the generated parts of the game pages (``make docs``)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|")


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A Markdown table; cells are escaped, code spans are the caller's."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(cell) for cell in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"
