"""One function over many items: the same results in the items' order on every backend."""

from __future__ import annotations

import pytest

from cardtable.core.errors import OptionError
from cardtable.core.workers import backend_named, run_tasks


def slow_square(number: int) -> int:
    if number % 3 == 0:  # some tasks finish after later ones
        sum(range(200_000))
    return number * number


@pytest.mark.parametrize("workers", [1, 2])
def test_results_come_in_the_items_order_and_each_is_heard(workers: int) -> None:
    heard: dict[int, int] = {}
    items = list(range(10))
    results = run_tasks(slow_square, items, workers=workers, chunksize=2, on_done=heard.__setitem__)
    assert results == [n * n for n in items]
    assert heard == dict(zip(items, results, strict=True))


def test_an_unknown_backend_is_named_in_the_error() -> None:
    assert backend_named("ray") == "ray"
    with pytest.raises(OptionError, match="local or ray, not 'dask'"):
        backend_named("dask")
