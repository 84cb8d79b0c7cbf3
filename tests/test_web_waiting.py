"""The waiting screens (issue 48, item 8), in Chromium: while a table waits for a friend,
its host and a spectator read the game in a line and the table's rules in words, not three
lines on an empty panel; the spectator reads that they are watching, in sight."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from cardtable.locales import message

from .browser_helpers import browser, new_page, server, shot
from .test_web_friends import invite_a_friend

__all__ = ["browser", "server"]  # fixtures used by name

#: who looks at the waiting table: the host (Polish, a laptop), a spectator (Russian, a phone)
VIEWERS = {"host": ("pl", 1366, 800), "spectator": ("ru", 390, 844)}


@pytest.mark.parametrize("viewer", list(VIEWERS))
def test_the_waiting_table_says_the_game_and_its_rules(
    server: tuple[str, Any], browser: Browser, viewer: str
) -> None:
    url, _app = server
    lang, width, height = VIEWERS[viewer]
    host = new_page(browser, locale="pl-PL", width=1366, height=800)
    table_id, _invite = invite_a_friend(host, url, "Ania")
    page = host
    if viewer == "spectator":
        page = new_page(browser, locale="ru-RU", width=width, height=height)
        page.goto(f"{url}/t/{table_id}?watch=1")
    room = page.locator("#waiting-room")
    expect(room).to_be_visible()
    about = room.locator("#wait-about")
    expect(about).to_contain_text(message("game.koi-koi.summary", lang))
    expect(about).to_contain_text(message("join.rules", lang))
    rounds = message("option.koi-koi.rounds", lang)
    expect(about.locator("#join-rules")).to_contain_text(f"{rounds}: 3")
    expect(about.locator("#join-rules")).to_contain_text("60")
    expect(about.locator(f"a[href^='/rules/koi-koi?lang={lang}']")).to_be_visible()
    watching = room.locator("#wait-watching")
    if viewer == "spectator":
        expect(watching).to_have_text(message("table.spectating", lang))
        expect(watching).to_be_in_viewport()
    else:
        expect(watching).to_have_count(0)
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shot(page, f"waiting-{viewer}-{lang}-{width}")
