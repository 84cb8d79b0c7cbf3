"""The 7 słów table in headless Chromium: the word box marks the area cards a word uses,
a refused word's error goes once a valid word is written, the table says who flipped the
hourglass, the round is told in words (narrate), every seat is shown to a spectator, and
the board fits a phone and a laptop screen. A failed test leaves screenshots in
``test-artifacts/``."""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from cardtable.core.rng import Rng
from cardtable.games.siedem_slow import solve
from cardtable.games.siedem_slow.area import SETUP_ORDER, Area, DrawPile, deck_cards
from cardtable.games.siedem_slow.dictionary import load_dictionary
from cardtable.games.siedem_slow.scoring import score_word
from cardtable.games.siedem_slow.tables import DECKS

from .browser_helpers import browser, create_table, new_page, server, shot

__all__ = ["browser", "server"]  # fixtures used by name

RENDERER = "/games/siedem-slow/render.js"
ENGLISH = {"deck": '"en"', "rounds": "2", "grace_seconds": "0"}


def open_table(page: Page, url: str, seats: list[str], **rules: str) -> str:
    table_id = create_table(page, url, "siedem-slow", seats, {**ENGLISH, **rules})
    page.wait_for_selector("#word")
    return table_id


def a_word_off_the_area(area_letters: set[str]) -> str:
    """A letter no area card shows (vowels never are: the deck is consonants)."""
    return next(v for v in "EAIOU" if v not in area_letters)


def test_the_word_box_marks_the_area_cards_a_word_uses(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, app = server
    page = new_page(browser)
    table_id = open_table(page, url, ["human", "bot:easy"], hourglass_seconds="20")
    state = app.state.hub.tables[table_id].state
    cards = [card for _, card in state.area.cards()]
    letters = {c.letter for c in cards}
    # a word of two area letters, one of them twice, and a vowel the area lacks
    first, second = cards[0].letter, cards[-1].letter
    vowel = a_word_off_the_area(letters)
    word = f"{first}{vowel}{second}{first}"
    page.locator("#word").press_sequentially(word.lower())
    expected = score_word(word, state.area)
    used = sorted(int(s) for s in page.locator("#area .card.used").evaluate_all(
        "cards => cards.map(c => c.dataset.slot)"))  # fmt: skip
    assert used == sorted(c.slot for c in expected.cards)
    # the value so far is the server's own score for the word
    expect(page.locator("#live-points")).to_have_text(f"= {expected.points} pts")
    expect(page.locator("#typed .typed-letter.off").first).to_have_text(vowel)
    assert page.locator("#typed .typed-letter").count() == len(word)
    # a second copy of a letter the area holds once scores nothing: it is flagged too
    if sum(c.letter == first for c in cards) == 1:
        assert page.locator("#typed .typed-letter").nth(3).get_attribute("data-scores") == "false"
    shot(page, "siedem-web-typing")
    # clearing the box clears the marks
    page.fill("#word", "")
    expect(page.locator("#area .card.used")).to_have_count(0)
    assert not page.errors  # type: ignore[attr-defined]


def test_an_old_error_goes_once_a_valid_word_is_written(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, app = server
    page = new_page(browser)
    # no hourglass: a written word stays open to rewriting, so the box stays on screen
    table_id = open_table(page, url, ["human", "bot:easy"], variant='"no-hourglass"')
    page.fill("#word", "qzxqv")
    page.press("#word", "Enter")
    expect(page.locator("#word-error")).to_be_visible()
    expect(page.locator("#word-error")).to_contain_text("QZXQV")
    state = app.state.hub.tables[table_id].state
    best = solve(state.area, state.dictionary, top=1)[0]
    page.fill("#word", best.word)
    page.press("#word", "Enter")
    expect(page.locator("#entry")).to_contain_text(best.word.upper())
    expect(page.locator("#word-error")).to_be_hidden()
    expect(page.locator("#toast")).to_be_hidden()
    # the keyboard reaches every control: from the box to Write, then Done
    page.focus("#word")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "write"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "lock"
    page.keyboard.press("Enter")  # done: the word is locked (and the round over, if the bot was)
    page.wait_for_function(
        """() => document.querySelector("#seat-strip li[data-seat='0']").dataset.state === "locked"
            || document.querySelector("#board").dataset.round !== "1" """
    )


def test_the_table_says_who_flipped_the_hourglass(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, app = server
    page = new_page(browser)
    table_id = open_table(page, url, ["human", "bot:easy"], hourglass_seconds="8")
    bot = page.locator("#players li[data-seat='1'] .name").inner_text()
    # nobody writes for us: the bot finishes its word and flips
    page.wait_for_selector("#hourglass[data-flipper='1']", timeout=40000)
    expect(page.locator("#sand-label")).to_contain_text(f"{bot} flipped")
    expect(page.locator("#seat-strip li[data-seat='1']")).to_have_attribute("data-state", "flipped")
    shot(page, "siedem-web-bot-flipped")
    # the round told in words: the flip is announced, with an id that names the event
    view = app.state.hub.tables[table_id].state.view(0)
    lines = narrate(page, view, ["You", bot], seat=0)
    flips = [line for line in lines if line["id"] == "r1:flip"]
    assert flips == [{"id": "r1:flip", "text": f"{bot} flipped the hourglass", "announce": True}]


@pytest.mark.parametrize(
    ("locale", "flipped"), [("pl-PL", "Klepsydra odwrócona"), ("ru-RU", "Часы перевёрнуты")]
)
def test_who_flipped_fits_the_glass_on_a_phone(
    server: tuple[str, Any], browser: Browser, locale: str, flipped: str
) -> None:
    url, _ = server
    page = new_page(browser, locale, width=390, height=844)
    create_table(page, url, "siedem-slow", ["human", "bot:easy"], {"hourglass_seconds": "8"})
    header = page.locator("header.top").bounding_box()
    page.wait_for_selector("#hourglass[data-flipper='1']", timeout=40000)
    # the header's clock comes up beside the buttons: the header keeps its height (the
    # game's own .hourglass style once made the clock a bar of its own line)
    expect(page.locator("#clock[data-kind='hourglass']")).to_be_visible()
    now = page.locator("header.top").bounding_box()
    assert header is not None and now is not None and now["height"] <= header["height"] + 1
    bot = page.locator("#players li[data-seat='1'] .name").inner_text()
    expect(page.locator("#sand-label")).to_contain_text(f"{flipped}: {bot}")
    # the whole line (the seconds at its end) inside the glass, not cut off at its edge
    label, glass, cut = page.evaluate("""() => {
        const label = document.querySelector("#sand-label");
        const box = (element) => element.getBoundingClientRect().toJSON();
        const glass = document.querySelector("#hourglass");
        return [box(label), box(glass), label.scrollWidth > label.clientWidth];
    }""")
    assert not cut and glass["x"] <= label["x"] and label["right"] <= glass["right"], (label, glass)
    # and on one line: a second one is cut off by the glass's height
    assert glass["y"] <= label["y"] and label["bottom"] <= glass["bottom"], (label, glass)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    shot(page, f"siedem-flipped-{locale}-phone")


@pytest.mark.parametrize(
    ("locale", "names"),
    [
        ("pl-PL", ["Gracz 1", "Bot (łatwy)", "Bot (łatwy) 2"]),
        ("ru-RU", ["Игрок 1", "Бот (лёгкий)", "Бот (лёгкий) 2"]),
    ],
)
def test_three_players_names_are_whole_on_a_phone(
    server: tuple[str, Any], browser: Browser, locale: str, names: list[str]
) -> None:
    """Two bots of one level differ only at the end of their names ("Bot (średni) 2"): on
    a phone each chip gives its name a line of its own (two where a name is long), so
    neither is cut to "Bot (śr…"."""
    url, _ = server
    page = new_page(browser, locale, width=390, height=844)
    create_table(page, url, "siedem-slow", ["human", "bot:easy", "bot:easy"], {})
    expect(page.locator(".seat-chip")).to_have_count(3)
    shown = page.eval_on_selector_all(
        ".seat-chip .seat-name",
        """ns => ns.map(n => [n.textContent,
            n.scrollWidth > n.clientWidth || n.scrollHeight > n.clientHeight])""",
    )
    assert shown == [[name, False] for name in names]


def test_a_tapped_letter_card_types_its_letter(server: tuple[str, Any], browser: Browser) -> None:
    """On a phone a newcomer taps the letters first: each tapped card adds its letter to the
    word, which then counts its cards and points as typed letters do."""
    url, _ = server
    page = new_page(browser, "pl-PL", width=390, height=844)
    create_table(page, url, "siedem-slow", ["human", "bot:easy"], {})
    tappable = page.locator("#area .card.letter.tappable")
    expect(tappable).to_have_count(8)  # the area dealt, the word box open
    first, second = tappable.all()[:2]
    letters = [first.get_attribute("data-letter"), second.get_attribute("data-letter")]
    expect(first).to_have_attribute("aria-label", f"dodaj {letters[0]} do słowa")
    first.click()
    second.click()
    expect(page.locator("#word")).to_have_value("".join(str(x) for x in letters).lower())
    expect(first).to_have_class(re.compile(r"\bused\b"))
    assert page.evaluate("document.activeElement.id") != "word"  # no keyboard over the cards


def narrate(page: Page, view: dict[str, Any], names: list[str], seat: int | None) -> list[Any]:
    """The renderer's narrate(view, ctx), called in the page with the page's own messages."""
    return page.evaluate(
        """async ([url, view, names, seat]) => {
            const { narrate } = await import(url);
            const { t, lang } = await import('/static/js/i18n.js');
            return narrate(view, { t, lang: lang(), seat, seatName: (n) => names[n] });
        }""",
        [RENDERER, view, names, seat],
    )


def test_narrate_tells_locks_challenges_and_votes(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    page = new_page(browser)
    page.goto(f"{url}/")
    names = ["Anna", "Bot", "Ewa"]
    writing = {
        "round": 2, "players": 3, "phase": "hourglass", "fastest": 1, "locked": [False, True, True],
        "timer": {"kind": "hourglass", "seconds": 30}, "history": [], "last_round": None,
    }  # fmt: skip
    lines = narrate(page, writing, names, seat=0)
    assert [(line["id"], line["text"], line["announce"]) for line in lines] == [
        ("r2:flip", "Bot flipped the hourglass", True),
        ("r2:lock:2", "Ewa locked a word", True),
    ]
    voting = {
        **writing, "phase": "vote", "locked": [True, True, True],
        "words": [{"seat": 0, "word": "dom", "warning": None},
                  {"seat": 1, "word": "domowy", "warning": "shares the root DOM-"},
                  {"seat": 2, "word": None, "warning": None}],
        "challenged": [1], "vote": {"challenger": 0, "target": 1, "word": "domowy", "voted": [2]},
    }  # fmt: skip
    texts = {line["id"]: line for line in narrate(page, voting, names, seat=0)}
    assert texts["r2:lock:2"]["announce"] is False  # the writing is over: no fanfare
    assert texts["r2:word:1"]["text"] == "Bot wrote DOMOWY"
    assert texts["r2:word:2"]["text"] == "Ewa wrote no word"
    assert texts["r2:challenged:1"]["text"] == "DOMOWY by Bot is challenged"
    assert texts["r2:vote:1"]["announce"] is True
    assert texts["r2:voted:1:2"]["text"] == "Ewa voted"
    # the round's end: the words and a struck one, from the result (in the page's language)
    line = {"seat": 1, "rule": "challenge:upheld", "label": "DOMOWY struck: same family",
            "labels": {"en": "DOMOWY struck: same family"}, "points": 0, "cards": []}  # fmt: skip
    ended = {
        "round": 3, "players": 3, "phase": "writing", "fastest": None, "locked": [False] * 3,
        "history": [[], [{"seat": 0, "word": "dom", "points": 7, "struck": False},
                         {"seat": 1, "word": "domowy", "points": 0, "struck": True},
                         {"seat": 2, "word": "", "points": 0, "struck": False}]],
        "last_round": {"round": 2, "scores": [7, 0, 0], "lines": [line]},
    }  # fmt: skip
    texts = {line["id"]: line for line in narrate(page, ended, names, seat=None)}
    assert texts["r2:words"]["text"] == "Round 2: Anna DOM 7 · Bot DOMOWY 0 · Ewa —"
    assert texts["r2:challenge:0"] == {
        "id": "r2:challenge:0", "text": "Bot: DOMOWY struck: same family", "announce": True
    }  # fmt: skip


def test_the_result_pieces_for_the_shell(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser)
    page.goto(f"{url}/")
    found = page.evaluate(
        """async (url) => {
            const m = await import(url);
            const { t, lang } = await import('/static/js/i18n.js');
            const final = {round: 7, scores: [9, 0], lines: [
              {seat: 1, rule: 'challenge:upheld', label: 'XYZ struck', points: 0, cards: []}]};
            const strike = {round: 8, scores: [-3, -1], outcome: 'strike-out', lines: [
              {seat: 0, rule: 'struck-out', label: 'A', points: -3, cards: []}]};
            const view = {over: true, players: 2, last_round: strike, final_round: final,
              history: [[], [], [], [], [], [], [{seat: 0, word: 'kot', points: 9, struck: false},
                                               {seat: 1, word: 'xyz', points: 0, struck: true}]]};
            const ctx = {t, lang: lang(), seatName: (n) => ['Anna', 'Bot'][n],
              frame: {best_words: [{word: 'knot', points: 14}]}};
            const result = m.lastResult(view);
            const extras = m.resultExtras(view, ctx);
            const art = m.cardArt('H+2', 'tiny', ctx);
            return {rules: result.lines.map((l) => l.rule), scores: result.scores,
                    extras: extras.textContent, struck: extras.querySelectorAll('li.struck').length,
                    art: art.querySelector('svg').getAttribute('aria-label'),
                    blank: m.cardArt('??', 'tiny', ctx).textContent};
        }""",
        RENDERER,
    )
    # the final round's challenge shows in the game's last result, before the strike-out
    assert found["rules"] == ["challenge:upheld", "struck-out"]
    assert found["scores"] == [6, -1]
    assert "Anna: KOT9" in found["extras"] and "KNOT14" in found["extras"]
    assert found["struck"] == 1
    assert found["art"] == "H +2" and found["blank"] == ""


def test_a_spectator_sees_every_seat(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser)
    table_id = open_table(page, url, ["human", "bot:easy", "bot:easy"], hourglass_seconds="20")
    watcher = new_page(browser)
    watcher.goto(f"{url}/t/{table_id}?watch=1")
    watcher.wait_for_selector("#seat-strip")
    expect(watcher.locator("#seat-strip li")).to_have_count(3)
    expect(watcher.locator("#status")).to_have_text("You are watching")
    assert watcher.locator("#word").count() == 0
    assert watcher.locator("#area .card.letter").count() == 8
    names = page.locator("#players .name").all_inner_texts()
    assert watcher.locator("#seat-strip .seat-name").all_inner_texts() == names


def test_the_board_fits_a_phone_and_a_laptop(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    no_overflow = "document.documentElement.scrollWidth <= window.innerWidth"
    phone = new_page(browser, width=390, height=844)
    open_table(phone, url, ["human", "bot:easy", "bot:easy"], hourglass_seconds="20")
    phone.locator("#word").press_sequentially("knight")
    assert phone.evaluate(no_overflow)
    # the box sits high on the board: a phone keyboard (about half the screen) leaves it seen
    box = phone.locator("#word").bounding_box()
    assert box is not None and box["y"] + box["height"] < 844 / 2
    area = phone.locator("#area").bounding_box()
    assert area is not None and area["x"] >= 0 and area["x"] + area["width"] <= 390
    shot(phone, "siedem-web-phone")
    # a laptop: the hourglass, the word box and the whole area without scrolling
    laptop = new_page(browser, width=1366, height=768)
    open_table(laptop, url, ["human", "bot:easy", "bot:easy"], hourglass_seconds="20")
    laptop.locator("#word").press_sequentially("knight")
    for part in ("#hourglass", "#word", "#area", "#seat-strip"):
        found = laptop.locator(part).bounding_box()
        assert found is not None and found["y"] + found["height"] <= 768, part
    assert laptop.evaluate(no_overflow)
    shot(laptop, "siedem-web-laptop")


def test_the_browser_scores_a_word_as_the_server_does(
    server: tuple[str, Any], browser: Browser
) -> None:
    """letters.js against scoring.py: Polish letters, repeated letters, both better-card
    rules, and a word typed with a combining accent (NFC)."""
    url, _app = server
    words = load_dictionary("default", "pl")
    rng = Rng(19)
    cases = []
    for _ in range(60):
        pile, area = DrawPile(rng.shuffled(deck_cards(DECKS["pl"]))), Area()
        for slot in SETUP_ORDER:
            pile.fill(area, slot, rng)
        for better in ("value", "column"):
            word = words.random_word(rng)
            score = score_word(word, area, better=better)
            typed = unicodedata.normalize("NFD", word.upper()) if len(cases) % 3 == 0 else word
            expected = [sorted(c.slot for c in score.cards), score.points]
            cases.append([area.to_json(), typed, better, expected])
    page = new_page(browser)
    page.goto(f"{url}/")
    found = page.evaluate(
        """async ([url, cases]) => {
            const { areaCards, wordUse } = await import(url);
            return cases.map(([area, word, better]) => {
                const use = wordUse(word, areaCards({ area, round: 1 }), better);
                return [[...use.used].sort((a, b) => a - b), use.points];
            });
        }""",
        ["/games/siedem-slow/letters.js", cases],
    )
    assert found == [case[3] for case in cases]
    assert any(set(case[1]) & set("ąćęłńóśźż") for case in cases)  # Polish letters were typed
