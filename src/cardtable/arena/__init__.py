"""Bot tournaments: mirrored deals, process-pool play, ratings, win rates, plots."""

from cardtable.arena.tournament import (
    GameJob,
    GameOutcome,
    HeadToHead,
    head_to_head,
    play_job,
    ratings,
    read_outcomes,
    records,
    run,
    schedule,
)

__all__ = [
    "GameJob",
    "GameOutcome",
    "HeadToHead",
    "head_to_head",
    "play_job",
    "ratings",
    "read_outcomes",
    "records",
    "run",
    "schedule",
]
