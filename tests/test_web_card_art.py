"""The hanafuda cards as a player sees them, in real Chromium: all 48 faces drawn apart,
their four kinds told apart by colour and shape in a pile (34 px on a laptop, 25 px on a
phone: the rendered pixels are read back), a captured pile that fans its cards so each
shows at least about half, wrapping into rows on a phone, and Ohanami's and 7 słów's
numbers large enough for a phone."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from playwright.sync_api import Browser, Page

from .browser_helpers import browser, new_page, server, shot
from .test_web_result_box import CARD_VALUE_TABLES, LAPTOP, PHONE, round_break

__all__ = ["browser", "server"]  # fixtures used by name

PILE_CARDS = [34, 25]  # px: a pile's card on a laptop, on a phone

#: every hanafuda face drawn at ``width`` px into a canvas, its pixels read back (RGBA rows)
RASTERISE = """async (width) => {
  const { hanafudaCard } = await import('/games/hanafuda/cards.js');
  const data = await (await fetch('/api/cards')).json();
  const height = Math.round(width * 1.6);
  const out = [];
  for (const card of data.hanafuda.cards) {
    const image = new Image(width, height);
    image.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(hanafudaCard(card, 'en'));
    await image.decode();
    const canvas = Object.assign(document.createElement('canvas'), { width, height });
    const paint = canvas.getContext('2d');
    paint.drawImage(image, 0, 0, width, height);
    out.push({ code: card.code, kind: card.kind, month: card.month, tags: card.tags,
               pixels: Array.from(paint.getImageData(0, 0, width, height).data) });
  }
  return out;
}"""


def deck_page(browser: Browser, url: str, query: str = "") -> Page:
    """The deck page (/cards) on a phone: its modules and card data are at hand."""
    page = new_page(browser, width=390, height=844)
    page.goto(f"{url}/cards{query}")
    page.wait_for_selector(".deck-card .card-svg")
    return page


def rasterised(page: Page, width: int) -> list[dict[str, Any]]:
    cards: list[dict[str, Any]] = page.evaluate(RASTERISE, width)
    for card in cards:
        card["rgb"] = np.array(card.pop("pixels"), dtype=float).reshape(-1, width, 4)[:, :, :3]
    return cards


def gold(rgb: Any) -> Any:
    red, green, blue = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return (red > 140) & (green > 95) & (blue < 90) & (red - blue > 90)


def ribbon_coloured(rgb: Any) -> Any:
    red, green, blue = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    return ((red > 150) & (green < 70) & (blue < 90)) | ((blue > 120) & (red < 80) & (green < 110))


def light_frame(rgb: Any) -> float:
    """The share of gold on a ring just inside the card's edge, where a light's frame runs."""
    height, width = rgb.shape[:2]
    ring = np.zeros((height, width), dtype=bool)
    inset = width * 4 // 60  # the pixel under the frame line, 4 of the card's 60 units in
    ring[inset, inset:-inset] = ring[-inset - 1, inset:-inset] = True
    ring[inset:-inset, inset] = ring[inset:-inset, -inset - 1] = True
    return float(gold(rgb)[ring].mean())


def band(rgb: Any) -> tuple[float, float]:
    """A ribbon's band: the share of red or blue in the card's upper middle, and at its sides."""
    height, width = rgb.shape[:2]
    upper = ribbon_coloured(rgb[round(height * 0.1) : round(height * 0.45)])
    middle = upper[:, round(width * 0.38) : round(width * 0.62)]
    edge = round(width * 0.18)
    sides = np.concatenate([upper[:, 2:edge], upper[:, -edge:-2]], axis=1)
    return float(middle.mean()), float(sides.mean())


def differs(one: Any, other: Any) -> float:
    """The share of pixels that differ plainly between two cards."""
    return float((np.abs(one - other).sum(axis=2) > 90).mean())


@pytest.mark.parametrize("width", PILE_CARDS)
def test_every_card_is_drawn_apart_and_its_kind_reads_in_a_pile(
    server: tuple[str, Any], browser: Browser, width: int
) -> None:
    url, _app = server
    cards = rasterised(deck_page(browser, url), width)
    assert len(cards) == 48
    for n, card in enumerate(cards[:-1]):  # no two faces alike, even a month's two plains
        nearest = min(differs(card["rgb"], other["rgb"]) for other in cards[n + 1 :])
        assert nearest > 0.05, (card["code"], nearest)
    frames = {card["code"]: light_frame(card["rgb"]) for card in cards}
    bands = {card["code"]: band(card["rgb"]) for card in cards}
    for card in cards:
        code, kind = card["code"], card["kind"]
        # a light, and only a light, stands in a gold frame
        assert (frames[code] > 0.6) == (kind == "light"), (code, kind, frames[code])
        # of the rest, a ribbon and only a ribbon is a coloured band down the middle (a red
        # sky runs to the sides; a light's red sun stands in its gold frame)
        middle, sides = bands[code]
        if kind != "light":
            banded = middle > 0.45 and sides < 0.2
            assert banded == (kind == "ribbon"), (code, kind, middle, sides)
    # an animal is a large figure over its month's bare plant
    plain_of = {c["month"]: c["rgb"] for c in cards if c["code"][3] == "3" and c["kind"] == "plain"}
    for card in cards:
        if card["kind"] == "animal" and card["month"] in plain_of:
            assert differs(card["rgb"], plain_of[card["month"]]) > 0.15, card["code"]


def test_the_deck_page_draws_each_kind_with_its_marker(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    page = deck_page(browser, url, "?lang=pl")
    kinds = page.eval_on_selector_all(".deck-card .card-svg", "ss => ss.map(s => s.dataset.kind)")
    assert sorted(set(kinds)) == ["animal", "light", "plain", "ribbon"]
    assert kinds.count("light") == 5 and kinds.count("ribbon") == 10
    assert page.locator(".deck-card .card-svg[data-kind=light] .light-frame").count() == 5
    assert page.locator(".deck-card .card-svg .ribbon").count() == 10
    assert page.console_errors == []  # type: ignore[attr-defined]  # every shape drawn as given
    shot(page, "deck-pl-390")


def fanned(page: Page) -> list[dict[str, Any]]:
    """Each captured stack of two or more: its cards' boxes and its own, once the layout is
    at rest (no card in flight, and two looks a beat apart agree: a stack refans itself when
    its width changes, a frame after the change)."""
    page.wait_for_function("!document.getAnimations().some(a => a.playState === 'running')")
    looks: list[list[dict[str, Any]]] = []
    for _ in range(40):
        looks.append(
            page.evaluate(
                """() => [...document.querySelectorAll('.stack-cards')]
                    .filter(s => s.children.length > 1).map(s => ({
                    kind: s.parentElement.dataset.kind,
                    box: s.getBoundingClientRect().toJSON(),
                    cards: [...s.children].map(c => c.getBoundingClientRect().toJSON()),
                }))"""
            )
        )
        if len(looks) > 1 and looks[-1] == looks[-2]:
            break
        page.wait_for_timeout(150)
    return looks[-1]


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_a_captured_pile_shows_each_card_at_least_half(
    server: tuple[str, Any], browser: Browser, size: str
) -> None:
    url, _app = server
    viewport = {"laptop": LAPTOP, "phone": PHONE}[size]
    page = new_page(browser, **viewport)
    round_break(page, url, "bakappana", *CARD_VALUE_TABLES["bakappana"])
    page.click("#result-fold")  # the final board: every pile full
    stacks = fanned(page)
    assert max(len(stack["cards"]) for stack in stacks) >= 6, stacks  # 24 plains in 3 piles
    for stack in stacks:
        cards, box = stack["cards"], stack["box"]
        rows = sorted({round(card["y"]) for card in cards})
        assert len(rows) <= 3, stack
        for card, following in itertools.pairwise(cards):
            if round(following["y"]) == round(card["y"]):  # the next of its row covers the rest
                assert following["x"] - card["x"] >= 0.45 * card["width"] - 0.5, stack
        left, right = box["x"] - 0.5, box["right"] + 0.5
        inside = [left <= c["x"] and c["x"] + c["width"] <= right for c in cards]
        assert all(inside), stack
        # a row below shows the row above down to the card's foot
        for upper, lower in itertools.pairwise(rows):
            assert lower - upper >= 0.65 * cards[0]["height"], stack
        many = len(cards) >= 6
        if size == "phone" and many:
            assert len(rows) >= 2, stack  # a narrow stack wraps before it hides cards
    shot(page, f"piles-fanned-{size}")
    assert not page.errors  # type: ignore[attr-defined]


def test_piles_refan_as_a_phone_turns_without_a_layout_loop(
    server: tuple[str, Any], browser: Browser
) -> None:
    """A phone turned to landscape and back, again and again: the stacks refan to each
    width (their cards inside their boxes) and the page reports no error (a stack's fan
    set inside the resize callback was a ResizeObserver loop)."""
    url, _app = server
    page = new_page(browser, **PHONE)
    round_break(page, url, "bakappana", *CARD_VALUE_TABLES["bakappana"])
    page.click("#result-fold")
    landscape = {"width": PHONE["height"], "height": PHONE["width"]}
    for viewport in [landscape, PHONE] * 4:
        page.set_viewport_size(viewport)
        page.wait_for_timeout(120)
    for stack in fanned(page):
        left, right = stack["box"]["x"] - 0.5, stack["box"]["right"] + 0.5
        assert all(left <= c["x"] and c["x"] + c["width"] <= right for c in stack["cards"]), stack
    assert not page.errors  # type: ignore[attr-defined]


#: the height in px of each number on Ohanami's and 7 słów's cards, drawn as wide as the
#: tables draw them on a phone (another player's garden row: 22 px; a letter: 46 px)
NUMBER_SIZES = """async () => {
  const { ohanamiCard } = await import('/games/ohanami/cards.js');
  const { letterCard } = await import('/games/siedem-slow/cards.js');
  const drawn = (face, width) => {
    const box = Object.assign(document.createElement('div'), { innerHTML: face });
    box.style.width = `${width}px`;
    document.body.append(box);
    const svg = box.firstElementChild;
    svg.style.width = '100%';
    const scale = svg.getBoundingClientRect().width / 60;
    const texts = [...svg.querySelectorAll('text')].map((t) => {
      const b = t.getBBox();
      const px = Number(t.getAttribute('font-size')) * scale;
      return { text: t.textContent, px, inside: b.x >= 0 && b.x + b.width <= 60 };
    });
    box.remove();
    return texts;
  };
  return {
    ohanami: [7, 48, 120].map((n, k) => drawn(ohanamiCard(n, ['blue', 'pink', 'grey'][k]), 22)[0]),
    letters: drawn(letterCard({ letter: 'Ń', value: 7, bonus: 2 }), 46),
  };
}"""


def test_ohanami_and_letter_numbers_read_at_phone_size(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    sizes = deck_page(browser, url).evaluate(NUMBER_SIZES)
    for number in sizes["ohanami"]:
        least = 13 if len(number["text"]) <= 2 else 11
        assert number["px"] >= least and number["inside"], number
    letter, value, bonus = sizes["letters"]
    assert letter["text"] == "Ń" and letter["px"] >= 30, letter
    assert value["text"] == "7" and value["px"] >= 13, value
    assert bonus["text"] == "+2" and bonus["px"] >= 10, bonus
