"""How often does the coach warn of a move that is not clearly worse? Ohanami, 2 players.

Fixed seeded positions: in each seeded game seat 0 plays the ``easy`` bot (greedy with
some random moves, so there are weak moves to find; odd seeds: ``greedy``, whose moves
are mostly good) against ``greedy``; every seat-0 move with a choice is judged at the
game's default coach budget, once as the coach did before (one search) and once as it
does now (a flagged move searched again against the bot's choice alone, which then judges
it: :func:`cardtable.agents.coach.second_look`). Each warning is checked against a
reference: the two moves searched against each other with ``--reference`` iterations and
another seed. A warning is *false* when the reference gap is under ``THRESHOLD``.

    .venv/bin/python -m benchmarks.coach_false_alarms --games 6
"""

from __future__ import annotations

import argparse
import time

import cardtable
from cardtable.agents import make_agent
from cardtable.agents.base import actions_for
from cardtable.agents.coach import (
    THRESHOLD,
    coach_budget,
    duel,
    evaluate,
    gap,
    second_look,
)

from .common import save_figures

GAME = "ohanami"
SEAT = 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="seeded games (seeds 0..N-1)")
    parser.add_argument("--reference", type=int, default=1000, help="reference iterations")
    args = parser.parse_args()
    budget = coach_budget(GAME, None)
    rows = []
    started = time.time()
    for seed in range(args.games):
        state = cardtable.load(GAME, players=2).new_state(seed=seed)
        judged_bot = "easy" if seed % 2 == 0 else "greedy"  # weak moves, and good ones
        bots = [make_agent(judged_bot, GAME, seed), make_agent("greedy", GAME, seed + 100)]
        number = 0
        while not state.is_over:
            mover = min(state.to_move)
            move = bots[mover].choose(state.clone(), mover)
            if mover == SEAT and len(actions_for(state, SEAT)) > 1:
                values = evaluate(state, SEAT, budget, include=move)
                best = max(values, key=lambda action: values[action][1])
                first = gap(GAME, values, best, move)
                row = {"seed": seed, "move": number, "before": first.clearly_worse}
                if first.clearly_worse:
                    second = gap(GAME, second_look(state, SEAT, best, move, budget), best, move)
                    ref = duel(state, SEAT, [best, move], args.reference, again=7)
                    row |= {
                        "after": second.clearly_worse,
                        "reference_gap": round(ref[best][1] - ref[move][1], 3),
                        "first": [round(first.loss, 3), round(first.noise, 3)],
                        "second": [round(second.loss, 3), round(second.noise, 3)],
                    }
                    print(row, flush=True)
                rows.append(row)
            state.apply(mover, move)
            number += 1
    figures: dict[str, object] = {"budget": budget, "reference": args.reference}
    figures |= {"positions": len(rows), "rows": [r for r in rows if r["before"]]}
    for when in ("before", "after"):
        warned = [r for r in rows if r.get(when)]
        false = [r for r in warned if r["reference_gap"] < THRESHOLD]
        figures[when] = {"warnings": len(warned), "false": len(false)}
    figures["seconds"] = round(time.time() - started)
    print(figures)
    print(save_figures("coach_false_alarms", figures))


if __name__ == "__main__":
    main()
