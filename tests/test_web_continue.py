"""Continue on another device, in Chromium (issue 39, item 11): the first browser plays a
seat and makes a link; a second browser opens it, holds the seat as a player (not a
spectator) and has the record; the link works once."""

from __future__ import annotations

import json
import time
from typing import Any

from playwright.sync_api import Browser, expect

from .browser_helpers import browser, create_table, new_page, server, shot

__all__ = ["browser", "server"]  # fixtures used by name

#: one finished game in the first browser's record (as record.js keeps it)
RECORD = {
    "format": "cardtable-record",
    "version": 1,
    "games": [
        {"table": "earlier1", "game": "koi-koi", "date": "2026-11-20T10:00:00.000Z",
         "seats": ["you", "hard"], "scores": [36, 24], "place": 1, "outcome": "win"},
    ],
}  # fmt: skip


def test_a_link_carries_the_seat_and_record_to_another_browser(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, app = server
    first = new_page(browser, locale="pl-PL", width=1366, height=800)
    table_id = create_table(first, url, "koi-koi", ["human", "bot:easy"], {})
    seat = json.loads(first.evaluate(f"localStorage.getItem('cardtable.seat.{table_id}')"))
    first.evaluate(f"localStorage.setItem('cardtable.record', {json.dumps(json.dumps(RECORD))})")
    first.goto(url)
    first.click("#continue-make")
    share = first.locator("#continue-link .invite")
    expect(share).to_contain_text("raz, przez 10 minut")
    expect(share.locator(".qr img")).to_be_visible()  # the waiting room's QR code
    first.wait_for_function("document.querySelector('#continue-link .qr img').naturalWidth > 0")
    link = share.locator(".invite-url").input_value()
    assert link.startswith(f"{url}/continue#")
    assert seat["key"] not in link  # the link carries a token, not the seat key
    shot(first, "continue-link-pl-1366")

    second = new_page(browser, locale="ru-RU", width=390, height=844)
    second.goto(link)
    expect(second.locator("#continue-status")).to_contain_text("Готово")
    assert second.url == f"{url}/continue"  # the spent token left the address bar
    row = second.locator(f"#continue-tables [data-table='{table_id}']")
    expect(row).to_contain_text("Koi-koi")
    expect(second.locator("#continue-record")).to_contain_text("1")
    assert second.evaluate("document.documentElement.scrollWidth") <= 390
    shot(second, "continue-taken-ru-390")
    row.locator("a.primary").click()  # resume: a player at that seat, not a spectator
    second.wait_for_selector(".hand .card")
    expect(second.locator(f"#players .player.me[data-seat='{seat['seat']}']")).to_be_visible()
    assert app.state.hub.tables[table_id].seats[seat["seat"]].connected >= 1
    second.goto(url)  # the record came too
    expect(second.locator("#record .record-table [data-game='koi-koi']")).to_be_visible()
    expect(second.locator(f"#my-games [data-table='{table_id}']")).to_be_visible()

    # the link worked once: a third browser is told so, and gets no seat
    third = new_page(browser, locale="pl-PL", width=390, height=844)
    third.goto(link)
    expect(third.locator("#continue-status")).to_contain_text("już użyty")
    assert third.evaluate(f"localStorage.getItem('cardtable.seat.{table_id}')") is None
    shot(third, "continue-used-pl-390")


def test_the_lobby_buttons_wait_for_the_page_to_be_ready(
    server: tuple[str, Any], browser: Browser
) -> None:
    """Pressed before the lobby's script had wired them (a slow line: the game list still on
    its way), "Create table" and "Continue on another device" did nothing. They come
    disabled and are enabled once they work."""
    url, _app = server
    page = new_page(browser, locale="pl-PL")
    held: list[Any] = []
    page.route("**/api/games", lambda route: held.append(route))  # noqa: PLW0108
    page.goto(url)
    deadline = time.monotonic() + 30
    while not held and time.monotonic() < deadline:  # the page's events come while it waits
        page.wait_for_timeout(50)
    assert held, "the lobby never asked for its games"
    assert page.locator("#continue-make").is_disabled()
    assert page.locator("#create").is_disabled()
    held[0].continue_()
    expect(page.locator("#continue-make")).to_be_enabled()
    expect(page.locator("#create")).to_be_enabled()
    page.click("#continue-make")  # this browser has nothing to hand over yet: it says so
    expect(page.locator("#continue-link")).to_contain_text("nie ma jeszcze miejsc")
    assert not page.errors  # type: ignore[attr-defined]
