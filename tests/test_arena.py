"""The arena: mirrored schedules, reproducible results on any number of workers, ratings
that move the right way, honest confidence intervals, files written."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cardtable import OptionError
from cardtable.arena import head_to_head, ratings, records, run, schedule
from cardtable.arena.tournament import Record


def test_round_robin_and_gauntlet_schedules() -> None:
    jobs = schedule("bakappana", ["greedy", "random", "easy"], games=3, seed=1)
    assert len(jobs) == 3 * 3 * 2  # three pairings, three deals, both seats
    for first, second in zip(jobs[::2], jobs[1::2], strict=True):
        assert first.deal_seed == second.deal_seed  # the same deal from each seat
        assert first.bots == second.bots[::-1]
    gauntlet = schedule("bakappana", ["hard", "random", "easy"], games=2, seed=1, mode="gauntlet")
    assert all("hard" in job.bots for job in gauntlet) and len(gauntlet) == 2 * 2 * 2
    three = schedule("hana-awase", ["greedy", "random", "easy"], games=1, seed=1, players=3)
    assert sorted(job.bots for job in three) == sorted(
        [("greedy", "random", "easy"), ("random", "easy", "greedy"), ("easy", "greedy", "random")]
    )
    with pytest.raises(OptionError, match="needs 3 players"):
        schedule("hana-awase-88", ["greedy", "random"], games=1, seed=1)


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    jobs = schedule("koi-koi", ["greedy", "random"], games=3, seed=7, options={"rounds": 1})
    assert run(jobs, workers=1) == run(jobs, workers=2)
    again = schedule("koi-koi", ["greedy", "random"], games=3, seed=7, options={"rounds": 1})
    assert run(again) == run(jobs)


def test_ratings_and_win_rates_move_the_right_way() -> None:
    jobs = schedule("bakappana", ["greedy", "random"], games=30, seed=3, options={"rounds": 1})
    outcomes = run(jobs, workers=2)
    rated = ratings(outcomes)
    assert rated["greedy"].mu > rated["random"].mu
    table = records(outcomes)
    assert table["greedy"].games == table["random"].games == 60
    assert table["greedy"].win_rate > 0.5 > table["random"].win_rate
    low, high = table["greedy"].interval()
    assert 0.5 < low < table["greedy"].win_rate < high <= 1


def test_head_to_head_counts_each_pairing_on_its_own() -> None:
    """A gauntlet's summary mixes opponents; head to head keeps each pairing apart, and the
    margin is paired by deal (the same cards from both seats)."""
    jobs = schedule(
        "bakappana", ["greedy", "random", "easy"], games=20, seed=4, mode="gauntlet",
        options={"rounds": 1},
    )  # fmt: skip
    outcomes = run(jobs, workers=2)
    pairs = {(p.first, p.second): p for p in head_to_head(outcomes, ["greedy", "random", "easy"])}
    assert set(pairs) == {("greedy", "random"), ("greedy", "easy")}  # random never met easy
    versus_random = pairs["greedy", "random"]
    met = [o for o in outcomes if set(o.bots) == {"greedy", "random"}]
    assert versus_random.games == len(met) == 40
    ahead = sum(
        1.0 if o.scores[o.bots.index("greedy")] > o.scores[o.bots.index("random")] else 0.0
        for o in met
    )
    ties = sum(o.scores[0] == o.scores[1] for o in met)
    assert versus_random.share == pytest.approx((ahead + ties / 2) / 40)
    mean, low, high = versus_random.margin()
    assert low < mean < high and mean > 0 and versus_random.share > 0.5
    margins = [o.scores[o.bots.index("greedy")] - o.scores[o.bots.index("random")] for o in met]
    assert mean == pytest.approx(sum(margins) / len(margins))  # every deal played twice
    # the same pairing seen from the other side
    (flipped,) = head_to_head(met, ["random", "greedy"])
    assert flipped.share == pytest.approx(1 - versus_random.share)
    assert flipped.margin()[0] == pytest.approx(-mean)


def test_wilson_interval() -> None:
    record = Record(games=100, wins=50)
    low, high = record.interval()
    assert low == pytest.approx(0.404, abs=0.002) and high == pytest.approx(0.596, abs=0.002)
    assert Record(games=10, wins=10).interval()[1] == 1.0
    assert Record().interval() == (0.0, 1.0)


def test_arena_command_writes_results(tmp_path: Path) -> None:
    out = tmp_path / "arena"
    done = subprocess.run(
        [sys.executable, "-m", "cardtable", "arena", "ohanami", "--bots", "greedy,random",
         "--games", "2", "--jobs", "2", "--out", str(out)],
        capture_output=True, text=True, timeout=300, check=False,
        env={**os.environ, "COLUMNS": "120"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = (out / "results.jsonl").read_text().splitlines()
    assert len(lines) == 4 and json.loads(lines[0])["game"] == "ohanami"
    rows = list(csv.DictReader((out / "results.csv").open()))
    assert len(rows) == 8 and {r["bot"] for r in rows} == {"greedy", "random"}
    assert (out / "plot.png").read_bytes()[:4] == b"\x89PNG"
    assert "win rate" in done.stdout and "greedy – random" in done.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "cardtable", "arena", "ohanami", "--bots", "greedy,wizard"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert bad.returncode == 2 and "unknown bot 'wizard'" in bad.stdout


def arena_command(out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cardtable", "arena", "bakappana", "--bots", "greedy,random",
         "--games", "3", "--rule", "rounds=1", "--out", str(out), *extra],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip


def test_an_interrupted_arena_resumes_from_its_journal(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    assert arena_command(whole).returncode == 0
    journal = (whole / "games.jsonl").read_text().splitlines()
    assert len(journal) == 6
    cut.mkdir()
    (cut / "games.jsonl").write_text("\n".join(journal[:4]) + "\n")  # killed after 4 games
    resumed = arena_command(cut, "--resume")
    assert resumed.returncode == 0, resumed.stdout
    assert "Resuming: 4 of 6 games" in resumed.stdout
    assert "6/6 games" in resumed.stdout  # not a terminal: plain progress lines
    assert (cut / "results.jsonl").read_text() == (whole / "results.jsonl").read_text()
    (cut / "games.jsonl").write_text(journal[0].replace('"deal_seed": ', '"deal_seed": 1') + "\n")
    other = arena_command(cut, "--resume")
    assert other.returncode == 2 and "from another tournament" in other.stdout
    fresh = arena_command(cut)  # without --resume the journal starts again
    assert fresh.returncode == 0 and len((cut / "games.jsonl").read_text().splitlines()) == 6


@pytest.mark.slow  # a Ray cluster starts
def test_ray_backend_gives_the_same_results() -> None:
    jobs = schedule("bakappana", ["greedy", "random"], games=4, seed=11, options={"rounds": 1})
    local = run(jobs, workers=1)
    on_ray = run(jobs, workers=2, backend="ray")  # a local ray.init(num_cpus=2)
    assert on_ray == local
