"""Find the seeds of the searched hanafuda guided games (``cardtable.agents.lessons``): the
result is data, ``lessons/GAME.json``, which ``lessons.py`` reads. Run again after a rules
or bot change:

    python -m cardtable.games.hanafuda.lesson_search bakappana hana-awase hana-awase-88
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from cardtable.agents.lessons import search, write
from cardtable.games.hanafuda.lessons import IDEAS

HERE = Path(__file__).resolve().parent / "lessons"
#: the ideas each searched game brings up, in order, and the options of its lesson
PLANS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "bakappana": (("match", "choice", "draw", "points"), {"rounds": 1, "players": 2}),
    "hana-awase": (("match", "choice", "draw", "yaku"), {"rounds": 1, "players": 3}),
    "hana-awase-88": (("match", "choice", "draw", "steal", "yaku"), {"rounds": 1, "players": 3}),
}
#: the learner's moves, at most, before the last idea has come up
MOST_MOVES = 8


def main(games: list[str]) -> None:
    for game_id in games:
        ideas, options = PLANS[game_id]
        write(search(game_id, ideas, options, IDEAS, MOST_MOVES), HERE)


if __name__ == "__main__":
    main(sys.argv[1:] or list(PLANS))
