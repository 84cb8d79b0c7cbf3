"""Speed of two revisions side by side, in one run: engine, ISMCTS and RL figures of an
earlier commit (``--before``) and of the working tree, measured in turns on this machine,
and the ratio of each figure (after / before; above 1 is faster). With ``--engine`` the two
sides are the working tree's Python source and its compiled engine (cardtable.compiled).

    .venv/bin/python benchmarks/compare_revisions.py --before 6804ffc
    make bench-compare BEFORE=6804ffc
    make bench-compiled          # the same as --engine

The earlier commit is checked out in a temporary folder (``git worktree``) and each side
runs its own benchmark scripts on its own sources with this virtualenv; figures are the
scripts' own JSON (benchmarks/results/). Ratios from one run are what compare: these
machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
#: script, its arguments, the figures file it writes
BENCHMARKS = (
    ("bench_engine.py", ["--seconds", "1.5"], "engine"),
    ("bench_ismcts.py", ["--iterations", "600", "--repeats", "2", "--games", "2"], "ismcts"),
    ("bench_rl.py", ["--seconds", "1.0"], "rl"),
)


@contextmanager
def checkout(revision: str) -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="cardtable-before-") as folder:
        tree = Path(folder) / "tree"
        subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "add", "--detach", str(tree), revision],
            check=True,
            capture_output=True,
        )
        try:
            yield tree
        finally:
            subprocess.run(
                ["git", "-C", str(ROOT), "worktree", "remove", "--force", str(tree)],
                check=False,
                capture_output=True,
            )


def run(
    tree: Path, script: str, arguments: list[str], name: str, *, pure: bool = False
) -> dict[str, Any]:
    """One side's benchmark: its script on its sources (``pure``: the Python source even
    where a compiled engine is built); its figures."""
    environment = {**os.environ, "PYTHONPATH": str(tree / "src")}
    environment["CARDTABLE_PURE_PYTHON"] = "1" if pure else "0"
    # one core: numpy's BLAS threads spin for a while after import, and CPU-time figures
    # count their spinning as the benchmark's own time
    environment.setdefault("OPENBLAS_NUM_THREADS", "1")
    subprocess.run(
        [sys.executable, script, *arguments],
        cwd=tree / "benchmarks",
        env=environment,
        check=True,
        stdout=subprocess.DEVNULL,
    )
    figures: dict[str, Any] = json.loads(
        (tree / "benchmarks" / "results" / f"{name}.json").read_text()
    )
    return figures


def flat(figures: Any, prefix: str = "") -> dict[str, float]:
    """Every number of a figures file by its path (``ismcts koi-koi in_play``)."""
    if isinstance(figures, dict):
        out: dict[str, float] = {}
        for key, value in figures.items():
            out.update(flat(value, f"{prefix} {key}".strip()))
        return out
    if isinstance(figures, int | float) and not isinstance(figures, bool):
        return {prefix: float(figures)}
    return {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--before", help="the earlier commit (any git revision)")
    which.add_argument(
        "--engine", action="store_true", help="the Python source against the compiled engine"
    )
    args = parser.parse_args()
    rows: list[tuple[str, float, float]] = []
    label = "python source" if args.engine else args.before
    with nullcontext(ROOT) if args.engine else checkout(args.before) as before:
        for script, arguments, name in BENCHMARKS:
            print(f"{name}: {label} …", flush=True)
            old = flat(run(before, script, arguments, name, pure=args.engine))
            print(f"{name}: {'compiled' if args.engine else 'working tree'} …", flush=True)
            new = flat(run(ROOT, script, arguments, name))
            skip = ("iterations", "runs", "ratio")  # settings and derived numbers
            for key in sorted(old.keys() & new.keys()):
                if not any(word in key for word in skip) and old[key]:
                    rows.append((f"{name} {key}", old[key], new[key]))
    print(f"\n{'figure':<64} {'before':>11} {'after':>11} {'ratio':>6}")
    for key, old_value, new_value in rows:
        print(f"{key:<64} {old_value:>11,.0f} {new_value:>11,.0f} {new_value / old_value:>6.2f}")
    results = ROOT / "benchmarks" / "results"
    results.mkdir(exist_ok=True)
    report = {key: {"before": b, "after": a, "ratio": a / b} for key, b, a in rows}
    out = results / ("compiled.json" if args.engine else "compare.json")
    out.write_text(json.dumps({"before": label, **report}, indent=1))


if __name__ == "__main__":
    main()
