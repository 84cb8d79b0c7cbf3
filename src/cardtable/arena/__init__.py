"""Bot tournaments: mirrored deals, process-pool play, ratings, win rates, plots."""

from cardtable.arena.tournament import (
    GameJob,
    GameOutcome,
    play_job,
    ratings,
    records,
    run,
    schedule,
)

__all__ = ["GameJob", "GameOutcome", "play_job", "ratings", "records", "run", "schedule"]
