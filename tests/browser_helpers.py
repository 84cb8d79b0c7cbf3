"""What every browser test needs: Debian's Chromium driven by Playwright, a live server in
a thread, and the moves a person makes on a table page (click a card, press "Next round").

Test modules import the ``server`` and ``browser`` fixtures from here (module scoped: one
server and one Chromium per module)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from playwright.sync_api import Error as PlaywrightError

from cardtable.server.settings import Settings

from .server_helpers import ARTIFACTS, eventually, server_thread

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
# Chromium must not try the network this sandbox does not have.
ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip
# a seat that stood empty 2 s may be given to a bot (the host's button counts it down)
SETTINGS = Settings(
    bot_delay=0.05, think_scale=0.25, compute="threads", hand_to_bot_seconds=2.0
).relaxed()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    db = tmp_path_factory.mktemp("web") / "browser.db"
    with server_thread(f"sqlite:///{db}", SETTINGS) as (url, app):
        yield url, app


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    assert Path(CHROMIUM).exists(), "Debian's chromium is missing: make test installs it"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield launched
        launched.close()


#: the contexts the running test opened: closed when it ends (tests/conftest.py), since a
#: page left open keeps its table's clocks, animations and socket busy for the whole module
OPEN_CONTEXTS: list[BrowserContext] = []


def close_open_pages() -> None:
    """Close every page the test opened (its contexts)."""
    while OPEN_CONTEXTS:
        OPEN_CONTEXTS.pop().close()


def new_page(browser: Browser, locale: str = "en-GB", **size: int) -> Page:
    viewport = {"width": size.get("width", 1280), "height": size.get("height", 860)}
    context = browser.new_context(locale=locale, viewport=viewport)
    OPEN_CONTEXTS.append(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    console: list[str] = []  # what the page logs as errors (an SVG attribute refused, ...)
    page.on("console", lambda said: console.append(said.text) if said.type == "error" else None)
    page.console_errors = console  # type: ignore[attr-defined]
    return page


#: CARDTABLE_SCREENSHOTS=1 keeps every named screenshot (to look the pages over by eye);
#: otherwise only a failed test leaves them (tests/conftest.py), and a run takes none
SCREENSHOTS = os.environ.get("CARDTABLE_SCREENSHOTS") == "1"


def shot(page: Page, name: str) -> None:
    """A full-page screenshot named ``name``, when they are asked for."""
    if SCREENSHOTS:
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def screenshot_open_pages(test: str) -> list[Path]:
    """A full-page screenshot of every page the running test still has open, named after
    the test (its node id made a file name)."""
    ARTIFACTS.mkdir(exist_ok=True)
    stem = re.sub(r"[^\w.-]+", "-", test.rsplit("/", 1)[-1]).strip("-")
    pages = [page for context in OPEN_CONTEXTS for page in context.pages if not page.is_closed()]
    taken = []
    for number, page in enumerate(pages):
        path = ARTIFACTS / f"failed-{stem}-{number}.png"
        with contextlib.suppress(PlaywrightError):  # a crashed page: the report says why
            page.screenshot(path=str(path), full_page=True, timeout=10_000)
            taken.append(path)
    return taken


OPEN_RULE_GROUPS = "for (const g of document.querySelectorAll('#rule-fields details')) g.open=1"


def create_table(page: Page, url: str, game: str, seats: list[str], rules: dict[str, str]) -> str:
    page.goto(f"{url}/?game={game}")
    page.wait_for_selector(".seat-kind", state="attached")
    if page.locator("#players").count():
        page.select_option("#players", str(len(seats)))
    for number, kind in enumerate(seats[1:], start=1):
        page.select_option(f".seat-kind[data-seat='{number}']", kind)
    if rules:
        page.click("#rules summary")
        page.evaluate(OPEN_RULE_GROUPS)
        for name, value in rules.items():
            page.select_option(f"[data-option='{name}']", value) if page.locator(
                f"select[data-option='{name}']"
            ).count() else page.fill(f"[data-option='{name}']", value)
    page.click("#create")
    page.wait_for_selector("#board[data-version]")
    return page.url.rsplit("/", 1)[-1]


def board(page: Page) -> dict[str, str]:
    return page.eval_on_selector("#board", "b => ({...b.dataset})")


def page_pause(page: Page) -> Callable[[float], None]:
    """A wait for :func:`eventually` in which the page goes on handling its events (a
    plain sleep would hold Playwright's event loop too)."""
    return lambda seconds: page.wait_for_timeout(seconds * 1000)


def wait_for_change(page: Page, version: str, timeout: float = 20) -> None:
    page.wait_for_function(
        """v => {
            const b = document.querySelector('#board');
            return b.dataset.version !== v || b.dataset.status === 'finished';
        }""",
        arg=version,
        timeout=timeout * 1000,
    )


def close_result(page: Page) -> None:
    """Go on after a round: press "Next round" (or close the game's last result)."""
    if page.locator("#round-result:not([hidden]) #next-round:not([disabled])").count():
        page.click("#next-round")
    elif page.locator("#round-result:not([hidden]) #close-result").count():
        page.click("#close-result")


def hanafuda_move(page: Page) -> bool:
    """One click as a player: a koi-koi call, a highlighted capture or a hand card."""
    close_result(page)
    state = board(page)
    if state.get("status") == "finished" or state.get("mine") != "true":
        return False
    if page.locator("#decision button").count():
        page.click("#decision button[data-action='shobu']")
    elif page.locator(".card.target").count():
        page.locator(".card.target").first.click()
    else:
        page.locator(".hand .card.playable").first.click()
        if page.locator(".card.target").count():  # a choice of two: pick one
            page.locator(".card.target").first.click()
    return True


def play_until_over(pages: list[Page], limit: float = 120) -> None:
    def over() -> bool:
        """One move at each page whose turn it is; True once every page says it is over."""
        if all(board(p).get("status") == "finished" for p in pages):
            return True
        for page in pages:
            version = board(page)["version"]
            if hanafuda_move(page):
                wait_for_change(page, version)
        return False

    eventually(over, limit, "the game finishes")
