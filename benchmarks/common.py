"""What the benchmark scripts share: where their figures go."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).parent / "results"


def save_figures(name: str, figures: Any) -> Path:
    """Write ``figures`` to benchmarks/results/NAME.json (the folder is gitignored)."""
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
