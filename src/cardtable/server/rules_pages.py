"""The games' rule pages as standalone HTML pages (``/rules/GAME``): the Markdown of
:mod:`cardtable.core.rule_pages` with anchored headings, tables a phone can read, and
links to the other games' pages and the deck page."""

from __future__ import annotations

import html
import re
from functools import cache

from markdown_it import MarkdownIt

from cardtable.core.game import Capability, spec_of
from cardtable.core.rule_pages import headings, merged_source, slug
from cardtable.locales import LANGUAGE_NAMES, TRANSLATED_DOCS, message
from cardtable.server.cards import web_clients

PAGE_LINK = re.compile(r'href="([a-z0-9-]+)\.md')
TABLE = re.compile(r"<table>.*?</table>", re.DOTALL)
ROW = re.compile(r"<tr>.*?</tr>", re.DOTALL)
CELL = re.compile(r"<td(\s[^>]*)?>(.*?)</td>", re.DOTALL)
HEADER = re.compile(r"<th(?:\s[^>]*)?>(.*?)</th>", re.DOTALL)
OUTSIDE_TAG_UNDERSCORE = re.compile(r"_(?![^<]*>)")
#: a code block of terminal commands (cardtable play ...): folded away on the web page
COMMANDS = re.compile(r"<pre><code>cardtable .*?</code></pre>", re.DOTALL)


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
    # the commands that play the game in a terminal mean nothing to a reader at the web
    # table: kept, folded under a line that says what they are
    folded = html.escape(message("rules.terminal", lang))
    body = COMMANDS.sub(
        lambda block: (
            f'<details class="commands"><summary>{folded}</summary>{block.group(0)}</details>'
        ),
        body,
    )
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
        f"{_deck_link(game_id, lang)}{_language_links(game_id, lang)}</header>"
        f'<main class="doc panel">{learn}{body}</main></body></html>'
    )


def _deck_link(game_id: str, lang: str) -> str:
    """A link to the deck page (/cards) from the pages of the games whose client has one."""
    client = web_clients().get(game_id)
    if client is None or client.deck is None:
        return ""
    text = html.escape(message("cards.link", lang))
    return f'<a id="cards-link" class="header-link" href="/cards?lang={lang}">{text}</a>'


def _language_links(game_id: str, lang: str) -> str:
    """The page in the other languages (a page without scripts: links, not a menu)."""
    links = (
        f'<a href="/rules/{game_id}?lang={code}" hreflang="{code}" lang="{code}">{name}</a>'
        for code, name in LANGUAGE_NAMES.items()
        if code != lang
    )
    return f'<nav class="header-link lang-links">{" · ".join(links)}</nav>'
