"""``cardtable train``: self-play, then train the learned evaluator, with progress bars;
writes the weights, the run's log (JSON) and its curves (PNG)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from cardtable.agents.network import Network
from cardtable.core.errors import OptionError
from cardtable.core.terminal import console
from cardtable.core.workers import BackendName
from cardtable.training.pipeline import generate, plot_curves
from cardtable.training.selfplay import Samples


def run_training(
    game: str,
    *,
    rounds: int,
    bots: Sequence[str],
    epsilon: float,
    seed: int,
    jobs: int,
    epochs: int,
    hidden: int,
    threads: int,
    out: Path,
    log: Path | None,
    curves: Path | None,
    iterations: int | None = None,
    start: Path | None = None,
    data: Path | None = None,
    learning_rate: float = 1e-3,
    backend: BackendName = "local",
    address: str | None = None,
) -> None:
    from cardtable.training.train import Epoch, Settings, train  # noqa: PLC0415 - PyTorch

    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
    )
    settings = Settings(
        epochs=epochs, hidden=hidden, seed=seed, threads=threads, learning_rate=learning_rate
    )
    first = Network.load(start) if start is not None else None  # a bad file fails now
    started = time.perf_counter()
    with Progress(*columns, console=console, disable=not console.is_terminal) as progress:
        recipe = {
            "game": game, "rounds": rounds, "bots": list(bots), "epsilon": epsilon,
            "seed": seed, "iterations": iterations,
        }  # fmt: skip
        if data is not None and data.exists():
            samples = Samples.load(str(data))
            if samples.recipe != recipe:
                raise OptionError(
                    f"{data} holds other self-play ({samples.recipe}); "
                    "delete it or name another --data file"
                )
            console.print(f"self-play read from {data}: {len(samples)} positions")
        else:
            task = progress.add_task(f"self-play: {', '.join(bots)}", total=rounds)
            samples = generate(
                game, rounds, bots, epsilon, seed, jobs,
                progress=lambda done: progress.update(task, completed=done),
                iterations=iterations, backend=backend, address=address,
            )  # fmt: skip
            samples.recipe = recipe
            samples.seconds = time.perf_counter() - started
            if data is not None:
                data.parent.mkdir(parents=True, exist_ok=True)
                samples.save(str(data))
        playing = samples.seconds
        console.print(f"{rounds} rounds of self-play: {len(samples)} positions, {playing:.0f} s")
        task = progress.add_task("training", total=epochs)

        def report(epoch: Epoch) -> None:
            progress.advance(task)
            console.print(
                f"epoch {epoch.epoch}: margin loss {epoch.margin_loss:.4f}, policy loss "
                f"{epoch.policy_loss:.4f}, top-1 {epoch.policy_accuracy:.1%}, "
                f"margin error {epoch.value_error:.2f} points ({epoch.seconds:.0f} s)"
            )

        network, run = train(samples, game, settings, report, start=first)
    out.parent.mkdir(parents=True, exist_ok=True)
    network.save(out)
    record = run.to_json()
    limit = settings.margin_limit
    record.update(
        game=game,
        rounds=rounds,
        bots=list(bots),
        epsilon=epsilon,
        iterations=iterations,
        start=None if start is None else start.name,
        selfplay_seconds=round(playing, 1),
        training_seconds=round(sum(epoch.seconds for epoch in run.epochs), 1),
        # what the RMS error of the expected margin compares with: guessing the mean
        margin_spread=float(np.std(np.clip(samples.margins, -limit, limit).astype(np.float64))),
    )
    console.print(f"weights: {out} ({out.stat().st_size // 1024} KiB)")
    if log is not None:
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text(json.dumps(record, indent=1) + "\n")
        console.print(f"log: {log}")
    if curves is not None:
        curves.parent.mkdir(parents=True, exist_ok=True)
        title = f"{game}: the learned evaluator, {rounds} rounds of {', '.join(bots)} self-play"
        if start is not None:
            title += f", from {start.name}"
        plot_curves(record, curves, title)
        console.print(f"curves: {curves}")
