"""What each seat is called, in each reader's language.

A name a person chose ("Anna") is the same for everyone. A seat nobody named is called
by what sits there, in the reader's language: "Player 2" for an English page, "Gracz 2"
for a Polish one, "Bot (hard)" / "Бот (сложный)". So a Russian spectator of a Polish
host's table reads Russian names, and the coach and hints say them in the language they
speak. The browser makes the same labels from the same messages (``seatLabels`` in
``web/js/i18n.js``).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from functools import cache
from typing import Protocol

from confusable_homoglyphs.confusables import confusables_data

from cardtable.locales import LANGUAGES, message
from cardtable.locales.seats import default_name, distinct

__all__ = ["MAX_NAME", "Seat", "default_name", "distinct", "seat_labels"]

#: the longest name a person may choose
MAX_NAME = 24


class Seat(Protocol):
    kind: str  # "human" or "bot:<name>"
    name: str
    chosen: bool


def is_default(name: str, kind: str, number: int) -> bool:
    """Whether ``name`` is seat ``number``'s default in some language, numbered apart or
    not: what pages sent before names were per reader (a page cached from then still
    may), and what tables saved then keep; such a name is read as not chosen.

    >>> is_default("Gracz 2", "human", 1), is_default("Бот (сложный) 2", "bot:hard", 3)
    (True, True)
    >>> is_default("Gracz 2", "human", 0), is_default("Anna", "human", 0)
    (False, False)
    """
    defaults = {default_name(kind, number, lang) for lang in LANGUAGES}
    unnumbered = name.rsplit(" ", 1)[0] if name.rsplit(" ", 1)[-1].isdigit() else name
    return name in defaults or unnumbered in defaults


def seat_labels(seats: Sequence[Seat], lang: str = "en") -> list[str]:
    """Every seat's label in ``lang``: its chosen name, else its default, numbered apart.

    >>> from types import SimpleNamespace as S
    >>> seats = [S(kind="human", name="Anna", chosen=True),
    ...          S(kind="bot:hard", name="Bot (hard)", chosen=False),
    ...          S(kind="bot:hard", name="Bot (hard) 2", chosen=False)]
    >>> seat_labels(seats, "pl")
    ['Anna', 'Bot (trudny)', 'Bot (trudny) 2']
    """
    labels: list[str] = []
    for number, seat in enumerate(seats):
        own = seat.name if seat.chosen else default_name(seat.kind, number, lang)
        labels.append(distinct(own, labels))
    return labels


def chosen_name(text: str) -> str:
    """A name as typed, spaces tidied and cut to :data:`MAX_NAME` ("" when it has no
    letter or digit). Invisible format characters go: a right-to-left override would turn
    the words after it around, a lone zero-width space would be a name nobody sees.

    >>> chosen_name("  Anna \u202e  Maria "), chosen_name("\u200b"), chosen_name("\u3164")
    ('Anna Maria', '', '')
    """
    visible = "".join(
        c for c in text if unicodedata.category(c) not in INVISIBLE and c not in FILLERS
    )
    name = " ".join(visible.split())[:MAX_NAME]
    return name if any(c.isalnum() for c in name) else ""


#: control, format, private-use and unpaired surrogate characters
INVISIBLE = frozenset({"Cc", "Cf", "Co", "Cs"})
#: letters that show as nothing (Hangul fillers)
FILLERS = frozenset("\u115f\u1160\u3164\uffa0")


def looks_like_bot(name: str) -> bool:
    """Whether ``name`` reads as a bot's in some language ("Bot (hard)", "Бот (сложный) 2",
    "Bot [hard]"), also when it is spelt with letters that only look alike (a Cyrillic о
    in "Bot", an accent, a fullwidth letter, a blank that is not a space): a person may not
    pass for one. Compared by :func:`skeleton`: the bot word alone or followed by more.

    >>> looks_like_bot("Bot (hard)"), looks_like_bot("bot (Trudny) 2"), looks_like_bot("Bob")
    (True, True, False)
    >>> [looks_like_bot(n) for n in ("\uff22\uff4f\uff54 (hard)", "B\u043et (hard)",
    ...  "\u0411o\u0442 (\u0441\u043b\u043e\u0436\u043d\u044b\u0439)", "B\u00f3t (hard)",
    ...  "Bot\u2800(hard)", "Bot [hard]", "Botticelli", "Robot")]
    [True, True, True, True, True, True, False, False]
    """
    looks = skeleton(name)
    return any(looks == word or looks.startswith(word + " ") for word in bot_words())


@cache
def bot_words() -> frozenset[str]:
    """The skeleton of the word every language calls its bots by ("Bot", "Бот")."""
    return frozenset(
        skeleton(message("lobby.bot_name", lang, name="\x00").partition("\x00")[0])
        for lang in LANGUAGES
    )


def skeleton(text: str) -> str:
    """What ``text`` looks like, in the spirit of Unicode's TR39 skeleton: compatibility
    forms and accents gone, case folded, each letter replaced by the one its confusable
    class is written with (Cyrillic о and Latin o alike), and every run of what is not a
    letter or digit (brackets, blanks of any kind) one space.

    >>> skeleton("B\u043e\u0301t  [Hard]\u2800")
    'bot hard'
    >>> skeleton("\u0411\u043e\u0442") == skeleton("\u0411o\u0442")  # Cyrillic о, Latin o
    True
    """
    plain = unicodedata.normalize("NFKD", text)
    folded = "".join(c for c in plain if not unicodedata.combining(c)).casefold()
    looks = "".join(map(_letter_class, folded))
    return " ".join("".join(c if c.isalnum() else " " for c in looks).split())


@cache
def _letter_class(char: str) -> str:
    """The one character ``char``'s confusable class is written with (the lowest code
    point among ``char`` and its single-character look-alikes)."""
    alike = [str(entry["c"]) for entry in confusables_data.get(char, ())]
    return min([char, *(c for c in alike if len(c) == 1)])
