"""Reading the cards and "Your record", in real Chromium: the card labels switch survives a
reload, a hover or a long press names a card (and the long press plays nothing), the deck
page /cards speaks Polish and fits a phone, and the lobby's record counts a finished game
against a bot once, survives a reload, round-trips through export and import and refuses a
file that is not a record."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from cardtable.locales import catalogue

from .browser_helpers import board, browser, create_table, new_page, play_until_over, server, shot
from .test_web_languages import english_on

__all__ = ["browser", "server"]  # fixtures used by name

MY_TURN = "document.querySelector('#board').dataset.mine === 'true'"
NO_SIDEWAYS = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"


def labels_on(page: Page) -> int:
    return page.locator("#board .card-label").count()


def test_labels_switch_on_and_survive_a_reload(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser, width=390, height=844)
    create_table(page, url, "koi-koi", ["human", "bot:easy"], {"rounds": "3"})
    page.wait_for_selector(".hand .card")
    assert labels_on(page) == 0
    expect(page.locator("#labels")).to_be_visible()
    expect(page.locator("#labels")).to_have_attribute("aria-pressed", "false")
    page.click("#labels")
    expect(page.locator("#labels")).to_have_attribute("aria-pressed", "true")
    hand = page.locator(".hand .card").count()
    assert page.locator(".hand .card .card-label").count() == hand
    first = page.locator(".hand .card .card-label").first.inner_text()
    assert re.fullmatch(r"\d{1,2}\s*(light|animal|ribbon|plain)", " ".join(first.split())), first
    assert page.locator("#board .card-label .points").count() == 0  # koi-koi counts no card points
    assert page.locator("#board .card text.value").count() == 0  # nor do its card faces say any
    page.reload()
    page.wait_for_selector(".hand .card .card-label")
    expect(page.locator("#labels")).to_have_attribute("aria-pressed", "true")
    assert page.evaluate(NO_SIDEWAYS)
    box = page.locator(".hand").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844 + page.evaluate("scrollY") + 1
    shot(page, "labels-koi-koi-390")
    page.click("#labels")
    expect(page.locator("#board .card-label")).to_have_count(0)


def test_labels_in_polish_give_points_where_the_game_counts_them(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    page = new_page(browser, locale="pl-PL", width=1366, height=768)
    page.goto(url)
    page.evaluate("localStorage.setItem('cardtable.labels', 'on')")
    create_table(page, url, "hana-awase", ["human", "bot:easy"], {})
    page.wait_for_selector(".hand .card .card-label")
    texts = page.locator(".hand .card .card-label").all_inner_texts()
    for text in texts:
        said = " ".join(text.split())
        assert re.fullmatch(r"\d{1,2} (jasna|zwierzę|wstęga|zwykła) ·? ?(20|10|5|1)", said), said
    # the card faces too: each hand card's value in its corner
    assert page.locator(".hand .card text.value").count() == len(texts)
    assert page.evaluate(NO_SIDEWAYS)


def test_hover_and_long_press_name_a_card_and_a_tap_still_plays(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    page = new_page(browser, locale="pl-PL", width=390, height=844)
    create_table(page, url, "koi-koi", ["human", "bot:easy"], {"rounds": "3"})
    page.wait_for_function(MY_TURN)
    card = page.locator(".hand .card.playable").first
    code = card.get_attribute("data-code")
    plants = [
        m["pl"]
        for m in page.evaluate("fetch('/api/cards').then(r => r.json())")["hanafuda"]["months"]
    ]
    title = card.get_attribute("title") or ""
    assert any(plant.lower() in title.lower() for plant in plants), title  # the hover tooltip
    kinds = [catalogue("pl")[f"kind.{k}"] for k in ("light", "animal", "ribbon", "plain")]
    assert any(kind.lower() in title.lower() for kind in kinds), title
    version = board(page)["version"]
    box = card.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_selector("#card-name:not([hidden])")
    page.mouse.up()
    assert page.inner_text("#card-name") == card.get_attribute("data-name")
    # the long press only named the card: it is still in the hand and nothing was sent
    page.wait_for_timeout(300)
    assert page.locator(f".hand [data-code='{code}']").count() == 1
    assert board(page)["version"] == version
    shot(page, "card-name-bubble-pl-390")
    page.locator(f".hand [data-code='{code}']").click()  # one tap plays, as before
    played = "c => !document.querySelector(`.hand [data-code='${c}']`)"
    page.wait_for_function(f"{played} || document.querySelector('.card.target')", arg=code)


@pytest.mark.parametrize("width", [360, 390])
def test_the_deck_page_in_polish_has_no_english_and_fits_a_phone(
    server: tuple[str, Any], browser: Browser, width: int
) -> None:
    url, _app = server
    page = new_page(browser, locale="pl-PL", width=width, height=800)
    page.goto(f"{url}/cards?lang=pl")
    page.wait_for_selector(".deck-card")
    expect(page.locator(".deck-card")).to_have_count(48)
    expect(page.locator(".month")).to_have_count(12)
    # a Polish card name may be spelt like an English word ("Most", the bridge)
    deck = page.evaluate("fetch('/api/cards').then(r => r.json())")["hanafuda"]["cards"]
    polish = {word.lower() for card in deck for word in card["name"]["pl"].split()}
    assert english_on(page) - polish == set(), english_on(page)
    assert page.evaluate(NO_SIDEWAYS)
    assert page.evaluate("document.documentElement.lang") == "pl"
    # from the yaku tables: the sake cup makes both viewings in koi-koi, and is worth 10
    # in hana-awase; a plain pine card makes no yaku in bakappana, which has none
    cup = page.locator(".deck-card[data-code='09-1']")
    koikoi = cup.locator("li[data-game='koi-koi']").inner_text()
    assert "Hanami-zake" in koikoi and "Tsukimi-zake" in koikoi and "punkty" not in koikoi
    assert "punkty: 10" in cup.locator("li[data-game='hana-awase']").inner_text()
    pine = page.locator(".deck-card[data-code='01-3'] li[data-game='bakappana']").inner_text()
    assert "bez yaku" in pine
    shot(page, f"cards-pl-{width}")


def test_the_lobby_and_the_rules_link_to_the_deck(
    server: tuple[str, Any], browser: Browser
) -> None:
    url, _app = server
    page = new_page(browser, locale="ru-RU")
    page.goto(url)
    page.click("#cards-link")
    page.wait_for_selector(".deck-card")
    assert page.evaluate("document.documentElement.lang") == "ru"
    page.goto(f"{url}/rules/hana-awase?lang=pl")
    page.click("#cards-link")
    page.wait_for_selector(".deck-card")
    assert page.evaluate("document.documentElement.lang") == "pl"
    page.goto(f"{url}/rules/ohanami")
    assert page.locator("#cards-link").count() == 0  # Ohanami's cards are not hanafuda


def record_rows(page: Page) -> dict[str, str]:
    page.wait_for_selector("#record table, #record-empty")
    return {
        f"{row.get_attribute('data-game')}/{row.get_attribute('data-level')}": row.locator(
            ".played"
        ).inner_text()
        for row in page.locator("#record tbody tr").all()
    }


def test_the_record_counts_a_game_once_survives_reloads_and_round_trips(
    server: tuple[str, Any], browser: Browser, tmp_path: Path
) -> None:
    url, _app = server
    page = new_page(browser, width=1366, height=900)
    page.goto(url)
    assert record_rows(page) == {}
    table_id = create_table(page, url, "koi-koi", ["human", "bot:easy"], {"rounds": "1"})
    play_until_over([page])
    page.reload()  # the finished table again: not a second game
    page.wait_for_selector("#over-panel:not([hidden])")
    page.goto(url)
    assert record_rows(page) == {"koi-koi/easy": "1"}
    page.reload()
    assert record_rows(page) == {"koi-koi/easy": "1"}
    expect(page.locator("#record-levels li[data-game='koi-koi']")).to_have_count(1)
    assert "Koi-koi" in page.inner_text("#record-levels")
    shot(page, "record-lobby-en")

    with page.expect_download() as download:
        page.click("#record-export")
    saved = tmp_path / "record.json"
    download.value.save_as(saved)
    data = json.loads(saved.read_text())
    assert [g["table"] for g in data["games"]] == [table_id]
    assert data["games"][0]["seats"] == ["you", "easy"]
    # one game: its share and the 95 % Wilson interval of one game
    share = {"win": "100 % (21–100 %)", "loss": "0 % (0–79 %)", "draw": "50 % (5–95 %)"}
    assert page.inner_text("#record tbody .share") == share[data["games"][0]["outcome"]]

    other = new_page(browser, locale="pl-PL")
    other.goto(url)
    assert record_rows(other) == {}
    other.set_input_files("#record-import", str(saved))
    expect(other.locator("#record tbody tr")).to_have_count(1)
    assert record_rows(other) == {"koi-koi/easy": "1"}
    other.set_input_files("#record-import", str(saved))  # the same games again add nothing
    expect(other.locator("#record-message")).to_have_text("Nowe gry z pliku: 0.")
    bad = {"name": "notes.json", "mimeType": "application/json", "buffer": b'{"games": 3}'}
    other.set_input_files("#record-import", files=[bad])
    expect(other.locator("#record-message.error")).to_have_text(catalogue("pl")["record.bad_file"])
    assert record_rows(other) == {"koi-koi/easy": "1"}
    other.reload()
    assert record_rows(other) == {"koi-koi/easy": "1"}
