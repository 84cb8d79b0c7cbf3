"""Issue 20, in Chromium: the three score pads on phones (no sideways scroll, thumb-sized
controls, wrong entries refused where they were typed, in the page's language), and no
dead ends (a wrong invite key offers watching, unknown tables are real 404 pages, the
verify page explains itself and a failed check names the move)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect
from typer.testing import CliRunner

import cardtable
from cardtable.cli import app as cli
from cardtable.core.record import GameRecord
from cardtable.server.fairness import Commitment, Signer, seal, verify

from .browser_helpers import browser, new_page, server, shot

__all__ = ["browser", "server"]

PHONES = (360, 390, 414)
PADS = {  # path, the localStorage key of the remembered pad
    "hanafuda": ("/companion/hanafuda", "cardtable.pad"),
    "ohanami": ("/companion/ohanami", "cardtable.ohanami-pad"),
    "words": ("/companion/words", "cardtable.words-pad"),  # an alias of /companion/siedem-slow
}


def open_pad(browser: Browser, url: str, pad: str, width: int, locale: str = "pl-PL") -> Page:
    """A fresh pad of ``pad`` on a phone-sized page, made with the setup's defaults."""
    path, remembered = PADS[pad]
    page = new_page(browser, locale=locale, width=width, height=800)
    page.goto(f"{url}{path}")
    page.evaluate(
        f"localStorage.removeItem('{remembered}'); localStorage.removeItem('cardtable.lang')"
    )
    page.goto(f"{url}{path}")
    page.wait_for_selector("#pad-players option", state="attached")  # the page is ready
    page.click("#pad-new")
    expect(page.locator("#entry")).to_be_visible()
    return page


def overflow(page: Page) -> int:
    """How many pixels the page is wider than the screen (0: no sideways scroll)."""
    return int(
        page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    )


def small_controls(page: Page) -> list[str]:
    """Visible controls too small for a thumb (under 40 px high, or a button under 40 wide)."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('main :is(button, input, select, summary)')]
            .filter((e) => e.offsetParent !== null && e.type !== 'hidden')
            .filter((e) => {
                const r = e.getBoundingClientRect();
                const box = e.type === 'checkbox' || e.type === 'radio';
                const button = e.tagName === 'BUTTON';
                return box ? r.width < 20 : (r.height < 40 || (button && r.width < 40));
            })
            .map((e) => `${e.tagName} ${e.id || e.className || e.dataset.slot || ''}`)"""
    )
    return found


def fill_some(page: Page, pad: str) -> None:
    """Enter a little of a round, as a person would, so that the page shows its results."""
    if pad == "words":
        for slot, letter in enumerate("KTPSLMNR"):
            page.fill(f"[data-slot='{slot}']", letter)
            page.press(f"[data-slot='{slot}']", "Tab")
        page.fill("[data-word='0']", "kot")
        page.press("[data-word='0']", "Tab")
    elif pad == "ohanami":
        page.fill("[data-player='0'] [data-colour='blue']", "2")
        page.fill("[data-player='1'] [data-colour='pink']", "3")
    else:
        page.locator("#pad-cards .card").first.click()
    page.wait_for_timeout(300)


@pytest.mark.parametrize("width", PHONES)
@pytest.mark.parametrize("pad", sorted(PADS))
def test_pads_fit_a_phone(server: tuple[str, Any], browser: Browser, pad: str, width: int) -> None:
    """No sideways scroll at 360 to 414 px, set up or filled in, and thumb-sized controls."""
    url, _app = server
    page = open_pad(browser, url, pad, width)
    fill_some(page, pad)
    assert overflow(page) == 0, f"{pad} at {width} px scrolls sideways"
    assert small_controls(page) == [], f"{pad} at {width} px: controls too small for a thumb"
    if pad == "hanafuda":  # the cards are tapped: each at least 36 px wide
        widths = page.eval_on_selector_all(
            "#pad-cards .card", "cards => cards.map((c) => c.getBoundingClientRect().width)"
        )
        assert len(widths) == 48 and min(widths) >= 36
    if width in (360, 390):
        shot(page, f"phone-pad-{pad}-pl-{width}")
    assert page.errors == []  # type: ignore[attr-defined]


@pytest.mark.parametrize("width", PHONES)
@pytest.mark.parametrize("pad", sorted(PADS))
def test_pad_setup_fits_a_phone(
    server: tuple[str, Any], browser: Browser, pad: str, width: int
) -> None:
    url, _app = server
    path, remembered = PADS[pad]
    page = new_page(browser, locale="pl-PL", width=width, height=800)
    page.goto(f"{url}{path}")
    page.evaluate(f"localStorage.removeItem('{remembered}')")
    page.goto(f"{url}{path}")
    page.wait_for_selector("#pad-players option", state="attached")
    expect(page.locator("#pad-new")).to_be_visible()
    assert overflow(page) == 0
    assert small_controls(page) == []
    if width == 360:
        shot(page, f"phone-pad-{pad}-setup-pl-{width}")
    if pad == "hanafuda":  # the house rules, opened
        page.click("#pad-rules summary")
        assert overflow(page) == 0
        assert small_controls(page) == []
        if width == 360:
            shot(page, f"phone-pad-{pad}-rules-pl-{width}")


def test_a_refused_word_says_why_under_its_field(server: tuple[str, Any], browser: Browser) -> None:
    """The word QQQQ in the 7 słów pad: the reason right under that word, in Polish; the area and
    the word typed stay."""
    url, _app = server
    page = open_pad(browser, url, "words", 390)
    for slot, letter in enumerate("KTPSLMNR"):
        page.fill(f"[data-slot='{slot}']", letter)
        page.press(f"[data-slot='{slot}']", "Tab")
    page.fill("[data-word='0']", "QQQQ")
    page.press("[data-word='0']", "Tab")
    problem = page.locator("[data-problem='0']")
    expect(problem).to_have_text("Słowa QQQQ nie ma w słowniku")
    expect(problem).to_be_visible()
    field, said = (
        page.locator(sel).bounding_box() for sel in ("[data-word='0']", "[data-problem='0']")
    )
    assert field and said and 0 <= said["y"] - (field["y"] + field["height"]) < 30  # right under
    expect(page.locator("[data-word='0']")).to_have_value("QQQQ")
    expect(page.locator("[data-word='0']")).to_have_attribute("aria-invalid", "true")
    assert [page.input_value(f"[data-slot='{n}']") for n in range(8)] == list("KTPSLMNR")
    expect(page.locator("#pad-save")).to_be_disabled()
    shot(page, "phone-pad-words-refused-pl-390")
    # the same reason in Russian after switching language, and gone once the word is fixed
    page.select_option("#lang", "ru")
    expect(problem).to_have_text("Слова QQQQ нет в словаре")
    expect(page.locator("[data-word='0']")).to_have_value("QQQQ")
    expect(page.locator("[data-player='0'] label span").first).to_have_text("Слово: Игрок 1")
    page.fill("[data-word='0']", "kot")
    page.press("[data-word='0']", "Tab")
    expect(problem).to_have_text("")
    expect(page.locator("#pad-save")).to_be_enabled()


def test_a_refused_area_card_says_why_under_the_area(
    server: tuple[str, Any], browser: Browser
) -> None:
    """A vowel is no card of the Polish deck: said under the area, that box marked."""
    url, _app = server
    page = open_pad(browser, url, "words", 360)
    page.fill("[data-slot='3']", "O")
    page.press("[data-slot='3']", "Tab")
    expect(page.locator("#pad-area-problem")).to_have_text("w tej talii nie ma karty O")
    expect(page.locator("[data-slot='3']")).to_have_attribute("aria-invalid", "true")
    page.fill("[data-slot='3']", "K+9")
    page.press("[data-slot='3']", "Tab")
    expect(page.locator("#pad-area-problem")).to_have_text(
        re.compile(r"^w tej talii nie ma karty K\+9 \(jest K")
    )
    page.fill("[data-slot='3']", "K")
    page.press("[data-slot='3']", "Tab")
    expect(page.locator("#pad-area-problem")).to_be_hidden()
    expect(page.locator("[data-slot='3']")).not_to_have_attribute("aria-invalid", "true")
    assert overflow(page) == 0


def test_a_refused_flip_says_why_in_the_page_language(
    server: tuple[str, Any], browser: Browser
) -> None:
    """Who flipped first must have written a word: said under that player, in Polish."""
    url, _app = server
    page = open_pad(browser, url, "words", 360)
    fill_some(page, "words")  # player 1 wrote KOT
    page.select_option("#pad-fastest", "1")
    expect(page.locator("[data-problem='1']")).to_have_text(
        "Gracz 2 nie wpisał słowa, więc nie mógł pierwszy odwrócić klepsydry"
    )
    expect(page.locator("#pad-save")).to_be_disabled()
    page.select_option("#pad-fastest", "0")
    expect(page.locator("[data-problem='1']")).to_have_text("")
    expect(page.locator("#pad-save")).to_be_enabled()


def test_typed_cards_are_refused_where_they_were_typed(
    server: tuple[str, Any], browser: Browser
) -> None:
    """Ohanami cards typed as 200 abc: why, right under that field, and nothing entered lost."""
    url, _app = server
    page = open_pad(browser, url, "ohanami", 390, locale="en-GB")
    page.fill("[data-player='0'] [data-colour='blue']", "2")
    page.fill("[data-player='1'] [data-colour='pink']", "3")
    expect(page.locator("#pad-round")).to_have_attribute("data-scores", "6,0")
    page.fill("[data-cards='0']", "200 abc")
    page.press("[data-cards='0']", "Tab")
    problem = page.locator("[data-cards-problem='0']")
    expect(problem).to_be_visible()
    expect(problem).to_contain_text("there is no card 200")
    expect(problem).to_contain_text("“abc” is not a number")
    field, said = (
        page.locator(sel).bounding_box() for sel in ("[data-cards='0']", "[data-cards-problem='0']")
    )
    assert field and said and 0 <= said["y"] - (field["y"] + field["height"]) < 30
    expect(page.locator("[data-cards='0']")).to_have_value("200 abc")
    expect(page.locator("[data-player='0'] [data-colour='blue']")).to_have_value("2")
    expect(page.locator("#pad-round")).to_have_attribute("data-scores", "6,0")  # still counted
    assert overflow(page) == 0
    shot(page, "phone-pad-ohanami-refused-en-390")
    page.select_option("#lang", "pl")  # the form is said again in Polish, the typed text kept
    expect(page.locator("[data-player='0'] legend")).to_have_text("Gracz 1")
    expect(page.locator("[data-cards='0']")).to_have_value("200 abc")
    expect(problem).to_contain_text("nie ma karty 200")
    page.fill("[data-cards='0']", "200 abc 3 3")
    page.press("[data-cards='0']", "Tab")
    expect(problem).to_contain_text("nie ma karty 200")
    expect(problem).to_contain_text("„abc” to nie liczba")
    expect(problem).to_contain_text("karta 3 wpisana dwa razy")
    shot(page, "phone-pad-ohanami-refused-pl-390")
    page.fill("[data-cards='0']", "2 4 3")
    page.press("[data-cards='0']", "Tab")
    expect(problem).to_have_text("")
    expect(page.locator("#pad-round")).to_have_attribute("data-scores", "6,0")


def test_server_errors_are_said_in_the_page_language(
    server: tuple[str, Any], browser: Browser, tmp_path: Path
) -> None:
    """A pad the server cannot save says so in Polish, by the error's code; what was typed
    stays; a file that is not JSON is named as such on the verify page."""
    url, _app = server
    page = open_pad(browser, url, "ohanami", 360)
    page.route(
        "**/api/companion/*",
        lambda route: route.fulfill(
            status=503,
            json={"detail": {"code": "storage_unavailable", "message": "database is locked"}},
        ),
    )
    page.fill("[data-player='0'] [data-colour='blue']", "2")
    expect(page.locator("#pad-round [role=alert]")).to_have_text(
        "Nie zapisano: Serwer nie może teraz zapisywać: spróbuj ponownie za minutę."
    )
    expect(page.locator("[data-player='0'] [data-colour='blue']")).to_have_value("2")
    page.unroute("**/api/companion/*")
    path = tmp_path / "notes.txt"
    path.write_text("not a game")
    page.goto(f"{url}/verify")
    expect(page.locator("#explain-where")).not_to_be_empty()  # the page is ready
    # the file picker is the page's own button, in the page's language
    expect(page.locator(".upload-button")).to_have_text("Wybierz plik…")
    expect(page.locator("#upload-name")).to_have_text("Nie wybrano pliku")
    page.set_input_files("#upload", str(path))
    expect(page.locator("#verdict")).to_contain_text("ten plik to nie JSON")
    expect(page.locator("#upload-name")).to_have_text("notes.txt")
    page.select_option("#lang", "ru")
    expect(page.locator(".upload-button")).to_have_text("Выбрать файл…")
    expect(page.locator("#upload-name")).to_have_text("notes.txt")
    assert overflow(page) == 0
    page.focus("#lang")  # the keyboard reaches the input hidden behind the button
    for _ in range(10):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.id") == "upload":
            break
    assert page.evaluate("document.activeElement.id") == "upload"


def test_a_wrong_invite_key_offers_watching(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    created = httpx.post(
        f"{url}/api/tables", json={"game": "koi-koi", "seats": ["human", "human"]}
    ).json()
    table_id = created["id"]
    page = new_page(browser, locale="pl-PL", width=390, height=800)
    page.goto(f"{url}/t/{table_id}?seat=1&key=WRONG")
    watch = page.locator("#banner #watch-link")
    expect(watch).to_have_text("Oglądaj ten stół")
    expect(watch).to_have_attribute("href", f"/t/{table_id}?watch=1")
    expect(page.locator("#banner #lobby-link")).to_have_attribute("href", "/")
    expect(page.locator("#banner")).to_contain_text("klucz zaproszenia jest błędny")
    assert overflow(page) == 0
    shot(page, "wrong-key-pl-390")
    page.select_option("#lang", "ru")
    expect(watch).to_have_text("Смотреть этот стол")
    expect(page.locator("#banner #lobby-link")).to_have_text("Перейти в лобби")
    watch.click()
    page.wait_for_selector("#board[data-version]")
    expect(page.locator("#banner #watch-link")).to_have_count(0)
    page.goto(f"{url}/t/{table_id}")  # the wrong key is forgotten: no refusal again
    page.wait_for_selector("#board[data-version]")
    expect(page.locator("#banner #watch-link")).to_have_count(0)


@pytest.mark.parametrize("path", ["/t/NOPE", "/replay/NOPE"])
def test_an_unknown_table_is_a_404_page(
    server: tuple[str, Any], browser: Browser, path: str
) -> None:
    url, _app = server
    page = new_page(browser, locale="ru-RU", width=360, height=700)
    response = page.goto(f"{url}{path}")
    assert response is not None and response.status == 404
    expect(page.locator("h1")).to_have_text("Не найдено")
    expect(page.locator("#not-found-text")).to_contain_text("Такого стола нет")
    expect(page.locator("#lobby-link")).to_have_attribute("href", "/")
    assert overflow(page) == 0
    shot(page, f"not-found-{path.split('/')[1]}-ru-360")
    page.click("#lobby-link")
    expect(page).to_have_url(f"{url}/")
    page.wait_for_selector("#lang")  # the lobby has stored its language: now choose Polish
    page.evaluate("localStorage.setItem('cardtable.lang', 'pl')")
    page.goto(f"{url}{path}")
    expect(page.locator("#not-found-text")).to_contain_text("Nie ma takiego stołu")
    expect(page.locator("#lobby-link")).to_contain_text("Przejdź do lobby")
    english = httpx.get(f"{url}{path}", headers={"Accept-Language": "en-US,en;q=0.9"})
    assert english.status_code == 404 and "There is no such table" in english.text
    assert "NOPE" not in english.text  # the address asked for is never said back
    hostile = httpx.get(f"{url}/t/%3Cscript%3Ex")
    assert hostile.status_code == 404 and "<script>x" not in hostile.text
    assert "cardtable" in hostile.text  # our page, not a bare error


def test_the_verify_page_explains_itself(server: tuple[str, Any], browser: Browser) -> None:
    url, _app = server
    page = new_page(browser, locale="pl-PL", width=390, height=800)
    page.goto(f"{url}/verify")
    explain = page.locator("#explain")
    expect(explain).to_be_visible()
    expect(explain).to_contain_text("Plik gry to zapis JSON")
    expect(explain).to_contain_text("„Pobierz grę (JSON)”")
    expect(explain).to_contain_text("zobowiązaniem")
    expect(explain).to_contain_text("każdy ruch")
    shot(page, "verify-explained-pl-390")
    assert overflow(page) == 0
    page.select_option("#lang", "en")
    expect(explain).to_contain_text("Download game (JSON)")
    expect(explain).to_contain_text("every move is replayed")


def signed_record(rng: random.Random, signer: Signer | None = None) -> dict[str, Any]:
    """A finished koi-koi game as the server lets its players download it (signed by
    ``signer``, else by a key of its own)."""
    sealed = Commitment.draw()
    game = cardtable.load("koi-koi", rounds=1)
    state = game.new_state(seed=sealed.seed)
    while not state.is_over:
        seat = min(state.to_move)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    options = game.options.model_dump(mode="json")
    record = GameRecord(game.id, options, sealed.seed, (), tuple(state.log)).to_json()
    return seal(record, sealed, signer or Signer(Signer.new_key()))


def tampered(record: dict[str, Any]) -> tuple[dict[str, Any], int, int, str]:
    """The record with its seventh card play changed to a card already played: which move
    (from 1), whose, and the card."""
    forged = json.loads(json.dumps(record))
    plays = [n for n, move in enumerate(forged["log"]) if move["action"]["type"] == "play"]
    card = forged["log"][plays[0]]["action"]["card"]
    forged["log"][plays[6]]["action"] = {"type": "play", "card": card, "take": None}
    return forged, plays[6] + 1, forged["log"][plays[6]]["seat"], card


def test_a_failed_verification_names_the_move(
    server: tuple[str, Any], browser: Browser, tmp_path: Path
) -> None:
    url, _app = server
    record = signed_record(random.Random(5))
    assert verify(record).ok
    forged, move, seat, card = tampered(record)
    said = f"move {move} (seat {seat}: play {card}): not legal here — {card} is not in your hand"
    answer = httpx.post(f"{url}/api/verify", json=forged).json()
    assert not answer["ok"] and answer["commitment_ok"]
    reason = f"{card} is not in your hand"
    assert answer["failed_move"] == {
        "move": move, "seat": seat, "action": f"play {card}", "reason": reason
    }  # fmt: skip
    assert any(said in problem for problem in answer["problems"])
    # the page, in English and in Polish
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    page = new_page(browser, width=390, height=800)
    page.goto(f"{url}/verify")
    expect(page.locator("#explain-where")).not_to_be_empty()  # the page is ready
    page.set_input_files("#upload", str(path))
    verdict = page.locator("#verdict")
    expect(verdict).to_contain_text(said)
    expect(verdict).to_have_attribute("data-failed-move", str(move))
    shot(page, "verify-failed-en-390")
    page.select_option("#lang", "pl")
    expect(verdict).to_contain_text(f"ruch {move} (miejsce {seat}: play {card}): tu niedozwolony")
    # the terminal says the same
    result = CliRunner().invoke(cli, ["verify", str(path)])
    assert result.exit_code == 1
    assert said in re.sub(r"\s+", " ", result.output)
    assert f"the moves before move {move} replay legally" in re.sub(r"\s+", " ", result.output)
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    result = CliRunner().invoke(cli, ["verify", str(good), "--key", record["signature"]["key"]])
    assert result.exit_code == 0 and f"{len(record['log'])} moves replay legally" in result.output
    result = CliRunner().invoke(cli, ["verify", str(good)])  # whoever signed it: not told
    said = " ".join(result.output.split())
    assert result.exit_code == 1 and "not checked against the server's key" in said


def test_the_verify_page_names_a_reordered_move(
    server: tuple[str, Any], browser: Browser, tmp_path: Path
) -> None:
    """Two plays swapped in a record the server signed: every move may still be legal,
    and the page says which move is not the one the server recorded (issue 37)."""
    url, app = server
    record = signed_record(random.Random(5), app.state.hub.signer())
    assert httpx.post(f"{url}/api/verify", json=record).json()["ok"]
    plays = [n for n, move in enumerate(record["log"]) if move["action"]["type"] == "play"]
    forged = json.loads(json.dumps(record))
    first, second = plays[0], plays[1]
    forged["log"][first], forged["log"][second] = record["log"][second], record["log"][first]
    path = tmp_path / "swapped.json"
    path.write_text(json.dumps(forged))
    page = new_page(browser, width=390, height=800)
    page.goto(f"{url}/verify")
    expect(page.locator("#explain-where")).not_to_be_empty()
    page.set_input_files("#upload", str(path))
    verdict = page.locator("#verdict")
    expect(verdict).to_have_attribute("data-altered-move", str(first + 1))
    expect(verdict).to_contain_text(f"move {first + 1} is not the move the server recorded")
    expect(verdict).to_contain_text("changed after the server signed it")
    shot(page, "verify-swapped-en-390")
    page.select_option("#lang", "pl")
    expect(verdict).to_contain_text(f"ruch {first + 1} nie jest ruchem, który serwer tu zapisał")
