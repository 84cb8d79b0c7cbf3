"""The bot ladder and a player's place on it.

Each game's bot levels carry an openskill (Plackett-Luce) rating calibrated from arena runs
(``ladder.json`` beside this module, written by ``benchmarks/ladder.py``). A player's games
against those bots are rated with the bots' ratings held fixed: the player starts where
openskill starts everyone and moves game by game; the result sits between two rungs.

>>> from cardtable.arena.ladder import RecordedGame, rate_player
>>> beaten = [RecordedGame("koi-koi", ("you", "hard"), (1, 0)) for _ in range(30)]
>>> placed = rate_player(beaten)["koi-koi"]
>>> placed.above, placed.below  # above every rung: the highest is koi-koi's expert's
('expert', None)
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from cardtable.arena.tournament import ranks

LADDER_PATH = Path(__file__).with_name("ladder.json")
#: how the player's own seat is named in a recorded game (the others: bot levels)
YOU = "you"


@dataclass(frozen=True)
class Rung:
    level: str
    mu: float
    sigma: float


@cache
def ladder() -> dict[str, tuple[Rung, ...]]:
    """game -> its bot levels' ratings, weakest first (the shipped ladder.json)."""
    data = json.loads(LADDER_PATH.read_text(encoding="utf-8"))
    return {
        game: tuple(
            sorted(
                (
                    Rung(level, float(r["mu"]), float(r["sigma"]))
                    for level, r in entry["levels"].items()
                ),
                key=lambda rung: rung.mu,
            )
        )
        for game, entry in data["games"].items()
    }


@dataclass(frozen=True)
class RecordedGame:
    """One finished game as the browser's record keeps it: who sat where (``you`` or a bot
    level) and the final scores, seat by seat."""

    game: str
    seats: tuple[str, ...]
    scores: tuple[float, ...]


@dataclass(frozen=True)
class Placement:
    """A player's rating in one game and the rungs around it (None: off that end)."""

    game: str
    mu: float
    sigma: float
    games: int
    below: str | None  # the weakest level rated above the player
    above: str | None  # the strongest level rated below the player

    def to_json(self) -> dict[str, Any]:
        return {
            "mu": round(self.mu, 2),
            "sigma": round(self.sigma, 2),
            "games": self.games,
            "above": self.above,
            "below": self.below,
            "ladder": {rung.level: round(rung.mu, 2) for rung in ladder()[self.game]},
        }


def rate_player(played: Iterable[RecordedGame]) -> dict[str, Placement]:
    """The player's rating per game from their games against the ladder's bots (games with
    anyone else at the table, or in a game without a ladder, are left out)."""
    from openskill.models import PlackettLuce  # noqa: PLC0415 - only rating needs it

    model = PlackettLuce()
    rungs = ladder()
    players: dict[str, Any] = {}
    counted: dict[str, int] = {}
    for game in played:
        known = {rung.level: rung for rung in rungs.get(game.game, ())}
        if game.seats.count(YOU) != 1 or not all(s == YOU or s in known for s in game.seats):
            continue
        player = players.setdefault(game.game, model.rating(name=YOU))
        teams = [
            [player if seat == YOU else model.rating(mu=known[seat].mu, sigma=known[seat].sigma)]
            for seat in game.seats
        ]
        rated = model.rate(teams, ranks=ranks(game.scores))
        players[game.game] = rated[game.seats.index(YOU)][0]  # the bots stay where they are
        counted[game.game] = counted.get(game.game, 0) + 1
    out = {}
    for name, player in players.items():
        above = [rung.level for rung in rungs[name] if rung.mu <= player.mu]
        below = [rung.level for rung in rungs[name] if rung.mu > player.mu]
        out[name] = Placement(
            name,
            player.mu,
            player.sigma,
            counted[name],
            below[0] if below else None,
            above[-1] if above else None,
        )
    return out
