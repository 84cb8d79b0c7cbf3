"""Every kind of score line the engines produce links to a section of its game's rule page
that exists, so a player can read why a line scored."""

from __future__ import annotations

import html
import random
import re
from pathlib import Path

import pytest

import cardtable
from cardtable.cli.docs import page_path, render
from cardtable.core import rule_pages
from cardtable.core.rule_pages import section_for, sections, slug, translated_sections
from cardtable.locales import TRANSLATED_DOCS, message
from cardtable.server.rules_pages import page_html


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


def heading_ids(page: str) -> list[tuple[str, str, str]]:
    """(level, id, text) of every heading of an HTML page, in order."""
    return re.findall(r'<h([1-6]) id="([^"]+)">([^<]+)</h\1>', page)


@pytest.mark.parametrize("lang", TRANSLATED_DOCS)
@pytest.mark.parametrize("game_id", cardtable.game_ids())
def test_every_page_is_translated_in_full_with_the_english_anchors(game_id: str, lang: str) -> None:
    english = heading_ids(page_html(game_id))
    page = page_html(game_id, lang)
    translated = heading_ids(page)
    assert f'<html lang="{lang}">' in page
    assert message("rules.partial", lang) not in page
    assert translated_sections(game_id, lang) == {}, "a whole page needs no markers"
    assert [(level, anchor) for level, anchor, _ in translated] == [
        (level, anchor) for level, anchor, _ in english
    ], "the translation's headings must be the English page's, in order"
    for heading in sections(game_id).values():
        assert slug(heading) in {anchor for _, anchor, _ in translated}, heading
    # every section heading is said in the page's language (the title is a name, and
    # "Yaku" is the Polish word too)
    said = [text for level, _, text in translated if level != "1"]
    assert not set(said) & {text for level, _, text in english if level != "1"} - {"Yaku"}
    assert f"<title>{html.escape(message('rules.title', lang, game=translated[0][2]))}" in page
    if game_id == "hana-awase":  # a link to another game's page keeps the language
        assert f'href="/rules/hana-awase-88?lang={lang}"' in page


#: words of an English sentence that a Polish or Russian one never holds
ENGLISH = re.compile(
    r"\b(the|and|of|when|with|for|is|are|from|that|this|which|each|every|player|players|"
    r"card|cards|score|scores|round|option|values|meaning|preset|sets|defaults|"
    r"provisional|rare|deck|common|per|extra|points|only|not)\b",
    re.IGNORECASE,
)


def prose(markdown: str) -> str:
    """A page's words outside code: no code blocks, code spans, comments or link targets."""
    text = re.sub(r"^```.*?^```", "", markdown, flags=re.MULTILINE | re.DOTALL)
    text = re.sub(r"`[^`]*`", "", text)
    text = re.sub(r"<!--.*?-->", "", text)
    return re.sub(r"\]\([^)]*\)", "]", text)


@pytest.mark.parametrize("lang", TRANSLATED_DOCS)
@pytest.mark.parametrize("game_id", cardtable.game_ids())
def test_translated_pages_hold_no_english_sentences(game_id: str, lang: str) -> None:
    text = render(game_id, page_path(game_id, lang).read_text("utf-8"), lang)
    found = [
        (number, line)
        for number, line in enumerate(prose(text).splitlines(), 1)
        if ENGLISH.search(line)
    ]
    assert not found, f"docs/{lang}/{game_id}.md: English words in {found[:5]}"
    # and the check itself sees English
    assert ENGLISH.search(prose(page_source(game_id)))


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


def test_a_partial_translation_still_shows_the_rest_in_english(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """LANG/GAME.md may also translate some sections only (marked with the English
    heading): the rest of the page stays English under a note."""
    pages = tmp_path / "pages"
    (pages / "pl").mkdir(parents=True)
    english = page_source("ohanami")
    (pages / "ohanami.md").write_text(english, "utf-8")
    (pages / "pl" / "ohanami.md").write_text(
        "<!-- translates: Scoring -->\n## Punktacja\n\nPo każdym etapie.\n", "utf-8"
    )
    from cardtable.games.ohanami import docs

    monkeypatch.setattr(docs, "PAGES", pages)
    source, anchors_of = rule_pages.merged_source("ohanami", "pl")
    assert message("rules.partial", "pl") in source
    assert "## Punktacja" in source and "## The deck" in source
    assert anchors_of == {"Punktacja": "scoring"}


@pytest.mark.parametrize("lang", TRANSLATED_DOCS)
@pytest.mark.parametrize("game_id", cardtable.game_ids())
def test_the_option_tables_say_every_option_and_bot_in_the_pages_language(
    game_id: str, lang: str
) -> None:
    """A translated page's option table says each option with the catalogue's words in
    the page's language (label and help, each choice), never the model's English
    description; and every bot has its words in that language too."""
    from cardtable.agents import describe_agents
    from cardtable.cli.docs import option_words, value_words
    from cardtable.core.game import spec_of
    from cardtable.core.options import describe
    from cardtable.locales import bot_help_key, catalogue

    page = render(game_id, page_path(game_id, lang).read_text("utf-8"), lang)
    for info in describe(spec_of(game_id).options_model):
        base = f"option.{game_id}.{info.name}"
        assert catalogue(lang).get(base) and catalogue(lang).get(f"{base}.help"), (lang, base)
        _, label, help_text = option_words(game_id, info, lang)
        for words in (label, help_text, value_words(game_id, info, lang, codes=False)):
            assert words.replace("|", "\\|") in page, (lang, base, words)
        assert info.description not in page, (lang, base)
    for name in describe_agents(game_id):
        assert catalogue(lang).get(bot_help_key(game_id, name)), (lang, game_id, name)


#: a developer's word on a player's page: a code name (own_x2, zero_sum) or a bare true/false
CODE_NAME = re.compile(r"\b(\w+_\w+|true|false|True|False)\b")


def test_translated_pages_say_options_in_words_not_code_names(tmp_path: Path) -> None:
    """/rules/GAME?lang=pl|ru as a player gets it: options, their values and the rule sets
    in the catalogue's words (yes/no, not true/false), in the tables and in the prose."""
    from fastapi.testclient import TestClient

    from cardtable.server.app import create_app

    from .server_helpers import FAST

    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", FAST)) as client:
        for game_id in cardtable.game_ids():
            for lang in TRANSLATED_DOCS:
                answer = client.get(f"/rules/{game_id}?lang={lang}")
                assert answer.status_code == 200
                words = html.unescape(re.sub(r"<[^>]+>", " ", answer.text))
                found = CODE_NAME.findall(words)
                assert not found, f"{lang}/{game_id}: {sorted(set(found))[:12]}"
                yes = message("rules.yes", lang)
                assert game_id in ("siedem-slow", "ohanami") or f" {yes}" in words
        # the English page keeps the code names that --rule NAME=VALUE takes
        english = client.get("/rules/koi-koi").text
        assert "own_x2" in english and "zero_sum" in english


#: a card code, the terminal's name for a card ("08-1"): a reader of the rules knows names
CARD_CODE = re.compile(r"\b\d\d-\d\b")


@pytest.mark.parametrize("lang", ["en", "pl", "ru"])
@pytest.mark.parametrize("game_id", ["koi-koi", "hana-awase"])
def test_the_yaku_tables_name_the_cards(game_id: str, lang: str) -> None:
    """The yaku tables of the rule pages say the cards by name in the page's language, a
    whole kind by its name, never by code (issue 39's review: "Tsukimi: 08-1 09-1")."""
    text = page_path(game_id, lang).read_text(encoding="utf-8")
    table = re.search(r"<!-- generated:\w*yaku -->\n(.*?)<!--", text, re.S)
    assert table is not None
    cards_column = [line.split("|")[-3] for line in table.group(1).splitlines()[2:] if line]
    assert cards_column and not any(CARD_CODE.search(cell) for cell in cards_column)
    moon = {"en": "Moon", "pl": "Księżyc", "ru": "Луна"}[lang]
    assert any(moon in cell for cell in cards_column)  # Tsukimi's Moon, by its name


@pytest.mark.parametrize("lang", TRANSLATED_DOCS)
def test_the_translated_ohanami_page_speaks_to_players_not_to_the_code(lang: str) -> None:
    """No source file ("games/ohanami/deck.py") and no engine token ("new", "discard") on
    the Ohanami page a Polish or Russian player reads: the rules in words only."""
    text = page_path("ohanami", lang).read_text("utf-8")
    assert not re.findall(r"`[^`]+`", text), re.findall(r"`[^`]+`", text)
    assert ".py" not in text and "discard" not in text


#: what the engine and the bots are called in code, never on a page a player reads (the
#: page's own notation, `k` letters or a card's letters, stays)
ENGINE_WORDS = re.compile(r"state\.timer|time-up|`(easy|medium|hard|random|greedy|ismcts)`")


@pytest.mark.parametrize("lang", TRANSLATED_DOCS)
def test_the_translated_7_slow_page_names_bots_and_time_as_players_do(lang: str) -> None:
    """The 7 słów page in Polish and Russian says how time runs out and which bot knows
    which words in the words the table uses ("Średni", "Сложный"), with no engine token
    and no option's label put where a bot's name belongs ("Średnio: 110 punktów")."""
    page = page_path("siedem-slow", lang).read_text("utf-8")
    # the generated option tables name options and values by their keys, as the rules form
    text = re.sub(r"<!-- generated:\w+ -->.*?<!-- end -->", "", page, flags=re.S)
    assert not ENGINE_WORDS.search(text), ENGINE_WORDS.findall(text)
    assert not re.search(r"(Średnio|Ciężko|Средне|Трудно): \d+", text)
    medium = {"pl": "Średni", "ru": "Средний"}[lang]
    assert medium in text
