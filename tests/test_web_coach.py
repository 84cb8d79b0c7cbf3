"""Coach mode and the review after a game, in real Chromium: "Coach me" on the new-table
form; after the seeded deal's bad first move (throwing a card away instead of taking the
Moon) the coach names the capture, after the good one it says nothing; at the end the
review lists that move with the better one and shows the board at it. Screenshots of
both at 1366x768 and 390x844 in en, pl and ru."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from websockets.sync.client import connect

from cardtable.games.siedem_slow import solve
from cardtable.locales import message
from cardtable.server.fairness import Commitment
from cardtable.server.settings import Settings

from .browser_helpers import (
    board,
    browser,
    create_table,
    new_page,
    page_pause,
    play_until_over,
    shot,
)
from .server_helpers import eventually, http, random_action, server_thread
from .test_coach import SEED, VERDICT_BUDGET
from .test_web_table import frames, seat_socket

__all__ = ["browser"]  # fixtures used by name

# the coach's searches in worker processes, as a served table has them: in threads they
# share the server's interpreter lock, and on a busy machine a note missed its deadline
SETTINGS = Settings(
    bot_delay=0.05,
    think_scale=0.25,
    coach_iterations=VERDICT_BUDGET,
    compute="local",
    worker_niceness=0,
).relaxed()
LOCALES = {"en": "en-GB", "pl": "pl-PL", "ru": "ru-RU"}
SIZES = {"wide": (1366, 800), "phone": (390, 844)}
#: seconds a coach note may take: the first one spawns the server's hint process, which
#: imports the engine at a lower priority (niced), and under a full test run the busy cores
#: starve it for much longer than the search itself takes
NOTE_DEADLINE = 120
#: the version a test marks a frame it sends again with
LATE_VERSION = 1000


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    """A server whose every table is dealt from the seeded deal."""
    db = tmp_path_factory.mktemp("coach") / "coach.db"
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Commitment, "draw", lambda: Commitment(SEED, "00" * 16))
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


def play_the_weak_move(page: Page, app: Any, table_id: str, card: str = "02-4") -> None:
    """Play ``card`` (on the seeded deal: a plum thrown away instead of taking the Moon)
    and wait for the coach's note on it, each step apart, so that a failure names the step
    that did not come and what the coach made of the move."""
    table = app.state.hub.tables[table_id]
    page.wait_for_selector("#board[data-mine='true']")
    before = table.version  # the bot does not move while it is this seat's turn
    play_card(page, card)
    eventually(lambda: table.version > before, what=f"the server took {card}")
    assert table.seats[0].coach, "the seat is not coached"
    judged(app, table_id)
    outcome = [said for version, said in table.coach.outcomes if version == before + 1]
    assert outcome, f"the move was never judged: {list(table.coach.outcomes)}"
    note = table.coach.notes.get(0)
    assert note is not None, f"no note: {list(table.coach.outcomes)}"
    assert note["version"] == before + 1, f"a note on another move: {list(table.coach.outcomes)}"
    page.wait_for_selector(f"#coach-note[data-version='{before + 1}']", timeout=20_000)


def judged(app: Any, table_id: str) -> None:
    """Wait until the coach has judged every move made so far (no note may come later)."""
    table = app.state.hub.tables[table_id]
    eventually(lambda: not table.coach.tasks, NOTE_DEADLINE, "the coach has judged")


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
    url, app = server
    page = new_page(browser)
    table_id = coached_table(page, url)
    assert page.locator("#coach-panel").is_visible()
    assert page.inner_text("#coach-note") == "No mistakes so far."
    play_the_weak_move(page, app, table_id)  # the Moon stays on the table for the other player
    note = page.inner_text("#coach-note")
    # the moves named, not ordered: no "Play Plum" that reads as the advice itself
    assert note.startswith("You played Plum") and "; better: Geese — " in note, note
    assert "Play " not in note, note
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
    # the coach's note on the word, once the round is scored: beside the solver's best
    note = page.locator("#coach-note[data-version='round-1']")
    expect(note).to_have_text(
        f"Round 1: {written.word.upper()} — {written.points}. The best here was "
        f"{found[0].word.upper()} — {found[0].points} ({found[0].points - written.points} more)."
    )
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


def test_a_frame_older_than_the_note_keeps_the_note(browser: Browser, server: Any) -> None:
    """A state frame worked out before the coach's note was written can reach the page just
    after the note (both are sent at once): the note stays. The test holds the table's
    socket: right after the note it sends the last state frame again without the note (its
    version marked, so the page is seen to have read it), and nothing after that."""
    url, _app = server
    page = new_page(browser, width=1366, height=800)
    last_state: list[dict[str, Any]] = []
    held: list[bool] = []  # once the late frame is sent, the server's frames stop here

    def through(socket: Any) -> None:
        server_side = socket.connect_to_server()

        def from_server(message: str | bytes) -> None:
            if held:
                return
            socket.send(message)
            data = json.loads(message)
            if data["type"] == "state":
                last_state[:] = [data]
            elif data["type"] == "coach" and last_state:
                late = {**last_state[0], "coach": None, "version": LATE_VERSION}
                socket.send(json.dumps(late))
                held.append(True)

        server_side.on_message(from_server)

    page.route_web_socket(re.compile(r"/ws/tables/"), through)
    coached_table(page, url)
    play_card(page, "02-4")
    page.wait_for_selector(f"#board[data-version='{LATE_VERSION}']", timeout=NOTE_DEADLINE * 1000)
    expect(page.locator("#coach-note[data-version='1']")).to_be_visible()


@pytest.mark.parametrize("lang", list(LOCALES))
def test_screenshots_of_the_coach_and_the_review(browser: Browser, server: Any, lang: str) -> None:
    url, app = server
    page = new_page(browser, LOCALES[lang], width=1366, height=768)
    table_id = coached_table(page, url)
    play_the_weak_move(page, app, table_id)
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


# -- where the coach speaks: never over the hand, always in sight -----------------------------
def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two bounding boxes intersect."""
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def in_viewport(page: Page, selector: str) -> bool:
    """Whether the element is wholly in sight. The panel is drawn anew on each frame (the
    bot's reply may land meanwhile), so a box lost to a redraw is asked for again."""
    box = None
    for _ in range(20):
        box = page.locator(selector).bounding_box()  # relative to the viewport
        if box is not None:
            break
        page.wait_for_timeout(100)
    size = page.viewport_size
    assert box is not None and size is not None, f"{selector} is not shown"
    return box["y"] >= 0 and box["y"] + box["height"] <= size["height"] and box["height"] > 0


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_the_coach_never_covers_the_hand_and_stays_in_sight(
    browser: Browser, server: Any, lang: str
) -> None:
    url, app = server
    page = new_page(browser, LOCALES[lang], width=1366, height=800)
    table_id = coached_table(page, url)
    play_the_weak_move(page, app, table_id)
    hand = page.locator("#board .mine .hand")
    # wide: the note is in the side column, in sight, off the hand; a toast keeps off it too
    assert in_viewport(page, "#coach-note")
    assert not overlap(page.locator("#coach-panel").bounding_box(), hand.bounding_box())  # type: ignore[arg-type]
    note = page.inner_text("#coach-note")
    page.evaluate("text => import('/static/js/table.js').then((m) => m.toast(text))", note)
    expect(page.locator("#toast")).to_be_visible()
    assert not overlap(page.locator("#toast").bounding_box(), hand.bounding_box())  # type: ignore[arg-type]
    shot(page, f"coach-toast-{lang}-wide")
    # a phone: the coach is a bar pinned to the top, in sight wherever the page is scrolled
    page.set_viewport_size({"width": 390, "height": 844})
    for scroll in ("0", "document.body.scrollHeight"):
        page.evaluate(f"window.scrollTo(0, {scroll})")
        expect(page.locator("#coach-note")).to_be_in_viewport()
        assert in_viewport(page, "#coach-panel") and in_viewport(page, "#board .mine .hand")
        assert not overlap(page.locator("#coach-panel").bounding_box(), hand.bounding_box())  # type: ignore[arg-type]
        shot(page, f"coach-bar-{lang}-phone-{'top' if scroll == '0' else 'bottom'}")
    assert page.locator("#coach-needs").is_hidden()  # shut: the note only
    cut = "n => n.scrollHeight > n.clientHeight + 1 || n.scrollWidth > n.clientWidth + 1"
    assert not page.eval_on_selector("#coach-note", cut)  # the whole note, its reason too
    page.click("#coach-toggle")
    expect(page.locator("#coach-needs")).to_be_visible()
    assert page.get_attribute("#coach-toggle", "aria-expanded") == "true"
    shot(page, f"coach-bar-{lang}-phone-open")
    page.click("#coach-toggle")
    expect(page.locator("#coach-needs")).to_be_hidden()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


# -- the review's curve and the replay's rounds ---------------------------------------------
VIEWS = [(lang, size) for lang in ("pl", "ru") for size in SIZES]


@pytest.fixture(scope="module")
def reviewed_game(browser: Browser, server: Any) -> str:
    """A finished coached koi-koi round whose first move threw the Moon away."""
    url, _ = server
    page = new_page(browser)
    table_id = coached_table(page, url)
    play_card(page, "02-4")
    play_until_over([page])
    page.context.close()
    return table_id


def finished_review(url: str, table_id: str) -> dict[str, Any]:
    """The review of seat 0, once its job is done (the first to ask starts it)."""

    def ready() -> dict[str, Any] | None:
        _, answer = http("GET", f"{url}/api/tables/{table_id}/review?seat=0")
        return answer if answer["status"] == "ready" else None

    return eventually(ready, timeout=120, what="the review")


@pytest.mark.parametrize(("lang", "size"), VIEWS)
def test_the_review_draws_the_curve_with_its_swings(
    browser: Browser, server: Any, reviewed_game: str, lang: str, size: str
) -> None:
    url, _ = server
    width, height = SIZES[size]
    page = new_page(browser, LOCALES[lang], width=width, height=height)
    page.goto(f"{url}/replay/{reviewed_game}?review=0")
    page.wait_for_selector("#review-panel[data-status='ready']", timeout=60_000)
    expect(page.locator("#step")).to_have_text(re.compile(r"^\D+ 0 \D+ \d+$"))  # the deal
    _, answer = http("GET", f"{url}/api/tables/{reviewed_game}/review?seat=0")
    assert answer["total"] == len(answer["points"]) > 1
    # a point per reviewed move, the swings red, and the first move (the Moon) among them
    assert page.locator("#review-curve .curve-point").count() == answer["total"]
    swings = page.locator("#review-curve .curve-point.swing")
    assert swings.count() == len(answer["moves"]) >= 1
    assert swings.first.get_attribute("data-move") == "0"
    assert page.get_attribute("#review-status", "data-reading") == "swings"
    clean = {"pl": "bez wyraźnych błędów", "ru": "явных ошибок нет"}[lang]
    assert clean not in page.inner_text("#review-panel")
    title = page.inner_text(".curve-title")
    assert title.startswith(
        {"pl": "Szanse po każdym ruchu", "ru": "Шансы после каждого хода"}[lang]
    )
    box = page.locator("#review-curve").bounding_box()
    assert box is not None and box["width"] >= 240 and box["x"] + box["width"] <= width
    # the curve starts at the first move, from the chances before it; the first swing's
    # figure stands on the plot, right of the percent axis, not across it
    start = page.evaluate("""() => {
        const curve = document.querySelector('#review-curve');
        const axis = Number(curve.querySelector('.curve-grid').getAttribute('x1'));
        const first = curve.querySelector('.curve-line').points[0];
        const label = curve.querySelector('.curve-swing-label').getBBox();
        return { axis, x: first.x, y: first.y, label: label.x };
    }""")
    first = answer["points"][0]
    assert start["label"] > start["axis"] and start["x"] > start["axis"], start
    drop = page.locator("#review-curve .curve-drop").first
    assert abs(start["y"] - float(drop.get_attribute("y1") or 0)) < 0.01  # its "before"
    assert first["swing"] and first["move"] == 0
    # the swing on the curve takes the board to that move, the better move marked
    swings.first.click()
    page.wait_for_selector(".review-move.current[data-move='0']")
    assert page.locator("#board .card.hinted[data-code='08-1']").count() == 1
    shot(page, f"review-curve-{lang}-{size}")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_a_game_without_a_clear_mistake_names_its_costliest_moves(
    browser: Browser, server: Any, lang: str
) -> None:
    """A won game's review ("costs"): no clear mistake, the moves that cost most listed
    for next time, none of them called a mistake."""
    url, _ = server
    page = new_page(browser, LOCALES[lang])
    page.goto(f"{url}/api/games")  # a document that runs no script of its own
    said = page.evaluate(
        """async (lang) => {
            const i18n = await import('/static/js/i18n.js');
            await i18n.loadLanguage(lang);
            const { Review } = await import('/static/js/replay/review.js');
            const review = { t: i18n.t, costs: true };
            const verdict = Review.prototype.verdict.call(review, { kind: 'costs' }, 'Ala');
            const title = Review.prototype.swingTitle.call(review, { move: 6, loss: 0.05 }, null);
            return [verdict, title.map((part) => part.textContent ?? part).join('')];
        }""",
        lang,
    )
    assert said[0] == message("review.costs", lang, name="Ala")
    assert message("review.costly", lang) in said[1]
    assert message("review.mistake", lang) not in said[1]


@pytest.mark.parametrize(("lang", "size"), [("pl", "wide"), ("pl", "phone"), ("ru", "phone")])
def test_the_replay_board_lays_the_own_seat_off_the_field(
    browser: Browser, server: Any, reviewed_game: str, lang: str, size: str
) -> None:
    """The live table pins the own seat to the screen's bottom; under the replay's controls
    that laid it over the table's cards and the stock. And a replay waits for nobody."""
    url, _ = server
    width, height = SIZES[size]
    page = new_page(browser, LOCALES[lang], width=width, height=height)
    page.goto(f"{url}/replay/{reviewed_game}")
    for step in (0, 1):
        expect(page.locator("#step")).to_have_text(re.compile(rf"^\D+ {step} \D+ \d+$"))
        page.wait_for_selector("#board .mine .hand .card")
        mine = page.locator("#board .mine").bounding_box()
        for part in ("#board .table-cards", "#board .stock"):
            box = page.locator(part).bounding_box()
            assert mine is not None and box is not None and box["height"] > 0
            assert not overlap(mine, box), (step, part, mine, box)
        assert page.locator("#board .status-line").count() == 0
        waiting = {"pl": "Czekamy na", "ru": "Ждём"}[lang]
        assert waiting not in page.inner_text("#board")
        shot(page, f"replay-board-{lang}-{size}-step{step}")
        page.click("#next")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize(("lang", "size"), VIEWS)
def test_the_curve_fills_the_panel_with_its_labels_inside(
    browser: Browser, server: Any, reviewed_game: str, lang: str, size: str
) -> None:
    url, _ = server
    finished_review(url, reviewed_game)
    width, height = SIZES[size]
    page = new_page(browser, LOCALES[lang], width=width, height=height)
    page.goto(f"{url}/replay/{reviewed_game}?review=0")
    page.wait_for_selector("#review-panel[data-status='ready']")
    # measured in one go, in the page
    curve, slot, labels = page.evaluate("""() => {
        const box = (element) => element.getBoundingClientRect().toJSON();
        const curve = document.querySelector("#review-curve");
        return [box(curve), box(curve.parentElement), [...curve.querySelectorAll("text")].map(box)];
    }""")
    assert curve["width"] >= 290 and abs(curve["width"] - slot["width"]) < 2, (curve, slot)
    assert len(labels) >= 4  # 100 %, 50 %, 0 % and the moves' axis
    for box in labels:
        assert box["height"] >= 10  # drawn at its size, not shrunk
        assert curve["x"] <= box["x"] and box["x"] + box["width"] <= curve["x"] + curve["width"]
        assert curve["y"] <= box["y"] and box["y"] + box["height"] <= curve["y"] + curve["height"]
    shot(page, f"review-curve-labels-{lang}-{size}")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_a_swing_on_a_phone_shows_the_board_with_its_explanation(
    browser: Browser, server: Any, reviewed_game: str, lang: str
) -> None:
    url, _ = server
    finished_review(url, reviewed_game)
    page = new_page(browser, LOCALES[lang], width=390, height=844)
    page.goto(f"{url}/replay/{reviewed_game}?review=0")
    page.wait_for_selector("#review-panel[data-status='ready']")
    swings = page.locator(".review-move")
    moves = [int(m) for m in swings.evaluate_all("items => items.map((i) => i.dataset.move)")]
    swing = swings.last
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # the list, as a reader has it
    swing.locator(".review-jump").click()
    expect(page.locator("#step")).to_have_text(re.compile(rf"^\D+ {moves[-1]} \D+"))
    # the explanation over the board, in sight together with the board's better move
    expect(page.locator("#review-here")).to_be_visible()
    note = swing.locator(".review-note").inner_text()
    assert page.inner_text("#review-here .review-note") == note
    expect(page.locator("#review-here")).to_be_in_viewport()
    expect(page.locator("#board .card.hinted").first).to_be_in_viewport()
    shot(page, f"review-swing-here-{lang}-phone")
    if moves[-1] + 1 not in moves:  # a step that is no swing: nothing to explain over the board
        page.click("#next")
        expect(page.locator("#review-here")).to_be_hidden()
    # beside the board (a wide screen) the review's list explains it: no second copy
    page.set_viewport_size({"width": 1366, "height": 800})
    swing.locator(".review-jump").click()
    page.wait_for_selector(".review-move.current")
    assert page.locator("#review-here").is_hidden()
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


def test_the_review_waits_for_the_board_and_is_drawn_once(
    browser: Browser, server: Any, reviewed_game: str
) -> None:
    """The board's code came after the review was drawn, on a slow line (CI): the board
    then grew under a reader scrolled to a swing, and the curve was replaced while read."""
    url, _ = server
    finished_review(url, reviewed_game)
    _, games = http("GET", f"{url}/api/games")
    renderer = next(game["renderer"] for game in games if game["id"] == "koi-koi")
    page = new_page(browser, LOCALES["pl"], width=390, height=844)
    # each time the panel turns ready: is the board drawn, and how many curves so far
    page.add_init_script("""
        window.readyWith = [];
        new MutationObserver(() => {
            const panel = document.querySelector("#review-panel");
            const board = document.querySelector("#board");
            if (panel?.dataset.status === "ready" && window.readyWith.length === 0) {
                window.readyWith.push(board.childElementCount > 0);
            }
        }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-status"] });
        window.curves = 0;
        new MutationObserver((changes) => {
            for (const change of changes) {
                const added = [...change.addedNodes];
                window.curves += added.filter((node) => node.id === "review-curve").length;
            }
        }).observe(document, { subtree: true, childList: true });
    """)
    held: list[Any] = []
    # a function, not held.append: Playwright's route handler must be one it can inspect
    page.route(f"**{renderer.split('?')[0]}*", lambda route: held.append(route))  # noqa: PLW0108
    page.goto(f"{url}/replay/{reviewed_game}?review=0")
    # the page's events come while it waits
    eventually(lambda: held, 30, "the board's code is asked for", pause=page_pause(page))
    page.wait_for_timeout(1_000)  # a slow line: the review's answer (ready) has time to come
    held[0].continue_()
    page.wait_for_selector("#review-panel[data-status='ready']")
    page.wait_for_selector("#board .mine .hand .card")
    assert page.evaluate("window.readyWith") == [True]
    assert page.evaluate("window.curves") == 1
    page.locator(".review-move").first.locator(".review-jump").click()
    expect(page.locator("#review-here")).to_be_in_viewport()
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.fixture(scope="module")
def three_rounds(server: Any) -> str:
    """A finished three-round Bakappana game, its human seat played at random."""
    url, _ = server
    body = {"game": "bakappana", "seats": ["human", "bot:greedy"], "options": {"rounds": 3}}
    _, created = http("POST", f"{url}/api/tables", body)
    table_id, key = created["id"], created["key"]
    rng = random.Random(3)
    with connect(f"{url.replace('http', 'ws')}/ws/tables/{table_id}?seat=0&key={key}") as ws:
        for frame in frames(ws):
            if frame["table"]["status"] == "finished":
                break
            if frame["table"]["round_break"]:
                ws.send(json.dumps({"type": "next_round"}))
            elif action := random_action(frame["view"], rng):
                ws.send(
                    json.dumps({"type": "action", "action": action, "version": frame["version"]})
                )
    return str(table_id)


@pytest.mark.parametrize(("lang", "size"), VIEWS)
def test_the_replay_opens_at_the_deal_with_a_jump_per_round(
    browser: Browser, server: Any, three_rounds: str, lang: str, size: str
) -> None:
    url, _ = server
    table_id = three_rounds
    _, replay = http("GET", f"{url}/api/tables/{table_id}/replay")
    rounds = replay["rounds"]
    assert len(rounds) == 3 and rounds[0] == 0
    assert [replay["views"][step]["round"] for step in rounds] == [1, 2, 3]
    width, height = SIZES[size]
    page = new_page(browser, LOCALES[lang], width=width, height=height)
    page.goto(f"{url}/replay/{table_id}")
    expect(page.locator("#step")).to_have_text(
        re.compile(rf"^\D+ 0 \D+ {len(replay['views']) - 1}$")
    )
    assert page.locator("#round-ticks .round-tick").count() == 2  # rounds 2 and 3 begin
    jumps = page.locator("#round-jumps .round-jump")
    assert jumps.count() == 3
    assert page.get_attribute(".round-jump[data-round='1']", "aria-current") == "step"
    page.click(".round-jump[data-round='3']")
    expect(page.locator("#step")).to_have_text(re.compile(rf"^\D+ {rounds[2]} \D+"))
    assert page.get_attribute(".round-jump[data-round='3']", "aria-current") == "step"
    assert page.get_attribute(".round-jump[data-round='1']", "aria-current") is None
    word = {"pl": "Runda 2", "ru": "Раунд 2"}[lang]
    assert page.get_attribute(".round-jump[data-round='2']", "aria-label") == word
    # the review's curve marks the same rounds, labelled in the reader's language
    page.click("#review-start")
    page.wait_for_selector("#review-panel[data-status='ready']", timeout=120_000)
    marks = page.locator("#review-curve .curve-round")
    assert [marks.nth(n).get_attribute("data-round") for n in range(marks.count())] == ["2", "3"]
    assert word in page.locator("#review-curve .curve-round-label").all_text_contents()
    shot(page, f"replay-rounds-{lang}-{size}")
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("kind", ["fell", "against", "small"])
def test_a_clear_loss_without_a_swing_is_said_from_the_curve(
    browser: Browser, server: Any, reviewed_game: str, kind: str
) -> None:
    """The page's side of the reading (its numbers are agents.coach.read_curve's, tested in
    tests/test_coach.py): a game lost clearly with no swing never reads "no clear mistake"."""
    url, _ = server
    real = finished_review(url, reviewed_game)  # its job may still be working
    points = [{**p, "swing": False} for p in real["points"]]
    fall = [points[0]["move"], points[1]["move"]] if kind == "fell" else None
    reading = {"kind": kind, "start": 0.62, "end": 0.08, "given": 0.31, "fall": fall}
    answer = {**real, "moves": [], "points": points, "reading": reading}
    page = new_page(browser, "pl-PL", width=390, height=844)
    page.route(f"**/api/tables/{reviewed_game}/review*", lambda route: route.fulfill(json=answer))
    page.goto(f"{url}/replay/{reviewed_game}?review=0")
    page.wait_for_selector("#review-panel[data-status='ready']")
    status = page.inner_text("#review-status")
    assert "bez wyraźnych błędów — dobra gra" not in status
    expected = {
        "fell": "szanse spadły z 62% do 8% między ruchami",
        "against": "rozdanie było przeciw od pierwszego ruchu: szanse 62% na początku, 8% na końcu",
        "small": "drobne straty się zsumowały: szanse 62% przy pierwszym ruchu, 8% po ostatnim",
    }[kind]
    assert expected in status, status
    assert page.locator("#review-curve .curve-point").count() == len(points)
    assert page.locator("#review-curve .curve-point.swing").count() == 0
    assert page.locator("#review-curve .curve-fall").count() == (kind == "fell")
    if kind == "fell":
        assert f"między ruchami {fall[0] + 1} i {fall[1] + 1}" in status  # type: ignore[index]
    shot(page, f"review-{kind}-pl-phone")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_a_seven_words_word_gets_a_coach_note_on_a_phone(
    browser: Browser, server: Any, lang: str
) -> None:
    """Once the round is scored the coach sets the word beside the solver's best, in the
    reader's language, in the bar pinned to the top of the phone's screen."""
    url, app = server
    page = new_page(browser, LOCALES[lang], width=390, height=844)
    rules = {"deck": '"pl"', "rounds": "2", "grace_seconds": "0", "hourglass_seconds": "5"}
    page.goto(f"{url}/?game=siedem-slow")
    page.evaluate("localStorage.setItem('cardtable.coach', '1')")
    table_id = create_table(page, url, "siedem-slow", ["human", "bot:easy"], rules)
    page.wait_for_selector("#coach-note")
    state = app.state.hub.tables[table_id].state
    found = solve(state.area, state.dictionary, top=1)
    with seat_socket(page, url, table_id) as ws:
        for action in ({"type": "submit", "word": found[0].word}, {"type": "flip"}):
            ws.send(json.dumps({"type": "action", "action": action}))
    note = page.locator("#coach-note[data-version='round-1']")
    expect(note).to_be_visible(timeout=60_000)
    best = {
        "pl": "Runda 1: {w} — {p}, najlepsze słowo tutaj.",
        "ru": "Раунд 1: {w} — {p}, лучшее слово здесь.",
    }
    assert note.inner_text().startswith(
        best[lang].format(w=found[0].word.upper(), p=found[0].points)
    )
    expect(note).to_be_in_viewport()
    box = page.locator("#coach-panel").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
    shot(page, f"coach-siedem-{lang}-phone")
    assert not page.errors  # type: ignore[attr-defined]
    page.context.close()
