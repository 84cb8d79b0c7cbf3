"""Speed of two revisions side by side, in one run: engine, ISMCTS and RL figures of an
earlier commit (``--before``) and of the working tree (or of ``--after``), both with their
compiled engine, in turns on this machine, and the ratio of each figure (after / before;
above 1 is faster; for a cost, a time or CPU per action, below 1 is cheaper). With
``--engine`` the two sides are the working tree's Python source and its compiled engine
(cardtable.compiled).

    .venv/bin/python benchmarks/compare_revisions.py --before 6300c39
    make bench-compare BEFORE=6300c39              # SOURCE=1: the revision's Python source
    .venv/bin/python benchmarks/compare_revisions.py --before 6300c39 --after d3d1671 \\
        --only engine --game koi-koi --rounds 5    # a quick look at one figure (bisecting)
    make bench-compiled                            # the same as --engine

A revision's files are exported to ``.cache/revisions/SHA`` (git archive) and its compiled
engine is built there with this virtualenv, its own ``src/cardtable/compiled.py`` (a few
minutes, once: later runs reuse the build). ``--source`` times the earlier revision's
Python source instead, for a revision from before the compiled engine; the working tree's
engine must be compiled and fresh (``make compiled``). Each side imports its own sources
(PYTHONPATH), and the run says which engine each side ran and from where.

Both sides run the working tree's benchmark scripts, one instrument for both, and take
turns: before, after, before, after, ``--rounds`` times, so that a load which comes and
goes on this shared machine moves both alike. A figure is the median of its rounds; the
ratio is after / before of the medians, and beside it the lowest and highest ratio of one
round's pair. Figures: benchmarks/results/compare.json (compiled.json for ``--engine``).
"""

from __future__ import annotations

import argparse
import importlib.machinery
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ROOT / "benchmarks"
#: where exported revisions and their compiled engines are kept between runs (gitignored)
REVISIONS = ROOT / ".cache" / "revisions"
#: a revision's files the benchmarks and the build need
EXPORTED = ("src", "pyproject.toml")


@dataclass(frozen=True)
class Benchmark:
    """A benchmark script, its arguments in this comparison, and its figures file."""

    script: str
    arguments: tuple[str, ...]
    name: str


BENCHMARKS_RUN = (
    Benchmark("bench_engine.py", ("--seconds", "0.9"), "engine"),
    Benchmark(
        "bench_ismcts.py", ("--iterations", "600", "--repeats", "2", "--games", "2"), "ismcts"
    ),
    Benchmark("bench_rl.py", ("--seconds", "0.5"), "rl"),
)
#: run only when asked for: the server's CPU per action and latency under 1 000 koi-koi
#: seats (``--only web_load``: bench_web.py, a minute and a half a side a round), and what
#: its own code costs an action without sockets (``--only table``: bench_table.py, steadier)
BENCHMARKS_ASKED = (
    Benchmark("bench_web.py", ("--seats", "1000", "--duration", "30"), "web_load"),
    Benchmark("bench_table.py", ("--tables", "200", "--actions", "10000"), "table"),
)
#: words of a figure's path that name a setting or a derived number, not a speed
NOT_SPEEDS = ("iterations", "runs", "ratio")


@dataclass(frozen=True)
class Side:
    """One side of the comparison: its sources and whether it is to run them as Python."""

    label: str
    src: Path
    pure: bool

    def environment(self, results: Path) -> dict[str, str]:
        environment = {**os.environ, "PYTHONPATH": str(self.src)}
        environment["CARDTABLE_PURE_PYTHON"] = "1" if self.pure else "0"
        environment["CARDTABLE_BENCH_RESULTS"] = str(results)
        # one core: numpy's BLAS threads spin for a while after import, and CPU-time
        # figures count their spinning as the benchmark's own time
        environment.setdefault("OPENBLAS_NUM_THREADS", "1")
        return environment

    def engine(self) -> str:
        """Which engine this side's processes run, and from where (asked of a process)."""
        probe = "import cardtable, cardtable.core.state as s; print(cardtable.__file__, s.__file__)"
        ran = subprocess.run(
            [sys.executable, "-c", probe],
            env=self.environment(Path(tempfile.gettempdir())),
            capture_output=True,
            text=True,
            check=True,
        )
        package, state = ran.stdout.split()
        if not Path(package).is_relative_to(self.src):
            raise SystemExit(f"{self.label}: imported {package}, not the sources of {self.src}")
        compiled = state.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
        if compiled == self.pure:
            wanted = "the Python source" if self.pure else "the compiled engine"
            raise SystemExit(
                f"{self.label}: asked for {wanted} but ran {state}"
                + ("" if self.pure else " (a missing or stale build: make compiled)")
            )
        return f"{'compiled' if compiled else 'Python source'} from {self.src}"


def git(*arguments: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *arguments], check=True, capture_output=True, text=True
    ).stdout.strip()


def exported(revision: str) -> Path:
    """The revision's files in ``.cache/revisions/SHA`` (exported once, then reused)."""
    sha = git("rev-parse", "--verify", f"{revision}^{{commit}}")
    tree = REVISIONS / sha
    if not tree.exists():
        REVISIONS.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=f"{sha}.", dir=REVISIONS))
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", sha, *EXPORTED], check=True, capture_output=True
        )
        subprocess.run(["tar", "-x", "-C", str(staging)], input=archive.stdout, check=True)
        staging.rename(tree)
    return tree


def build_compiled(tree: Path, label: str) -> None:
    """Build the revision's compiled engine in its folder with its own build script (it
    rebuilds only what changed since the last build: nothing, after the first run)."""
    script = tree / "src" / "cardtable" / "compiled.py"
    if not script.exists():
        raise SystemExit(f"{label} has no compiled engine (src/cardtable/compiled.py): --source")
    print(f"{label}: building its compiled engine in {tree} (minutes, the first time) …")
    started = time.monotonic()
    log = tree / "build.log"
    with log.open("w") as out:
        built = subprocess.run(
            [sys.executable, str(script), "--if-stale"],
            check=False,
            cwd=tree,
            stdout=out,
            stderr=out,
        )
    if built.returncode != 0:
        tail = "".join(log.read_text().splitlines(keepends=True)[-20:])
        raise SystemExit(f"{tail}\n{label}: the build failed (all of it in {log}); --source")
    print(f"{label}: built in {time.monotonic() - started:.0f} s", flush=True)


def revision_side(revision: str, *, pure: bool) -> Side:
    tree = exported(revision)
    label = f"{revision} ({git('rev-parse', '--short', revision)})"
    if not pure:
        build_compiled(tree, label)
    return Side(label, tree / "src", pure)


def run(side: Side, benchmark: Benchmark, extra: list[str], results: Path) -> dict[str, float]:
    """One side's run of one benchmark: its figures by their paths."""
    subprocess.run(
        [sys.executable, benchmark.script, *benchmark.arguments, *extra],
        cwd=BENCHMARKS,
        env=side.environment(results),
        check=True,
        stdout=subprocess.DEVNULL,
    )
    figures = json.loads((results / f"{benchmark.name}.json").read_text())
    if isinstance(figures, dict):  # the engine's are beside its settings
        figures = figures.get("figures", figures)
    return flat(figures)


def flat(figures: Any, prefix: str = "") -> dict[str, float]:
    """Every number of a figures file by its path (``koi-koi in_play``)."""
    if isinstance(figures, dict):
        out: dict[str, float] = {}
        for key, value in figures.items():
            out.update(flat(value, f"{prefix} {key}".strip()))
        return out
    if isinstance(figures, list):  # a run per load (bench_web.py): named by its seats
        out = {}
        for n, item in enumerate(figures):
            name = f"{item['seats']} seats" if isinstance(item, dict) and "seats" in item else n
            out.update(flat(item, f"{prefix} {name}".strip()))
        return out
    if isinstance(figures, int | float) and not isinstance(figures, bool):
        return {prefix: float(figures)}
    return {}


def compare(
    before: Side, after: Side, benchmarks: list[Benchmark], rounds: int, games: list[str]
) -> dict[str, dict[str, list[float]]]:
    """Every figure's value in each round, per side: the sides take turns."""
    extra = [argument for game in games for argument in ("--game", game)]
    samples: dict[str, dict[str, list[float]]] = {}
    with tempfile.TemporaryDirectory(prefix="cardtable-compare-") as folder:
        for round_no in range(1, rounds + 1):
            for benchmark in benchmarks:
                for which, side in (("before", before), ("after", after)):
                    print(f"round {round_no}/{rounds} {benchmark.name}: {which} …", flush=True)
                    figures = run(side, benchmark, extra, Path(folder))
                    for key, value in figures.items():
                        if not any(word in key for word in NOT_SPEEDS):
                            name = f"{benchmark.name} {key}"
                            samples.setdefault(name, {"before": [], "after": []})[which].append(
                                value
                            )
    return samples


def _figure(value: float) -> str:
    """Ten characters: thousands as integers, a cost of a few milliseconds with decimals."""
    return f"{value:>10,.0f}" if abs(value) >= 100 else f"{value:>10.3g}"


def report(samples: dict[str, dict[str, list[float]]]) -> dict[str, dict[str, Any]]:
    """The table on the terminal; the figures with their medians and ratios."""
    rows: dict[str, dict[str, Any]] = {}
    print(f"\n{'figure':<62} {'before':>10} {'after':>10} {'ratio':>6}  {'pairs':>11}")
    for key, sides in samples.items():
        old, new = sides["before"], sides["after"]
        if len(old) != len(new) or not all(old):
            continue  # a figure one side lacks, or a zero
        pairs = [a / b for b, a in zip(old, new, strict=True)]
        ratio = statistics.median(new) / statistics.median(old)
        rows[key] = {"before": old, "after": new, "ratio": ratio, "pairs": pairs}
        spread = f"{min(pairs):.2f}–{max(pairs):.2f}"
        print(
            f"{key:<62} {_figure(statistics.median(old))} {_figure(statistics.median(new))}"
            f" {ratio:>6.2f}  {spread:>11}"
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--before", help="the earlier commit (any git revision)")
    which.add_argument(
        "--engine", action="store_true", help="the Python source against the compiled engine"
    )
    parser.add_argument("--after", help="a later commit instead of the working tree")
    parser.add_argument(
        "--source",
        action="store_true",
        help="time the earlier commit's Python source, not its compiled engine",
    )
    parser.add_argument("--rounds", type=int, default=3, help="turns of each side (default 3)")
    parser.add_argument(
        "--only",
        action="append",
        choices=[b.name for b in BENCHMARKS_RUN + BENCHMARKS_ASKED],
        help="repeatable",
    )
    parser.add_argument("--game", action="append", default=[], help="only this game (repeatable)")
    args = parser.parse_args()
    if args.engine and (args.after or args.source):
        parser.error("--engine compares the working tree with itself: no --after, no --source")
    working_tree = Side("working tree", ROOT / "src", pure=False)
    if args.engine:
        before, after = Side("working tree", ROOT / "src", pure=True), working_tree
    else:
        before = revision_side(args.before, pure=args.source)
        after = revision_side(args.after, pure=False) if args.after else working_tree
    engines = {"before": f"{before.label}: {before.engine()}"}
    engines["after"] = f"{after.label}: {after.engine()}"
    for which, engine in engines.items():
        print(f"{which:<6} {engine}")
    asked = BENCHMARKS_RUN + BENCHMARKS_ASKED if args.only else BENCHMARKS_RUN
    benchmarks = [b for b in asked if not args.only or b.name in args.only]
    rows = report(compare(before, after, benchmarks, args.rounds, args.game))
    for which, engine in engines.items():
        print(f"{which:<6} {engine}")
    print(f"{args.rounds} rounds, the sides in turns; ratio: after / before of the medians")
    results = BENCHMARKS / "results"
    results.mkdir(exist_ok=True)
    out = results / ("compiled.json" if args.engine else "compare.json")
    out.write_text(json.dumps({**engines, "rounds": args.rounds, "figures": rows}, indent=1))


if __name__ == "__main__":
    main()
