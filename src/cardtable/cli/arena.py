"""``cardtable arena``: run a tournament with a progress bar, then report and plot it."""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, cast

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardtable.agents import make_agent
from cardtable.arena.plot import plot_tournament
from cardtable.arena.tournament import GameOutcome, ratings, records, run, schedule
from cardtable.cli.common import console


def run_arena(
    game: str,
    bots: Sequence[str],
    *,
    games: int,
    mode: str,
    players: int | None,
    options: Mapping[str, Any],
    seed: int,
    workers: int,
    out: Path,
    backend: str = "local",
    address: str | None = None,
) -> None:
    for name in bots:
        make_agent(name, game)  # an unknown bot fails now, not in a worker
    jobs = schedule(
        game, bots, games=games, seed=seed, mode=cast(Literal["round-robin", "gauntlet"], mode),
        players=players, options=options,
    )  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games ·"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as progress:
        task = progress.add_task(f"{game}: {', '.join(bots)}", total=len(jobs))
        outcomes = run(
            jobs,
            workers=workers,
            on_done=lambda _: progress.advance(task),
            backend=cast(Literal["local", "ray"], backend),
            address=address,
        )
    write_results(outcomes, out)
    rated = ratings(outcomes)
    table = records(outcomes)
    summary = Table(
        title=f"{game}: {len(outcomes)} games, {games} deals per pairing played from every seat"
    )
    for column in ("bot", "rating (mu ± sigma)", "win rate", "95 % interval", "mean score"):
        summary.add_column(column, justify="right" if column != "bot" else "left")
    for name in sorted(rated, key=lambda n: rated[n].mu, reverse=True):
        record = table[name]
        low, high = record.interval()
        summary.add_row(
            name,
            f"{rated[name].mu:.1f} ± {rated[name].sigma:.1f}",
            f"{record.win_rate:.1%}",
            f"{low:.1%} – {high:.1%}",
            f"{record.score_total / record.games:+.1f}",
        )
    console.print(summary)
    plot = plot_tournament(rated, table, out / "plot.png", f"{game}: {', '.join(bots)}")
    console.print(f"Results: {out / 'results.jsonl'}, {out / 'results.csv'}; plot: {plot}")


def write_results(outcomes: Sequence[GameOutcome], out: Path) -> None:
    with (out / "results.jsonl").open("w") as jsonl:
        for outcome in outcomes:
            jsonl.write(json.dumps(outcome.to_json()) + "\n")
    with (out / "results.csv").open("w", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(["game_index", "seat", "bot", "score", "won", "deal_seed"])
        for outcome in outcomes:
            for seat, name in enumerate(outcome.bots):
                won = seat in outcome.winners
                writer.writerow(
                    [outcome.index, seat, name, outcome.scores[seat], int(won), outcome.deal_seed]
                )
