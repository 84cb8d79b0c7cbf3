"""Message catalogues (en, pl, ru) shared by the terminal and the browser.

>>> message("hint.near", "en", yaku="Tsukimi-zake")
'Tsukimi-zake is one card away'
>>> message("hint.near", "xx", yaku="Ame-shikō")  # unknown languages fall back to English
'Ame-shikō is one card away'
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

LANGUAGES = ("en", "pl", "ru")
#: each language named in itself, as the pages' language menus name them (web/js/i18n.js)
LANGUAGE_NAMES = {"en": "English", "pl": "Polski", "ru": "Русский"}
#: languages with translated sections of the rule pages (docs/LANG/GAME.md)
TRANSLATED_DOCS = ("pl", "ru")


#: catalogue folders of games registered from outside ``cardtable.games`` (GameSpec.locales)
_INCLUDED: list[Path] = []


def include_catalogues(folder: Path) -> None:
    """Read ``folder/LANG.json`` too: a game package's own words, wherever it lives."""
    if folder not in _INCLUDED:
        _INCLUDED.append(folder)
        catalogue.cache_clear()


def exclude_catalogues(folder: Path) -> None:
    if folder in _INCLUDED:
        _INCLUDED.remove(folder)
        catalogue.cache_clear()


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every message of a language (English for an unknown one): the shared catalogue, and
    each game package's own (``games/NAME/locales/LANG.json``, and the folders of
    :func:`include_catalogues`: its options, its words)."""
    lang = lang if lang in LANGUAGES else "en"
    root = resources.files("cardtable")
    data: dict[str, str] = json.loads((root / "locales" / f"{lang}.json").read_text("utf-8"))
    games = sorted((root / "games").iterdir(), key=lambda entry: entry.name)
    for folder in [*(package / "locales" for package in games), *_INCLUDED]:
        own = folder / f"{lang}.json"
        if own.is_file():
            data.update(json.loads(own.read_text("utf-8")))
    return data


def bot_help_key(game_id: str, name: str) -> str:
    """The catalogue key that explains a bot to a player: the game's own words where its
    bot of that name plays differently (``bot.GAME.NAME.help``), else ``bot.NAME.help``.

    >>> bot_help_key("siedem-slow", "easy"), bot_help_key("ohanami", "easy")
    ('bot.siedem-slow.easy.help', 'bot.easy.help')
    """
    own = f"bot.{game_id}.{name}.help"
    return own if own in catalogue("en") else f"bot.{name}.help"


class Localized(NamedTuple):
    """A value given in every language (a yaku's name): a message picks the reader's."""

    en: str
    pl: str
    ru: str


class Term(NamedTuple):
    """A value that is itself a catalogue entry (a colour's name), said in the reader's
    language."""

    key: str


class SeatRef(NamedTuple):
    """A seat named in a message ("pays {seat}"): "seat 2" where nobody's name is known; a
    front end that knows the players says the name instead (``ScoreLine.to_json``)."""

    seat: int


def message(key: str, lang: str = "en", **values: Any) -> str:
    """A message with its ``{name}`` fields filled in (the key itself when missing).

    >>> message("line.yaku", "pl", yaku=Localized("Sankō", "Sankō (trzy światła)", "Санко"))
    'Sankō (trzy światła)'
    """
    text = catalogue(lang).get(key) or catalogue("en").get(key) or key
    return text.format(**{name: _said(value, lang) for name, value in values.items()})


class Reason(str):
    """Why the rules refuse a move (or warn of one, or struck a word): the English text
    (what ``str`` sees, so callers that compare, print or raise it keep working), with its
    catalogue key and values, which say it in any language (:meth:`text`) or as JSON for a
    front end (:meth:`to_json`; as a value of another message, :func:`value_json`).

    >>> why = reason("illegal.over")
    >>> why, why.key, why.text("pl")
    ('the game is over', 'illegal.over', 'gra się skończyła')
    """

    key: str
    values: dict[str, Any]

    def __new__(cls, key: str, values: dict[str, Any]) -> Reason:
        self = super().__new__(cls, message(key, "en", **values))
        self.key = key
        self.values = values
        return self

    def __getnewargs__(self) -> tuple[str, dict[str, Any]]:  # type: ignore[override]
        return (self.key, self.values)  # pickles (a refusal sent between processes)

    def text(self, lang: str) -> str:
        """The reason in ``lang`` (English for an unknown language)."""
        return message(self.key, lang, **self.values)

    def to_json(self) -> dict[str, Any]:
        """``{"key": ..., "values": ...}`` with values as :func:`value_json` makes them."""
        return {"key": self.key, "values": {k: value_json(v) for k, v in self.values.items()}}


def reason(key: str, **values: Any) -> Reason:
    """A refusal said by catalogue key ``key`` with ``values`` (see :class:`Reason`)."""
    return Reason(key, values)


def reason_text(text: str, lang: str) -> str:
    """``text`` in ``lang`` when it is a :class:`Reason`; any other string as it is."""
    return text.text(lang) if isinstance(text, Reason) else text


def _said(value: Any, lang: str) -> Any:
    if isinstance(value, Reason):  # a reason given inside another message ("struck: {why}")
        return value.text(lang)
    if isinstance(value, Localized):
        return getattr(value, lang if lang in LANGUAGES else "en")
    if isinstance(value, Term):
        return message(value.key, lang)
    if isinstance(value, SeatRef):
        return message("line.seat", lang, n=value.seat + 1)
    return value


def value_json(value: Any) -> Any:
    """A message value as JSON, for front ends that fill the message themselves: every
    language of a :class:`Localized` (and of a :class:`Reason` given as a value), the key of
    a :class:`Term`, the index of a seat.

    >>> value_json(reason("illegal.over"))["pl"]
    'gra się skończyła'
    """
    if isinstance(value, Reason):
        return {lang: value.text(lang) for lang in LANGUAGES}
    if isinstance(value, Localized):
        return value._asdict()
    if isinstance(value, Term):
        return {"term": value.key}
    if isinstance(value, SeatRef):
        return {"seat": value.seat}
    return value
