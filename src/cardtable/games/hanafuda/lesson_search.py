"""Find the seed of a hanafuda guided first game: the first seed in which a learner who
plays the ``greedy`` bot's move (against ``greedy`` bots) meets each idea of the game in
order, early. The result is data (``lessons/GAME.json``: the seed and every move up to
the last idea); ``lessons.py`` reads it. Run again after a rules change:

    python -m cardtable.games.hanafuda.lesson_search bakappana hana-awase hana-awase-88
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from cardtable.agents import make_agent
from cardtable.core.game import load
from cardtable.core.lesson import Condition
from cardtable.games.hanafuda.lessons import IDEAS

HERE = Path(__file__).resolve().parent / "lessons"
#: the ideas each searched game brings up, in order, and the options of its lesson
PLANS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "bakappana": (("match", "choice", "draw"), {"rounds": 1, "players": 2}),
    "hana-awase": (("match", "choice", "draw", "yaku"), {"rounds": 1, "players": 3}),
    "hana-awase-88": (("match", "choice", "draw", "steal", "yaku"), {"rounds": 1, "players": 3}),
}
#: the learner's moves, at most, before the last idea has come up
MOST_MOVES = 8


def attempt(
    game_id: str,
    seed: int,
    ideas: tuple[str, ...],
    options: dict[str, Any],
    conditions: dict[str, Condition],
) -> list[dict[str, Any]] | None:
    """The script of the game from ``seed`` when every idea fires in order, else None."""
    state = load(game_id, **options).new_state(seed=seed)
    bots = {n: make_agent("greedy", game_id, seed=seed + n) for n in range(state.num_players)}
    script: list[dict[str, Any]] = []
    left, learner_moves = list(ideas), 0
    while left and not state.is_over and state.rounds_finished == 0:
        seat = min(state.to_move)
        action = bots[seat].choose(state.clone(), seat)
        step: dict[str, Any] = {"seat": seat, "action": action.to_json()}
        if seat == 0:
            learner_moves += 1
            if learner_moves > MOST_MOVES:
                return None
            if conditions[left[0]](state, seat, action):
                step["idea"] = left.pop(0)
        script.append(step)
        state.apply(seat, action)
    return None if left else script


def search(game_id: str, limit: int = 20000) -> dict[str, Any]:
    ideas, options = PLANS[game_id]
    for seed in range(limit):
        script = attempt(game_id, seed, ideas, options, IDEAS)
        if script is not None:
            return {"game": game_id, "options": options, "seed": seed, "script": script}
    raise SystemExit(f"{game_id}: no seed under {limit} brings up {ideas} in order")


def main(games: list[str]) -> None:
    HERE.mkdir(exist_ok=True)
    for game_id in games:
        found = search(game_id)
        path = HERE / f"{game_id}.json"
        path.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
        print(f"{game_id}: seed {found['seed']}, {len(found['script'])} moves -> {path}")


if __name__ == "__main__":
    main(sys.argv[1:] or list(PLANS))
