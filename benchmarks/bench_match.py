"""Quick match as two strangers meet it (issue 47): the time from the second person's
"Play now" to both tables drawn, in two headless Chromium pages (Polish and Russian) on a
server in this process, over ``--pairs`` pairs; the median and the spread.

    PYTHONPATH=. python benchmarks/bench_match.py --pairs 20
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.browser_helpers import ARGS, CHROMIUM, SETTINGS
from tests.server_helpers import server_thread

from benchmarks.common import save_figures


def press_play_now(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("#play-now:not([disabled])")
    page.select_option("#match-game", "koi-koi")
    page.click("#play-now")


def one_pair(first: Page, second: Page, url: str) -> float:
    """Seconds from the second "Play now" to both boards drawn."""
    press_play_now(first, url)
    first.wait_for_selector("#match-waiting:not([hidden])")
    second.goto(url)
    second.wait_for_selector("#play-now:not([disabled])")
    second.select_option("#match-game", "koi-koi")
    started = time.perf_counter()
    second.click("#play-now")
    for page in (first, second):
        page.wait_for_selector("#board[data-version]", timeout=30_000)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=20)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = f"sqlite:///{folder}/match.db"
        with server_thread(db, SETTINGS) as (url, _app), sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            pages = [browser.new_context(locale=locale).new_page() for locale in ("pl-PL", "ru-RU")]
            one_pair(*pages, url)  # warm: the first page load compiles every module
            seconds = [one_pair(*pages, url) for _ in range(args.pairs)]
            browser.close()
    figures = {
        "pairs": args.pairs,
        "median_s": round(statistics.median(seconds), 3),
        "min_s": round(min(seconds), 3),
        "max_s": round(max(seconds), 3),
    }
    print(figures)
    save_figures("match", figures)


if __name__ == "__main__":
    main()
