"""How deep a level's search tree reaches: the share of its iterations that walk into a
third turn (a turn: one seat's moves in a row), where the ``master`` level stops its tree.

Positions: a few random moves into a game, the level's whole budget, no clock.

    .venv/bin/python benchmarks/tree_depth.py --level expert --positions 4
"""

from __future__ import annotations

import argparse
import random

import cardtable
from cardtable.agents.base import make_agent
from cardtable.agents.ismcts import ISMCTSAgent, Node
from cardtable.core.state import State

GAMES = (("koi-koi", 2), ("hana-awase", 2), ("ohanami", 2))


def position(game_id: str, players: int, seed: int, moves: int) -> State:
    """A position ``moves`` random moves into a new game (every seat's, in turn)."""
    state = cardtable.load(game_id, players=players).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        for seat in sorted(state.to_move):
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def into_third_turn(root: Node, seat: int) -> int:
    """Iterations whose walk down the tree reached a third turn (each counted once: at the
    first node of that turn)."""
    reached = 0
    lines = [(child, seat, 1) for child in root.children.values()]
    while lines:
        node, last, turns = lines.pop()
        turns += node.seat != last
        if turns == 3:
            reached += node.visits
            continue
        lines.extend((child, node.seat, turns) for child in node.children.values())
    return reached


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--positions", type=int, default=4)
    args = parser.parse_args()
    for game_id, players in GAMES:
        shares = []
        for seed in range(args.positions):
            state = position(game_id, players, seed, moves=2 + seed)
            seat = min(state.to_move)
            bot = make_agent(args.level, game_id, seed)
            assert isinstance(bot, ISMCTSAgent)
            root = bot.search(state, seat, state.legal_actions(seat))
            iterations = sum(child.visits for child in root.children.values())
            shares.append(into_third_turn(root, seat) / iterations)
        said = ", ".join(f"{share:.0%}" for share in shares)
        print(f"{game_id}: {said} of {args.level}'s iterations reach a third turn")


if __name__ == "__main__":
    main()
