"""What the benchmark scripts share: where their figures go."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

#: CARDTABLE_BENCH_RESULTS: another folder (compare_revisions.py keeps its sides' runs apart)
RESULTS = Path(os.environ.get("CARDTABLE_BENCH_RESULTS") or Path(__file__).parent / "results")


def save_figures(name: str, figures: Any) -> Path:
    """Write ``figures`` to benchmarks/results/NAME.json (the folder is gitignored) or to
    the folder CARDTABLE_BENCH_RESULTS names."""
    RESULTS.mkdir(exist_ok=True)
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(figures, indent=1) + "\n")
    return path


def revealed_copy(state: Any, stock: bool, rng: Any) -> Any:
    """An oracle's "determinization" of a hanafuda state: the real hands, and the unseen
    stock's order dealt afresh unless ``stock`` (then the real order too)."""
    from cardtable.core.rng import Rng

    copy = state.clone()
    if not stock:
        rest = list(state.stock[state.stock_pos :])
        rng.shuffle(rest)
        copy.stock = state.stock[: state.stock_pos] + tuple(rest)
    copy.rng = Rng.from_state(rng.getrandbits(64))
    return copy
