"""7 słów options: players, deck, validation, the family rule, variants and house rules
(games/siedem_slow/pages/siedem-slow.md; "Variants" for the variants).

>>> SiedemSlowOptions(players=1, difficulty="brutal").difficulty
'brutal'
"""

from __future__ import annotations

from typing import ClassVar, Literal

from pydantic import Field, model_validator

from cardtable.core.options import GameOptions, option
from cardtable.games.siedem_slow.scoring import BetterCard, VeteranCounts
from cardtable.games.siedem_slow.tables import (
    FASTEST_NEEDS_WITH_MANY,
    HOURGLASS_SECONDS,
    ROUNDS,
    Difficulty,
)


class SiedemSlowOptions(GameOptions):
    GROUPS: ClassVar[tuple[str, ...]] = ("match", "words", "scoring", "timer", "solo", "handicap")

    players: int = Field(3, ge=1, le=6, description="Number of players, 1 (solo) to 6.")
    deck: Literal["pl", "en"] = option(
        "pl",
        description="Letter deck and language: pl (7 słów) or en (Wordsy); provisional.",
        group="words",
    )
    dictionary: str = option(
        "default",
        description="Word list: default (the language's system list) or a file path.",
        # a file path on the machine that runs the game: a server never takes it from a client
        group="words",
        local_only=True,
    )
    rounds: int = option(
        ROUNDS,
        ge=1,
        le=ROUNDS,
        description="Rounds in the game (7).",
        group="match",
    )
    variant: Literal["standard", "no-hourglass"] = option(
        "standard",
        description="no-hourglass: no timer; a main player stands in for the fastest (§10).",
        group="timer",
    )
    validation: Literal["auto", "challenge"] = option(
        "auto",
        description=(
            "auto: the dictionary checks each word as it is written; challenge: words are "
            "checked only when another player challenges them (the table game)."
        ),
        group="words",
    )
    family_rule: Literal["lemma+root", "lemma", "word"] = option(
        "lemma+root",
        description=(
            "No word of a family used in an earlier round: lemma+root blocks the same lemma "
            "and warns (challengeable) on a shared root; lemma only blocks; word blocks "
            "only the identical word."
        ),
        group="words",
    )
    own_families: bool = option(
        True,
        description="The family rule covers your own earlier words too (§8 REC).",
        group="words",
    )
    better_card: BetterCard = option(
        "value",
        description=(
            "Two cards of a letter, the word holds it once: the card worth more scores "
            "(value) or the one in the better column (column)."
        ),
        group="scoring",
    )
    fastest_needs: int = option(
        FASTEST_NEEDS_WITH_MANY,
        ge=1,
        le=5,
        description="With 5-6 players, opponents the fastest must tie or beat for the 2nd box.",
        group="scoring",
    )
    failed_fastest: Literal["compare-zero", "no-first-box"] = option(
        "compare-zero",
        description=(
            "The fastest word fails a challenge: others beat a 0 (compare-zero) or nobody "
            "marks the 1st box this round."
        ),
        group="scoring",
    )
    veterans: tuple[int, ...] = option(
        (),
        description="Seats playing the veteran handicap (only 4 letters at full value).",
        group="handicap",
    )
    veteran_letters: int = option(
        4,
        ge=1,
        le=8,
        description="Full-value letters of a veteran.",
        group="handicap",
    )
    veteran_counts: VeteranCounts = option(
        "uses",
        description="Veteran letters count card uses (uses) or letters, both cards as one.",
        group="handicap",
    )
    difficulty: Difficulty = option(
        "normal",
        description="Solo: normal 100, medium 110, hard 120, brutal 120 (no field 2).",
        group="solo",
    )
    solo_turns_per_field: bool = option(
        False,
        description="Solo house rule: on field 2 the hourglass runs twice (60 s).",
        group="solo",
    )
    hourglass_seconds: int = option(
        HOURGLASS_SECONDS,
        ge=5,
        le=300,
        description="Seconds of sand after the flip.",
        group="timer",
    )
    grace_seconds: int = option(
        2,
        ge=0,
        le=10,
        description="Front ends: seconds to finish typing after the sand runs out.",
        group="timer",
    )
    flip_cap_seconds: int = option(
        180,
        ge=0,
        le=3600,
        description="Nobody flips for this long: a countdown starts with no fastest (0: never).",
        group="timer",
    )

    @model_validator(mode="after")
    def _check(self) -> SiedemSlowOptions:
        for seat in self.veterans:
            if not 0 <= seat < self.players:
                raise ValueError(f"veterans: there is no seat {seat} among {self.players}")
        if self.variant == "no-hourglass" and self.players < 2:
            raise ValueError("the no-hourglass variant needs 2 or more players (solo has SOLO)")
        return self
