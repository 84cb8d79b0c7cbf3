"""Continue on another device, in Chromium (issue 39, item 11): the first browser plays a
seat and makes a link; a second browser opens it, holds the seat as a player (not a
spectator) and has the record; the link works once."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, expect

from cardtable.server.record_proofs import proof_of

from .browser_helpers import browser, create_table, new_page, page_pause, server, shot
from .server_helpers import eventually

__all__ = ["browser", "server"]  # fixtures used by name


def record_of(app: Any) -> dict[str, Any]:
    """The first browser's record: a finished game with the server's proof of it (as a
    finished table's frame gives it) and one whose outcome was changed after."""
    entry = {"game": "koi-koi", "seats": ["you", "hard"], "scores": [36, 24], "outcome": "win"}
    signer = app.state.hub.signer()
    proven = {"table": "earlier1", "date": "2026-11-20T10:00:00.000Z", "place": 1, **entry,
              "proof": proof_of(signer, "earlier1", entry)}  # fmt: skip
    lost = {**entry, "scores": [10, 40], "outcome": "loss"}
    forged = {"table": "earlier2", "date": "2026-11-21T10:00:00.000Z", "place": 2, **lost,
              "proof": proof_of(signer, "earlier2", lost), "outcome": "win"}  # fmt: skip
    return {"format": "cardtable-record", "version": 1, "games": [proven, forged]}


def test_a_link_carries_the_seat_and_record_to_another_browser(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, app = server
    first = new_page(browser, locale="pl-PL", width=1366, height=800)
    table_id = create_table(first, url, "koi-koi", ["human", "bot:easy"], {})
    seat = json.loads(first.evaluate(f"localStorage.getItem('cardtable.seat.{table_id}')"))
    record = json.dumps(record_of(app))
    first.evaluate(f"localStorage.setItem('cardtable.record', {json.dumps(record)})")
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
    # what came is shown first, and kept only when the person says it is theirs
    expect(second.locator("#continue-status")).to_contain_text("столами (1)")
    expect(second.locator("#continue-status")).to_contain_text("журнала (1)")  # not the forged
    row = second.locator(f"#continue-tables [data-table='{table_id}']")
    expect(row).to_contain_text("Кои-кои")  # the game's name as Russian writes it
    assert second.evaluate(f"localStorage.getItem('cardtable.seat.{table_id}')") is None
    assert second.evaluate("document.documentElement.scrollWidth") <= 390
    shot(second, "continue-offer-ru-390")
    second.click("#continue-accept")
    expect(second.locator("#continue-status")).to_contain_text("Готово")
    assert second.url == f"{url}/continue"  # the spent token left the address bar
    expect(second.locator("#continue-record")).to_contain_text("1")
    shot(second, "continue-taken-ru-390")
    row.locator("a.primary").click()  # resume: a player at that seat, not a spectator
    second.wait_for_selector(".hand .card")
    expect(second.locator(f"#players .player.me[data-seat='{seat['seat']}']")).to_be_visible()
    assert app.state.hub.tables[table_id].seats[seat["seat"]].connected >= 1
    second.goto(url)  # the record came too, without the forged win
    expect(second.locator("#record .record-table [data-game='koi-koi']")).to_be_visible()
    expect(second.locator(f"#my-games [data-table='{table_id}']")).to_be_visible()
    games = json.loads(second.evaluate("localStorage.getItem('cardtable.record')"))["games"]
    assert [game["table"] for game in games] == ["earlier1"]

    # the link worked once: a third browser is told so, and gets no seat
    third = new_page(browser, locale="pl-PL", width=390, height=844)
    third.goto(link)
    expect(third.locator("#continue-status")).to_contain_text("już użyty")
    assert third.evaluate(f"localStorage.getItem('cardtable.seat.{table_id}')") is None
    shot(third, "continue-used-pl-390")


def test_a_link_declined_leaves_nothing_in_the_browser(
    server: tuple[str, Any], browser: Browser
) -> None:
    """A link somebody else made (a stranger's, sent to trick): its person sees what it
    brings and declines; nothing of it stays."""
    url, app = server
    first = new_page(browser, locale="pl-PL", width=1366, height=800)
    table_id = create_table(first, url, "koi-koi", ["human", "bot:easy"], {})
    record = json.dumps(record_of(app))
    first.evaluate(f"localStorage.setItem('cardtable.record', {json.dumps(record)})")
    first.goto(url)
    first.click("#continue-make")
    link = first.locator("#continue-link .invite .invite-url").input_value()
    stranger = new_page(browser, locale="pl-PL", width=1366, height=800)
    stranger.goto(link)
    expect(stranger.locator("#continue-status")).to_contain_text("Przyjmij je tylko wtedy")
    expect(stranger.locator(f"#continue-tables [data-table='{table_id}']")).to_be_visible()
    shot(stranger, "continue-offer-pl-1366")
    stranger.click("#continue-decline")
    expect(stranger.locator("#continue-status")).to_contain_text("Nic nie zostało zapisane")
    expect(stranger.locator("#continue-tables li")).to_have_count(0)
    assert stranger.evaluate(f"localStorage.getItem('cardtable.seat.{table_id}')") is None
    assert stranger.evaluate("localStorage.getItem('cardtable.record')") is None


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
    # the page's events come while it waits
    eventually(lambda: held, 30, "the lobby asks for its games", pause=page_pause(page))
    assert page.locator("#continue-make").is_disabled()
    assert page.locator("#create").is_disabled()
    held[0].continue_()
    expect(page.locator("#continue-make")).to_be_enabled()
    expect(page.locator("#create")).to_be_enabled()
    page.click("#continue-make")  # this browser has nothing to hand over yet: it says so
    expect(page.locator("#continue-link")).to_contain_text("nie ma jeszcze miejsc")
    assert not page.errors  # type: ignore[attr-defined]
