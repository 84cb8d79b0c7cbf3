"""The games' rule pages as HTML, and which section explains each kind of score line.

Every :class:`~cardtable.core.results.ScoreLine` has a stable ``rule`` key such as
``"yaku:tsukimi"``; its prefix names the rule that produced it. Each game says which
heading of its page (docs/GAME.md) explains that rule (its spec's DOCS capability), so a
score line in the browser links straight to the paragraph that justifies it.

>>> section_for("koi-koi", "multiplier:koikoi")
'scoring'
>>> section_for("hana-awase-88", "teyaku:7")
'before-play-teyaku'
>>> section_for("ohanami", "something-new")
''
"""

from __future__ import annotations

import html
import re
from functools import cache
from itertools import pairwise

from markdown_it import MarkdownIt

from cardtable.core.game import Capability, spec_of
from cardtable.locales import TRANSLATED_DOCS, message
from cardtable.server.cards import web_clients


def sections(game_id: str) -> dict[str, str]:
    """Rule-key prefix -> heading of the game's page (its DOCS capability); unknown
    prefixes link to the page's top."""
    docs = spec_of(game_id).optional(Capability.DOCS)
    found: dict[str, str] = {} if docs is None else docs.SECTIONS.get(game_id, {})
    return found


def slug(heading: str) -> str:
    """The anchor of a heading: lower case, words joined by hyphens."""
    return re.sub(r"[^\w]+", "-", heading.lower()).strip("-")


def section_for(game_id: str, rule: str) -> str:
    """The anchor explaining a score line's rule in the game's page ('' for the top)."""
    heading = sections(game_id).get(rule.split(":", 1)[0])
    return slug(heading) if heading else ""


def anchors(game_id: str) -> dict[str, str]:
    """Rule prefix -> anchor, for the browser."""
    return {prefix: slug(heading) for prefix, heading in sections(game_id).items()}


#: marks a translated section with the English heading it stands for (docs/LANG/GAME.md)
TRANSLATES = re.compile(r"^<!-- translates: (.+?) -->\n", re.MULTILINE)
SECTION = re.compile(r"^## (.+)$", re.MULTILINE)
PAGE_LINK = re.compile(r'href="([a-z0-9-]+)\.md')
TABLE = re.compile(r"<table>.*?</table>", re.DOTALL)
ROW = re.compile(r"<tr>.*?</tr>", re.DOTALL)
CELL = re.compile(r"<td(\s[^>]*)?>(.*?)</td>", re.DOTALL)
HEADER = re.compile(r"<th(?:\s[^>]*)?>(.*?)</th>", re.DOTALL)
OUTSIDE_TAG_UNDERSCORE = re.compile(r"_(?![^<]*>)")


def _labelled(table: re.Match[str]) -> str:
    """A table whose cells name their column (``data-label``: a phone shows each row as a
    block, every cell under its column's name) and whose long option names and values
    (continue_with_stock_after_hands) may break after an underscore."""
    html_table = table.group(0)
    labels = [re.sub(r"<[^>]+>", "", th) for th in HEADER.findall(html_table)]

    def row(match: re.Match[str]) -> str:
        cells = iter(labels)

        def cell(found: re.Match[str]) -> str:
            label = html.escape(html.unescape(next(cells, "")), quote=True)
            content = OUTSIDE_TAG_UNDERSCORE.sub("_<wbr>", found.group(2))
            return f'<td{found.group(1) or ""} data-label="{label}">{content}</td>'

        return CELL.sub(cell, match.group(0))

    return ROW.sub(row, html_table)


def translated_sections(game_id: str, lang: str) -> dict[str, str]:
    """English heading -> its translated section (heading line included), for ``lang``."""
    if lang not in TRANSLATED_DOCS:
        return {}
    path = spec_of(game_id).rule_page(lang)
    if not path.is_file():
        return {}
    parts = TRANSLATES.split(path.read_text("utf-8"))
    # split() gives [text before the first marker, heading, section, heading, section, ...]
    return {parts[k]: parts[k + 1].strip() + "\n\n" for k in range(1, len(parts), 2)}


def headings(source: str) -> list[str]:
    """The text of every heading of a Markdown page, in order (code blocks skipped)."""
    tokens = MarkdownIt("commonmark").parse(source)
    return [tokens[k + 1].content for k, token in enumerate(tokens) if token.type == "heading_open"]


def translated_page(game_id: str, lang: str) -> str | None:
    """docs/LANG/GAME.md when it is the whole page in ``lang`` (no "translates" markers),
    else None."""
    if lang not in TRANSLATED_DOCS:
        return None
    path = spec_of(game_id).rule_page(lang)
    if not path.is_file():
        return None
    text = path.read_text("utf-8")
    return None if TRANSLATES.search(text) else text


def merged_source(game_id: str, lang: str) -> tuple[str, dict[str, str]]:
    """The page's Markdown in ``lang`` and the anchor of every translated heading, which
    keeps the English heading's anchor so links work in every language.

    A whole translated page (docs/LANG/GAME.md with the English page's headings, in the
    same order) replaces the English one; a partial one (sections marked ``<!-- translates:
    HEADING -->``) stands in for those sections only, under a note that the rest is in
    English."""
    source = spec_of(game_id).rule_page().read_text("utf-8")
    whole = translated_page(game_id, lang)
    if whole is not None:
        english, translated = headings(source), headings(whole)
        assert len(english) == len(translated), (
            f"docs/{lang}/{game_id}.md has {len(translated)} headings, the English page "
            f"{len(english)}"
        )
        return whole, {mine: slug(theirs) for mine, theirs in zip(translated, english, strict=True)}
    translations = translated_sections(game_id, lang)
    if not translations:
        return source, {}
    starts = [m.start() for m in SECTION.finditer(source)] + [len(source)]
    pieces, anchors_of = [source[: starts[0]], f"> {message('rules.partial', lang)}\n\n"], {}
    for start, end in pairwise(starts):
        section = source[start:end]
        heading = SECTION.match(section)
        assert heading is not None
        english_heading = heading.group(1).strip()
        translated_section = translations.get(english_heading)
        if translated_section is None:
            pieces.append(section)
            continue
        match = SECTION.match(translated_section)
        assert match is not None, (
            f"docs/{lang}/{game_id}.md: '{english_heading}' needs a ## heading"
        )
        anchors_of[match.group(1).strip()] = slug(english_heading)
        pieces.append(translated_section)
    return "".join(pieces), anchors_of


def _heading_ids(md: MarkdownIt, anchors_of: dict[str, str]) -> None:
    def add_ids(state: object) -> None:
        tokens = state.tokens  # type: ignore[attr-defined]
        for k, token in enumerate(tokens):
            if token.type == "heading_open":
                text = tokens[k + 1].content
                token.attrSet("id", anchors_of.get(text) or slug(text))

    md.core.ruler.push("heading_ids", add_ids)


def page_html(game_id: str, lang: str = "en") -> str:
    """The game's rule page (docs/GAME.md) as a standalone HTML page; in Polish or Russian
    it is docs/LANG/GAME.md (any other language: English)."""
    return _page_html(game_id, lang if lang in TRANSLATED_DOCS else "en")


@cache  # keyed by known languages only: ?lang= comes from the address bar
def _page_html(game_id: str, lang: str) -> str:
    source, anchors_of = merged_source(game_id, lang)
    md = MarkdownIt("commonmark").enable("table")
    _heading_ids(md, anchors_of)
    # long option names and values (continue_with_stock_after_hands) may break after an
    # underscore, so a table fits a phone's width
    body = TABLE.sub(_labelled, md.render(source))
    # a link to another game's page (hana-awase-88.md) opens that page in the same language
    body = PAGE_LINK.sub(lambda link: f'href="/rules/{link.group(1)}?lang={lang}', body)
    title = headings(source)[0] if source.startswith("# ") else game_id
    learn = (
        f'<p class="learn-row"><a id="learn-link" class="button primary" href="/learn/{game_id}">'
        f"{html.escape(message('lesson.learn', lang))}</a> "
        f'<span class="muted">{html.escape(message("lesson.learn_help", lang))}</span></p>'
        if spec_of(game_id).has(Capability.LESSON)
        else ""
    )
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(message('rules.title', lang, game=title))}</title>"
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        '<link rel="stylesheet" href="/static/css/app.css"></head><body>'
        '<header class="top"><a class="logo" href="/">card<span>table</span></a>'
        f"{_deck_link(game_id, lang)}</header>"
        f'<main class="doc panel">{learn}{body}</main></body></html>'
    )


def _deck_link(game_id: str, lang: str) -> str:
    """A link to the deck page (/cards) from the pages of the games whose client has one."""
    client = web_clients().get(game_id)
    if client is None or client.deck is None:
        return ""
    text = html.escape(message("cards.link", lang))
    return f'<a id="cards-link" class="header-link" href="/cards?lang={lang}">{text}</a>'
