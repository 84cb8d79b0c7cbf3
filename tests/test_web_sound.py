"""The table's sounds, in real Chromium with its Web Audio watched (the page's AudioContext
is wrapped before any script runs): off until the player turns them on, the switch kept per
browser across a reload and said in en/pl/ru, no AudioContext before the page's first click
or key press even with sound on, and a cue for each kind of event between two frames."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from cardtable.locales import message

from .browser_helpers import browser, create_table, new_page, server
from .server_helpers import eventually
from .test_web_table import frames, play_until_break, seat_socket

__all__ = ["browser", "server"]  # fixtures used by name

#: counts every AudioContext made and every sound source started on the page, and says
#: whether the audio was made within a gesture
WATCH_AUDIO = """
window.heard = { contexts: 0, started: 0 };
// true while a gesture's handlers run (this listener is the first of them)
for (const type of ["pointerdown", "touchend", "click", "keydown"]) {
  window.addEventListener(type, () => {
    window.inGesture = true;
    setTimeout(() => { window.inGesture = false; });
  }, { capture: true });
}
const Real = window.AudioContext;
const counted = (node) => {
  const start = node.start.bind(node);
  node.start = (...args) => { window.heard.started += 1; return start(...args); };
  return node;
};
window.AudioContext = class extends Real {
  constructor(...args) {
    super(...args);
    window.heard.contexts += 1;
    window.madeInGesture = Boolean(window.inGesture);
  }
  createOscillator() { return counted(super.createOscillator()); }
  createBufferSource() { return counted(super.createBufferSource()); }
};
"""
LOCALES = {"en": "en-GB", "pl": "pl-PL", "ru": "ru-RU"}


def heard(page: Page) -> dict[str, int]:
    return page.evaluate("({...window.heard})")


def next_round_and_play(page: Page, url: str, table_id: str, seed: int) -> None:
    """Through a second socket of the page's seat (no click on the page): go on from the
    round break the page shows, play the next round at random to its end, and wait until
    the page shows that round's result."""
    left = int(page.eval_on_selector("#board", "b => b.dataset.break"))
    rng = random.Random(seed)
    with seat_socket(page, url, table_id) as ws:
        ws.send(json.dumps({"type": "next_round"}))
        for frame in frames(ws):
            ended = frame["table"]["round_break"]
            assert frame["table"]["status"] != "finished", "the game ended early"
            if ended and ended["round"] > left:
                break
            legal = [a for a in frame["view"].get("legal_actions", []) if a["type"] != "flip"]
            if legal and not ended:
                move = {"type": "action", "action": rng.choice(legal), "version": frame["version"]}
                ws.send(json.dumps(move))
    page.wait_for_selector(f"#board[data-break='{ended['round']}']")
    page.wait_for_selector("#round-result:not([hidden])")


@pytest.mark.parametrize("lang", list(LOCALES))
def test_sound_is_off_until_asked_kept_per_browser_and_waits_for_a_gesture(
    server: tuple[str, Any], browser: Browser, lang: str
) -> None:
    url, _app = server
    page = new_page(browser, locale=LOCALES[lang], width=1366, height=800)
    page.add_init_script(WATCH_AUDIO)
    # a stake no random round can spend: the game lasts the three rounds played here
    rules = {"rounds": "6", "zero_sum_start": "500"}
    table_id = create_table(page, url, "koi-koi", ["human", "bot:random"], rules)
    switch = page.locator("#sound")
    expect(switch).to_have_attribute("aria-pressed", "false")  # off until asked
    expect(switch).to_have_attribute("title", message("table.sound_off", lang))
    with seat_socket(page, url, table_id) as ws:
        assert play_until_break(ws, random.Random(1)) is not None
    page.wait_for_selector("#round-result:not([hidden])")
    assert heard(page) == {"contexts": 0, "started": 0}  # a whole round, silent
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    expect(switch).to_have_attribute("title", message("table.sound_on", lang))
    sample = eventually(lambda: heard(page)["started"], what="the switch plays a sample")
    assert heard(page)["contexts"] == 1 and sample > 0

    page.reload()  # kept by the browser; and a fresh page has had no gesture yet
    expect(switch).to_have_attribute("aria-pressed", "true")
    page.wait_for_selector("#board[data-break='1']")
    next_round_and_play(page, url, table_id, seed=2)
    assert heard(page) == {"contexts": 0, "started": 0}  # sound on, but no gesture yet

    page.locator("#log").click()  # any click on the page
    # the audio is made inside the click itself (iOS plays only such audio), not at the
    # first cue a socket's frame brings
    assert heard(page)["contexts"] == 1 and page.evaluate("window.madeInGesture")
    next_round_and_play(page, url, table_id, seed=3)
    sounds = heard(page)
    assert sounds["contexts"] == 1 and sounds["started"] >= 10, sounds  # one a move at least
    assert not page.errors  # type: ignore[attr-defined]


#: the cues between two frames, from sound.js itself
CUES = """async (pairs) => {
  const { cuesBetween } = await import('/static/js/table/sound.js');
  const mine = (f) => f.view.to_move.includes(0) && !f.table.round_break;
  return pairs.map(([before, after]) => cuesBetween(before, after, mine));
}"""


def frame(version: int, **view: Any) -> dict[str, Any]:
    table = {"status": view.pop("status", "playing"), "round_break": view.pop("round_break", None)}
    return {"version": version, "table": table, "view": {"round": 1, "to_move": [1], **view}}


def test_each_event_has_its_cue(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser)
    page.goto(f"{url}/cards")
    base = frame(1, piles=[["01-3"], []], yaku=[[], []], koikoi_calls=[0, 0])
    pairs = [
        (base, frame(2, piles=[["01-3"], []], yaku=[[], []], koikoi_calls=[0, 0])),
        (base, frame(2, piles=[["01-3"], ["02-3", "02-4"]], yaku=[[], []], koikoi_calls=[0, 0])),
        (base, frame(2, piles=[["01-3"], []], yaku=[[], [{"name": "Tane"}]], koikoi_calls=[0, 0])),
        (base, frame(2, piles=[["01-3"], []], yaku=[[], []], koikoi_calls=[0, 1])),
        (base, frame(2, piles=[["01-3"], []], round_break={"round": 1})),
        (base, frame(2, piles=[["01-3"], []], status="finished")),
        (base, frame(2, piles=[["01-3"], []], yaku=[[], []], koikoi_calls=[0, 0], to_move=[0])),
        (base, frame(1, piles=[["01-3"], ["02-3"]])),  # the same frame again: nothing new
        (base, frame(2, round=2, piles=[[], []], yaku=[[], []])),  # a new deal
    ]
    assert page.evaluate(CUES, pairs) == [
        ["card"],
        ["capture"],
        ["yaku"],
        ["koikoi"],
        ["round"],
        ["round"],
        ["card", "turn"],
        [],
        ["card"],
    ]
