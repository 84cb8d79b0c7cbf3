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
