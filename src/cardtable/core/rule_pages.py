"""The games' rule pages as Markdown, in the reader's language, and which section of a page
explains each kind of score line: what the server's HTML pages (``/rules/GAME``) and
``cardtable rules GAME`` both read.

Every :class:`~cardtable.core.results.ScoreLine` has a stable ``rule`` key such as
``"yaku:tsukimi"``; its prefix names the rule that produced it. Each game's spec says which
heading of its page explains that rule (``GameSpec.rule_sections``), so a score line in
the browser links straight to the paragraph that justifies it.

>>> section_for("koi-koi", "multiplier:koikoi")
'scoring'
>>> section_for("hana-awase-88", "teyaku:7")
'before-play-teyaku'
>>> section_for("ohanami", "something-new")
''
"""

from __future__ import annotations

import re
from itertools import pairwise

from markdown_it import MarkdownIt

from cardtable.core.game import spec_of
from cardtable.locales import TRANSLATED_DOCS, message


def sections(game_id: str) -> dict[str, str]:
    """Rule-key prefix -> heading of the game's page (its spec's ``rule_sections``);
    unknown prefixes link to the page's top."""
    return dict(spec_of(game_id).rule_sections)


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
