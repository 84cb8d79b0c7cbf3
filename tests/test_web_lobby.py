"""The new-table form as a player meets it (issue "Welcome, languages and friends"): the
most played game first and then the browser's own last choice, named rule sets with a line
each, house rules grouped and folded with their explanations on the page and their values
in words, bot levels explained, the technical bots under "advanced", seats named in the
page's language."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from .browser_helpers import (
    OPEN_RULE_GROUPS,
    SETTINGS,
    browser,
    create_table,
    new_page,
    server,
    shot,
)
from .server_helpers import http, server_thread
from .test_web_table import frames, seat_socket

__all__ = ["browser", "server"]  # fixtures used by name

RAW_VALUE = re.compile(r"^[a-z]+(_[a-z0-9]+)+$")  # count_all, own_x2, zero_sum_start


def test_the_form_speaks_to_players(server: tuple[str, Any], browser: Browser) -> None:
    url, app = server
    page = new_page(browser, locale="pl-PL", width=390, height=844)
    page.goto(url)
    page.wait_for_selector(".seat-kind")
    expect(page.locator("#game")).to_have_value("koi-koi")  # the most played game first
    expect(page.locator("#preset option:checked")).to_have_text("Zasady z polskiej instrukcji")
    expect(page.locator("#preset-help")).not_to_be_empty()
    # house rules: grouped, folded, explained on the page, values said in words
    page.click("#rules summary")
    groups = page.locator("#rule-fields details.option-group")
    assert groups.count() >= 5
    assert all(not d for d in groups.evaluate_all("ds => ds.map(d => d.open)"))
    texts = page.locator("#rule-fields option").all_inner_texts()
    assert texts and not [t for t in texts if RAW_VALUE.match(t)], texts
    labels = page.locator("#rule-fields label span, #rule-fields label.check").all_inner_texts()
    assert not [t for t in labels if RAW_VALUE.match(t.strip())]
    groups.first.locator("summary").click()
    expect(groups.first.locator(".option-help").first).to_be_visible()
    # bots: levels explained; the technical ones under "advanced"
    seat = page.locator(".seat-kind[data-seat='1']")
    expect(seat.locator("option").first).to_have_text("Bot: Łatwy")
    expect(seat.locator("optgroup")).to_have_attribute("label", "Boty zaawansowane")
    seat.select_option("bot:hard")
    expect(page.locator(".seat-help")).not_to_be_empty()
    seat.select_option("bot:expert")  # koi-koi's top level says it guesses your cards
    expect(page.locator(".seat-help")).to_contain_text("odgaduje twoje karty")
    expect(seat.locator("option:checked")).to_have_text("Bot: Ekspert")
    seat.select_option("bot:hard")  # the seat menu remembers: the table below has hard
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "lobby-pl-390")
    # another game is remembered by the browser
    page.select_option("#game", "ohanami")
    page.reload()
    page.wait_for_selector(".seat-kind")
    expect(page.locator("#game")).to_have_value("ohanami")
    # an empty name is the seat's default, in each reader's language; bots alike
    page.select_option("#game", "koi-koi")
    page.click("#create")
    page.wait_for_selector("#board[data-version]")
    table_id = page.url.rsplit("/", 1)[-1]
    expect(page.locator("#players .name")).to_have_text(["Gracz 1", "Bot (trudny)"])
    seats = app.state.hub.tables[table_id].seats  # the seat remembers its bot
    assert [(s.kind, s.name, s.chosen) for s in seats] == [
        ("human", "Player 1", False), ("bot:hard", "Bot (hard)", False)
    ]  # fmt: skip
    # a Russian spectator reads the same seats in Russian
    watcher = new_page(browser, locale="ru-RU", width=1366, height=768)
    watcher.goto(f"{url}/t/{table_id}?watch=1")
    expect(watcher.locator("#players .name")).to_have_text(
        ["Игрок 1", "Бот (сложный)"], timeout=15_000
    )


def test_a_friend_joins_through_the_waiting_room(server: tuple[str, Any], browser: Browser) -> None:
    url, app = server
    host = new_page(browser, width=1366, height=768)
    host.goto(url)
    host.wait_for_selector(".seat-kind")
    host.fill("#name", "Anna")
    host.select_option(".seat-kind[data-seat='1']", "human")
    host.click("#create")
    host.wait_for_selector("#waiting-room:not([hidden]) .invite")
    table_id = host.url.rsplit("/", 1)[-1]
    table = app.state.hub.tables[table_id]
    # a big copy button, the link, and a QR code for a phone at the same table
    expect(host.locator("#copy-invite-1")).to_be_visible()
    qr = host.locator(".invite .qr img")
    expect(qr).to_be_visible()
    host.wait_for_function("document.querySelector('.invite .qr img').naturalWidth > 0")
    assert host.evaluate("document.querySelector('#board').inert")
    expect(host.locator("#hint-panel")).to_be_hidden()  # no hint before the game starts
    shot(host, "waiting-room-1366")
    invite = host.locator(".invite-url").first.input_value()
    assert table.version == 0 and table.roster.waiting_for() == [1]  # nothing is played meanwhile
    guest = new_page(browser, locale="ru-RU", width=390, height=844)
    guest.goto(invite)
    guest.fill("#sit-name", "Маша")
    shot(guest, "sit-down-390")
    guest.click("#sit-down")
    guest.wait_for_selector(".hand .card")
    host.wait_for_selector("#waiting-room[hidden]", state="attached")
    expect(host.locator("#players")).to_contain_text("Маша")
    assert [s.name for s in table.seats] == ["Anna", "Маша"]
    assert not host.evaluate("document.querySelector('#board').inert")
    # under way, the seat to move may ask for a hint (the dealer's seat: either page)
    mover = host if min(table.state.to_move) == 0 else guest
    expect(mover.locator("#hint-panel")).to_be_visible()


def test_the_creator_fills_the_empty_seats_with_bots(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, app = server
    host = new_page(browser, locale="pl-PL", width=390, height=844)
    host.goto(f"{url}/?game=bakappana")
    host.wait_for_selector(".seat-kind")
    host.select_option("#players", "3")
    host.select_option(".seat-kind[data-seat='1']", "human")
    host.select_option(".seat-kind[data-seat='2']", "human")
    host.click("#create")
    host.wait_for_selector("#waiting-room:not([hidden]) #fill-bots")
    assert host.locator(".invite .qr img").count() == 2
    assert host.evaluate("document.documentElement.scrollWidth") <= 390
    shot(host, "waiting-room-pl-390")
    # the game's own levels, the top one too, in the page's language
    levels = host.locator("#fill-level option")
    assert levels.evaluate_all("os => os.map(o => o.value)") == ["easy", "medium", "hard", "expert"]
    expect(levels.last).to_have_text("Ekspert")
    host.select_option("#fill-level", "easy")
    host.click("#fill-bots")
    host.wait_for_selector("#waiting-room[hidden]", state="attached")
    table = app.state.hub.tables[host.url.rsplit("/", 1)[-1]]
    assert [s.kind for s in table.seats] == ["human", "bot:easy", "bot:easy"]
    expect(host.locator("#players .name")).to_have_text(["Gracz 1", "Bot (łatwy)", "Bot (łatwy) 2"])
    assert [(s.name, s.chosen) for s in table.seats][1:] == [
        ("Bot (easy)", False), ("Bot (easy) 2", False)
    ]  # fmt: skip
    host.wait_for_function(
        "Number(document.querySelector('#board').dataset.version) > 0 "
        "|| document.querySelector('#board').dataset.mine === 'true'"
    )


def test_my_games_are_listed_after_a_reload(server: tuple[str, Any], browser: Browser) -> None:
    url, app = server
    page = new_page(browser, locale="pl-PL", width=390, height=844)
    page.goto(f"{url}/?game=koi-koi")
    page.wait_for_selector(".seat-kind")
    page.select_option(".seat-kind[data-seat='1']", "bot:easy")
    page.click("#rules summary")
    page.evaluate(OPEN_RULE_GROUPS)
    page.select_option("[data-option='rounds']", "1")
    page.click("#create")
    page.wait_for_selector("#board[data-version]")
    playing = page.url.rsplit("/", 1)[-1]
    page.goto(url)
    row = page.locator(f"#my-games [data-table='{playing}']")
    expect(row).to_contain_text("w toku")
    expect(row.locator("a.primary")).to_have_attribute("href", f"/t/{playing}")
    # a finished game offers its replay and its file
    with seat_socket(page, url, playing) as ws:
        rng = random.Random(5)
        for frame in frames(ws):
            if frame["table"]["status"] == "finished":
                break
            if frame["table"]["round_break"]:
                ws.send(json.dumps({"type": "next_round"}))
            elif frame["view"].get("legal_actions"):
                action = rng.choice(frame["view"]["legal_actions"])
                ws.send(
                    json.dumps({"type": "action", "action": action, "version": frame["version"]})
                )
    assert app.state.hub.tables[playing].finished
    page.reload()
    row = page.locator(f"#my-games [data-table='{playing}']")
    expect(row).to_contain_text("zakończona")
    expect(row.locator(f"a[href='/replay/{playing}']")).to_be_visible()
    expect(row.locator(f"a[href='/api/tables/{playing}/record']")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    shot(page, "lobby-my-games-pl-390")


@pytest.mark.parametrize("width", [360, 390])
@pytest.mark.parametrize(
    "path",
    ["/", "/verify", "/rules/koi-koi?lang=pl", "/companion/hanafuda", "/companion/ohanami",
     "/companion/siedem-slow", "/t/no-such-table"],
)  # fmt: skip
def test_no_page_scrolls_sideways_on_a_phone(
    server: tuple[str, Any], browser: Browser, path: str, width: int
) -> None:
    url, _app = server
    page = new_page(browser, locale="pl-PL", width=width, height=800)
    page.goto(f"{url}{path}")
    page.wait_for_load_state("networkidle")
    assert page.evaluate("document.documentElement.scrollWidth") <= width, path


def test_the_create_button_is_busy_until_the_table_answers(
    server: tuple[str, Any], browser: Browser
) -> None:
    """A table can take a while (the first 7 słów table of a fresh install waits for its
    dictionary): the button says so and makes no second table; a refusal gives it back."""
    url, _app = server
    page = new_page(browser, locale="pl-PL", width=390, height=844)
    answers: list[Any] = []

    def hold(route: Any) -> None:  # a new table is held unanswered; the list goes through
        answers.append(route) if route.request.method == "POST" else route.continue_()

    page.route("**/api/tables", hold)
    page.goto(f"{url}/?game=siedem-slow")
    page.wait_for_selector(".seat-kind")
    page.click("#create")
    expect(page.locator("#create")).to_be_disabled()
    expect(page.locator("#create")).to_have_text("Przygotowuję stół…")
    shot(page, "lobby-creating-pl-390")
    page.locator("#create").click(force=True)  # a second click while it waits
    page.wait_for_timeout(300)
    assert len(answers) == 1
    refusal = {"detail": {"code": "limit", "message": "too many tables"}}
    answers[0].fulfill(status=429, content_type="application/json", body=json.dumps(refusal))
    expect(page.locator("#form-error")).not_to_be_empty()
    expect(page.locator("#create")).to_be_enabled()
    expect(page.locator("#create")).to_have_text("Utwórz stół")


def test_the_coach_option_says_what_this_game_shows(
    server: tuple[str, Any], browser: Browser
) -> None:
    """Beside the table the coach shows what the game's own renderer knows: yaku in the
    hanafuda games, the garden's colours in Ohanami, the bonus boxes in 7 słów."""
    url, _app = server
    page = new_page(browser, locale="pl-PL", width=390, height=844)
    page.goto(f"{url}/?game=koi-koi")
    page.wait_for_selector(".seat-kind")
    for game, words in (("koi-koi", "yaku"), ("ohanami", "ogrodu"), ("siedem-slow", "premii")):
        page.select_option("#game", game)
        expect(page.locator("#coach-help")).to_contain_text(words)
    page.select_option("#lang", "ru")
    expect(page.locator("#coach-help")).to_contain_text("бонусов")


@pytest.mark.parametrize(("width", "height"), [(1366, 800), (390, 844)])
@pytest.mark.parametrize("locale", ["pl-PL", "ru-RU"])
def test_the_create_button_is_in_sight_without_scrolling(
    server: tuple[str, Any], browser: Browser, locale: str, width: int, height: int
) -> None:
    """The form is longer than a laptop's 800 px: its primary action stays in sight (issue
    39: "Create table" was below the fold), uncovered, for a game of three seats too."""
    url, _app = server
    page = new_page(browser, locale=locale, width=width, height=height)
    page.goto(f"{url}/?game=bakappana")
    page.wait_for_selector(".seat-kind")
    for players in ("2", "3"):
        page.select_option("#players", players)
        box = page.locator("#create").bounding_box()
        assert box is not None
        assert page.evaluate("window.scrollY") == 0
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (players, box)
        # nothing lies over it: a click at its middle reaches the button
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        assert page.evaluate(f"document.elementFromPoint({x}, {y})?.id") == "create"
    shot(page, f"lobby-create-in-sight-{locale}-{width}")


def test_a_refusal_names_the_network_limit_and_offers_this_browsers_tables(
    browser: Browser, tmp_path: Path
) -> None:
    """The unstarted-table limit counts one address: a whole shared Wi-Fi. The refusal says
    so plainly, and lists the tables this browser itself can resume (not another device's)."""
    settings = replace(SETTINGS, unstarted_tables=2)
    with server_thread(f"sqlite:///{tmp_path / 'limit.db'}", settings) as (url, _app):
        mine = new_page(browser, locale="pl-PL", width=1366, height=800)
        mine_id = create_table(mine, url, "koi-koi", ["human", "bot:easy"], {})
        # another device on the same network (the same address) makes a table too
        body = {"game": "koi-koi", "seats": ["human", "bot:easy"]}
        status, other = http("POST", f"{url}/api/tables", body)
        assert status == 201, other
        mine.goto(url)
        mine.wait_for_selector(".seat-kind")
        mine.click("#create")
        refusal = mine.locator("#form-error")
        expect(refusal).to_contain_text("Wi-Fi")
        expect(refusal).to_contain_text("sieci")
        expect(refusal.locator(f"#resumable a[href='/t/{mine_id}']")).to_be_visible()
        assert refusal.locator(f"[data-table='{other['id']}']").count() == 0
        box = mine.locator("#create").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 800  # still in sight
        shot(mine, "lobby-refused-pl-1366")
        # a browser that made none of them is told they are another device's
        fresh = new_page(browser, locale="ru-RU", width=390, height=844)
        fresh.goto(url)
        fresh.wait_for_selector(".seat-kind")
        fresh.click("#create")
        expect(fresh.locator("#resumable-none")).to_contain_text("другого устройства")
        expect(fresh.locator("#form-error")).to_contain_text("Wi-Fi")
        # on a phone the refusal stays a few lines high: the seat choices are not covered
        bar = fresh.locator("#create-actions").bounding_box()
        assert bar is not None and bar["height"] <= 844 * 0.25, bar
        shot(fresh, "lobby-refused-ru-390")


def test_no_field_stays_under_the_create_bar(server: tuple[str, Any], browser: Browser) -> None:
    """At 1366x800 the form runs under its sticky "Create table" bar: every field brought
    into view (Tab, a scroll to it) stops wholly above the bar, none cut in half."""
    url, _app = server
    page = new_page(browser, locale="pl-PL", width=1366, height=800)
    page.goto(f"{url}/?game=bakappana")
    page.wait_for_selector(".seat-kind")
    fields = "#create-form :is(label, summary, fieldset, .option-help):not(#create-actions *)"
    count = page.locator(fields).count()
    assert count > 8
    under = page.evaluate(
        """fields => [...document.querySelectorAll(fields)].filter(f => f.checkVisibility())
          .flatMap(f => {
            f.scrollIntoView({ block: 'nearest' });
            const bar = document.querySelector('#create-actions').getBoundingClientRect();
            const box = f.getBoundingClientRect();
            return box.bottom > bar.top + 0.5 ? [f.textContent.trim().slice(0, 30)] : [];
        })""",
        fields,
    )
    assert not under
    page.locator("#coach").scroll_into_view_if_needed()
    shot(page, "lobby-last-field-pl-1366")
