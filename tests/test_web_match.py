"""Quick match in the browser (issue 47): two people, one reading Polish and one Russian,
press "Play now" for koi-koi and meet at one table; a third waits, sees how many wait, is
offered a bot and takes it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from cardtable.server import match_store as kept

from .browser_helpers import SETTINGS, browser, new_page, page_pause, shot
from .server_helpers import eventually, http, seat_keys, server_thread

__all__ = ["browser"]  # fixtures used by name

BOT_OFFER_SECONDS = 3.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    db = tmp_path_factory.mktemp("match") / "match.db"
    settings = replace(SETTINGS, match_bot_offer_seconds=BOT_OFFER_SECONDS)
    with server_thread(f"sqlite:///{db}", settings) as (url, app):
        yield url, app


def press_play_now(page: Page, url: str, game: str = "koi-koi") -> None:
    page.goto(url)
    expect(page.locator("#play-now")).to_be_enabled()
    page.select_option("#match-game", game)
    page.click("#play-now")


def ala_seat(page: Page) -> int:
    return int(page.locator("#players li.me").get_attribute("data-seat") or 0)


def test_two_strangers_meet_and_a_third_takes_the_bot(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, app = server
    ala = new_page(browser, locale="pl-PL", width=1366, height=800)
    olga = new_page(browser, locale="ru-RU", width=390, height=844)
    press_play_now(ala, url)
    expect(ala.locator("#match-game option[value='hana-awase-88']")).to_have_count(0)  # by 3
    expect(ala.locator("#match-status")).to_contain_text("Szukamy przeciwnika")
    expect(ala.locator("#match-waiting-count")).to_have_text(
        "Na razie nikt inny nie czeka na tę grę"
    )
    shot(ala, "match-waiting-pl")
    press_play_now(olga, url)
    for page in (ala, olga):
        page.wait_for_selector("#board[data-version]")
    assert ala.url.split("/t/")[1] == olga.url.split("/t/")[1]  # one table
    table = app.state.hub.tables[ala.url.rsplit("/", 1)[1]]
    assert all(seat.connected for seat in table.seats)  # both sat down, no invitation page
    expect(olga.locator("#join")).to_be_hidden()
    # a rated table: each seat's rating beside its name, marked provisional, in each language
    for page, provisional in ((ala, "tymczasowy"), (olga, "предварительный")):
        badges = page.locator("#players .rating")
        expect(badges).to_have_count(2)
        expect(badges.first).to_have_text(f"1 500 ± 350 · {provisional}")
    shot(olga, "match-table-ru")

    # chat: a phrase said in Polish is read in Russian; no free text at a quick-match table
    ala.click("#chat-panel [data-phrase='common.good_luck']")
    expect(ala.locator("#chat-log")).to_contain_text("Powodzenia!")
    expect(olga.locator("#chat-log")).to_contain_text("Удачи!")
    for page in (ala, olga):
        expect(page.locator("#chat-form")).to_have_count(0)
        expect(page.locator("#chat-panel .chat-note")).to_be_visible()
    shot(olga, "match-chat-ru")
    olga.click(f"#chat-panel [data-mute='{ala_seat(ala)}']")  # muted: the line goes
    expect(olga.locator("#chat-log li.phrase")).to_have_count(0)

    # the game's result moves both ratings: the record panel shows each with its history
    quick = kept.quick_table(app.state.hub.store, table.id)
    assert quick is not None and kept.settle(app.state.hub.store, quick, [1.0, 0.0])
    ala.goto(url)
    rating = ala.locator("#people-ratings .people-rating[data-game='koi-koi']")
    expect(rating).to_contain_text("tymczasowy")
    expect(rating).to_contain_text("gry rankingowe: 1")
    expect(rating.locator(".rating-graph .point")).to_have_count(2)  # the start, one game
    assert int(rating.get_attribute("data-rating") or 0) != 1500
    shot(ala, "match-record-pl")

    third = new_page(browser, locale="en-GB", width=1366, height=800)
    press_play_now(third, url)
    expect(third.locator("#match-waiting-count")).to_have_text(
        "Nobody else is waiting for this game yet"
    )
    expect(third.locator("#bot-offer")).to_be_hidden()
    bot_offer = third.locator("#bot-offer")
    expect(bot_offer).to_be_visible(timeout=(BOT_OFFER_SECONDS + 10) * 1000)
    shot(third, "match-bot-offer-en")
    third.click("#match-bot")
    third.wait_for_selector("#board[data-version]")
    bot_table = app.state.hub.tables[third.url.rsplit("/", 1)[1]]
    assert [s.kind for s in bot_table.seats] == ["human", "bot:medium"]
    for page in (ala, olga, third):
        assert not page.errors, page.errors  # type: ignore[attr-defined]


def bot_record(wins: int) -> str:
    games = [
        {"table": f"t{n}", "game": "koi-koi", "date": "2026-11-29", "seats": ["you", "easy"],
         "scores": [1, 0], "place": 1, "outcome": "win"}
        for n in range(wins)
    ]  # fmt: skip
    return json.dumps({"format": "cardtable-record", "version": 1, "games": games})


def test_your_level_says_how_sure_it_is(server: tuple[str, Any], browser: Browser) -> None:
    """Two wins over the easy bot say "not clear yet"; thirty in a row place the player,
    95 % sure, above expert (the ladder's highest rung below 40.1 - 2 × 5.0 = 30.2:
    expert's 26.7, above master's 24.3 in the shipped ladder)."""
    url, _app = server
    page = new_page(browser, locale="en-GB", width=390, height=844)
    page.goto(url)
    for wins, place, said in ((2, "", "not clear yet"), (30, "expert", "above expert")):
        page.evaluate(
            "record => localStorage.setItem('cardtable.record', record)", bot_record(wins)
        )
        page.reload()
        level = page.locator("#record-levels li[data-game='koi-koi']")
        expect(level).to_contain_text(said)
        expect(level).to_contain_text(f"95 % sure, after {wins} games")
        assert level.get_attribute("data-above") == place
    shot(page, "record-level-en")


def invited_friends(url: str, browser: Browser) -> tuple[str, Page, Page]:
    """A private table made for a friend: its id, Ala's Polish page and Olga's Russian one,
    both seated."""
    status, created = http("POST", f"{url}/api/tables", {
        "game": "koi-koi", "seats": ["human", "human"], "public": False, "names": ["Ala", "Olga"],
    })  # fmt: skip
    assert status == 201, created
    table_id, keys = created["id"], seat_keys(created)
    pages = []
    for seat, locale in ((0, "pl-PL"), (1, "ru-RU")):
        page = new_page(browser, locale=locale)
        page.goto(url)
        page.evaluate(f"sessionStorage.setItem('cardtable.created.{table_id}', '1')")
        page.goto(f"{url}/t/{table_id}?seat={seat}&key={keys[seat]}")
        page.wait_for_selector("#chat-form")
        pages.append(page)
    return table_id, pages[0], pages[1]


def test_free_text_between_invited_people_is_text_not_markup(
    server: tuple[str, Any], browser: Browser
) -> None:
    """At a private table made for a friend, free text goes to the seats as plain text (no
    markup runs); a spectator reads the phrases only."""
    url, _app = server
    table_id, ala, olga = invited_friends(url, browser)
    watcher = new_page(browser, locale="en-GB")
    watcher.goto(f"{url}/t/{table_id}?watch=1")
    watcher.wait_for_selector("#chat-log")
    expect(watcher.locator("#chat-panel [data-phrase]")).to_have_count(0)  # reads, never says
    mutes = watcher.locator("#chat-panel [data-mute]")
    expect(mutes).to_have_count(2)  # one a seat, set apart: never read as one "Mute: AlaMute: …"

    def both_boxes() -> list[Any] | None:
        # asked again when a redraw of the panel (a seat came) had one detached meanwhile
        boxes = [mutes.nth(n).bounding_box() for n in range(2)]
        return boxes if all(box is not None for box in boxes) else None

    first, second = eventually(both_boxes, 10, "both mute buttons laid out", page_pause(watcher))
    assert second["x"] >= first["x"] + first["width"] + 8 or second["y"] >= first["y"] + 4
    ala.fill("#chat-text", "<img src=x onerror=\"document.title='owned'\"><b>hej</b>")
    ala.click("#chat-form button[type=submit]")
    line = olga.locator("#chat-log li.text")
    expect(line).to_contain_text("<b>hej</b>")  # shown as it was typed
    assert line.locator("b, img").count() == 0 and olga.title() != "owned"
    ala.click("#chat-panel [data-phrase='common.thanks']")
    expect(watcher.locator("#chat-log li.phrase")).to_have_text("Ala: Thanks!")
    expect(watcher.locator("#chat-log li.text")).to_have_count(0)  # the free text: seats only


def test_a_reloaded_page_reads_the_chat_in_its_own_language(
    server: tuple[str, Any], browser: Browser
) -> None:
    """What was said before a reload (or before a spectator came) is still there: phrases
    in the reader's language, free text to the seats only, a muted seat still muted."""
    url, _app = server
    table_id, ala, olga = invited_friends(url, browser)
    ala.click("#chat-panel [data-phrase='common.good_luck']")
    ala.fill("#chat-text", "do zobaczenia o ósmej")
    ala.click("#chat-form button[type=submit]")
    expect(olga.locator("#chat-log li")).to_have_count(2)
    olga.reload()
    lines = olga.locator("#chat-log li")
    expect(lines).to_have_text(["Ala: Удачи!", "Ala: do zobaczenia o ósmej"])
    olga.click("#chat-panel [data-phrase='common.thanks']")
    expect(lines).to_have_count(3)  # heard live after the lines read: once each, in order
    expect(lines.nth(2)).to_have_text("Olga: Спасибо!")
    ala.reload()
    expect(ala.locator("#chat-log li")).to_have_text(
        ["Ala: Powodzenia!", "Ala: do zobaczenia o ósmej", "Olga: Dzięki!"]
    )
    shot(ala, "chat-reloaded-pl")
    late = new_page(browser, locale="en-GB")  # a spectator who comes late
    late.goto(f"{url}/t/{table_id}?watch=1")
    expect(late.locator("#chat-log li")).to_have_text(["Ala: Good luck!", "Olga: Thanks!"])
    olga.click(f"#chat-panel [data-mute='{0}']")
    olga.reload()
    expect(olga.locator("#chat-log li")).to_have_text(["Olga: Спасибо!"])  # Ala still muted
    assert not olga.errors and not ala.errors  # type: ignore[attr-defined]


IMPORT = """async ([file]) => {
  const { importRecord } = await import('/static/js/record.js');
  return importRecord(JSON.stringify(file));
}"""


def test_a_record_shared_by_a_friend_keeps_this_browsers_player_key(
    server: tuple[str, Any], browser: Browser
) -> None:
    """A record file carries its player key (its ratings come along): a browser with no
    record of its own takes it, one with its own games keeps its own key."""
    url, _app = server
    game = {"table": "t1", "game": "koi-koi", "seats": ["you", "easy"], "scores": [6, 0],
            "outcome": "win", "date": "2026-11-29"}  # fmt: skip
    friends = {"format": "cardtable-record", "version": 1, "player": "b" * 32, "games": [game]}
    mine = new_page(browser)
    mine.goto(url)
    mine.evaluate("localStorage.setItem('cardtable.player', 'a'.repeat(32))")
    own = {**game, "table": "t0"}
    mine.evaluate("([g]) => localStorage.setItem('cardtable.record', JSON.stringify("
                  "{format: 'cardtable-record', version: 1, games: [g]}))", [own])  # fmt: skip
    assert mine.evaluate(IMPORT, [friends]) == 1
    assert mine.evaluate("localStorage.getItem('cardtable.player')") == "a" * 32
    fresh = new_page(browser)  # a new browser restoring its own backup
    fresh.goto(url)
    assert fresh.evaluate(IMPORT, [friends]) == 1
    assert fresh.evaluate("localStorage.getItem('cardtable.player')") == "b" * 32


#: a page whose own timers run no sooner than every 8 s, as Chrome runs a tab's timers
#: after five minutes in the background (intensive throttling: once a minute)
THROTTLED = """
const pageTimeout = window.setTimeout.bind(window);
window.setTimeout = (callback, ms, ...args) =>
  pageTimeout(callback, Math.max(ms || 0, 8000), ...args);
"""


def test_a_tab_left_in_the_background_stays_in_the_queue(tmp_path: Path, browser: Browser) -> None:
    """The queue forgets a ticket nobody polled for ``match_drop_seconds`` (here 1.5 s);
    a page whose timers are throttled still polls on time (its timer runs in a worker), so
    it stays counted, and a person who comes meets it."""
    settings = replace(SETTINGS, match_drop_seconds=1.5, match_bot_offer_seconds=60.0)
    with server_thread(f"sqlite:///{tmp_path / 'hidden.db'}", settings) as (url, _app):
        page = new_page(browser)
        page.add_init_script(THROTTLED)
        press_play_now(page, url)
        expect(page.locator("#match-waiting")).to_be_visible()
        for _ in range(4):
            page.wait_for_timeout(1000)
            status, counts = http("GET", f"{url}/api/match")
            assert counts["waiting"].get("koi-koi") == 1, counts
        iza = {"game": "koi-koi", "name": "Iza", "rated": True, "player": "c3" * 16}
        status, answer = http("POST", f"{url}/api/match", iza)
        assert status == 202, answer
        page.wait_for_url(re.compile(r"/t/\w+"), timeout=5000)
