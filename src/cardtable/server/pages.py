"""Pages the server writes itself: the friendly "not found" page, in the reader's language
(from the browser's Accept-Language), with a way back to the lobby."""

from __future__ import annotations

from html import escape

from cardtable.locales import LANGUAGES
from cardtable.locales import catalogue as messages


def language_of(accept_language: str | None) -> str:
    """The first of the browser's languages that cardtable speaks (English otherwise).

    >>> language_of("pl-PL,pl;q=0.9,en;q=0.8"), language_of("de-DE,ru;q=0.5"), language_of(None)
    ('pl', 'ru', 'en')
    """
    wanted = []
    for position, part in enumerate((accept_language or "").split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        wanted.append((-weight, position, tag.strip()[:2].lower()))
    for _, _, base in sorted(wanted):
        if base in LANGUAGES:
            return base
    return "en"


def not_found_html(lang: str, table: bool = False) -> str:
    """A 404 page: what is missing (a table, or any page), and a link to the lobby. It
    never repeats the address asked for: a page of this server's would say a stranger's
    words to whoever follows their link."""
    text = messages(lang)
    title = escape(text["page.not_found_title"])
    said = "page.no_table" if table else "page.no_page"
    body, lobby = text[said], escape(text["page.to_lobby"])
    return f"""<!doctype html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>cardtable — {title}</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/css/app.css">
</head>
<body>
<header class="top"><a class="logo" href="/">card<span>table</span></a></header>
<main class="not-found">
<section class="panel">
<h1 data-i18n="page.not_found_title">{title}</h1>
<p id="not-found-text">{escape(body)}</p>
<p><a id="lobby-link" class="button primary" href="/" data-i18n="page.to_lobby">{lobby}</a></p>
</section>
</main>
<script type="module">
// the language chosen earlier in the app, where it is not the browser's
import {{ loadLanguage, pickLanguage, t, translatePage }} from "/static/js/i18n.js";
const wanted = pickLanguage();
if (wanted !== document.documentElement.lang) {{
  await loadLanguage(wanted);
  translatePage();
  document.title = `cardtable — ${{t("page.not_found_title")}}`;
  document.getElementById("not-found-text").textContent = t("{said}");
}}
</script>
</body>
</html>
"""
