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
from typing import Any

LANGUAGES = ("en", "pl", "ru")


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every message of a language (English for an unknown one)."""
    lang = lang if lang in LANGUAGES else "en"
    text = (resources.files("cardtable") / "locales" / f"{lang}.json").read_text("utf-8")
    data: dict[str, str] = json.loads(text)
    return data


def message(key: str, lang: str = "en", **values: Any) -> str:
    """A message with its ``{name}`` fields filled in (the key itself when missing)."""
    text = catalogue(lang).get(key) or catalogue("en").get(key) or key
    return text.format(**values)
