"""Find the seed of Ohanami's guided first game (``cardtable.agents.lessons``); the result
is data, ``lessons/ohanami.json``. Run again after a rules or bot change:

    python -m cardtable.games.ohanami.lesson_search
"""

from __future__ import annotations

from pathlib import Path

from cardtable.agents.lessons import search, write
from cardtable.games.ohanami.lessons import IDEAS

HERE = Path(__file__).resolve().parent / "lessons"
#: stage 1 is ten of the learner's moves (five keeps, five placings): the stages idea
#: comes with the first keep of stage 2
MOST_MOVES = 11

if __name__ == "__main__":
    write(
        search("ohanami", ("keep", "grow", "colours", "stages"), {"players": 2}, IDEAS, MOST_MOVES),
        HERE,
    )
