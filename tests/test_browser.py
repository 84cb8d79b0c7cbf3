"""End-to-end tests in real headless Chromium (Debian's, driven by Playwright).

Each test plays through the pages as a person would: the lobby form, clicks on cards,
the koi-koi dialog, the 7 słów word box and hourglass, invite links in a second browser
context, a closed tab, the language switch. A failed test leaves screenshots of its pages
in ``test-artifacts/`` (``CARDTABLE_SCREENSHOTS=1``: every named one too).
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from cardtable.games.hanafuda.companion import RoundFacts, score_round, settlement
from cardtable.games.ohanami.companion import Garden, OhanamiPad
from cardtable.games.siedem_slow import solve
from cardtable.games.siedem_slow.companion import play_pad, play_round

from . import browser_helpers
from .browser_helpers import (
    board,
    browser,
    close_result,
    create_table,
    hanafuda_move,
    new_page,
    page_pause,
    play_until_over,
    server,
    shot,
    wait_for_change,
)
from .server_helpers import eventually
from .test_companion_siedem import engine_game, engine_solo_game

__all__ = ["browser", "server"]  # fixtures used by name


def test_koikoi_round_against_a_bot_by_clicking(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser)
    create_table(page, url, "koi-koi", ["human", "bot:medium"], {"rounds": "1"})
    page.wait_for_selector(".hand .card")
    shot(page, "koikoi-start")
    assert page.locator(".hand .card").count() == 8
    play_until_over([page])
    page.wait_for_selector("#over-panel:not([hidden]) .winner")
    shot(page, "koikoi-over")
    scores = [int(s) for s in page.locator("#players .score").all_inner_texts()]
    assert sum(scores) == 60  # koi-koi payments move points between the two players
    # every word of the line from the catalogue ("salt" too: it is said in each language)
    assert re.fullmatch(r"Revealed seed: \d+ \(salt [0-9a-f]{32}\)", page.inner_text("#reveal"))
    # each score line links to the section of the rules that explains it
    if page.locator("#round-result .rule-link").count():
        href = page.locator("#round-result .rule-link").first.get_attribute("href") or ""
        assert href.startswith("/rules/koi-koi?lang=en#")
        rules = page.context.new_page()
        rules.goto(f"{url}{href}")
        expect(rules.locator(f"#{href.split('#')[1]}")).to_be_visible()
        rules.close()
    close_result(page)
    # the replay page checks the commitment in the browser and steps through the game
    page.click("#over-panel a[href^='/replay/']")
    expect(page.locator("#verdict")).to_have_class("verdict ok")
    expect(page.locator("#browser-check")).to_have_attribute("data-ok", "true")
    page.click("#first")
    expect(page.locator("#step")).to_have_text(re.compile(r"^Move 0 of \d+$"))
    assert page.locator("#board .hand .card").count() == 8
    page.click("#next")
    expect(page.locator("#step")).to_have_text(re.compile(r"^Move 1 of"))
    shot(page, "koikoi-replay")
    assert not page.errors  # type: ignore[attr-defined]


def test_two_browsers_play_bakappana_against_each_other(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    host = new_page(browser)
    create_table(host, url, "bakappana", ["human", "human"], {"rounds": "1"})
    invite = host.locator(".invite-url").first.input_value()
    guest = new_page(browser, locale="pl-PL")
    guest.goto(invite)
    guest.click("#sit-down")  # an empty name: a name in the page's language
    guest.wait_for_selector(".hand .card")
    assert guest.locator("#title").inner_text().startswith("Bakappana · Runda 1")
    host.wait_for_selector("#invites-panel[hidden]", state="attached")  # the guest sat down
    play_until_over([host, guest])
    shot(host, "bakappana-host-over")
    shot(guest, "bakappana-guest-over")
    # each reads the round's score lines in their own language, linked to translated rules
    expect(host.locator("#round-result .breakdown")).to_contain_text("Captured card values")
    expect(guest.locator("#round-result .breakdown")).to_contain_text("Wartość zdobytych kart")
    expect(guest.locator("#round-result .breakdown")).to_contain_text("Norma (264 / 2)")
    link = guest.locator("#round-result .rule-link").first.get_attribute("href")
    assert link == "/rules/bakappana?lang=pl#scoring"
    host_scores = host.locator("#players .score").all_inner_texts()
    assert host_scores == guest.locator("#players .score").all_inner_texts()


RESULT_DIALOG = "dialog[open] #close-result"
RESULT_PANEL = "#round-result #next-round"


def wait_for_round_end(page: Page, round_number: str, timeout: float = 30) -> str | None:
    """Wait until the round is over: its result shows (a dialog, or the shell's result
    panel) or the table went on; which result button showed, if one did."""
    page.wait_for_function(
        """([dialog, panel, round]) => {
            const b = document.querySelector('#board');
            return document.querySelector(dialog) || document.querySelector(panel)
                || b.dataset.round !== round || b.dataset.status === 'finished';
        }""",
        arg=[RESULT_DIALOG, RESULT_PANEL, round_number],
        timeout=timeout * 1000,
    )
    return next((s for s in (RESULT_DIALOG, RESULT_PANEL) if page.locator(s).count()), None)


def next_round(page: Page) -> None:
    """Close the round's result (or press "Next round") when one shows."""
    for button in (RESULT_DIALOG, RESULT_PANEL):
        if page.locator(button).count():
            page.click(button)


def test_seven_words_round_with_the_hourglass(server: tuple[str, Any], browser: Browser) -> None:
    url, app = server
    page = new_page(browser)
    table_id = create_table(
        page, url, "siedem-slow", ["human", "bot:easy"],
        {"deck": '"en"', "rounds": "2", "hourglass_seconds": "6", "grace_seconds": "0"},
    )  # fmt: skip
    page.wait_for_selector("#word")
    expect(page.locator("#write")).to_have_text("Write and flip")
    shot(page, "siedem-writing")
    table = app.state.hub.tables[table_id]
    best = solve(table.state.area, table.state.dictionary, top=1)[0]
    # round 1: a word written while nobody has flipped flips the hourglass (the rulebook's
    # "must flip"): no separate step, no "done" without flipping
    page.fill("#word", best.word)
    page.press("#word", "Enter")
    page.wait_for_selector("#clock[data-kind='hourglass']")
    assert table.state.fastest == 0 and table.state.entries[0] == best.word
    assert best.word.upper() in page.inner_text("#entry")
    shown = wait_for_round_end(page, "1")
    # after the round: the solver's best words for the area just played (in the shell's
    # result panel, where it has one)
    if shown == RESULT_PANEL:
        expect(page.locator("#round-result .best-words")).to_contain_text(best.word.upper())
    shot(page, "siedem-round-result")
    next_round(page)
    # round 2: the bot flips, nobody writes for us: the server's hourglass runs out
    page.wait_for_selector("#hourglass.hourglass", timeout=20000)
    page.wait_for_selector("#clock[data-kind='hourglass']", timeout=20000)
    left = int(page.get_attribute("#clock", "data-left") or 0)
    assert 0 < left <= 6
    shot(page, "siedem-hourglass")
    page.wait_for_selector("#board[data-status='finished']", timeout=30000)
    final = app.state.hub.tables[table_id].state
    ours = [line for line in final.results[0].lines if line.seat == 0 and line.rule == "word"]
    assert [(line.label, line.points) for line in ours] == [
        (f"{best.word.upper()}: {best.points}", best.points)
    ]  # our word of round 1 counted, as the solver scored it
    assert not [line for line in final.results[1].lines if line.seat == 0 and line.points]
    shot(page, "siedem-over")


def test_a_bot_challenges_a_family_repeat(server: tuple[str, Any], browser: Browser) -> None:
    url, app = server
    page = new_page(browser)
    table_id = create_table(
        page, url, "siedem-slow", ["human", "bot:hard"],
        {"rounds": "2", "hourglass_seconds": "5", "grace_seconds": "0"},
    )  # fmt: skip
    table = app.state.hub.tables[table_id]
    for word in ("dom", "przydomowy"):  # round 2 shares the root DOM- with round 1
        page.wait_for_selector("#word")
        page.fill("#word", word)
        page.press("#word", "Enter")
        page.wait_for_selector("#clock[data-kind='hourglass']")
        if word == "przydomowy":
            expect(page.locator("#entry")).to_contain_text("PRZYDOMOWY")
        wait_for_round_end(page, "1" if word == "dom" else "2")
        shot(page, f"siedem-family-{word}")
        next_round(page)
    page.wait_for_selector("#board[data-status='finished']", timeout=30000)
    second = table.state.played[1][0]
    assert second.word == "przydomowy" and second.struck and second.points == 0
    lines = [line for line in table.state.results[1].lines if line.rule == "challenge:upheld"]
    assert [line.seat for line in lines] == [0]
    assert "DOM" in lines[0].label
    # the final round's challenge reaches the browser beside the strike-out
    final = table.state.view(0)["final_round"]
    assert "challenge:upheld" in [line["rule"] for line in final["lines"]]


def place_two_cards(page: Page, version: str) -> bool | None:
    """Click a kept card, then the first lit destination (a row end, a new row or the
    discard); the other kept card is raised by itself: its first destination, then Place.
    True once placed, None if the view moved on meanwhile (the stage ended under the
    pointer)."""
    page.locator(".oh-kept .oh-pick").first.click()
    for _ in range(2):
        if board(page)["version"] != version:
            return None
        in_garden = page.locator(".oh-garden.own .oh-target")
        (in_garden.first if in_garden.count() else page.locator(".oh-target.discard")).click()
    shot(page, "ohanami-place")
    page.click("#place")
    return True


# the stage's result: the old dialog, or the shell's panel and its "Next round" button
RESULTS = {
    "dialog[open] #close-result": "dialog[open]",
    "#round-result #next-round": "#round-result",
}
RESULT = ", ".join(RESULTS)


def test_ohanami_stage(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser, width=1100)
    create_table(page, url, "ohanami", ["human", "bot:greedy"], {})
    page.set_default_timeout(5000)  # a click the stage's result covers fails fast

    # A stage is about 30 s alone: the bot's keep often lands between this test's look at
    # the page and its clicks, which then wait out the 5 s above. Two test workers on two
    # cores have tripled that, so the stage gets room.
    def stage_over() -> bool:
        """One consistent look at the page (the bot may end the stage at any moment), and
        this seat's step when it has one; True once the stage is over."""
        view = page.evaluate(
            """result => ({
                result: !!document.querySelector(result),
                stage: document.querySelector('.ohanami')?.dataset.stage,
                mine: document.querySelector('#board').dataset.mine === 'true',
                version: document.querySelector('#board').dataset.version,
                keep: !!document.querySelector('#keep'),
                place: !!document.querySelector('.oh-kept .oh-pick'),
            })""",
            RESULT,
        )
        # a shell without a pause between stages goes straight on to stage 2
        if view["result"] or view["stage"] == "2":
            return True
        if not view["mine"] or not (view["keep"] or view["place"]):
            return False
        try:
            if view["keep"]:
                cards = page.locator(".oh-hand:not(.oh-kept) .oh-pick")
                cards.nth(0).click()
                cards.nth(1).click()
                page.click("#keep")
            else:
                place_two_cards(page, view["version"])
        except PlaywrightTimeout:
            return False  # the view moved on under the click (the stage's result is up)
        wait_for_change(page, view["version"])
        return False

    eventually(stage_over, 240, "the stage ends", pause=page_pause(page))
    page.set_default_timeout(30000)
    page.wait_for_selector(f"{RESULT}, .ohanami[data-stage='2']")
    shot(page, "ohanami-stage-result")
    for button, panel in RESULTS.items():
        if page.locator(button).count():
            text = page.inner_text(panel)
            assert "Blue" in text or "Green" in text
            page.click(button)
    page.wait_for_selector(".ohanami[data-stage='2']")
    assert board(page)["round"] == "2"


def test_reconnect_after_closing_the_tab(server: tuple[str, Any], browser: Browser) -> None:
    url, app = server
    page = new_page(browser)
    table_id = create_table(page, url, "koi-koi", ["human", "bot:random"], {"rounds": "1"})
    page.wait_for_function("document.querySelector('#board').dataset.mine === 'true'")
    version = board(page)["version"]
    hanafuda_move(page)
    wait_for_change(page, version)
    hand = page.locator(".hand .card").count()
    context = page.context
    page.close()
    eventually(lambda: not app.state.hub.tables[table_id].seats[0].connected, what="seat 0 left")
    again = context.new_page()
    again.goto(f"{url}/t/{table_id}")  # no key in the address: the browser remembers the seat
    again.wait_for_selector(".hand .card")
    assert again.locator(".hand .card").count() in (hand, hand - 1)
    # the page catches up with the table: its own move at least, the bot's reply when made
    # (the bot may still be thinking, or the move may have left the human a choice)
    now = app.state.hub.tables[table_id].version
    assert now >= 1
    again.wait_for_function("v => +document.querySelector('#board').dataset.version >= v", arg=now)
    assert app.state.hub.tables[table_id].seats[0].connected == 1
    assert again.locator(".player.me").count() == 1


def test_language_switch(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser, locale="ru-RU")
    page.goto(url)
    page.wait_for_selector("#create")
    create = page.locator("#create")
    expect(create).to_have_text("Создать стол")  # chosen from the browser
    page.select_option("#lang", "pl")
    expect(create).to_have_text("Utwórz stół")
    expect(page.locator(".seat-kind[data-seat='1'] option").first).to_have_text("Bot: Łatwy")
    page.reload()
    expect(create).to_have_text("Utwórz stół")  # remembered
    page.select_option("#lang", "en")
    expect(create).to_have_text("Create table")
    shot(page, "lobby-en")


def test_phone_sized_screen(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser, width=390, height=844)
    create_table(page, url, "koi-koi", ["human", "bot:easy"], {"rounds": "1"})
    page.wait_for_selector(".hand .card")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 400, f"the page scrolls sideways on a phone ({width}px)"
    shot(page, "phone-koikoi")
    # the Hint button pressed at the screen's foot: its answer, under it, is brought up
    page.wait_for_function("document.querySelector('#board').dataset.mine === 'true'")
    page.evaluate("document.querySelector('#hint').scrollIntoView({ block: 'end' })")
    page.click("#hint")
    expect(page.locator("#hint-text")).to_have_text(re.compile(r"^(Play|Take) "), timeout=20000)
    expect(page.locator("#hint-text")).to_be_in_viewport(ratio=1)


def test_hint_button_shows_the_hard_bots_move_and_why(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    page = new_page(browser)
    create_table(page, url, "koi-koi", ["human", "bot:random"], {"rounds": "1"})
    page.wait_for_function("document.querySelector('#board').dataset.mine === 'true'")
    page.click("#hint")
    expect(page.locator("#hint-text")).to_have_text(
        re.compile(r"^(Play|Take) .+ — .+"), timeout=20000
    )
    assert page.locator("#board .card.hinted").count() >= 1
    shot(page, "koikoi-hint")
    page.select_option("#lang", "pl")
    page.click("#hint")
    expect(page.locator("#hint-text")).to_have_text(re.compile(r"^(Zagraj|Weź) "), timeout=20000)


def test_a_hint_follows_a_language_switch_that_comes_after_it(
    server: tuple[str, Any], browser: Browser
) -> None:
    """The page asks for a hint in the language it has; switched to Polish while the Polish
    catalogue was still on its way, the hint came in English and stayed English."""
    url, _app = server
    page = new_page(browser)
    create_table(page, url, "koi-koi", ["human", "bot:random"], {"rounds": "1"})
    page.wait_for_function("document.querySelector('#board').dataset.mine === 'true'")
    held: list[Any] = []
    page.route("**/api/locales/pl*", lambda route: held.append(route))  # noqa: PLW0108
    page.select_option("#lang", "pl")
    page.click("#hint")  # asked while the page still speaks English
    expect(page.locator("#hint-text")).to_have_text(re.compile(r"^(Play|Take) .+ — .+"))
    assert held, "the Polish catalogue was never asked for"
    held[0].continue_()
    expect(page.locator("#hint-text")).to_have_text(re.compile(r"^(Zagraj|Weź) .+ — .+"))
    assert not page.errors  # type: ignore[attr-defined]


def fresh_pad(page: Page, url: str, path: str, remembered: str) -> None:
    """Open a companion page with no pad remembered from an earlier test."""
    page.goto(f"{url}{path}")
    page.evaluate(f"localStorage.removeItem('{remembered}')")
    page.goto(f"{url}{path}")


def new_calculator(
    browser: Browser, url: str, game: str, players: int | None = None, rules: Sequence[str] = ()
) -> Page:
    """A fresh round calculator for ``game``, with house rules (checkboxes) switched on."""
    page = new_page(browser, width=1100)
    fresh_pad(page, url, "/companion/hanafuda", "cardtable.pad")
    page.select_option("#pad-game", game)
    if players is not None:
        page.select_option("#pad-players", str(players))
    if rules:
        page.click("#pad-rules summary")
        # the house rules come in groups, as on the new-table form: open them all
        page.evaluate(
            "for (const g of document.querySelectorAll('#pad-rule-fields details')) g.open = true"
        )
        for rule in rules:
            page.check(f"[data-option='{rule}']")
    page.click("#pad-new")
    return page


def tap_round(page: Page, piles: list[list[str]]) -> None:
    for player, pile in enumerate(piles):
        page.click(f"[data-player='{player}']")
        for code in pile:
            version = page.locator(f"#pad-cards [data-code='{code}'] .owner").count()
            page.click(f"#pad-cards [data-code='{code}']")
            expect(page.locator(f"#pad-cards [data-code='{code}'] .owner")).to_have_count(
                1 - version
            )


def test_koikoi_round_calculator_with_koikoi_calls(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    page = new_page(browser, width=1100)
    page.goto(f"{url}/")
    page.click("#pad-link-hanafuda")
    page.select_option("#pad-game", "koi-koi")
    page.click("#pad-new")
    piles = [["01-1", "03-1", "02-1"], ["06-1", "07-1", "10-1", "08-2", "09-1", "11-2", "04-1"]]
    tap_round(page, piles)
    page.select_option("[data-calls='0']", "1")
    page.select_option("[data-calls='1']", "2")
    page.select_option("#pad-shobu", "1")
    facts = RoundFacts(piles=tuple(tuple(p) for p in piles), calls=(1, 2), shobu=1)
    expected = score_round("koi-koi", {}, facts)
    expected_scores = ",".join(str(s) for s in expected.scores)
    expect(page.locator("#pad-round")).to_have_attribute("data-scores", expected_scores)
    assert "Ino-shika-chō" in page.inner_text("#pad-round")
    shot(page, "calculator-koikoi")
    # a closed tab loses nothing: the pad is in the database
    context = page.context
    page.close()
    again = context.new_page()
    again.goto(f"{url}/companion/hanafuda")
    expect(again.locator("#pad-round")).to_have_attribute("data-scores", expected_scores)
    again.click("#pad-save")
    expect(again.locator("#pad-totals tbody tr")).to_have_count(2)


def test_hana_awase_88_settlement_from_tapped_cards(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    page = new_calculator(browser, url, "hana-awase-88")
    rng = random.Random(4)
    deck = [f"{m:02d}-{k}" for m in range(1, 13) for k in range(1, 5)]
    rng.shuffle(deck)
    piles = [sorted(deck[:14]), sorted(deck[14:30]), sorted(deck[30:44])]
    tap_round(page, piles)
    expected = score_round("hana-awase-88", {}, RoundFacts(piles=tuple(tuple(p) for p in piles)))
    expect(page.locator("#pad-round")).to_have_attribute(
        "data-scores", ",".join(str(s) for s in expected.scores)
    )
    names = [f"Player {k + 1}" for k in range(3)]
    wanted = [f"{names[a]} pays {names[b]}: {n}" for a, b, n in settlement(expected.scores)]
    said = page.locator("#pad-settlement li:not(#pad-balance)").all_inner_texts()
    assert said == wanted
    if sum(expected.scores):  # four cards were not entered: the page says why it does not add up
        expect(page.locator("#pad-balance")).to_contain_text(f"add up to {sum(expected.scores)}")
    shot(page, "calculator-hana-awase-88")


def test_ohanami_score_pad_over_three_stages(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser, width=1000)
    page.goto(f"{url}/")
    page.click("#pad-link-ohanami")
    page.select_option("#pad-players", "3")
    page.click("#pad-new")
    counts = [
        [{"blue": 3, "green": 2}, {"blue": 1, "pink": 4}, {"green": 5}],
        [{"blue": 4, "green": 4, "pink": 2}, {"blue": 3, "pink": 7}, {"green": 8, "grey": 1}],
        [
            {"blue": 6, "green": 5, "grey": 2, "pink": 5},
            {"blue": 5, "pink": 12},
            {"green": 10, "grey": 3},
        ],
    ]
    pad = OhanamiPad(players=3)
    for stage in counts:
        for player, garden in enumerate(stage):
            for colour in ("blue", "green", "grey", "pink"):
                box = page.locator(f"[data-player='{player}'] [data-colour='{colour}']")
                box.fill(str(garden.get(colour, 0)))
        expected = pad.add_stage([Garden(counts=g) for g in stage])
        expect(page.locator("#pad-round")).to_have_attribute(
            "data-scores", ",".join(map(str, expected.scores))
        )
        page.click("#pad-save")
        expect(page.locator("#pad-totals")).to_have_attribute(
            "data-totals", ",".join(map(str, pad.totals))
        )
    names = ", ".join(f"Player {k + 1}" for k in pad.leaders())
    expect(page.locator("#pad-leader")).to_have_text(f"Leading: {names}")
    shot(page, "ohanami-pad")


def fill_round(page: Page, area: str, words: Sequence[str]) -> None:
    slots = [t for column in area.split("|") for t in re.findall(r"_|\w(?:\+\d)?", column)]
    for slot, letter in enumerate(slots):
        page.fill(f"[data-slot='{slot}']", "" if letter == "_" else letter)
        page.press(f"[data-slot='{slot}']", "Tab")
    for player, word in enumerate(words):
        page.fill(f"[data-word='{player}']", word)
        page.press(f"[data-word='{player}']", "Tab")


def new_words_pad(
    browser: Browser, url: str, players: int, deck: str, difficulty: str | None = None
) -> Page:
    page = new_page(browser, width=1000)
    fresh_pad(page, url, "/companion/siedem-slow", "cardtable.words-pad")
    page.select_option("#pad-players", str(players))
    page.select_option("#pad-deck", deck)
    if difficulty is not None:
        page.select_option("#pad-difficulty", difficulty)
    page.click("#pad-new")
    return page


def test_seven_words_score_pad_for_three_players_over_seven_rounds(
    server: tuple[str, Any], browser: Browser
) -> None:
    """A whole game dealt by the engine is entered into the pad by hand, round by round:
    the pad's sheet ends with the engine's totals and winner."""
    url, _app = server
    engine, entries = engine_game(3, {"deck": "en"}, seed=7)
    page = new_page(browser, width=1000)
    page.goto(f"{url}/")
    page.click("#pad-link-siedem-slow")
    page.select_option("#pad-players", "3")
    page.select_option("#pad-deck", "en")
    page.click("#pad-new")
    for number, entry in enumerate(entries, start=1):
        expect(page.locator("#pad-heading")).to_have_text(f"7 słów · round {number}")
        fill_round(page, entry.area, entry.words)
        page.select_option("#pad-fastest", "" if entry.fastest is None else str(entry.fastest))
        expected = engine.results[number - 1].scores
        expect(page.locator("#pad-round")).to_have_attribute(
            "data-scores", ",".join(map(str, expected))
        )
        if number == 1:
            page.click("#pad-hourglass")
            shot(page, "words-pad-round-1")
        page.click("#pad-save")
    totals = ",".join(map(str, engine.result().scores))
    expect(page.locator("#pad-totals")).to_have_attribute("data-totals", totals)
    winners = ", ".join(f"Player {k + 1}" for k in engine.result().winners)
    expect(page.locator("#pad-leader")).to_have_text(f"Winner: {winners}")
    shot(page, "words-pad-final")


def test_seven_words_pad_says_why_a_word_is_refused(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    page = new_words_pad(browser, url, players=2, deck="en")
    fill_round(page, "MD|SS|J+2L|J+1Y", ["", "Aachen"])
    expect(page.locator("[data-problem='1']")).to_contain_text("proper noun")
    expect(page.locator("#pad-save")).to_be_disabled()


def test_seven_words_solo_pad_moves_the_hourglass_on_the_solo_card(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    engine, entries = engine_solo_game({"deck": "en", "difficulty": "hard"}, seed=3)
    page = new_words_pad(browser, url, players=1, deck="en", difficulty="hard")
    expect(page.locator("#pad-solo")).to_have_text("Hourglass on SOLO field 1 · target 120")
    expect(page.locator("#pad-fastest")).to_have_count(0)
    replay = play_pad(1, {"deck": "en", "difficulty": "hard"}, [])
    for number, entry in enumerate(entries, start=1):
        fill_round(page, entry.area, entry.words)
        if entry.late:
            page.check("#pad-late")
        expected = engine.results[number - 1].scores
        expect(page.locator("#pad-round")).to_have_attribute(
            "data-scores", ",".join(map(str, expected))
        )
        if number == 2:
            shot(page, "words-pad-solo")
        page.click("#pad-save")
        play_round(replay, entry)
        if not replay.is_over:
            expect(page.locator("#pad-heading")).to_have_text(f"7 słów · round {number + 1}")
        if not replay.is_over:
            field = "red" if replay.field_name == "red" else replay.field_name
            expect(page.locator("#pad-solo")).to_contain_text(f"field {field} ")
    totals = ",".join(map(str, engine.result().scores))
    expect(page.locator("#pad-totals")).to_have_attribute("data-totals", totals)


def test_seven_words_pad_puts_a_family_challenge_to_the_vote(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    page = new_words_pad(browser, url, players=3, deck="pl")
    fill_round(page, "KT|LS|ZW|DR", ["śmiech", "dom", "kot"])
    page.select_option("#pad-fastest", "0")
    expect(page.locator("#pad-round")).to_have_attribute("data-scores", re.compile(r"\d"))
    page.click("#pad-save")
    expect(page.locator("#pad-heading")).to_have_text("7 słów · round 2")
    fill_round(page, "KT|LS|ZW|DR", ["las", "przydomowy"])
    # The third word is being typed when the family warning opens the challenge boxes:
    # the boxes open beside it and what was typed stays in its field.
    page.fill("[data-word='2']", "śmieszny")
    expect(page.locator("[data-warning='1']")).to_contain_text("DOM")
    expect(page.locator("[data-challenge='0']")).to_be_visible()
    expect(page.locator("[data-word='2']")).to_have_value("śmieszny")
    page.press("[data-word='2']", "Tab")
    page.select_option("[data-challenge='0']", "1")
    expect(page.locator("#pad-votes")).to_be_visible()
    page.check("[data-uphold='2']")
    expect(page.locator("#pad-round")).to_contain_text("PRZYDOMOWY struck")
    shot(page, "words-pad-family-vote")
    page.uncheck("[data-uphold='2']")  # 1 vote of 2: the word stands, the challenger pays
    expect(page.locator("#pad-round")).to_contain_text("Failed challenge of PRZYDOMOWY")


def test_calculator_takes_a_dealt_hand_for_teyaku(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    page = new_calculator(browser, url, "hana-awase", players=3, rules=["teyaku"])
    piles = [["01-1", "01-2"], ["02-1"], ["03-1"]]
    tap_round(page, piles)
    page.click("[data-mode='hands']")
    hand = ["01-3", "01-4", "02-3", "02-4", "03-3", "03-4", "04-3"]  # seven plains
    page.click("[data-player='1']")
    for code in hand:
        page.click(f"#pad-cards [data-code='{code}']")
        expect(page.locator(f"#pad-cards [data-code='{code}'] .owner")).to_have_text("2")
    facts = RoundFacts(piles=tuple(tuple(p) for p in piles), hands=((), tuple(hand), ()))
    options = {"players": 3, "teyaku": True}
    expected = score_round("hana-awase", options, facts)
    assert any(line.rule == "teyaku:7" for line in expected.lines)
    scores = ",".join(map(str, expected.scores))
    expect(page.locator("#pad-round")).to_have_attribute("data-scores", scores)
    expect(page.locator("#pad-round [data-rule='teyaku:7']").first).to_be_visible()
    shot(page, "calculator-teyaku")


def test_rule_pages_in_every_language_fit_a_phone(
    server: tuple[str, Any], browser: Browser
) -> None:
    """At 390 px no rule page scrolls sideways: a table shows each row as a block, every
    cell under its column's name, in the page's language."""
    url, _ = server
    page = new_page(browser, width=390, height=844)
    for lang in ("en", "pl", "ru"):
        for game in (
            "bakappana",
            "koi-koi",
            "hana-awase",
            "hana-awase-88",
            "ohanami",
            "siedem-slow",
        ):
            page.goto(f"{url}/rules/{game}?lang={lang}")
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 390, (lang, game, width)
    page.goto(f"{url}/rules/koi-koi?lang=ru#options")
    cells = page.locator("#options + table td")
    expect(cells.nth(0)).to_have_attribute("data-label", "группа")
    expect(cells.nth(1)).to_have_attribute("data-label", "опция")
    expect(page.locator("h2#scoring")).to_have_text("Подсчёт очков")
    shot(page, "rules-koi-koi-ru-phone")
    assert not page.errors  # type: ignore[attr-defined]


def test_a_newcomer_finds_the_rules_from_the_lobby_in_their_language(
    server: tuple[str, Any], browser: Browser
) -> None:
    """The lobby links each game's whole rule page; a page opened without ?lang= speaks
    the browser's language, offers the others, and folds the terminal's commands away."""
    url, _ = server
    page = new_page(browser, locale="pl-PL", width=390, height=844)
    page.goto(f"{url}/?game=siedem-slow")
    link = page.locator("#rules-link")
    expect(link).to_have_text("Pełne zasady gry 7 słów")
    assert link.get_attribute("href") == "/rules/siedem-slow?lang=pl"
    page.goto(f"{url}/rules/siedem-slow")  # a shared link: no ?lang=
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    expect(page.locator("main h2").first).to_have_text("Karty")
    commands = page.locator("details.commands")
    expect(commands.locator("summary")).to_have_text("Gra w terminalu")
    expect(commands.locator("pre")).to_be_hidden()
    page.click(".lang-links a[hreflang='ru']")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    assert not page.errors  # type: ignore[attr-defined]


def test_screenshots_are_taken_when_a_test_fails(
    server: tuple[str, Any], browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A passing run takes no screenshot (CARDTABLE_SCREENSHOTS=1 asks for the named ones);
    a failed test gets one of each page it has open (tests/conftest.py calls this)."""
    url, _app = server
    monkeypatch.setattr(browser_helpers, "ARTIFACTS", tmp_path)
    monkeypatch.setattr(browser_helpers, "SCREENSHOTS", False)
    page = new_page(browser)
    page.goto(url)
    shot(page, "lobby")
    assert list(tmp_path.iterdir()) == []
    taken = browser_helpers.screenshot_open_pages("tests/test_browser.py::test_x[koi-koi]")
    assert taken == [tmp_path / "failed-test_browser.py-test_x-koi-koi-0.png"]
    assert taken[0].read_bytes().startswith(b"\x89PNG")
