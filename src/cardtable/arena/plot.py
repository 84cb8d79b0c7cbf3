"""Tournament plots: ratings with their uncertainty, and each bot's score distribution."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from cardtable.arena.tournament import Rating, Record


def plot_tournament(
    ratings: Mapping[str, Rating], table: Mapping[str, Record], path: Path, title: str
) -> Path:
    """Write a PNG or SVG (by ``path``'s suffix) with two panels; returns the path."""
    import matplotlib  # noqa: PLC0415 - heavy, and only plots need it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415

    names = sorted(ratings, key=lambda n: ratings[n].mu, reverse=True)
    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    left.barh(
        names[::-1],
        [ratings[n].mu for n in names[::-1]],
        xerr=[3 * ratings[n].sigma for n in names[::-1]],
        color="#c94f7c",
        capsize=4,
    )
    left.set_title("openskill rating (mu ± 3 sigma)")
    right.boxplot([table[n].scores for n in names], tick_labels=names, showmeans=True)
    right.set_title("score per game")
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path
