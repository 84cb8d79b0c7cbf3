"""``cardtable arena``: run a tournament with a progress bar, then report and plot it."""

from __future__ import annotations

import csv
import json
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal, cast

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from cardtable.agents import make_agent
from cardtable.arena.plot import plot_tournament
from cardtable.arena.tournament import (
    GameJob,
    GameOutcome,
    head_to_head,
    ratings,
    read_outcomes,
    records,
    run,
    schedule,
)
from cardtable.core.errors import OptionError
from cardtable.core.terminal import console
from cardtable.core.workers import BackendName

#: every finished game, written as it finishes: ``--resume`` goes on from it
JOURNAL = "games.jsonl"


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
    backend: BackendName = "local",
    address: str | None = None,
    resume: bool = False,
) -> None:
    for name in bots:
        make_agent(name, game)  # an unknown bot fails now, not in a worker
    jobs = schedule(
        game, bots, games=games, seed=seed, mode=cast(Literal["round-robin", "gauntlet"], mode),
        players=players, options=options,
    )  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    done = resume_journal(out / JOURNAL, jobs) if resume else []
    if not resume:
        (out / JOURNAL).unlink(missing_ok=True)
    finished = {o.index for o in done}
    todo = [job for job in jobs if job.index not in finished]
    if done:
        console.print(f"Resuming: {len(done)} of {len(jobs)} games already in {out / JOURNAL}")
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games ·"),
        TimeRemainingColumn(),
    )
    report = PlainProgress(len(jobs), len(done)) if not console.is_terminal else None
    with (
        Progress(*columns, console=console, disable=report is not None) as progress,
        (out / JOURNAL).open("a") as journal,
    ):
        task = progress.add_task(f"{game}: {', '.join(bots)}", total=len(jobs), completed=len(done))

        def on_done(outcome: GameOutcome) -> None:
            journal.write(json.dumps(outcome.to_json()) + "\n")
            journal.flush()  # an interrupted run keeps every finished game (--resume)
            progress.advance(task)
            if report is not None:
                report.advance()

        outcomes = done + run(
            todo,
            workers=workers,
            on_done=on_done,
            backend=backend,
            address=address,
        )
    outcomes.sort(key=lambda o: o.index)
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
    console.print(head_to_head_table(outcomes, bots))
    plot = plot_tournament(rated, table, out / "plot.png", f"{game}: {', '.join(bots)}")
    console.print(f"Results: {out / 'results.jsonl'}, {out / 'results.csv'}; plot: {plot}")


def head_to_head_table(outcomes: Sequence[GameOutcome], bots: Sequence[str]) -> Table:
    """Each pairing on its own (a gauntlet's or round robin's summary mixes opponents)."""
    pairs = Table(title="head to head: games where the first bot scored more (a tie: half)")
    for column in ("pairing", "games", "first ahead", "95 % interval", "margin a game (95 %)"):
        pairs.add_column(column, justify="right" if column != "pairing" else "left")
    for pair in head_to_head(outcomes, bots):
        pairs.add_row(f"{pair.first} – {pair.second}", str(pair.games), *pair.figures())
    return pairs


class PlainProgress:
    """Progress for a run whose output is not a terminal (a log, CI): a line at every tenth
    of the games, with the rate and the time left."""

    def __init__(self, total: int, done: int) -> None:
        self.total, self.done, self.started_at = total, done, done
        self.start = time.monotonic()
        self.next_report = done + max(1, total // 10)

    def advance(self) -> None:
        self.done += 1
        if self.done < self.next_report and self.done < self.total:
            return
        self.next_report += max(1, self.total // 10)
        elapsed = time.monotonic() - self.start
        rate = (self.done - self.started_at) / elapsed if elapsed > 0 else 0.0
        left = (self.total - self.done) / rate if rate > 0 else float("inf")
        speed = f"{rate:.1f} a second" if rate >= 1 else f"{rate * 60:.1f} a minute"
        if self.done >= self.total:
            remaining = "done"
        elif left < 90:
            remaining = f"about {left:.0f} s left"
        else:
            remaining = f"about {left / 60:.0f} min left"
        console.print(f"{self.done}/{self.total} games, {speed}, {remaining}")


def resume_journal(path: Path, jobs: Sequence[GameJob]) -> list[GameOutcome]:
    """The outcomes already in the journal of an interrupted run of the same tournament."""
    if not path.exists():
        return []
    by_index = {job.index: job for job in jobs}
    outcomes = read_outcomes(path)
    for outcome in outcomes:
        job = by_index.get(outcome.index)
        if job is None or not outcome.played(job):
            raise OptionError(
                f"{path} is from another tournament (game {outcome.index} differs): "
                "run without --resume or with another --out"
            )
    return outcomes


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
