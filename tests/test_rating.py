"""The bot ladder shipped in the package and POST /api/rating, which places a player's
record (kept by the browser) on it with the bots' ratings held fixed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.agents.base import bot_levels
from cardtable.arena.ladder import LADDER_PATH, RecordedGame, ladder, rate_player
from cardtable.server.app import create_app

from .server_helpers import FAST

HANAFUDA = ("koi-koi", "bakappana", "hana-awase", "hana-awase-88")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.db'}", FAST)) as test_client:
        yield test_client


def games(game: str, bot: str, *, won: bool, n: int = 25) -> list[dict[str, Any]]:
    scores = [10, 0] if won else [0, 10]
    return [{"game": game, "seats": ["you", bot], "scores": scores} for _ in range(n)]


def test_the_ladder_has_every_level_of_every_hanafuda_game_hard_above_easy() -> None:
    data = json.loads(LADDER_PATH.read_text())
    assert "benchmarks/ladder.py" in data["about"]
    rungs = ladder()
    for game in HANAFUDA:
        levels = {rung.level: rung for rung in rungs[game]}
        assert set(levels) == set(bot_levels(game)), game
        assert levels["hard"].mu > levels["easy"].mu, game
        assert data["games"][game]["games"] > 0


@pytest.mark.parametrize("game", HANAFUDA)
def test_beating_hard_every_time_rates_above_hard(client: TestClient, game: str) -> None:
    rated = client.post("/api/rating", json={"games": games(game, "hard", won=True)})
    assert rated.status_code == 200
    placed = rated.json()["ratings"][game]
    rungs = placed["ladder"]
    assert placed["mu"] > rungs["hard"]
    # placed at hard's rung or higher (expert and hard are close: either may rate higher)
    assert rungs[placed["above"]] >= rungs["hard"]
    assert placed["below"] is None or rungs[placed["below"]] > placed["mu"]
    assert placed["games"] == 25


def test_losing_to_easy_every_time_rates_below_easy(client: TestClient) -> None:
    placed = client.post("/api/rating", json={"games": games("koi-koi", "easy", won=False)})
    koikoi = placed.json()["ratings"]["koi-koi"]
    assert (koikoi["above"], koikoi["below"]) == (None, "easy")


def test_beating_medium_and_losing_to_hard_rates_between_them() -> None:
    low, high = "medium", "hard"
    played = []
    for _ in range(40):  # interleaved, as evenings go
        played.append(RecordedGame("koi-koi", ("you", low), (5, 1)))
        played.append(RecordedGame("koi-koi", (high, "you"), (5, 1)))
    placed = rate_player(played)["koi-koi"]
    rungs = {rung.level: rung.mu for rung in ladder()["koi-koi"]}
    assert placed.above is not None and placed.below is not None
    # between them: the rungs around the player lie from medium's up to hard's (expert's
    # rung may lie between the two)
    assert rungs[low] <= rungs[placed.above] < placed.mu < rungs[placed.below] <= rungs[high]


def test_games_not_against_the_ladder_are_left_out(client: TestClient) -> None:
    body = {
        "games": [
            {"game": "koi-koi", "seats": ["you", "human"], "scores": [1, 0]},  # a person
            {"game": "koi-koi", "seats": ["you", "greedy"], "scores": [1, 0]},  # not a level
            {"game": "koi-koi", "seats": ["easy", "hard"], "scores": [1, 0]},  # not yours
            {"game": "no-such-game", "seats": ["you", "hard"], "scores": [1, 0]},
        ]
    }
    assert client.post("/api/rating", json=body).json() == {"ratings": {}}


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"games": "all"},
        {"games": [{"game": "koi-koi", "seats": ["you"]}]},
        {"games": [{"game": "koi-koi", "seats": ["you", "hard"], "scores": [1]}]},
    ],
)
def test_a_malformed_request_is_refused(client: TestClient, body: dict[str, Any]) -> None:
    assert client.post("/api/rating", json=body).status_code == 422


def test_the_deck_page_data_comes_from_the_deck_and_yaku_tables(client: TestClient) -> None:
    from cardtable.games.hanafuda.yaku import HANA_AWASE_ROWS, KOIKOI_ROWS

    games = client.get("/api/cards").json()["hanafuda"]["games"]
    assert set(games) == set(HANAFUDA)
    assert [y["key"] for y in games["koi-koi"]["yaku"]] == [r.message_key for r in KOIKOI_ROWS]
    assert [y["key"] for y in games["hana-awase"]["yaku"]] == [
        r.message_key for r in HANA_AWASE_ROWS
    ]
    assert games["bakappana"]["yaku"] == []
    counted = {game for game, entry in games.items() if entry["card_points"]}
    assert counted == {"bakappana", "hana-awase", "hana-awase-88"}  # koi-koi counts yaku only
    page = client.get("/cards")
    assert page.status_code == 200 and "/games/hanafuda/deck.js" in page.text
