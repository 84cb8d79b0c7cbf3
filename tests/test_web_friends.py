"""Playing with a friend (issue 39, item 10): the invite link opens a page that says who
invites you and the table's rules in words, with one clear button and no empty table
behind it; when the friend leaves, the host reads it in words and may wait or give the
seat to a bot, and the game goes on."""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from typing import Any

from playwright.sync_api import Browser, Page, expect

from .browser_helpers import SETTINGS, browser, new_page, server, shot
from .test_web_table import frames, seat_socket

__all__ = ["browser", "server"]  # fixtures used by name


def invite_a_friend(page: Page, url: str, name: str) -> tuple[str, str]:
    """The host makes a koi-koi table of three rounds for a friend: its id, the invite link."""
    page.goto(f"{url}/?game=koi-koi")
    page.wait_for_selector(".seat-kind")
    page.fill("#name", name)
    page.select_option(".seat-kind[data-seat='1']", "human")
    page.click("#rules summary")
    page.evaluate("for (const g of document.querySelectorAll('#rule-fields details')) g.open=1")
    page.select_option("[data-option='rounds']", "3")
    page.fill("#move-seconds", "60")
    page.click("#create")
    page.wait_for_selector("#waiting-room:not([hidden]) .invite")
    return page.url.rsplit("/", 1)[-1], page.locator(".invite-url").first.input_value()


def test_the_invite_page_says_who_invites_and_the_rules(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, app = server
    host = new_page(browser, locale="pl-PL", width=1366, height=800)
    table_id, invite = invite_a_friend(host, url, "Ania")
    for locale, width, height, words in (
        ("pl-PL", 1366, 800, ("Ania zaprasza", "Rundy: 3", "60 sekund", "Dołącz do gry")),
        ("ru-RU", 390, 844, ("Ania приглашает", "Раунды: 3", "60 секунд", "Присоединиться")),
    ):
        guest = new_page(browser, locale=locale, width=width, height=height)
        guest.goto(invite)
        join = guest.locator("#join")
        expect(join).to_be_visible()
        for said in words:
            expect(join).to_contain_text(said)
        expect(join.locator("#join-rules .rule-set")).not_to_be_empty()  # the rule set, said
        expect(join.locator("a[href^='/rules/koi-koi']")).to_be_visible()
        # no empty board, scores or log behind the invitation
        for panel in ("#board", "#players-panel", "#log-panel"):
            expect(guest.locator(panel)).to_be_hidden()
        box = guest.locator("#sit-down").bounding_box()
        assert box is not None and box["y"] + box["height"] <= height  # the button in sight
        assert guest.evaluate("document.documentElement.scrollWidth") <= width
        shot(guest, f"join-{locale}-{width}")
        if locale == "ru-RU":
            guest.fill("#sit-name", "Маша")
            guest.click("#sit-down")
            guest.wait_for_selector(".hand .card")
            expect(guest.locator("#join")).to_be_hidden()
            expect(guest.locator("#players")).to_contain_text("Ania")
    assert [s.name for s in app.state.hub.tables[table_id].seats] == ["Ania", "Маша"]


def test_the_host_hears_a_friend_leave_and_gives_the_seat_to_a_bot(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, app = server
    hub = app.state.hub
    # long enough to see the countdown after the 3 s before the page announces a departure
    hub.settings = replace(hub.settings, hand_to_bot_seconds=7.0)
    host = new_page(browser, locale="pl-PL", width=1366, height=800)
    try:
        table_id, invite = invite_a_friend(host, url, "Ania")
    finally:
        hub.settings = replace(hub.settings, hand_to_bot_seconds=SETTINGS.hand_to_bot_seconds)
    guest = new_page(browser, locale="ru-RU", width=390, height=844)
    guest.goto(invite)
    guest.fill("#sit-name", "Маша")
    guest.click("#sit-down")
    guest.wait_for_selector(".hand .card")
    table = app.state.hub.tables[table_id]
    friend = 1
    expect(host.locator("#departures")).to_be_hidden()
    guest.context.close()  # the friend closes the tab
    notice = host.locator(f"#departures .seat-left[data-seat='{friend}']")
    expect(notice).to_contain_text("Маша opuszcza stół")
    host.click(".left-wait")  # wait first: the words stay, the offer of a bot too
    expect(notice.locator(".left-waiting")).to_contain_text("Czekamy, aż Маша wróci")
    # a reload is not leaving: the bot's button counts down the seconds first
    expect(notice.locator(".left-bot")).to_be_disabled()
    expect(notice.locator(".left-bot")).to_contain_text(
        re.compile(r"Oddaj to miejsce botowi za \d s")
    )
    shot(host, "friend-left-pl-1366")
    expect(notice.locator(".left-bot")).to_be_enabled(timeout=15_000)
    expect(notice.locator(".left-bot")).to_have_text("Oddaj to miejsce botowi")
    host.click(".left-bot")
    expect(host.locator("#departures")).to_be_hidden()
    expect(host.locator("#players .name").nth(friend)).to_have_text("Bot (średni)")
    assert table.seats[friend].kind == "bot:medium"
    # the game goes on: the host plays, the bot answers in the friend's seat
    rng = random.Random(2)
    with seat_socket(host, url, table_id) as ws:
        for frame in frames(ws):
            if any(move.seat == friend for move in table.state.log):
                break
            assert frame["table"]["status"] != "finished"
            pause = frame["table"]["round_break"]
            if pause and 0 in pause["waiting"]:
                ws.send(json.dumps({"type": "next_round"}))
            elif frame["view"].get("legal_actions") and frame["version"] == table.version:
                action = rng.choice(frame["view"]["legal_actions"])
                move = {"type": "action", "action": action, "version": frame["version"]}
                ws.send(json.dumps(move))
