"""POST /api/rating: a player's record (kept by their browser, no account) rated against the
bot ladder. Stateless: the games come in, each game's rating and its place among the bot
levels go out; nothing is stored. Each game needs two to eight seats with a finite score
each, and the record is capped, since rating costs CPU per seat-game; games not against
the ladder (another person, an unknown game or level) are left out, not refused, so an
old record still rates."""

from __future__ import annotations

from typing import Annotated, Any, Self

from fastapi import APIRouter
from pydantic import BaseModel, Field, model_validator

from cardtable.arena.ladder import RecordedGame, rate_player
from cardtable.server.limits import ClientLimits

#: the newest games a browser sends (web/js/lobby.js cuts its record to as many); years of
#: evenings, and about 0.2 s of CPU to rate
MAX_GAMES = 2000

Score = Annotated[float, Field(allow_inf_nan=False)]


class RatedGame(BaseModel):
    game: str = Field(max_length=40)
    seats: list[str] = Field(min_length=2, max_length=8)  # "you" or a bot level, per seat
    scores: list[Score] = Field(min_length=2, max_length=8)

    @model_validator(mode="after")
    def _a_score_per_seat(self) -> Self:
        if len(self.seats) != len(self.scores):
            raise ValueError("a game gives one score per seat")
        return self


class RatingRequest(BaseModel):
    games: list[RatedGame] = Field(max_length=MAX_GAMES)


def router(limits: ClientLimits) -> APIRouter:
    api = APIRouter()

    @api.post("/api/rating")
    def rating(body: RatingRequest) -> dict[str, Any]:
        """Limited per address before its body is read (app.py's LimitsFirst)."""
        played = [RecordedGame(g.game, tuple(g.seats), tuple(g.scores)) for g in body.games]
        placed = rate_player(played)
        return {"ratings": {game: p.to_json() for game, p in sorted(placed.items())}}

    return api
