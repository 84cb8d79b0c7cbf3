"""Shared test settings: hypothesis profiles (tests/counts.py: make test and CI run the full
counts, make check a small share), the browser marker, screenshots of failed browser tests."""

import os
import sys
import time
import warnings
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from .counts import CHECK_EXAMPLES, PROFILE

settings.register_profile("full", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("check", settings.get_profile("full"), max_examples=CHECK_EXAMPLES)
settings.load_profile(PROFILE)

# Dictionary indexes built by the tests live in the work tree (gitignored), not in the
# user's cache: a fresh clone builds them once, later runs reuse them.
os.environ.setdefault(
    "CARDTABLE_CACHE_DIR", str(Path(__file__).resolve().parent.parent / ".cache" / "cardtable")
)

# The toy games are registered by tests/test_house.py's fixture alone (toy_fishing also
# registers itself when imported): --doctest-modules must not import them for the others.
collect_ignore = ["toy_fishing", "toy_flowers"]


@pytest.fixture(autouse=True)
def _close_the_tests_pages() -> Iterator[None]:
    """A browser test's pages close when it ends (tests/browser_helpers.py): pages left open
    keep their live tables busy and slowed every later test of their module."""
    yield
    helpers = sys.modules.get("tests.browser_helpers")  # loaded only by browser tests
    if helpers is not None:
        helpers.close_open_pages()


@pytest.hookimpl(tryfirst=True)  # before -m deselects by it
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that drives Chromium (it needs the ``browser`` fixture) is marked ``browser``."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:  # fmt: skip
    """A failed browser test leaves a full-page screenshot of each page it had open, as
    the failure found them (before its pages close), in test-artifacts/."""
    report = yield
    helpers = sys.modules.get("tests.browser_helpers")  # loaded only by browser tests
    if helpers is not None and report.failed and report.when in ("setup", "call"):
        helpers.screenshot_open_pages(item.nodeid)
    return report


def pytest_configure(config: pytest.Config) -> None:
    """The games' slow first-use work (7 słów's dictionary index: ~30 s the first time,
    longer on a busy machine) done once before the test workers start: otherwise the
    first test of each worker to open a 7 słów table builds it, and a browser test
    waiting for its board ran out of time on a fresh CI checkout."""
    if hasattr(config, "workerinput") or config.option.collectonly:
        return  # a pytest-xdist worker (the controller did it), or nothing runs
    import cardtable  # noqa: F401 - registers the games
    from cardtable.core.game import prepare_games

    started = time.monotonic()
    for game_id, made in prepare_games():
        if isinstance(made, Exception):  # the tests that need it will say what is wrong
            warnings.warn(f"preparing {game_id} failed: {made}", stacklevel=1)
        elif (took := time.monotonic() - started) > 1:
            print(f"prepared {game_id} in {took:.0f} s: {'; '.join(made)}", file=sys.stderr)
        started = time.monotonic()
