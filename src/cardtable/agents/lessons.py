"""The seed search behind a game's guided first game: the first seed in which a learner who
plays the ``greedy`` bot's move (against ``greedy`` bots) meets each idea of the game in
order, early. A game's own search module (``hanafuda/lesson_search.py``,
``ohanami/lesson_search.py``) names its ideas and options and writes the result as data
(``lessons/GAME.json``: the seed and every move up to the last idea)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from cardtable.agents.base import make_agent
from cardtable.core.game import load
from cardtable.core.lesson import Condition

JSON = dict[str, Any]


def attempt(
    game_id: str,
    seed: int,
    ideas: Sequence[str],
    options: Mapping[str, Any],
    conditions: Mapping[str, Condition],
    most_moves: int,
    learner: int = 0,
) -> list[JSON] | None:
    """The script of the game from ``seed`` when every idea fires in order within the
    learner's first ``most_moves`` moves, else None."""
    state = load(game_id, **options).new_state(seed=seed)
    bots = {n: make_agent("greedy", game_id, seed=seed + n) for n in range(state.num_players)}
    script: list[JSON] = []
    left, learner_moves = list(ideas), 0
    while left and not state.is_over:
        # one move at a time; in a simultaneous step the learner moves first
        seat = min(state.to_move, key=lambda n: (n != learner, n))
        action = bots[seat].choose(state.clone(), seat)
        step: JSON = {"seat": seat, "action": action.to_json()}
        if seat == learner:
            learner_moves += 1
            if learner_moves > most_moves:
                return None
            if conditions[left[0]](state, seat, action):
                step["idea"] = left.pop(0)
        script.append(step)
        state.apply(seat, action)
    return None if left else script


def search(
    game_id: str,
    ideas: Sequence[str],
    options: Mapping[str, Any],
    conditions: Mapping[str, Condition],
    most_moves: int,
    limit: int = 20000,
) -> JSON:
    for seed in range(limit):
        script = attempt(game_id, seed, ideas, options, conditions, most_moves)
        if script is not None:
            return {"game": game_id, "options": dict(options), "seed": seed, "script": script}
    raise SystemExit(f"{game_id}: no seed under {limit} brings up {list(ideas)} in order")


def write(found: JSON, folder: Path) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / f"{found['game']}.json"
    path.write_text(json.dumps(found, indent=1) + "\n", encoding="utf-8")
    print(f"{found['game']}: seed {found['seed']}, {len(found['script'])} moves -> {path}")
    return path
