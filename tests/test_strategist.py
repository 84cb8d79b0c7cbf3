"""The strategist (the hanafuda ``medium`` level): yaku proximity, legal play in every
hanafuda game, and clearly stronger than greedy where yaku and steals matter."""

from __future__ import annotations

import random
import statistics

import pytest

import cardtable
from cardtable.agents import make_agent
from cardtable.arena.tournament import run, schedule
from cardtable.games.hanafuda import cards
from cardtable.games.hanafuda.bots.strategist import StrategistAgent, potential
from cardtable.games.hanafuda.koikoi import KoiKoiState
from cardtable.games.hanafuda.yaku import koikoi_table


def test_potential_halves_per_missing_card_and_respects_blocked_cards() -> None:
    table = koikoi_table(cardtable.load("koi-koi").options)
    boar_deer = cards("07-2 10-1")  # two of boar, deer and butterflies
    near = potential(table, boar_deer, 0)
    assert near >= 5 * 0.5  # Ino-shika-chō is one card away
    blocked = potential(table, boar_deer, cards("06-1"))  # the butterflies are gone
    assert blocked < near
    assert potential(table, 0, 0) > 0


@pytest.mark.parametrize("game_id", ["bakappana", "koi-koi", "hana-awase", "hana-awase-88"])
def test_the_strategist_plays_legal_moves(game_id: str) -> None:
    bot = make_agent("medium", game_id, seed=1)
    assert isinstance(bot, StrategistAgent)
    for seed in range(15):
        state = cardtable.load(game_id, rounds=1).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = min(state.to_move)
            if rng.random() < 0.5:
                action = bot.choose(state, seat)
                assert action in state.legal_actions(seat)
            else:
                action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)


def test_no_koikoi_with_few_cards_left() -> None:
    state = cardtable.load("koi-koi", rounds=1).new_state(seed=2)
    assert isinstance(state, KoiKoiState)
    state.hands[0] = cards("01-1 02-1")
    assert not StrategistAgent().wants_koikoi(state, 0)


def test_the_strategist_outscores_greedy_at_hana_awase_88() -> None:
    jobs = schedule(
        "hana-awase-88", ["strategist", "greedy", "random"], games=30, seed=3,
        options={"rounds": 1},
    )  # fmt: skip
    outcomes = run(jobs)
    mean = {
        name: statistics.mean(o.scores[o.bots.index(name)] for o in outcomes)
        for name in ("strategist", "greedy")
    }
    assert mean["strategist"] > mean["greedy"] + 20  # measured about +57 over 300 games


@pytest.mark.parametrize("game_id", ["bakappana", "koi-koi", "hana-awase", "hana-awase-88"])
def test_the_strategist_ignores_hidden_cards(game_id: str) -> None:
    from cardtable.core.rng import Rng

    for seed in range(12):
        state = cardtable.load(game_id, rounds=1).new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(seed % 7):
            seat = min(state.to_move)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        seat = min(state.to_move)
        poisoned = state.determinize(seat, Rng(seed + 100))
        real = StrategistAgent(seed=seed).choose(state, seat)
        assert StrategistAgent(seed=seed).choose(poisoned, seat) == real
