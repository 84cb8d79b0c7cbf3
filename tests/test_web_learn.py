"""The guided first game in real Chromium: a new player finishes it from the lobby's first
page by clicking only what the coach points at; a wrong move is explained; a lesson left
is resumed where it was; every game's guided game reaches its end."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page
from websockets.sync.client import connect

from cardtable.learn import games_with_lessons, lesson_of
from cardtable.locales import catalogue

from .browser_helpers import board, browser, new_page, server, shot

__all__ = ["browser", "server"]  # fixtures used by name

TARGET = "[data-lesson-target]"
# what the coach points at (on the board, or "Next round"), or the end of the game
POINTED_OR_OVER = """() =>
    document.querySelector('#board [data-lesson-target], #round-result [data-lesson-target]')
    || document.querySelector('#board').dataset.status === 'finished'"""
# after a click: the element clicked is no longer the one the coach points at (the board
# was drawn again: the game moved on, or the renderer took the click as one step of a move)
MOVED_ON = """() => !document.querySelector('[data-lesson-target][data-clicked]')"""


#: the learner's name, asked on the lesson page when the browser keeps none
LEARNER = "Ala"


def give_name(page: Page, name: str = LEARNER) -> None:
    """Answer the lesson page's "what should the coach call you?" where it asks."""
    page.wait_for_selector("#learn-name-form:not([hidden]), #board[data-version]")
    if page.locator("#learn-name-form:not([hidden])").count():
        page.fill("#learn-name", name)
        page.click("#learn-start")


def open_lesson(page: Page, url: str, game: str, fresh: bool = True) -> str:
    page.goto(f"{url}/learn/{game}{'?new=1' if fresh else ''}")
    give_name(page)
    page.wait_for_selector("#board[data-version]")
    page.wait_for_selector("#lesson:not([hidden])")
    return page.url.rsplit("/", 1)[-1]


def follow_the_coach(page: Page, limit: int = 600) -> list[str]:
    """Click what the coach points at until the game is over; the coach's lines seen."""
    said: list[str] = []
    for _ in range(limit):
        page.wait_for_function(POINTED_OR_OVER, timeout=30_000)
        if board(page)["status"] == "finished":
            return said
        key = page.get_attribute("#lesson-text", "data-key") or ""
        if not said or said[-1] != key:
            said.append(key)
        target = page.locator(f"#board {TARGET}, #round-result {TARGET}")
        target.evaluate("element => { element.dataset.clicked = '1'; }")
        if target.evaluate("element => element.tagName") == "INPUT":
            # a word box (7 słów): type the word the coach names, then Enter
            target.fill(target.get_attribute("data-coach-word") or "")
            target.press("Enter")
        else:
            target.click()
        page.wait_for_function(MOVED_ON, timeout=30_000)
        assert not page.errors  # type: ignore[attr-defined]
    raise AssertionError("the guided game did not end")


def test_a_new_player_finishes_the_guided_koikoi_game_by_following_the_coach(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    page = new_page(browser)
    page.goto(f"{url}/")
    page.wait_for_selector("#learn-link:visible")
    assert page.get_attribute("#learn-link", "href") == "/learn/koi-koi"
    page.click("#learn-link")
    give_name(page)
    page.wait_for_selector("#lesson:not([hidden])")
    table_id = page.url.rsplit("/", 1)[-1]
    assert LEARNER in page.inner_text("#lesson-text")  # the coach greets the learner by name
    said = follow_the_coach(page)
    lesson = lesson_of("koi-koi")
    assert said == [step.say for step in lesson.steps_of(lesson.learner)]
    page.wait_for_selector(f"#lesson {TARGET}#lesson-next")
    assert page.get_attribute("#lesson-text", "data-key") == lesson.done
    meta = page.request.get(f"{url}/api/tables/{table_id}").json()
    assert meta["status"] == "finished" and meta["winners"] == [lesson.learner]
    shot(page, "learn-koi-koi-done")
    assert page.locator("#rematch").count() == 0  # a lesson is not played again as such
    record = json.loads(page.evaluate("localStorage.getItem('cardtable.record')") or "{}")
    assert not record.get("games")  # a scripted game says nothing of the player's level
    seat = json.loads(page.evaluate(f"localStorage.getItem('cardtable.seat.{table_id}')"))
    answer = page.request.post(f"{url}/api/tables/{table_id}/rematch", data=seat)
    assert answer.status == 400 and answer.json()["detail"]["code"] == "no_rematch"
    # the lesson ends in a normal game against the easy bot
    page.locator(TARGET).click()
    page.wait_for_url(lambda address: table_id not in address and "/t/" in address)
    page.wait_for_selector("#board[data-version]")
    new_id = page.url.rsplit("/", 1)[-1]
    meta = page.request.get(f"{url}/api/tables/{new_id}").json()
    assert [s["kind"] for s in meta["seats"]] == ["human", "bot:easy"]
    assert meta["preset"] is None and page.locator("#lesson").is_hidden()


@pytest.mark.parametrize("lang", ["en", "pl"])
def test_a_wrong_move_is_explained(server: tuple[str, Any], browser: Browser, lang: str) -> None:
    url, _app = server
    page = new_page(browser, locale={"en": "en-GB", "pl": "pl-PL"}[lang])
    open_lesson(page, url, "koi-koi")
    page.wait_for_selector(f"#board {TARGET}")
    pointed = page.get_attribute(f"#board {TARGET}", "data-code")
    other = page.locator(f"#board .hand .card.playable:not([data-code='{pointed}'])").first
    version = board(page)["version"]
    other.click()
    page.wait_for_selector("#lesson-wrong")
    words = catalogue(lang)
    wrong = page.inner_text("#lesson-wrong")
    assert words["lesson.not_now"] in wrong
    assert board(page)["version"] == version  # nothing was played
    # the coach still says what to do, and the pointed card is still marked
    assert page.get_attribute("#lesson-text", "data-key") == "lesson.koi-koi.match"
    assert page.get_attribute(f"#board {TARGET}", "data-code") == pointed
    if lang != "en":
        assert catalogue("en")["lesson.not_now"] not in page.inner_text("#lesson")


@pytest.mark.parametrize("lang", ["en", "pl", "ru"])
def test_a_wrong_word_in_the_siedem_lesson_is_explained(
    server: tuple[str, Any], browser: Browser, lang: str
) -> None:
    """The lesson's table checks words only when challenged, yet a word the dictionary
    refuses is explained at once with the dictionary's reason, and nothing is written."""
    url, _app = server
    page = new_page(browser, locale={"en": "en-GB", "pl": "pl-PL", "ru": "ru-RU"}[lang])
    open_lesson(page, url, "siedem-slow")
    box = page.locator(f"#board #word{TARGET}")
    assert box.get_attribute("data-coach-word") == "GDY"
    version = board(page)["version"]
    box.fill("gdyx")
    box.press("Enter")
    page.wait_for_selector("#lesson-wrong")
    wrong = page.inner_text("#lesson-wrong")
    assert "GDYX" in wrong
    words = catalogue(lang)
    reason = words["illegal.siedem.word.not_in_dictionary"].replace("{word}", "GDYX")
    assert reason in wrong
    assert words["lesson.not_now"] not in wrong
    assert board(page)["version"] == version  # nothing was written
    assert page.get_attribute("#lesson-text", "data-key") == "lesson.siedem.word"
    if lang != "en":
        assert catalogue("en")["illegal.siedem.word.not_in_dictionary"][8:] not in wrong


def test_a_lesson_left_is_resumed(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser)
    table_id = open_lesson(page, url, "koi-koi")
    version = board(page)["version"]
    page.locator(f"#board {TARGET}").click()
    page.wait_for_function(
        "v => document.querySelector('#board').dataset.version !== v", arg=version
    )
    page.wait_for_function(
        "() => document.querySelector('#lesson-text').dataset.key === 'lesson.koi-koi.choice'"
    )
    page.goto(f"{url}/")
    page.wait_for_selector("#learn-link:visible")
    page.click("#learn-link")  # the same lesson, where it was left
    page.wait_for_selector("#lesson:not([hidden])")
    assert page.url.rsplit("/", 1)[-1] == table_id
    page.wait_for_function(
        "() => document.querySelector('#lesson-text')?.dataset.key === 'lesson.koi-koi.choice'"
    )
    assert page.locator(f"#board {TARGET}").count() == 1


@pytest.mark.parametrize("game_id", sorted(games_with_lessons()))
def test_each_guided_game_reaches_its_end(
    server: tuple[str, Any], browser: Browser, game_id: str
) -> None:
    url, _app = server
    page = new_page(browser)
    open_lesson(page, url, game_id)
    said = follow_the_coach(page)
    assert board(page)["status"] == "finished"
    lesson = lesson_of(game_id)
    ideas = [step.say for step in lesson.steps_of(lesson.learner) if step.idea]
    assert [key for key in said if key in ideas] == ideas  # each idea's line, in order
    page.wait_for_selector("#lesson-next")


def test_a_move_the_rules_refuse_comes_back_with_the_engines_reason(
    server: tuple[str, Any], browser: Browser
) -> None:
    """The coach's table referees with the real engine: a card not in the hand is refused
    with the rules' own reason (a catalogue key the page says in its language), and a legal
    move the coach did not ask for with the coach's."""
    url, _app = server
    page = new_page(browser)
    table_id = open_lesson(page, url, "koi-koi")
    seat = json.loads(page.evaluate(f"localStorage.getItem('cardtable.seat.{table_id}')"))
    ws_url = url.replace("http", "ws")
    with connect(f"{ws_url}/ws/tables/{table_id}?seat={seat['seat']}&key={seat['key']}") as ws:
        frame = json.loads(ws.recv(timeout=30))
        assert frame["type"] == "state" and frame["lesson"]["target"]["card"] == "01-1"
        version = frame["version"]
        answers = []
        for action in ({"type": "play", "card": "04-1"}, {"type": "play", "card": "03-2"}):
            ws.send(json.dumps({"type": "action", "action": action, "version": version}))
            answer = json.loads(ws.recv(timeout=30))
            while answer["type"] != "error":
                answer = json.loads(ws.recv(timeout=30))
            answers.append(answer)
    engine, coach = answers
    assert engine["code"] == "illegal" and engine["key"].startswith("illegal.")
    assert coach["code"] == "illegal" and coach["key"] == "lesson.not_now"
    meta = page.request.get(f"{url}/api/tables/{table_id}").json()
    assert meta["moves"] == 0  # neither was played


#: the centre of an element lies in view and no other element covers it there
UNCOVERED = """selector => {
    const element = document.querySelector(selector);
    const box = element.getBoundingClientRect();
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    if (y < 0 || y > innerHeight || x < 0 || x > innerWidth) return false;
    return element.contains(document.elementFromPoint(x, y));
}"""


@pytest.mark.parametrize("size", [(1366, 800), (390, 844)])
def test_ohanami_stage_step_waits_for_the_stage_result(
    server: tuple[str, Any], browser: Browser, size: tuple[int, int]
) -> None:
    """Step 10 of the Ohanami lesson names cards of the next stage's hand: while the stage
    result covers the table the coach only asks to read it; once it is dismissed, step 10
    speaks, in view and uncovered."""
    url, _app = server
    width, height = size
    page = new_page(browser, locale="pl-PL", width=width, height=height)
    open_lesson(page, url, "ohanami")
    lesson = lesson_of("ohanami")
    stages = next(step.say for step in lesson.steps_of(lesson.learner) if step.idea == "stages")
    for _ in range(60):  # follow the coach to the end of stage 1
        page.wait_for_function(POINTED_OR_OVER, timeout=30_000)
        if page.locator("#round-result:not([hidden])").count():
            break
        target = page.locator(f"#board {TARGET}")
        target.evaluate("element => { element.dataset.clicked = '1'; }")
        target.click()
        page.wait_for_function(MOVED_ON, timeout=30_000)
    page.wait_for_selector(f"#round-result:not([hidden]) {TARGET}")
    assert page.get_attribute("#lesson-text", "data-key") == "lesson.read_result"
    assert page.inner_text("#lesson-text") == catalogue("pl")["lesson.read_result"]
    # reading the result is no step of its own: step 10 is counted once, after the break
    assert page.inner_text("#lesson .lesson-step") == ""
    # the stage's score is in the box: no banner says it again over the table
    assert not page.locator("#announce.show").count()
    shot(page, f"learn-ohanami-break-{width}")
    page.locator(f"#round-result {TARGET}").click()
    page.wait_for_function(
        "key => document.querySelector('#lesson-text')?.dataset.key === key", arg=stages
    )
    assert page.locator("#round-result:not([hidden])").count() == 0
    page.locator("#lesson").scroll_into_view_if_needed()
    assert page.evaluate(UNCOVERED, "#lesson-text")
    assert "105" in page.inner_text("#lesson-text")  # the cards to keep, now on show
    assert "10" in page.inner_text("#lesson .lesson-step")
    assert not page.locator("#announce.show").count()  # nor over the next stage's board
    page.wait_for_selector(f"#board {TARGET}")
    shot(page, f"learn-ohanami-stage-step-{width}")
    assert not page.errors  # type: ignore[attr-defined]
