"""Ohanami's options, declared once (players and the pink tie-break). They live apart
from the engine's module because that one is compiled (the pydantic models stay
interpreted Python)."""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field

from cardtable.core.options import GameOptions, option

__all__ = ["OhanamiOptions"]


class OhanamiOptions(GameOptions):
    GROUPS: ClassVar[tuple[str, ...]] = ("scoring",)

    players: int = Field(2, ge=2, le=4, description="Number of players, 2 to 4.")
    pink_tiebreak: Literal["raw", "capped"] = option(
        "raw",
        description=(
            "Ties on points go to more pink cards: raw counts every pink card; capped "
            "counts at most 15 (as scored)."
        ),
        group="scoring",
    )
