"""docs/bots.md's table "Above expert" cites the journals it was worked out from
(benchmarks/reference/above-expert/): every row's rounds, share ahead and margin are what
the arena's own statistics give for its journal."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cardtable.arena.tournament import head_to_head, read_outcomes

ROOT = Path(__file__).resolve().parent.parent
JOURNALS = ROOT / "benchmarks" / "reference" / "above-expert"
DOC = ROOT / "src" / "cardtable" / "docs" / "bots.md"


def cited_rows() -> dict[str, list[str]]:
    """Each row of the table by its variant's name (the last `name` of its first cell)."""
    text = DOC.read_text(encoding="utf-8")
    table = text.split("### Above `expert`", 1)[1].split("\n\n", 3)[2]
    rows = {}
    for line in table.splitlines()[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        names = re.findall(r"`([a-z0-9.-]+)`", cells[0])
        rows[names[-1]] = cells
    return rows


@pytest.mark.parametrize("journal", sorted(JOURNALS.glob("*-expert.jsonl")), ids=lambda p: p.stem)
def test_each_cited_row_is_what_its_journal_gives(journal: Path) -> None:
    variant = journal.stem.removesuffix("-expert")
    rows = cited_rows()
    assert variant in rows, f"docs/bots.md cites no row for {journal.name}"
    (pairing,) = head_to_head(read_outcomes(journal), [variant, "expert"])
    share, interval, margin = pairing.figures()
    cells = rows[variant]
    assert cells[1] == str(pairing.games)
    assert cells[2] == f"{share} ({interval})"
    assert cells[3] == margin.replace("-", "−")


def test_every_row_has_its_journal() -> None:
    for variant in cited_rows():
        assert (JOURNALS / f"{variant}-expert.jsonl").exists(), variant


MASTER_ROWS = {  # the master table's rows: its journal and the level met
    "against `expert`, single rounds": ("turns-2-expert.jsonl", "expert"),
    "against `expert`, 12-round matches": ("12-rounds/turns-2-expert.jsonl", "expert"),
    "against `hard`, single rounds": ("turns-2-hard.jsonl", "hard"),
    "Hana-awase (2 players), the same cut against `expert`, single rounds": (
        "hana-awase/turns-2-expert.jsonl",
        "expert",
    ),
}


def test_the_master_table_is_what_its_journals_give() -> None:
    text = DOC.read_text(encoding="utf-8")
    table = text.split("#### `master` in matches and against `hard`", 1)[1].split("\n\n")[1]
    rows = [[c.strip() for c in line.strip("|").split("|")] for line in table.splitlines()[2:]]
    assert [row[0] for row in rows] == list(MASTER_ROWS)
    for pairing_said, games, share_said, margin_said in rows:
        journal, level = MASTER_ROWS[pairing_said]
        (pairing,) = head_to_head(read_outcomes(JOURNALS / journal), ["turns-2", level])
        share, interval, margin = pairing.figures()
        assert (games, share_said) == (str(pairing.games), f"{share} ({interval})")
        assert margin_said == margin.replace("-", "−")
