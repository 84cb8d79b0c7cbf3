"""The hanafuda table read at a glance, in real Chromium at a laptop's and a phone's size, in
Polish and Russian: the round's result shows every captured card by kind with subtotals that
add up to the line, fits the screen and says why a match ended early; the player's own piles
are as readable as the opponents'; the phone's header keeps the round."""

from __future__ import annotations

import random
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from cardtable.locales import message

from .browser_helpers import browser, create_table, new_page, server, shot
from .server_helpers import eventually
from .test_web_table import play_until_break, seat_socket

__all__ = ["browser", "server"]  # fixtures used by name

LAPTOP = {"width": 1366, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = {"laptop": LAPTOP, "phone": PHONE}
LOCALES = {"pl": "pl-PL", "ru": "ru-RU"}
#: each language at one size: the longer words (Russian) on the narrower screen
LOOKS = [("pl", "laptop"), ("ru", "phone")]

#: games scored by card values, three seats (the human and two bots), several rounds
CARD_VALUE_TABLES = {
    "bakappana": (["human", "bot:random", "bot:random"], {"rounds": "3"}),
    "hana-awase": (["human", "bot:random", "bot:random"], {"rounds": "3"}),
}


def round_break(
    page: Page, url: str, game: str, seats: list[str], rules: dict[str, str]
) -> dict[str, Any]:
    """Create the table on ``page`` and play the page's seat at random (through a second
    socket) until the first round ends; that frame."""
    for attempt in range(3):
        table_id = create_table(page, url, game, seats, rules)
        with seat_socket(page, url, table_id) as ws:
            frame = play_until_break(ws, random.Random(11 + attempt))
        if frame is not None:
            page.wait_for_selector("#round-result:not([hidden]) #next-round")
            return frame
    raise AssertionError(f"{game}: three games ended with their first round")


def result_lines(page: Page) -> list[dict[str, Any]]:
    """Every score line of the result box as the page shows it: its rule, the cards drawn,
    the groups' points and the line's points."""
    return page.eval_on_selector_all(
        "#round-result .breakdown tr[data-rule]",
        """rows => rows.map(row => ({
            rule: row.dataset.rule,
            cards: [...row.querySelectorAll('.cards-cell [data-code]')].map(c => c.dataset.code),
            groups: [...row.querySelectorAll('.kind-group')].map(g => Number(g.dataset.points)),
            labels: [...row.querySelectorAll('.kind-sum')].map(s => s.textContent),
            points: Number(row.querySelector('td.num').textContent),
        }))""",
    )


def fits_viewport(page: Page, selector: str) -> bool:
    return page.eval_on_selector(
        selector,
        """el => { const r = el.getBoundingClientRect();
                   return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5
                          && r.right <= innerWidth + 0.5; }""",
    )


@pytest.mark.parametrize(("lang", "size"), LOOKS)
@pytest.mark.parametrize("game", list(CARD_VALUE_TABLES))
def test_the_result_shows_every_captured_card_by_kind_and_fits(
    server: tuple[str, Any], browser: Browser, game: str, lang: str, size: str
) -> None:
    url, _app = server
    page = new_page(browser, locale=LOCALES[lang], **SIZES[size])
    seats, rules = CARD_VALUE_TABLES[game]
    frame = round_break(page, url, game, seats, rules)
    shown = result_lines(page)
    sent = frame["view"]["last_round"]["lines"]
    assert [line["rule"] for line in shown] == [line["rule"] for line in sent]
    card_lines = 0
    for line, said in zip(sent, shown, strict=True):
        # every card the line counts is drawn, however many (no first dozen only)
        assert sorted(said["cards"]) == sorted(line["cards"]), line["rule"]
        assert said["points"] == line["points"]
        if line["rule"] == "cards":
            card_lines += 1
            assert said["groups"] and sum(said["groups"]) == line["points"], said
            assert all(
                str(points) in label
                for points, label in zip(said["groups"], said["labels"], strict=True)
            )
    assert card_lines == 3
    assert max(len(line["cards"]) for line in sent if line["rule"] == "cards") > 12
    # the box, its totals and its button are on the screen without scrolling the page
    page.evaluate("window.scrollTo(0, 0)")
    assert fits_viewport(page, "#round-result")
    assert fits_viewport(page, "#round-result #next-round")
    shot(page, f"result-{game}-{lang}-{size}")
    # a board longer than the screen (more seats, a coach beside it) keeps the box in view
    page.evaluate("document.querySelector('#board .hanafuda').style.minHeight = '1600px'")
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate("document.documentElement.scrollHeight") > SIZES[size]["height"] + 500
    assert fits_viewport(page, "#round-result #next-round")
    assert not page.errors  # type: ignore[attr-defined]


def pile_cards(page: Page, own: bool) -> dict[str, list[float]]:
    """The player's own piles (or the others'): the width of each card as laid out, and of
    each stack the cards fan out in."""
    seat = ".seat-box.own" if own else ".seat-box:not(.own)"
    return page.evaluate(
        """seat => ({
            cards: [...document.querySelectorAll(`${seat} .stack-cards .card`)]
                .map(c => parseFloat(getComputedStyle(c).width)),
            stacks: [...document.querySelectorAll(`${seat} .stack`)].map(s => s.clientWidth),
        })""",
        seat,
    )


def overflowing_labels(page: Page) -> list[str]:
    """The piles' labels ("Zwykłe 9") whose text does not fit their box."""
    return page.eval_on_selector_all(
        ".stack-count, .stack-count > span",
        "labels => labels.filter(l => l.scrollWidth > l.clientWidth).map(l => l.textContent)",
    )


@pytest.mark.parametrize(("lang", "size"), LOOKS)
def test_the_own_piles_read_as_well_as_the_opponents(
    server: tuple[str, Any], browser: Browser, lang: str, size: str
) -> None:
    url, _app = server
    page = new_page(browser, locale=LOCALES[lang], **SIZES[size])
    round_break(page, url, "bakappana", *CARD_VALUE_TABLES["bakappana"])
    page.click("#result-fold")  # the final board, every pile full
    own, others = pile_cards(page, own=True), pile_cards(page, own=False)
    assert own["cards"] and others["cards"]
    assert min(own["cards"]) >= max(others["cards"]) - 0.5, (own, others)
    assert min(own["stacks"]) >= max(others["stacks"]) - 0.5, (own, others)
    assert not overflowing_labels(page)
    shot(page, f"piles-{lang}-{size}")


@pytest.mark.parametrize(("lang", "size"), LOOKS)
def test_a_match_that_ends_early_says_why(
    server: tuple[str, Any], browser: Browser, lang: str, size: str
) -> None:
    """Koi-koi for a stake of 1: the first round anyone wins ends the match, rounds early."""
    url, app = server
    page = new_page(browser, locale=LOCALES[lang], **SIZES[size])
    table_id = create_table(page, url, "koi-koi", ["human", "bot:random"], {"zero_sum_start": "1"})
    rng = random.Random(3)
    with seat_socket(page, url, table_id) as ws:
        while play_until_break(ws, rng) is not None:  # a drawn round: the next one
            page.click("#round-result #next-round")
    page.wait_for_selector("#round-result:not([hidden]) #close-result")
    view = app.state.hub.tables[table_id].state.view(None)
    assert view["over"] and view["round"] < view["rounds"]
    names = dict(
        page.eval_on_selector_all(
            ".seat-box", "bs => bs.map(b => [b.dataset.seat, b.querySelector('.name').textContent])"
        )
    )
    broke = [names[str(seat)] for seat, score in enumerate(view["scores"]) if score <= 0]
    said = message(
        "hanafuda.ended.stake", lang, names=", ".join(broke), n=view["round"], of=view["rounds"]
    )
    assert page.inner_text("#round-result #ended-early") == said
    page.evaluate("window.scrollTo(0, 0)")
    assert fits_viewport(page, "#round-result")
    shot(page, f"ended-early-{lang}-{size}")
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.parametrize(("lang", "size"), LOOKS)
@pytest.mark.parametrize("game", ["koi-koi", "hana-awase-88"])
def test_the_header_says_the_game_and_round_whole(
    server: tuple[str, Any], browser: Browser, game: str, lang: str, size: str
) -> None:
    url, _app = server
    page = new_page(browser, locale=LOCALES[lang], **SIZES[size])
    seats = ["human", "bot:random"] + (["bot:random"] if game == "hana-awase-88" else [])
    create_table(page, url, game, seats, {})
    title = page.locator("#title")
    round_text = message("table.round", lang, n=1, of=12)
    eventually(lambda: round_text in title.inner_text(), what="the round in the header")
    # the game's name as the reader's language writes it (Кои-кои in Russian)
    assert title.inner_text() == f"{message(f'game.{game}.title', lang)} · {round_text}"
    box = title.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= SIZES[size]["width"]
    unclipped = "t => t.scrollWidth <= t.clientWidth && t.scrollHeight <= t.clientHeight"
    assert page.eval_on_selector("#title", unclipped)
    if size == "laptop":  # one header row: the title beside the logo, not under it
        logo = page.locator(".top .logo").bounding_box()
        assert logo is not None and box["y"] < logo["y"] + logo["height"]
    shot(page, f"header-{game}-{lang}-{size}")


def said_by_the_result(browser: Browser, url: str, lang: str, body: str) -> Any:
    """``body`` run in a page of the site in ``lang``, with the result box's module
    (``result``), the hanafuda renderer (``hanafuda``) and a ``ctx`` of the catalogue."""
    page = new_page(browser, locale=LOCALES[lang])
    page.goto(f"{url}/api/games")  # a document that runs no script of its own
    script = f"""async (lang) => {{
        const result = await import('/static/js/table/result.js');
        const hanafuda = await import('/games/hanafuda/render.js');
        const i18n = await import('/static/js/i18n.js');
        await i18n.loadLanguage(lang);
        const ctx = {{ t: i18n.t }};
        {body}
    }}"""
    return page.evaluate(script, lang)


@pytest.mark.parametrize("lang", list(LOCALES))
def test_an_early_end_without_a_known_reason_still_says_so(
    server: tuple[str, Any], browser: Browser, lang: str
) -> None:
    """A game whose renderer names no reason: the result says it ended after round n of m;
    a game that played every round says nothing of the kind."""
    url, _app = server
    said = said_by_the_result(
        browser,
        url,
        lang,
        """const finished = { status: 'finished', options: {} };
        return [result.earlyEnd({ round: 3, rounds: 12 }, finished, {}, ctx),
                result.earlyEnd({ round: 12, rounds: 12 }, finished, {}, ctx),
                result.earlyEnd({ round: 3, rounds: 12 }, { status: 'playing' }, {}, ctx)];""",
    )
    assert said == [message("table.ended_early", lang, n=3, of=12), None, None]


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_round_that_scored_nothing_says_why(
    server: tuple[str, Any], browser: Browser, lang: str
) -> None:
    """A koi-koi round whose cards ran out before anyone stopped has no score line: the box
    said nothing over an empty table. It says why, or at least that nobody scored."""
    url, _app = server
    said = said_by_the_result(
        browser,
        url,
        lang,
        """const line = { seat: 0, rule: 'yaku:tane', points: 1, cards: [] };
        return [result.scorelessText({ lines: [], outcome: 'exhausted' }, hanafuda, ctx),
                result.scorelessText({ lines: [], outcome: 'exhausted' }, {}, ctx),
                result.scorelessText({ lines: [line], outcome: 'shobu' }, hanafuda, ctx)];""",
    )
    assert said == [
        message("hanafuda.outcome.exhausted", lang),
        message("table.no_points", lang),
        None,
    ]


def boxes_overlap(page: Page, first: str, second: str) -> bool:
    """Whether any element matching ``first`` intersects any element matching ``second``."""
    return page.evaluate(
        """([first, second]) => {
            const rects = (s) => [...document.querySelectorAll(s)]
                .map(e => e.getBoundingClientRect()).filter(r => r.width && r.height);
            const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
                && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
            return rects(first).some(a => rects(second).some(b => meet(a, b)));
        }""",
        [first, second],
    )


def on_top(page: Page, selector: str) -> bool:
    """Whether the element's middle is its own, not under another element (a scrolled-off
    part of the box, the button, a banner)."""
    return page.eval_on_selector(
        selector,
        """el => { const r = el.getBoundingClientRect();
                   const x = r.left + r.width / 2, y = r.top + r.height / 2;
                   const hit = document.elementFromPoint(x, y);
                   return el.contains(hit); }""",
    )


@pytest.mark.parametrize(
    ("game", "lang", "size"), [("hana-awase", "ru", "laptop"), ("bakappana", "pl", "phone")]
)
def test_the_totals_and_the_next_button_are_in_sight_however_long_the_lines(
    server: tuple[str, Any], browser: Browser, game: str, lang: str, size: str
) -> None:
    url, _app = server
    page = new_page(browser, locale=LOCALES[lang], **SIZES[size])
    frame = round_break(page, url, game, *CARD_VALUE_TABLES[game])
    page.evaluate("window.scrollTo(0, 0)")
    totals = page.inner_text("#round-result #round-totals")
    # the round's sums, said as such: not read as the match's totals
    assert totals.startswith({"ru": "За раунд:", "pl": "W tej rundzie:"}[lang]), totals
    for score in frame["view"]["last_round"]["scores"]:
        assert (f"{score:+d}" if score > 0 else str(score)) in totals, totals
    # the lines run longer than the box: they scroll, the sums and the button do not
    assert page.eval_on_selector(
        "#round-result .result-body", "b => b.scrollHeight > b.clientHeight"
    )
    for selector in ("#round-result #round-totals", "#round-result #next-round"):
        assert fits_viewport(page, selector), selector
        assert on_top(page, selector), selector
    assert not boxes_overlap(page, "#round-result #round-totals", "#round-result #next-round")
    shot(page, f"result-foot-{game}-{lang}-{size}")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_folded_result_covers_none_of_the_own_piles(
    server: tuple[str, Any], browser: Browser, size: str
) -> None:
    url, _app = server
    page = new_page(browser, locale=LOCALES["pl"], **SIZES[size])
    round_break(page, url, "bakappana", *CARD_VALUE_TABLES["bakappana"])
    page.click("#result-fold")
    page.wait_for_selector("#round-result.folded")
    # the last move's cards come to rest in their piles first
    page.wait_for_function("!document.getAnimations().some(a => a.effect?.target?.dataset?.anim)")
    page.evaluate("window.scrollTo(0, 0)")
    assert page.locator(".seat-box.own .card").count()
    assert not boxes_overlap(page, "#round-result", ".seat-box.own .card, .seat-box.own .stack")
    assert not boxes_overlap(page, "#round-result", "#board .card")
    assert not boxes_overlap(page, "#board #status", ".seat-box.own")  # the board stays whole
    shot(page, f"result-folded-bakappana-pl-{size}")
    page.click("#result-fold")  # and back: the box again, with its button
    page.wait_for_selector("#round-result:not(.folded) #next-round")


@pytest.mark.parametrize("size", list(SIZES))
def test_no_round_banner_lies_over_the_result_box(
    server: tuple[str, Any], browser: Browser, size: str
) -> None:
    url, _app = server
    page = new_page(browser, locale=LOCALES["pl"], **SIZES[size])
    round_break(page, url, "bakappana", *CARD_VALUE_TABLES["bakappana"])
    # the round's score is in the log, and not announced over the box that shows it
    expect(page.locator("#log li.announced").last).to_contain_text("1")
    assert not page.locator("#announce.show").count()
    assert page.eval_on_selector("#announce", "a => getComputedStyle(a).opacity") == "0"


@pytest.mark.parametrize("size", list(SIZES))
def test_a_toast_covers_no_name_and_no_card(
    server: tuple[str, Any], browser: Browser, size: str
) -> None:
    """A toast ("a bot plays this seat now") lies over the header, not over the opponents'
    names and cards at the board's top nor the own hand at its foot."""
    url, _app = server
    page = new_page(browser, locale=LOCALES["pl"], **SIZES[size])
    create_table(page, url, "koi-koi", ["human", "bot:random"], {})
    page.wait_for_selector("#board .seat-box .name")
    said = message("table.left_handed", "pl")
    page.evaluate("text => import('/static/js/table.js').then((m) => m.toast(text))", said)
    expect(page.locator("#toast")).to_have_text(said)
    page.evaluate("window.scrollTo(0, 0)")
    assert not boxes_overlap(page, "#toast", "#board .seat-box, #board .card, #board .name")
    shot(page, f"toast-pl-{size}")
