"""A whole training run: self-play on every core or a Ray cluster, training, the weights
and the curves.

Self-play is cut into chunks of :data:`CHUNK` rounds, each seeded from the run's seed and
its number, so a run's data does not depend on how many processes (or machines) played it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any

from cardtable.agents.base import make_agent
from cardtable.agents.ismcts import ISMCTSAgent
from cardtable.core.workers import BackendName, run_tasks
from cardtable.training.selfplay import Samples, play_rounds

#: rounds of self-play a process plays in one go: rule-based bots, search bots
CHUNK = 1000
SEARCH_CHUNK = 50


def chunk_for(game: str, bots: Sequence[str]) -> int:
    """How many rounds a task plays: fewer when a bot searches (a round takes seconds)."""
    searching = any(isinstance(make_agent(name, game), ISMCTSAgent) for name in bots)
    return SEARCH_CHUNK if searching else CHUNK


def chunk_seed(seed: int, chunk: int) -> int:
    """The seed of self-play chunk ``chunk`` of a run seeded ``seed``."""
    digest = hashlib.sha256(f"selfplay {seed} {chunk}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def _chunk(
    game: str,
    bots: tuple[str, ...],
    epsilon: float,
    seed: int,
    iterations: int | None,
    chunk: tuple[int, int],
) -> Samples:
    number, rounds = chunk
    return play_rounds(game, rounds, bots, epsilon, chunk_seed(seed, number), iterations=iterations)


def generate(
    game: str,
    rounds: int,
    bots: Sequence[str],
    epsilon: float,
    seed: int,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
    iterations: int | None = None,
    chunk: int | None = None,
    backend: BackendName = "local",
    address: str | None = None,
) -> Samples:
    """``rounds`` rounds of self-play (see :func:`.selfplay.play_rounds`), ``chunk`` rounds
    to a task, on ``jobs`` processes or on a Ray cluster (``backend``, ``address``: see
    :func:`cardtable.core.workers.run_tasks`); ``progress`` hears how many rounds are done;
    ``iterations``: the searching bots' budget, when not the game's own."""
    chunk = chunk or chunk_for(game, bots)
    starts = range(0, rounds, chunk)
    chunks = [(n, min(chunk, rounds - start)) for n, start in enumerate(starts)]
    done = 0

    def count(part: tuple[int, int], _: Samples) -> None:
        nonlocal done
        done += part[1]
        if progress is not None:
            progress(done)

    play = partial(_chunk, game, tuple(bots), epsilon, seed, iterations)
    parts = run_tasks(play, chunks, workers=jobs, backend=backend, address=address, on_done=count)
    return Samples.joined(parts)


def plot_curves(log: dict[str, Any], path: Path, title: str) -> Path:
    """The training curves (validation losses and accuracy by epoch) as a PNG."""
    import matplotlib  # noqa: PLC0415 - heavy, and only plots need it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415
    from matplotlib.ticker import MaxNLocator  # noqa: PLC0415

    epochs = log["epochs"]
    numbers = [e["epoch"] for e in epochs]
    figure, (left, middle, right) = plt.subplots(1, 3, figsize=(12, 3.6))
    left.plot(numbers, [e["train_loss"] for e in epochs], "o-", label="training (both heads)")
    left.plot(numbers, [e["margin_loss"] for e in epochs], "o-", label="margin head, held out")
    left.plot(numbers, [e["policy_loss"] for e in epochs], "o-", label="policy head, held out")
    left.set_title("loss (nats a position)")
    left.legend(fontsize=8)
    middle.plot(numbers, [e["value_error"] for e in epochs], "o-", color="#c94f7c")
    if "margin_spread" in log:
        middle.axhline(log["margin_spread"], color="grey", ls="--", label="guessing the mean")
        middle.set_ylim(top=log["margin_spread"] * 1.05)
        middle.legend(fontsize=8)
    middle.set_title("expected margin: RMS error (points)")
    right.plot(numbers, [e["policy_accuracy"] for e in epochs], "o-", color="#3b7c5a")
    right.set_title("policy head: top-1 of the moves played")
    for axis in (left, middle, right):
        axis.set_xlabel("epoch")
        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
        axis.grid(alpha=0.3)
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return path
