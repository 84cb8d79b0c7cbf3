"""Ohanami's table in real Chromium, played as a person plays it: click (or Tab to) two
cards to keep, click a kept card, then the lit row end where it goes, then "Place".

Two kinds of test: live games against ``bot:greedy`` through the lobby, and the renderer
module imported into a page and fed an engine view with a fixed deal (so a card that
would go between two cards of a row is known in advance). A failed test leaves
screenshots in ``test-artifacts/``.
"""

from __future__ import annotations

import re
from itertools import product
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

import cardtable
from cardtable.games.ohanami.game import Keep, OhanamiState, Place
from cardtable.locales import catalogue
from cardtable.server.page_routes import WEB_ROOT

from .browser_helpers import browser, create_table, new_page, server, shot

__all__ = ["browser", "server"]  # fixtures used by name

RENDERER = "/games/ohanami/render.js"
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
HAND = ".oh-hand:not(.oh-kept) .oh-pick"  # the hand to keep two cards of


# -- a live table ------------------------------------------------------------------------------
def start(page: Page, url: str) -> str:
    table_id = create_table(page, url, "ohanami", ["human", "bot:greedy"], {})
    page.set_default_timeout(15000)
    return table_id


def wait_for_my_choice(page: Page) -> str:
    """Wait until this seat has a choice to make; 'keep' or 'place'."""
    page.wait_for_function(
        """() => document.querySelector('#board').dataset.mine === 'true'
                 && !!document.querySelector('#keep, #place')"""
    )
    return "keep" if page.locator("#keep").count() else "place"


def keep_two(page: Page) -> None:
    before = page.evaluate(PICK)
    cards = page.locator(HAND)
    cards.nth(0).click()
    cards.nth(1).click()
    expect(page.locator("#keep")).to_be_enabled()
    page.click("#keep")
    gone(page, "#keep", before)


# the pick the page shows, as "stage:pick"
PICK = "(o => `${o.dataset.stage}:${o.dataset.pick}`)(document.querySelector('.ohanami'))"


def gone(page: Page, selector: str, before: str) -> None:
    """Wait until the server took the move: its button leaves with the legal moves, or the
    pick ``before`` (read before the click) is over: the fifth pick's placing follows the
    fourth's at once. A bot's frame may arrive meanwhile, so a changed version alone
    proves nothing."""
    page.wait_for_function(
        f"([s, before]) => !document.querySelector(s) || {PICK} !== before", arg=[selector, before]
    )


def own_rows(page: Page) -> list[list[int]]:
    """The player's rows as drawn (pending cards included)."""
    return page.eval_on_selector_all(
        ".oh-garden.own .oh-row",
        "rows => rows.map(r => [...r.querySelectorAll('.oh-row-cards > .oh-card')]"
        ".map(c => Number(c.dataset.card)))",
    )


def offered(page: Page) -> list[dict[str, str]]:
    return page.eval_on_selector_all(
        ".oh-mine .oh-target",
        "ts => ts.map(t => ({to: t.dataset.to, end: t.dataset.end}))",
    )


def check_offers(page: Page, card: int) -> None:
    """Every lit destination of ``card`` is legal under the rules (a row end it extends;
    a new row only while there are fewer than three); a row it would fall inside has none."""
    rows = own_rows(page)
    targets = offered(page)
    for target in targets:
        if target["to"] in ("new", "discard"):
            continue
        row = rows[int(target["to"])]
        assert card < row[0] or card > row[-1], f"{card} offered inside {row}"
        assert target["end"] == ("start" if card < row[0] else "end")
    for index, row in enumerate(rows):
        if row[0] < card < row[-1]:
            assert str(index) not in [t["to"] for t in targets]
    assert ("new" in [t["to"] for t in targets]) == (len(rows) < 3)
    assert "discard" in [t["to"] for t in targets]


def pick_target(page: Page) -> Any:
    """A row end if one is lit, else a new row, else the discard (a person grows rows)."""
    for selector in (".oh-target.start, .oh-target.end", ".oh-target.new", ".oh-target.discard"):
        if page.locator(selector).count():
            return page.locator(selector).first
    raise AssertionError("no destination is lit")


def place_by_clicking(page: Page, preview: bool = False) -> None:
    before = page.evaluate(PICK)
    first = page.locator(".oh-kept .oh-pick").first
    card = int(first.locator(".oh-card").get_attribute("data-card") or 0)
    first.click()
    check_offers(page, card)
    target = pick_target(page)
    if preview:
        ghost = target.locator(".oh-ghost")
        expect(ghost).to_be_hidden()
        target.hover()
        expect(ghost).to_be_visible()
        assert ghost.get_attribute("data-card") == str(card)
    target.click()
    # the other kept card is raised at once; its destinations follow the first placement
    raised = page.locator(".oh-kept .oh-pick.selected .oh-card")
    second = int(raised.get_attribute("data-card") or 0)
    check_offers(page, second)
    pick_target(page).click()
    expect(page.locator("#place")).to_be_enabled()
    page.click("#place")
    gone(page, "#place", before)


def no_sideways_scroll(page: Page) -> None:
    width = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1], f"the page scrolls sideways: {width}"


def play_picks(page: Page, picks: int, each: Any = None) -> None:
    """Keep and place ``picks`` times (a stage has five picks)."""
    for pick in range(picks):
        if wait_for_my_choice(page) == "keep":
            keep_two(page)
            wait_for_my_choice(page)
        if each:
            each(pick)
        place_by_clicking(page, preview=pick == 0)


def test_a_stage_by_clicking_cards_and_row_ends(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser, **LAPTOP)
    table_id = start(page, url)
    assert wait_for_my_choice(page) == "keep"
    expect(page.locator(".oh-pass")).to_contain_text("left")
    shot(page, "ohanami-web-keep-1366")

    def look(pick: int) -> None:
        if pick == 1:  # a card raised, its row ends lit
            page.locator(".oh-kept .oh-pick").first.click()
            shot(page, "ohanami-web-place-1366")
            page.locator(".oh-kept .oh-pick.selected").click()  # lowered again
        if pick == 3:
            bottom = page.eval_on_selector(".oh-mine", "e => e.getBoundingClientRect().bottom")
            assert bottom <= LAPTOP["height"], f"the hand and garden end at {bottom}px"

    play_picks(page, 5, look)
    # stage 1 is over: the shell shows the result (until it has its panel: stage 2 starts)
    page.wait_for_function(
        """() => document.querySelector('#round-result #next-round, dialog[open] #close-result')
                 || document.querySelector('.ohanami').dataset.stage === '2'"""
    )
    assert page.errors == []  # type: ignore[attr-defined]
    spectator_sees_every_garden(browser, url, table_id)


def spectator_sees_every_garden(browser: Browser, url: str, table_id: str) -> None:
    watcher = new_page(browser, **LAPTOP)
    watcher.goto(f"{url}/t/{table_id}?watch=1")
    watcher.wait_for_selector(".oh-garden")
    seats = watcher.eval_on_selector_all(".oh-garden", "gs => gs.map(g => g.dataset.seat)")
    assert sorted(seats) == ["0", "1"]
    assert watcher.locator(".oh-hand, #keep, #place").count() == 0
    assert watcher.locator(".oh-garden .oh-row .oh-card").count() >= 2
    shot(watcher, "ohanami-web-spectator-1366")


def test_keyboard_only_placement(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser, **LAPTOP)
    start(page, url)
    wait_for_my_choice(page)
    page.locator("body").focus()
    for _ in range(2):  # two hand cards, by Tab and Enter
        tab_to(page, f"{HAND}:not(.selected)")
        page.keyboard.press("Enter")
    tab_to(page, "#keep")
    before = page.evaluate(PICK)
    page.keyboard.press("Space")
    gone(page, "#keep", before)
    wait_for_my_choice(page)
    tab_to(page, ".oh-kept .oh-pick")
    page.keyboard.press("Enter")
    # the focus goes to the first lit destination; its preview shows while it is focused
    assert page.evaluate("() => document.activeElement.classList.contains('oh-target')")
    expect(page.locator(".oh-target:focus-visible .oh-ghost")).to_be_visible()
    focus_ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert focus_ring != "none"
    shot(page, "ohanami-web-keyboard-1366")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.classList.contains('oh-target')")
    page.keyboard.press("Enter")
    assert page.evaluate("() => document.activeElement.id") == "place"
    before = page.evaluate(PICK)
    page.keyboard.press("Enter")
    gone(page, "#place", before)
    # Enter took the first lit destination each time: a new row, then that row's end
    page.wait_for_function("() => !document.querySelector('.oh-kept')")
    assert len([c for row in own_rows(page) for c in row]) == 2


def tab_to(page: Page, selector: str, limit: int = 60) -> None:
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => !!document.activeElement?.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_phone_no_sideways_scroll(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser, **PHONE)
    start(page, url)
    wait_for_my_choice(page)
    no_sideways_scroll(page)
    shot(page, "ohanami-web-keep-390")

    def look(pick: int) -> None:
        no_sideways_scroll(page)
        if pick == 2:
            page.locator(".oh-kept .oh-pick").first.click()
            no_sideways_scroll(page)
            shot(page, "ohanami-web-place-390")
            page.locator(".oh-kept .oh-pick.selected").click()

    play_picks(page, 3, look)
    no_sideways_scroll(page)
    assert page.errors == []  # type: ignore[attr-defined]


# -- the renderer fed fixed engine views --------------------------------------------------------
HAND_0 = [10, 60, 1, 2, 3, 4, 6, 7, 8, 9]
HAND_1 = [5, 35, 11, 12, 13, 14, 15, 16, 17, 18]


def fixed_views() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """Seat 0's view after pick 1 (10 started a row, 60 went after it; the bot started a
    row with 11 and discarded 12); while placing pick 2 with 5 and 35 kept; and once 5 and
    35 are placed, the bot still to place."""
    deal = [{"hands": [HAND_0, HAND_1]}]
    state = cardtable.load("ohanami", players=2).new_state(seed=3, deals=deal)
    assert isinstance(state, OhanamiState)
    state.apply(0, Keep((10, 60)))
    state.apply(1, Keep((11, 12)))
    state.apply(0, Place(((10, "new"), (60, 0))))
    state.apply(1, Place(((11, "new"), (12, "discard"))))
    revealed = state.view(0)
    state.apply(0, Keep((5, 35)))
    state.apply(1, Keep((1, 2)))
    placing = state.view(0)
    state.apply(0, Place(((5, 0), (35, "new"))))
    return revealed, placing, state.view(0)


MOUNT = """async ([url, view, onBoard, lang, replay]) => {
    const module = await import(url);
    const messages = await (await fetch(`/api/locales/${lang}`)).json();
    const cards = await (await fetch('/api/cards')).json();
    const t = (key, vars = {}) =>
      (messages[key] ?? key).replace(/\\{(\\w+)\\}/g, (_, n) => String(vars[n]));
    let root = document.querySelector('#board');
    if (!onBoard) {
      root = document.createElement('div');
      root.className = 'board';
      document.body.replaceChildren(root);
    }
    root.id = 'fixed';
    window.sent = [];
    const names = ['Anna', 'Bot', 'Kasia', 'Ivan'];
    const ctx = {
      frame: { table: { id: 'fixed' }, version: 1 }, view, seat: 0, t, lang, cards, ui: {},
      seatName: (n) => names[n], send: (a) => window.sent.push(a), toast() {}, replay,
    };
    window.fixedCtx = ctx;
    module.render(root, ctx);
    return module.narrate(view, ctx).map((l) => l.text);
}"""


def mount(
    page: Page,
    url: str,
    view: dict[str, Any],
    on_table_page: bool = False,
    lang: str = "en",
    replay: bool = False,
) -> list[str]:
    """Draw ``view`` with the renderer: alone on a page, or on the board of a table page (its
    header and side panels around it; the table does not exist, so nothing else draws); as
    the replay draws it with ``replay``."""
    if on_table_page:  # the table page's frame (an unknown table itself is a 404 page)
        table_html = (WEB_ROOT / "table.html").read_text()
        page.route(
            f"{url}/t/no-such-table",
            lambda route: route.fulfill(body=table_html, content_type="text/html"),
        )
        page.goto(f"{url}/t/no-such-table")
        page.wait_for_selector("#banner:not([hidden])")
        page.wait_for_selector("link[href='/static/css/app.css']", state="attached")
        page.eval_on_selector("#banner", "b => b.remove()")
    else:  # a document of the site with no script of its own that could draw over ours
        page.goto(f"{url}/api/games")
        page.add_style_tag(url="/static/css/app.css")
    page.add_style_tag(url="/games/ohanami/style.css")
    return page.evaluate(MOUNT, [RENDERER, view, on_table_page, lang, replay])


def call(page: Page, expression: str, view: dict[str, Any]) -> Any:
    """``module.EXPRESSION`` evaluated in the page, with ``view`` at hand."""
    script = f"async ([url, view]) => (await import(url)).{expression}"
    return page.evaluate(script, [RENDERER, view])


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_a_replay_shows_the_hand_and_waits_for_nobody(
    server: tuple[str, Any], browser: Browser, lang: str
) -> None:
    """The replay draws each step without legal moves: the live table's "waiting for the
    others" and "(you)" read there as if the game were still on, and the hand was gone."""
    url, _app = server
    page = new_page(browser, width=390, height=844)
    revealed, placing, placed = fixed_views()
    parts = "#fixed .oh-replay-part"
    for view, kept in ((revealed, []), (placing, [5, 35]), (placed, [])):
        mount(page, url, {**view, "legal_actions": []}, lang=lang, replay=True)
        shown = page.eval_on_selector_all(
            parts,
            "ps => ps.map((p) => [...p.querySelectorAll('[data-card]')].map((c) => +c.dataset.card))",  # noqa: E501
        )
        assert shown == ([view["hand"], kept] if kept else [view["hand"]]), shown
        text = page.inner_text("#fixed")
        assert {"pl": "Czekamy", "ru": "Ждём"}[lang] not in text
        assert {"pl": "(ty)", "ru": "(вы)"}[lang] not in text
        assert page.locator("#fixed button").count() == 0  # nothing to press in a replay
    # the live table keeps both
    mount(page, url, placed, lang=lang)
    assert {"pl": "(ty)", "ru": "(вы)"}[lang] in page.inner_text("#fixed")
    assert not page.errors  # type: ignore[attr-defined]


def test_narration_names_the_cards_and_hides_the_others_discards(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    page = new_page(browser)
    revealed, _placing, _placed = fixed_views()
    lines = mount(page, url, revealed)
    assert "Anna kept 2 cards" in lines and "Bot kept 2 cards" in lines
    assert "Anna started row 1 with 10" in lines
    assert "Anna placed 60 at the end of row 1" in lines
    assert "Bot started row 1 with 11" in lines
    assert "Bot discarded a card" in lines  # face down: its number is not told
    assert not any("12" in line for line in lines)
    assert "The hands passed to the left" in lines
    # the same events keep the same ids from frame to frame (the shell logs each once)
    ids = call(page, "narrate(view, window.fixedCtx).map(l => l.id)", revealed)
    assert len(set(ids)) == len(ids)


def test_a_card_is_offered_only_where_it_may_go(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser)
    _revealed, placing, placed = fixed_views()
    assert placing["gardens"][0] == [[10, 60]] and placing["kept"] == [5, 35]
    mount(page, url, placing)
    page.click("#fixed [data-fid='kept-35']")
    # 35 falls between 10 and 60: row 1 is not lit, a new row and the discard are
    assert sorted(t["to"] for t in offered(page)) == ["discard", "new"]
    page.click("#fixed [data-fid='kept-5']")
    assert sorted((t["to"], t["end"]) for t in offered(page)) == [
        ("0", "start"), ("discard", "discard"), ("new", "new")
    ]  # fmt: skip
    start = page.locator("#fixed .oh-target.start")
    start.hover()
    expect(start.locator(".oh-ghost")).to_be_visible()
    start.click()
    assert own_rows(page) == [[5, 10, 60]]
    page.click("#fixed #undo")  # 5 goes back up, raised again
    assert own_rows(page) == [[10, 60]]
    assert page.locator("#fixed .oh-pick.selected .oh-card").get_attribute("data-card") == "5"
    page.click("#fixed .oh-target.start")
    # 35 is raised by itself; still no way into the row
    assert sorted(t["to"] for t in offered(page)) == ["discard", "new"]
    assert page.locator("#place[disabled]").count() == 1
    page.click("#fixed .oh-target.new")
    page.click("#fixed #place")
    sent = page.evaluate("() => window.sent")
    assert len(sent) == 1 and sent[0]["type"] == "place"
    assert sorted((p["card"], p["to"]) for p in sent[0]["placements"]) == [(5, 0), (35, "new")]
    assert outcome(sent[0]) in [outcome(action) for action in placing["legal_actions"]]
    # sent, not yet revealed: the cards stay where they were put, dashed, until the reveal
    mount(page, url, placed)
    assert own_rows(page) == [[5, 10, 60], [35]]
    assert page.locator("#fixed .oh-garden.own .oh-pending").count() == 2


def outcome(action: dict[str, Any]) -> list[tuple[int, str]]:
    return sorted((p["card"], str(p["to"])) for p in action["placements"])


def test_stage_table_of_the_results(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser)
    state = cardtable.load("ohanami", players=2).new_state(seed=5)
    while state.stage < 3:  # two stages scored
        for seat in sorted(state.to_move):
            state.apply(seat, state.legal_actions(seat)[0])
    view = state.view(0)
    assert len(view["stages"]) == 2
    mount(page, url, view)
    cells = page.evaluate(
        """async ([url, view]) => {
            const module = await import(url);
            const table = module.resultExtras(view, window.fixedCtx);
            document.body.append(table);
            const firstLine = (cell) => cell.innerText.split('\\n')[0];
            return [...table.querySelectorAll('tbody tr')].map(r => [...r.children].map(firstLine));
        }""",
        [RENDERER, view],
    )
    for seat, row in enumerate(cells):
        first, second = (r.scores[seat] for r in state.results)
        assert row[:3] == [["Anna", "Bot"][seat], str(first), str(second)]
        assert row[3] == "–" and row[4] == str(first + second)
    assert call(page, "lastResult(view).round", view) == 2
    # the table keeps its colours outside the board too (in the shell's result panel)
    dot = page.eval_on_selector(
        "body > .oh-stages .oh-dot", "d => getComputedStyle(d).backgroundColor"
    )
    assert dot not in ("", "rgba(0, 0, 0, 0)")


def test_stage_ends_are_announced(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser)
    state = cardtable.load("ohanami", players=2).new_state(seed=6)
    while state.stage < 2:
        for seat in sorted(state.to_move):
            state.apply(seat, state.legal_actions(seat)[0])
    view = state.view(1)
    mount(page, url, view)
    lines = call(page, "narrate(view, window.fixedCtx)", view)
    scored = [line for line in lines if line["announce"]]
    assert len(scored) == 1 and scored[0]["text"].startswith("Stage 1 scored: Anna ")
    assert lines[-1]["text"] == "Stage 2 begins: hands pass to the right"


def test_the_end_screen_shows_the_stage_table(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    state = cardtable.load("ohanami", players=2).new_state(seed=7)
    while not state.is_over:
        for seat in sorted(state.to_move):
            state.apply(seat, state.legal_actions(seat)[0])
    view = state.view(0)
    for size, name in ((LAPTOP, "1366"), (PHONE, "390")):
        page = new_page(browser, **size)
        mount(page, url, view)
        rows = page.eval_on_selector_all(
            ".oh-final .oh-stages tbody tr",
            "rows => rows.map(r => [...r.querySelectorAll('.oh-stage-score, .oh-grand')]"
            ".map(c => Number(c.innerText)))",
        )
        assert rows == [
            [*(r.scores[seat] for r in state.results), view["scores"][seat]] for seat in (0, 1)
        ]
        no_sideways_scroll(page)
        shot(page, f"ohanami-web-end-{name}")


def play_to(state: OhanamiState, stage: int, pick: int, phase: str) -> dict[str, Any]:
    """Seat 0's view once every seat has taken its first legal move up to that point."""
    while (state.stage, state.pick, state.phase) != (stage, pick, phase):
        for seat in sorted(state.to_move):
            state.apply(seat, state.legal_actions(seat)[0])
    return state.view(0)


def test_four_gardens_late_in_the_game(server: tuple[str, Any], browser: Browser) -> None:
    """The fullest table: four gardens of three rows in stage 3, keeping a hand of ten and
    placing the fourth pick; the player's hand and garden stay on a 1366×768 screen."""
    url, _app = server
    state = cardtable.load("ohanami", players=4).new_state(seed=8)
    assert isinstance(state, OhanamiState)
    keeping = play_to(state, 3, 1, "select")
    placing = play_to(state, 3, 4, "place")
    sizes = ((LAPTOP, "1366", "en"), (PHONE, "390", "en"), (PHONE, "390-pl", "pl"))
    for (size, name, lang), (view, raise_card) in product(
        sizes, ((keeping, False), (placing, True))
    ):
        page = new_page(browser, **size)
        mount(page, url, view, on_table_page=True, lang=lang)
        assert page.locator(".oh-garden").count() == 4
        if raise_card:
            page.locator(".oh-kept .oh-pick").first.click()
        shot(page, f"ohanami-web-four-{view['phase']}-{name}")
        no_sideways_scroll(page)
        if size is LAPTOP:
            bottom = page.eval_on_selector(".oh-mine", "e => e.getBoundingClientRect().bottom")
            assert bottom <= LAPTOP["height"], f"the hand and garden end at {bottom}px"
        page.context.close()


def test_every_text_of_the_renderer_is_in_every_language() -> None:
    source = (Path(cardtable.__file__).parent / "games/ohanami/web/render.js").read_text()
    # every quoted message key, and those built from the pass direction or a colour
    keys = set(re.findall(r"""["'`]((?:ohanami|table)\.[\w.]+)["'`]""", source))
    for stem in re.findall(r"`(ohanami\.[\w.]+_)\$\{view\.pass_to\}`", source):
        keys |= {f"{stem}left", f"{stem}right"}
    keys |= {f"colour.{colour}" for colour in ("blue", "green", "grey", "pink")}
    assert len(keys) > 30
    for lang in ("en", "pl", "ru"):
        messages = catalogue(lang)  # the shared words and the game's own
        assert sorted(keys - set(messages)) == [], lang
