"""What the CLI commands share: the language, seats by name."""

from __future__ import annotations

import os
from collections.abc import Sequence

from cardtable.agents import make_agent
from cardtable.agents.base import on_the_clock
from cardtable.core.errors import OptionError
from cardtable.core.terminal import Seat
from cardtable.locales import LANGUAGES, message
from cardtable.locales.seats import default_name, distinct


def default_language() -> str:
    """Polish or Russian when the environment says so, else English."""
    for var in ("CARDTABLE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var, "").lower()
        if value:
            return next((lang for lang in LANGUAGES if value.startswith(lang)), "en")
    return "en"


def check_language(lang: str) -> str:
    """``lang`` if the CLI speaks it (en, pl, ru), else an OptionError."""
    if lang not in LANGUAGES:
        raise OptionError(f"--lang must be one of {', '.join(LANGUAGES)}, not {lang!r}")
    return lang


def parse_seats(text: str | None, players: int, game_id: str, seed: int | None) -> list[Seat]:
    """``human,greedy,random`` -> seats; too few entries are filled with greedy bots."""
    names = [s.strip() for s in (text or "human").split(",") if s.strip()]
    if len(names) > players:
        raise OptionError(f"{len(names)} seats given for a {players}-player game")
    while len(names) < players:
        names.append("greedy")
    # a person waits for the bots: a live table, so search levels play on their clock
    live = "human" in names
    seats = []
    for number, name in enumerate(names):
        if name == "human":
            seats.append(Seat(number, "human"))
        else:
            bot_seed = None if seed is None else seed * 31 + number
            bot = make_agent(name, game_id, bot_seed)
            seats.append(Seat(number, name, on_the_clock(bot) if live else bot))
    return seats


def seat_names(seats: Sequence[Seat], lang: str = "en") -> list[str]:
    """Each seat's name in ``lang``: "you" for the one person at the terminal, else the
    names the browser gives ("Gracz 2", "Bot (średni)"), numbered apart.

    >>> bot = object()  # any agent: the seat is a bot's
    >>> seat_names([Seat(0, "human"), Seat(1, "medium", bot), Seat(2, "medium", bot)], "pl")
    ['Ty', 'Bot (średni)', 'Bot (średni) 2']
    """
    alone = sum(s.is_human for s in seats) == 1
    names: list[str] = []
    for seat in seats:
        if seat.is_human and alone:
            name = message("term.you", lang)
        else:
            kind = "human" if seat.is_human else f"bot:{seat.kind.removeprefix('bot:')}"
            name = default_name(kind, seat.number, lang)
        names.append(distinct(name, names))
    return names
