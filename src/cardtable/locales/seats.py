"""What a seat nobody named is called, in each language: "Player 2", "Gracz 2",
"Bot (hard)" / "Бот (сложный)", numbered apart when two seats would share a name. The
server (``server/seat_names.py``), the terminal and the browser (``seatLabels`` in
``web/js/i18n.js``) call seats alike."""

from __future__ import annotations

from collections.abc import Sequence

from cardtable.locales import message


def distinct(name: str, taken: Sequence[str]) -> str:
    """``name``, numbered when another seat has it already (two medium bots: the log and
    the result must tell them apart).

    >>> distinct("Bot (medium)", ["Anna", "Bot (medium)"])
    'Bot (medium) 2'
    """
    number, candidate = 1, name
    while candidate in taken:
        number += 1
        candidate = f"{name} {number}"
    return candidate


def default_name(kind: str, number: int, lang: str = "en") -> str:
    """What an unnamed seat is called in ``lang`` (``number`` counts from 0).

    >>> default_name("human", 1, "pl"), default_name("bot:hard", 0, "ru")
    ('Gracz 2', 'Бот (сложный)')
    """
    if kind.startswith("bot:"):
        level = kind.removeprefix("bot:")
        words = message(f"bot.{level}", lang)
        return message(
            "lobby.bot_name", lang, name=level if words == f"bot.{level}" else words.lower()
        )
    return message("lobby.default_name", lang, n=number + 1)
