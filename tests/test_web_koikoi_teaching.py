"""Koi-koi teaching in real Chromium. A hint on the table page speaks of yaku and never of
card points (koi-koi scores yaku only): on the seeded deal whose best first move takes the
Moon, the Polish and Russian hints name Tsukimi-zake and no card points, at both sizes. The
guided koi-koi round, in Polish at both sizes, asks the learner's name and calls them by it
through every step. The coach's note on a weak move and the review say no card points."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser

from cardtable.learn import lesson_of
from cardtable.locales import catalogue
from cardtable.server.fairness import Commitment
from cardtable.server.settings import Settings

from .browser_helpers import browser, create_table, new_page, play_until_over, shot
from .server_helpers import server_thread
from .test_coach import SEED, VERDICT_BUDGET
from .test_web_coach import coached_table, play_the_weak_move
from .test_web_learn import TARGET, follow_the_coach

__all__ = ["browser"]  # fixtures used by name

SETTINGS = Settings(
    bot_delay=0.05,
    think_scale=0.25,
    coach_iterations=VERDICT_BUDGET,
    compute="local",
    worker_niceness=0,
).relaxed()
SIZES = {"wide": (1366, 800), "phone": (390, 844)}
LOCALES = {"pl": "pl-PL", "ru": "ru-RU"}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """A server whose every table is dealt from the seeded deal (the Moon to take)."""
    db = tmp_path_factory.mktemp("teaching") / "teaching.db"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Commitment, "draw", lambda: Commitment(SEED, "00" * 16))
        with server_thread(f"sqlite:///{db}", SETTINGS) as (url, app):
            yield url, app


#: a card code in running text, " (08-2)": the terminal's, never the browser's
CARD_CODE = re.compile(r"\(\d\d-\d\)")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lang", LOCALES)
def test_a_koikoi_hint_speaks_of_yaku_not_card_points(
    server: tuple[str, Any], browser: Browser, lang: str, size: str
) -> None:
    url, _app = server
    width, height = SIZES[size]
    page = new_page(browser, locale=LOCALES[lang], width=width, height=height)
    create_table(page, url, "koi-koi", ["human", "bot:medium"], {"rounds": "1"})
    page.wait_for_selector("#board[data-mine='true'] .hand .card")
    page.click("#hint")
    words = catalogue(lang)
    thinking = words["hint.thinking"]
    page.wait_for_function(
        "thinking => { const text = document.querySelector('#hint-text').textContent;"
        " return text && text !== thinking; }",
        arg=thinking,
        timeout=60_000,
    )
    said = page.inner_text("#hint-text")
    card_points = words["hint.captures_worth"].split("{points}", 1)[1].strip(" ()")
    assert card_points not in said  # "pkt w kartach", "очк. в картах"
    assert words["hint.captures"].split("{", 1)[0] in said  # "bierze ", "берёт "
    assert "Tsukimi-zake" in said  # the yaku the Moon brings one card away
    assert words["yaku.koi-koi.tsukimi.meaning"] in said  # and what it means, in words
    assert not CARD_CODE.search(said), said  # cards by name: "Gęsi", not "Gęsi (08-2)"
    page.locator("#hint-text").scroll_into_view_if_needed()
    shot(page, f"koikoi-hint-{lang}-{size}")
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("size", SIZES)
def test_the_koikoi_lesson_walks_through_in_polish_with_the_learners_name(
    server: tuple[str, Any], browser: Browser, size: str
) -> None:
    """A new player asked for a name on the lesson page follows the Polish coach through
    every step; the coach and the table call them by that name, never "Gracz 1"."""
    url, _app = server
    width, height = SIZES[size]
    page = new_page(browser, locale="pl-PL", width=width, height=height)
    page.goto(f"{url}/learn/koi-koi")
    page.wait_for_selector("#learn-name-form:not([hidden])")
    shot(page, f"learn-name-pl-{size}")
    page.fill("#learn-name", "Ala")
    page.click("#learn-start")
    page.wait_for_selector("#lesson:not([hidden]) #lesson-text")
    page.wait_for_selector(f"#board {TARGET}")
    first = page.inner_text("#lesson-text")
    assert first.startswith("Witaj, Ala!")
    shot(page, f"learn-koikoi-pl-{size}-first")
    said = follow_the_coach(page)
    lesson = lesson_of("koi-koi")
    assert said == [step.say for step in lesson.steps_of(lesson.learner)]
    page.wait_for_selector(f"#lesson {TARGET}#lesson-next")
    end = page.inner_text("#lesson-text")
    assert "Ala" in end and "pkt w kartach" not in end
    shot(page, f"learn-koikoi-pl-{size}-done")
    text = page.inner_text("body")
    assert "Gracz 1" not in text and "Ala" in page.inner_text("#board")
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize("lang", LOCALES)
def test_the_koikoi_coach_and_review_speak_of_yaku(
    server: tuple[str, Any], browser: Browser, lang: str
) -> None:
    """The coach's note on a weak koi-koi move ("Lepiej: ...") and the review after the
    game give the better move's reasons in yaku, never in card points, the cards by name
    and the yaku in the reader's words too."""
    url, app = server
    words = catalogue(lang)
    card_points = words["hint.captures_worth"].split("{points}", 1)[1].strip(" ()")
    page = new_page(browser, locale=LOCALES[lang], width=1366, height=800)
    table_id = coached_table(page, url)
    play_the_weak_move(page, app, table_id)  # throws a plum away instead of taking the Moon
    note = page.inner_text("#coach-note")
    assert "Tsukimi-zake" in note and card_points not in note, note
    assert words["yaku.koi-koi.tsukimi.meaning"] in note and not CARD_CODE.search(note), note
    shot(page, f"koikoi-coach-note-{lang}-wide")
    play_until_over([page])
    page.goto(f"{url}/replay/{table_id}?review=0")
    page.wait_for_selector("#review-panel[data-status='ready']", timeout=60_000)
    review = page.inner_text("#review-panel")
    assert card_points not in review and not re.search(r"\(\+\d+\)", review), review
    assert not CARD_CODE.search(review), review
    shot(page, f"koikoi-review-{lang}-wide")
    assert not page.errors  # type: ignore[attr-defined]
