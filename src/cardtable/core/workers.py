"""One function over many items: here, on a process pool, or on a Ray cluster.

The arena's games and the training's self-play chunks are pure functions of their item,
so where they run changes nothing but the time they take. :func:`run_tasks` returns the
results in the items' order whatever the backend, and tells ``on_done`` of each as it
finishes (journals and progress bars).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from typing import Any, Literal, TypeVar

from cardtable.core.errors import OptionError

#: where the tasks run, by name: here or on a local process pool, or on a Ray cluster (the
#: server's compute pool has backends of its own: cardtable.server.workers)
BackendName = Literal["local", "ray"]
BACKENDS: tuple[BackendName, ...] = ("local", "ray")

Item = TypeVar("Item")
Result = TypeVar("Result")


def backend_named(name: str) -> BackendName:
    """The backend called ``name``; an unknown name is an :class:`OptionError`."""
    for backend in BACKENDS:
        if backend == name:
            return backend
    raise OptionError(f"--backend is local or ray, not {name!r}")


def run_tasks(
    function: Callable[[Item], Result],
    items: Sequence[Item],
    *,
    workers: int = 1,
    backend: BackendName = "local",
    address: str | None = None,
    on_done: Callable[[Item, Result], None] | None = None,
    chunksize: int = 1,
) -> list[Result]:
    """``function`` of every item, in the items' order.

    ``local`` runs here, or on ``workers`` processes when there are more than one (items
    sent ``chunksize`` at a time); ``ray`` sends each item to a Ray cluster: ``address``
    joins one, without it a local one of ``workers`` CPUs starts (and stops at the end).
    ``function`` must be picklable (a module's function, or a partial of one).
    """
    if backend == "ray":
        return _run_on_ray(function, items, workers, address, on_done)
    results = []
    with ProcessPoolExecutor(max_workers=workers) if workers > 1 else nullcontext() as pool:
        done = (
            map(function, items) if pool is None else pool.map(function, items, chunksize=chunksize)
        )
        for item, result in zip(items, done, strict=True):
            results.append(result)
            if on_done is not None:
                on_done(item, result)
    return results


def _call(function: Callable[[Item], Result], item: Item) -> Result:
    return function(item)


def start_ray(workers: int, address: str | None) -> tuple[Any, bool]:
    """Ray, joined to the cluster at ``address`` or to a local Ray of ``workers`` CPUs
    started on this machine; and whether this call started it (and so should stop it)."""
    try:
        import ray  # noqa: PLC0415 - optional: pip install 'cardtable[ray]'
    except ImportError:
        raise OptionError("Ray is needed: pip install 'cardtable[ray]'") from None
    started_here = not ray.is_initialized()
    if started_here:
        if address:
            ray.init(address=address, log_to_driver=False)
        else:
            ray.init(num_cpus=max(1, workers), include_dashboard=False, log_to_driver=False)
    return ray, started_here


def _run_on_ray(
    function: Callable[[Item], Result],
    items: Sequence[Item],
    workers: int,
    address: str | None,
    on_done: Callable[[Item, Result], None] | None,
) -> list[Result]:
    ray, started_here = start_ray(workers, address)
    try:
        # ray.remote takes plain functions only: the function travels as an argument,
        # put in the object store once rather than pickled with every task
        task: Any = ray.remote(_call)
        shared = ray.put(function)
        position = {task.remote(shared, item): index for index, item in enumerate(items)}
        results: dict[int, Result] = {}
        pending = list(position)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for reference in done:
                index = position[reference]
                results[index] = ray.get(reference)
                if on_done is not None:
                    on_done(items[index], results[index])
    finally:
        if started_here:
            ray.shutdown()
    return [results[index] for index in range(len(items))]
