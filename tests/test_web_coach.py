"""Coach mode and the review after a game, in real Chromium: "Coach me" on the new-table
form; after the seeded deal's bad first move (throwing a card away instead of taking the
Moon) the coach names the capture, after the good one it says nothing; at the end the
review lists that move with the better one and shows the board at it. Screenshots of
both at 1366x768 and 390x844 in en, pl and ru."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from cardtable.games.siedem_slow import solve
from cardtable.server import tables
from cardtable.server.fairness import Commitment
from cardtable.server.settings import Settings

from .browser_helpers import board, browser, create_table, new_page, play_until_over, shot
from .server_helpers import server_thread
from .test_coach import BUDGET, SEED
from .test_web_table import seat_socket

__all__ = ["browser"]  # fixtures used by name

# the coach's searches in worker processes, as a served table has them: in threads they
# share the server's interpreter lock, and on a busy machine a note missed its deadline
SETTINGS = Settings(
    bot_delay=0.05, think_scale=0.25, coach_iterations=BUDGET, compute="local"
).relaxed()
LOCALES = {"en": "en-GB", "pl": "pl-PL", "ru": "ru-RU"}
SIZES = {"wide": (1366, 768), "phone": (390, 844)}
#: seconds a coach note may take: the first one spawns the server's hint process, which
#: imports the engine at a lower priority (niced), and under a full test run the busy cores
#: starve it for much longer than the search itself takes
NOTE_DEADLINE = 120


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """A server whose every table is dealt from the seeded deal."""
    db = tmp_path_factory.mktemp("coach") / "coach.db"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tables.Commitment, "draw", lambda: Commitment(SEED, "00" * 16))
        with server_thread(f"sqlite:///{db}", SETTINGS) as (url, app):
            yield url, app


def coached_table(page: Page, url: str, coach: bool = True) -> str:
    page.goto(f"{url}/?game=koi-koi")
    page.evaluate(f"localStorage.setItem('cardtable.coach', '{int(coach)}')")
    table_id = create_table(page, url, "koi-koi", ["human", "bot:medium"], {"rounds": "1"})
    # the board's version shows before the game's renderer has loaded: wait for the drawing
    page.wait_for_selector("#board .hand .card")
    return table_id


def play_card(page: Page, card: str, take: str | None = None) -> None:
    page.wait_for_selector("#board[data-mine='true']")
    page.click(f".hand .card[data-code='{card}']")
    if take is not None and page.locator(".card.target").count():
        page.click(f".card.target[data-code='{take}']")


def judged(app: Any, table_id: str) -> None:
    """Wait until the coach has judged every move made so far (no note may come later)."""
    table = app.state.hub.tables[table_id]
    deadline = time.time() + NOTE_DEADLINE
    while table.coach.tasks and time.time() < deadline:
        time.sleep(0.05)
    assert not table.coach.tasks


def test_the_form_offers_the_coach_with_bots_only(browser: Browser, server: Any) -> None:
    url, _ = server
    page = new_page(browser)
    page.goto(f"{url}/?game=koi-koi")
    page.wait_for_selector(".seat-kind", state="attached")
    page.select_option(".seat-kind[data-seat='1']", "human")
    assert page.locator("#coach-option").is_hidden()
    page.select_option(".seat-kind[data-seat='1']", "bot:hard")
    assert page.locator("#coach-option").is_visible()
    assert "bot" in page.inner_text("#coach-option").lower()
    page.context.close()


def test_a_note_after_the_bad_move_and_the_review_lists_it(browser: Browser, server: Any) -> None:
    url, _ = server
    page = new_page(browser)
    coached_table(page, url)
    assert page.locator("#coach-panel").is_visible()
    assert page.inner_text("#coach-note") == "No mistakes so far."
    play_card(page, "02-4")  # the Moon stays on the table for the other player
    page.wait_for_selector("#coach-note[data-version='1']", timeout=NOTE_DEADLINE * 1000)
    note = page.inner_text("#coach-note")
    assert "Better: Play" in note and "Moon" in note
    play_until_over([page])
    page.click("#review-link")
    page.wait_for_selector("#review-panel[data-status='ready']", timeout=60_000)
    first = page.locator(".review-move").first
    assert first.get_attribute("data-move") == "0"
    assert "Moon" in first.inner_text() and "Move 1" in first.inner_text()
    first.locator("button").click()
    page.wait_for_selector(".review-move.current[data-move='0']")
    # the better move on the board (the Geese and the Moon), and the card thrown instead
    assert page.locator("#board .card.hinted[data-code='08-1']").count() == 1
    assert page.locator("#board .card.review-played[data-code='02-4']").count() == 1
    assert page.input_value("#seat") == "0"  # seen by the reviewed player
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_no_note_after_the_good_move(browser: Browser, server: Any) -> None:
    url, app = server
    page = new_page(browser)
    table_id = coached_table(page, url)
    play_card(page, "08-2", take="08-1")
    page.wait_for_function("document.querySelector('#board').dataset.version !== '0'")
    judged(app, table_id)
    assert page.get_attribute("#coach-note", "data-version") == ""
    assert app.state.hub.tables[table_id].coach.notes == {}
    page.context.close()


def test_the_ohanami_coach_says_what_the_colours_are_worth(browser: Browser, server: Any) -> None:
    url, _ = server
    page = new_page(browser, "pl-PL")
    page.goto(f"{url}/?game=ohanami")
    page.evaluate("localStorage.setItem('cardtable.coach', '1')")
    create_table(page, url, "ohanami", ["human", "bot:greedy"], {})
    page.wait_for_selector("#coach-note")
    lines = page.locator("#coach-needs li").all_inner_texts()
    assert len(lines) == 5 and lines[0].startswith("Woda: w ogrodzie 0")
    assert "Rzędy tylko rosną" in lines[-1]
    assert page.inner_text("#coach-note") == "Na razie bez błędów."
    shot(page, "coach-ohanami-pl-wide")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_an_uncoached_table_has_no_coach(browser: Browser, server: Any) -> None:
    url, _ = server
    page = new_page(browser)
    coached_table(page, url, coach=False)
    assert page.locator("#coach-panel").is_hidden()
    page.context.close()


def test_the_seven_words_review_lists_the_solver_words(browser: Browser, server: Any) -> None:
    url, app = server
    page = new_page(browser)
    rules = {"deck": '"en"', "rounds": "1", "grace_seconds": "0", "hourglass_seconds": "5"}
    page.goto(f"{url}/?game=siedem-slow")
    page.evaluate("localStorage.setItem('cardtable.coach', '1')")
    table_id = create_table(page, url, "siedem-slow", ["human", "bot:easy"], rules)
    page.wait_for_selector("#coach-needs li")  # round 1's boxes are worth 1 and 2
    needs = page.locator("#coach-needs li").all_inner_texts()
    assert needs[:2] == [
        "Beat the fastest player: +1 this round",
        "Fastest player wins: +2 this round",
    ]
    shot(page, "coach-siedem-en-wide")
    state = app.state.hub.tables[table_id].state
    found = solve(state.area, state.dictionary, top=2)
    written = found[1]  # the second best: the review shows a better one beside it
    with seat_socket(page, url, table_id) as ws:
        for action in ({"type": "submit", "word": written.word}, {"type": "flip"}):
            ws.send(json.dumps({"type": "action", "action": action}))
    page.wait_for_selector("#board[data-status='finished']", timeout=60_000)
    page.goto(f"{url}/replay/{table_id}?review=0")
    page.wait_for_selector("#review-panel[data-status='ready']", timeout=60_000)
    round_one = page.locator(".review-round[data-round='1']")
    assert f"Written: {written.word.upper()} — {written.points}" in round_one.inner_text()
    best = round_one.locator(".solver-word").all_inner_texts()
    assert best[0] == f"{found[0].word.upper()} — {found[0].points}"
    assert f"{written.word.upper()} — {written.points}" in best
    shot(page, "review-siedem-en-wide")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_screenshots_of_the_coach_and_the_review(browser: Browser, server: Any, lang: str) -> None:
    url, _ = server
    page = new_page(browser, LOCALES[lang], width=1366, height=768)
    table_id = coached_table(page, url)
    play_card(page, "02-4")
    page.wait_for_selector("#coach-note[data-version='1']", timeout=NOTE_DEADLINE * 1000)
    english = {"Better", "Coach", "to go"}
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)  # the layout settles (no assertion waits on it)
        shot(page, f"coach-{lang}-{name}")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    if lang != "en":
        panel = page.inner_text("#coach-panel")
        assert not any(word in panel for word in english), panel
    play_until_over([page])
    page.goto(f"{url}/replay/{table_id}?review=0")
    page.wait_for_selector("#review-panel[data-status='ready']", timeout=60_000)
    page.locator(".review-move button").first.click()
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(200)
        shot(page, f"review-{lang}-{name}")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert board(page) is not None
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
