"""How often does the coach warn of a move that is not clearly worse? Ohanami, 2 players.

Two sets of fixed seeded positions, each move judged at the game's default coach budget
once as the coach did before (one search) and once as it does now (a flagged move
searched again against the bot's choice alone, which then judges it:
:func:`cardtable.agents.coach.look_again`):

- ``own`` (the measure of docs/coach.md): positions reached by seeded random moves, the
  move judged the ``hard`` bot's own (with another seed): every warning is a false alarm;
- ``played``: seeded games where seat 0 plays the ``easy`` bot (greedy with some random
  moves, so there are weak moves to find; odd seeds: ``greedy``) against ``greedy``;
  every seat-0 move with a choice is judged, and each warning is checked against a
  reference, the two moves searched against each other with ``--reference`` iterations
  and another seed: it is *false* when the reference gap is under ``THRESHOLD``.

    .venv/bin/python -m benchmarks.coach_false_alarms --own 15 --games 0
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterator
from typing import Any

import cardtable
from cardtable.agents import make_agent
from cardtable.agents.base import actions_for
from cardtable.agents.coach import (
    THRESHOLD,
    Judgement,
    coach_budget,
    evaluate,
    gap,
    look_again,
    search_moves,
)
from cardtable.core.actions import Action
from cardtable.core.state import State

from .common import save_figures

GAME = "ohanami"
SEAT = 0


def both_ways(state: State, seat: int, move: Action, budget: int) -> tuple[Judgement, Judgement]:
    """The move judged by the first search alone (before), and as the coach judges it now."""
    values = evaluate(state, seat, budget, include=move)
    best = max(values, key=lambda action: values[action][1])
    first = gap(GAME, values, best, move)
    if not first.clearly_worse:
        return first, first
    return first, look_again(state, seat, first, budget)


def own_positions(count: int) -> Iterator[tuple[int, State, int, Action]]:
    """Positions after seeded random moves, with the hard bot's own move there."""
    for seed in range(count):
        state = cardtable.load(GAME, players=2).new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(3 + seed % 8):
            for seat in sorted(state.to_move):
                state.apply(seat, rng.choice(state.legal_actions(seat)))
        seat = min(state.to_move)
        if len(actions_for(state, seat)) > 1:
            yield (
                seed,
                state,
                seat,
                make_agent("hard", GAME, seed + 1000).choose(state.clone(), seat),
            )


def own_moves(count: int, budget: int) -> dict[str, Any]:
    rows = []
    for seed, state, seat, move in own_positions(count):
        before, after = both_ways(state, seat, move, budget)
        row = {"seed": seed, "before": before.clearly_worse, "after": after.clearly_worse,
               "first": round(before.loss, 3), "second": round(after.loss, 3)}  # fmt: skip
        print(row, flush=True)
        rows.append(row)
    return {
        "positions": len(rows),
        "before": {"warnings": sum(r["before"] for r in rows)},
        "after": {"warnings": sum(r["after"] for r in rows)},
        "rows": rows,
    }


def played_moves(games: int, budget: int, reference: int) -> dict[str, Any]:
    rows = []
    for seed in range(games):
        state = cardtable.load(GAME, players=2).new_state(seed=seed)
        judged_bot = "easy" if seed % 2 == 0 else "greedy"  # weak moves, and good ones
        bots = [make_agent(judged_bot, GAME, seed), make_agent("greedy", GAME, seed + 100)]
        number = 0
        while not state.is_over:
            mover = min(state.to_move)
            move = bots[mover].choose(state.clone(), mover)
            if mover == SEAT and len(actions_for(state, SEAT)) > 1:
                first, now = both_ways(state, SEAT, move, budget)
                row = {"seed": seed, "move": number, "before": first.clearly_worse}
                if first.clearly_worse:
                    ref = search_moves(state, SEAT, [first.better, move], reference, again=7)
                    row |= {
                        "after": now.clearly_worse,
                        "reference_gap": round(ref[first.better][1] - ref[move][1], 3),
                        "first": [round(first.loss, 3), round(first.noise, 3)],
                        "second": [round(now.loss, 3), round(now.noise, 3)],
                    }
                    print(row, flush=True)
                rows.append(row)
            state.apply(mover, move)
            number += 1
    figures: dict[str, Any] = {"positions": len(rows)}
    for when in ("before", "after"):
        warned = [r for r in rows if r.get(when)]
        false = [r for r in warned if r["reference_gap"] < THRESHOLD]
        figures[when] = {"warnings": len(warned), "false": len(false)}
    figures["rows"] = [r for r in rows if r["before"]]
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--own", type=int, default=15, help="positions of the hard bot's move")
    parser.add_argument("--games", type=int, default=6, help="seeded games (seeds 0..N-1)")
    parser.add_argument("--reference", type=int, default=1000, help="reference iterations")
    args = parser.parse_args()
    budget = coach_budget(GAME, None)
    started = time.time()
    figures: dict[str, Any] = {"budget": budget, "reference": args.reference}
    figures["own"] = own_moves(args.own, budget)
    figures["played"] = played_moves(args.games, budget, args.reference)
    figures["seconds"] = round(time.time() - started)
    print({k: v for k, v in figures.items() if k != "rows"})
    print(save_figures("coach_false_alarms", figures))


if __name__ == "__main__":
    main()
