"""Saved games and replay: same seed + same moves = same game."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import cardtable
from cardtable import GameRecord, IllegalAction, OptionError
from cardtable.games.hanafuda.fishing import FishingState
from tests.hanafuda_helpers import make_deal


def finished_game(seed: int, players: int = 3, **options: object) -> FishingState:
    state = cardtable.load("bakappana", players=players, rounds=3, **options).new_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        (seat,) = state.to_move
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert isinstance(state, FishingState)
    return state


def test_same_seed_same_game_and_different_seeds_differ() -> None:
    game = cardtable.load("bakappana", players=4)
    assert game.new_state(seed=1).view(0) == game.new_state(seed=1).view(0)
    assert game.new_state(seed=1).view(0) != game.new_state(seed=2).view(0)


def test_replay_from_json_log(tmp_path: Path) -> None:
    state = finished_game(8)
    log_json = json.loads(json.dumps([move.to_json() for move in state.log]))
    rebuilt = cardtable.replay("bakappana", state.game.options.model_dump(), state.seed, log_json)
    assert rebuilt.result() == state.result()

    path = tmp_path / "game.json"
    GameRecord.of(state).save(path)
    record = GameRecord.load_file(path)
    assert record.replay().result() == state.result()
    assert len(list(record.states())) == len(state.log) + 1


def test_record_keeps_fixed_deals() -> None:
    deal = make_deal(2, dealer=1)
    state = cardtable.load("bakappana", rounds=1).new_state(seed=3, deals=[deal])
    while not state.is_over:
        state.apply(state.current, state.legal_actions(state.current)[0])  # type: ignore[attr-defined]
    data = json.loads(json.dumps(GameRecord.of(state).to_json()))
    assert data["deals"] == [deal]
    assert GameRecord.from_json(data).replay().result() == state.result()


def test_a_deal_does_not_depend_on_earlier_play() -> None:
    # The seed's generator deals every round; play choices never draw from it.
    a, b = finished_game(5), finished_game(5, scoring="simple")
    assert [r.dealer for r in a.result().rounds][:1] == [r.dealer for r in b.result().rounds][:1]


def test_bad_record_files(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(OptionError, match="not valid JSON"):
        GameRecord.load_file(path)
    path.write_text('{"game": "bakappana"}')
    with pytest.raises(OptionError, match="not a cardtable game record"):
        GameRecord.load_file(path)
    path.write_text('{"format": "cardtable-game/1", "game": "bakappana", "log": []}')
    with pytest.raises(OptionError, match="not a valid game record: KeyError"):
        GameRecord.load_file(path)
    path.write_text('{"format": "cardtable-game/1", "game": "bakappana", "seed": 1, "log": [5]}')
    with pytest.raises(IllegalAction, match="cannot read log entry 5"):
        GameRecord.load_file(path)


def test_a_log_with_an_illegal_move_is_refused() -> None:
    state = finished_game(2)
    log = [move.to_json() for move in state.log]
    log[3], log[4] = log[4], log[3]
    with pytest.raises(IllegalAction):
        cardtable.replay("bakappana", state.game.options, state.seed, log)


def test_deals_must_be_mappings() -> None:
    with pytest.raises(OptionError, match=r"deals\[0\] must be a mapping"):
        cardtable.load("bakappana").new_state(seed=1, deals=[["01-1"]])  # type: ignore[list-item]
