"""Calibrate the bot ladder: each bot level's openskill rating per game, from arena runs.

The browser's "Your record" places a player on this ladder (POST /api/rating rates the
player's games against the bots with the bots' ratings held fixed). Each game plays its
levels in neighbouring pairs (koi-koi's master-expert, expert-hard, hard-medium,
medium-easy), DEALS mirrored deals a pairing (every deal from every seat; a pairing
without a searching level, whose games cost next to nothing, 8 times as many), one round
a game; Hana-awase 88 plays its levels three at a table (expert-hard-medium,
hard-medium-easy). The ratings are written, with how they were made, to
src/cardtable/arena/ladder.json (shipped in the package).

    make ladder                                # DEALS=8 JOBS=2, about ten minutes on 2 cores
    .venv/bin/python benchmarks/ladder.py --deals 8 --jobs 2 [GAME ...]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from cardtable.arena import ratings, run, schedule
from cardtable.arena.ladder import LADDER_PATH

#: game -> (arena options, the groups of levels that meet, deals for each group as a share
#: of --deals: Ohanami's hard bot thinks about 17 s a game, so it plays fewer)
PLAN: dict[str, tuple[dict[str, Any], list[tuple[str, ...]], float]] = {
    "koi-koi": (
        {"rounds": 1},
        [("master", "expert"), ("expert", "hard"), ("hard", "medium"), ("medium", "easy")],
        1.0,
    ),
    "bakappana": (
        {"rounds": 1, "players": 2},
        [("expert", "hard"), ("hard", "medium"), ("medium", "easy")],
        1.0,
    ),
    "hana-awase": (
        {"rounds": 1, "players": 2},
        [("expert", "hard"), ("hard", "medium"), ("medium", "easy")],
        1.0,
    ),
    "hana-awase-88": (
        {"rounds": 1},
        [("expert", "hard", "medium"), ("hard", "medium", "easy")],
        0.5,
    ),
    "siedem-slow": (
        {"players": 2},
        [("hard", "medium"), ("medium", "easy")],
        1.0,
    ),
    "ohanami": (
        {"players": 2},
        [("expert", "hard"), ("hard", "medium"), ("medium", "easy")],
        0.25,
    ),
}


#: the levels that search (seconds a game); a group without one plays CHEAP_TIMES the deals:
#: its games cost next to nothing, and levels as close as medium and easy need them
SEARCHING = frozenset({"hard", "expert", "master"})
CHEAP_TIMES = 8


def calibrate(game: str, deals: int, jobs: int, seed: int) -> dict[str, Any]:
    options, groups, share = PLAN[game]
    n = max(2, round(deals * share))
    # 7 słów's word bots all look words up: none of its pairings is cheap
    cheap = n if game == "siedem-slow" else n * CHEAP_TIMES
    scheduled = []
    for group in groups:
        games = n if SEARCHING & set(group) else cheap
        scheduled += schedule(game, list(group), games=games, seed=seed, options=options)
    started = time.time()
    outcomes = run(scheduled, workers=jobs)
    rated = ratings(outcomes)
    return {
        "options": options,
        "groups": [list(g) for g in groups],
        "deals_per_group": n,
        "deals_per_group_without_search": cheap,
        "games": len(outcomes),
        "seconds": round(time.time() - started, 1),
        "levels": {
            name: {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3)}
            for name, r in sorted(rated.items(), key=lambda item: item[1].mu)
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=list(PLAN))
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--out", type=Path, default=LADDER_PATH)
    args = parser.parse_args()
    data = json.loads(args.out.read_text()) if args.out.exists() else {}
    data["about"] = (
        "Bot levels' openskill (Plackett-Luce) ratings per game, from arena runs of "
        "benchmarks/ladder.py (each game: the levels that met, deals_per_group mirrored "
        "deals of each group, one round a game, the seed below)"
    )
    data["seed"] = args.seed
    games = data.setdefault("games", {})
    for game in args.games:
        games[game] = calibrate(game, args.deals, args.jobs, args.seed)
        print(game, json.dumps(games[game]["levels"]), f"{games[game]['seconds']} s", flush=True)
        args.out.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
