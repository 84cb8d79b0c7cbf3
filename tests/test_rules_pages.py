"""Every kind of score line the engines produce links to a section of its game's rule page
that exists, so a player can read why a line scored."""

from __future__ import annotations

import html
import random
import re

import pytest

import cardtable
from cardtable.cli.docs import page_path, render
from cardtable.locales import TRANSLATED_DOCS, message
from cardtable.server.rules_pages import (
    page_html,
    section_for,
    sections,
    slug,
    translated_sections,
)


def page_source(game_id: str) -> str:
    return page_path(game_id).read_text(encoding="utf-8")


GAMES = [
    ("bakappana", {"players": 3}),
    ("koi-koi", {"lucky_hands": "win", "oya_ken_points": 6}),
    (
        "hana-awase",
        {"players": 3, "teyaku": True, "special_payments": True, "willow_row_cancels_yaku": True},
    ),
    ("hana-awase-88", {"teyaku": True, "special_payments": True}),
    ("ohanami", {"players": 2}),
    ("siedem-slow", {"players": 2, "deck": "en", "validation": "challenge"}),
]


def rule_prefixes(game_id: str, options: dict[str, object], games: int) -> set[str]:
    rng = random.Random(1)
    seen: set[str] = set()
    for seed in range(games):
        state = cardtable.load(game_id, **options).new_state(seed=seed)
        while not state.is_over:
            seat = min(s for s in state.to_move if s >= 0)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        for result in state.results:
            seen.update(line.rule.split(":", 1)[0] for line in result.lines)
    return seen


@pytest.mark.parametrize(("game_id", "options"), GAMES)
def test_every_score_line_links_to_an_existing_section(
    game_id: str, options: dict[str, object]
) -> None:
    page = page_html(game_id)
    ids = set(re.findall(r'id="([^"]+)"', page))
    prefixes = rule_prefixes(game_id, options, games=1 if game_id == "siedem-slow" else 8)
    assert prefixes, "no score lines seen"
    for prefix in prefixes | set(sections(game_id)):
        anchor = section_for(game_id, f"{prefix}:x")
        assert anchor, f"{game_id}: score lines '{prefix}' link to no section"
        assert anchor in ids, f"{game_id}: section '{anchor}' is not a heading of docs/{game_id}.md"


@pytest.mark.parametrize("lang", TRANSLATED_DOCS)
@pytest.mark.parametrize("game_id", cardtable.game_ids())
def test_the_sections_score_lines_link_to_are_translated(game_id: str, lang: str) -> None:
    english_headings = set(re.findall(r"^## (.+)$", page_source(game_id), re.MULTILINE))
    translated = translated_sections(game_id, lang)
    assert set(translated) <= english_headings, "a translation names no English section"
    assert set(sections(game_id).values()) <= set(translated)
    page = page_html(game_id, lang)
    assert f'<html lang="{lang}">' in page and message("rules.partial", lang) in page
    ids = dict(re.findall(r'<h2 id="([^"]+)">([^<]+)</h2>', page))
    for heading in sections(game_id).values():
        anchor = slug(heading)
        assert anchor in ids, f"{lang}: the link to '{heading}' lands nowhere"
        shown = translated[heading].splitlines()[0].removeprefix("## ")
        assert ids[anchor] == html.escape(shown, quote=False)
    assert page != page_html(game_id)


@pytest.mark.parametrize("lang", TRANSLATED_DOCS)
def test_generated_tables_of_the_translations_are_up_to_date(lang: str) -> None:
    for game_id in cardtable.game_ids():
        path = page_path(game_id, lang)
        text = path.read_text(encoding="utf-8")
        assert render(game_id, text, lang) == text, f"{path} is stale: run make docs"
    assert "| яку | по-русски | карты | очки |" in page_path("koi-koi", "ru").read_text("utf-8")


def test_an_unknown_language_gets_the_english_page() -> None:
    assert page_html("ohanami", "xx") == page_html("ohanami")
    assert translated_sections("ohanami", "en") == {}
