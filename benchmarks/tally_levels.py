"""The head-to-head table of arena journals, as Markdown: a row per run and pairing.

Reads every ``games.jsonl`` journal under the folders given (an arena's ``--out``, or
``make levels``'s benchmarks/results/levels), or the journals kept with the project in
benchmarks/reference/levels/ when none is given; docs/bots.md quotes that table.

    .venv/bin/python benchmarks/tally_levels.py
    .venv/bin/python benchmarks/tally_levels.py benchmarks/results/levels
"""

from __future__ import annotations

import argparse
from pathlib import Path

from cardtable.arena import GameOutcome, head_to_head, read_outcomes

REFERENCE = Path(__file__).parent / "reference" / "levels"
#: the stronger bot of a pairing is named first
STRENGTH_ORDER = ["expert", "hard", "strategist", "medium", "greedy", "easy", "random"]


def strength(bot: str) -> int:
    """A bot's place in :data:`STRENGTH_ORDER` (a bot not in it comes last)."""
    return STRENGTH_ORDER.index(bot) if bot in STRENGTH_ORDER else len(STRENGTH_ORDER)


def journals(folders: list[Path]) -> list[Path]:
    found: list[Path] = []
    for folder in folders:
        found += sorted(folder.rglob("games.jsonl"))
        # a kept journal is named after its run; results.jsonl repeats a games.jsonl
        found += sorted(p for p in folder.glob("*.jsonl") if p.stem not in ("games", "results"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folders", nargs="*", type=Path, default=[REFERENCE])
    args = parser.parse_args()
    # a run is one journal: runs of one game may differ in rules (one round, six rounds)
    runs: dict[str, list[GameOutcome]] = {}
    for path in journals(args.folders):
        name = path.parent.name if path.name == "games.jsonl" else path.stem
        runs[name] = read_outcomes(path)
    if not runs:
        folders = ", ".join(map(str, args.folders))
        raise SystemExit(f"no arena journals (games.jsonl) under {folders}")
    print("| run | pairing | games | first ahead (95 %) | margin a game (95 %) |")
    print("|---|---|---|---|---|")
    for name, outcomes in sorted(runs.items()):
        pairs = head_to_head(outcomes, STRENGTH_ORDER)
        pairs.sort(key=lambda p: (strength(p.first), strength(p.second)))
        for pair in pairs:
            share, interval, margin = pair.figures()
            print(
                f"| {name} | {pair.first} – {pair.second} | {pair.games} "
                f"| {share} ({interval}) | {margin} |"
            )


if __name__ == "__main__":
    main()
