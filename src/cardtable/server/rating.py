"""POST /api/rating: a player's record (kept by their browser, no account) rated against the
bot ladder. Stateless: the games come in, each game's rating and its place among the bot
levels go out; nothing is stored."""

from __future__ import annotations

from typing import Any, Self

from fastapi import APIRouter
from pydantic import BaseModel, Field, model_validator

from cardtable.arena.ladder import RecordedGame, rate_player

MAX_GAMES = 5000  # years of evenings; a record file bigger than that is not a record


class RatedGame(BaseModel):
    game: str = Field(max_length=40)
    seats: list[str] = Field(min_length=1, max_length=8)  # "you" or a bot level, per seat
    scores: list[float] = Field(min_length=1, max_length=8)

    @model_validator(mode="after")
    def _a_score_per_seat(self) -> Self:
        if len(self.seats) != len(self.scores):
            raise ValueError("a game gives one score per seat")
        return self


class RatingRequest(BaseModel):
    games: list[RatedGame] = Field(max_length=MAX_GAMES)


def router() -> APIRouter:
    api = APIRouter()

    @api.post("/api/rating")
    def rating(body: RatingRequest) -> dict[str, Any]:
        played = [RecordedGame(g.game, tuple(g.seats), tuple(g.scores)) for g in body.games]
        placed = rate_player(played)
        return {"ratings": {game: p.to_json() for game, p in sorted(placed.items())}}

    return api
