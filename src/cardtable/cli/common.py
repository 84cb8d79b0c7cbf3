"""What the CLI commands share: the language, seats by name."""

from __future__ import annotations

import os
from collections.abc import Sequence

from cardtable.agents import make_agent
from cardtable.agents.base import on_the_clock
from cardtable.core.errors import OptionError
from cardtable.core.terminal import Seat
from cardtable.locales import LANGUAGES, message


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
    humans = [s for s in seats if s.is_human]
    names = []
    for seat in seats:
        if seat.is_human:
            alone = len(humans) == 1
            you = message("term.you", lang)
            names.append(you if alone else message("term.player", lang, n=seat.number + 1))
        else:
            names.append(f"{seat.kind.removeprefix('bot:')} ({seat.number + 1})")
    return names
