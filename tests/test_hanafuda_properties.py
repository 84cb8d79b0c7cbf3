"""Property tests over 10 000 random seeded games of each hanafuda game (Bakappana for
each player count; Koi-koi, Hana-awase and Hana-awase 88, with their defaults and with
random house-rule combinations).

Each game is played by a random policy drawn from the seed, and checked at every step:
every card is in exactly one place, only the seat to move has moves, views hide the other
hands and the stock; at the end every card is captured and the settlement adds up as the
rules say. What every game promises (JSON round trips, refused moves change nothing,
clones, determinizations keep views, replay) is the conformance suite's.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable import OptionError
from cardtable.core.options import describe
from cardtable.games.hanafuda.actions import Play
from cardtable.games.hanafuda.deck import FULL_DECK, NUM_CARDS, codes, value_of
from cardtable.games.hanafuda.fishing import FishingState
from tests.counts import count, deep_checked

GAMES = count(10000, 40)  # per case, in CHUNKS tests
CHUNKS = count(4, 1)


def card_places(state: FishingState) -> list[int]:
    places = [*state.hands, *state.piles, state.table]
    places.extend(1 << c for c in state.stock[state.stock_pos :])
    if state.pending >= 0:
        places.append(1 << state.pending)
    return places


def check_partition(state: FishingState) -> None:
    places = card_places(state)
    assert sum(p.bit_count() for p in places) == NUM_CARDS, "a card was lost or duplicated"
    union = 0
    for place in places:
        union |= place
    assert union == FULL_DECK


def check_views(state: FishingState, rng: random.Random) -> None:
    spectator = state.view(None)
    assert "hand" not in spectator and "legal_actions" not in spectator
    for seat in range(state.n):
        view = state.view(seat)
        assert view["hand"] == codes(state.hands[seat])
        current_round = json.dumps(
            [view[k] for k in ("table", "piles", "hand", "events", "flipped", "legal_actions")]
        )
        known = state.known_in_hands()
        for other in range(state.n):
            if other != seat:
                for code in codes(state.hands[other] & ~known[other]):
                    assert code not in current_round, f"seat {seat} sees {code} of seat {other}"
        assert "stock" not in view and "seed" not in view
        # a resampling keeps every card in one place and the seat's own hand
        # (that it keeps the view is the conformance suite's check, for every game)
        sampled = state.determinize(seat, rng)
        check_partition(sampled)
        assert sampled.hands[seat] == state.hands[seat]


def play_checked(
    game_id: str, players: int, seed: int, deep_checks: bool, **rules: Any
) -> FishingState:
    rounds = rules.pop("rounds", 1)
    game = cardtable.load(game_id, players=players, rounds=rounds, **rules)
    state = game.new_state(seed=seed)
    assert isinstance(state, FishingState)
    policy = random.Random(seed)
    while not state.is_over:
        check_partition(state)
        (seat,) = state.to_move
        actions = state.legal_actions(seat)
        assert actions, "a seat to move must have a legal action"
        assert len(set(actions)) == len(actions)
        for other in range(players):
            if other != seat:
                assert state.legal_actions(other) == []
        if deep_checks:
            check_views(state, policy)
        state.apply(seat, policy.choice(actions))
    check_partition(state)
    return state


def check_finished(state: FishingState, players: int, scoring: str) -> None:
    # Standard rules capture every card by the end of a fully played round.
    assert state.table == 0 and state.stock_pos == len(state.stock)
    assert sum(p.bit_count() for p in state.piles) == NUM_CARDS
    if scoring == "traditional":
        assert sum(state.scores()) == 0
    else:
        assert sum(state.scores()) == 264


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games(players: int, chunk: int) -> None:
    @settings(max_examples=GAMES // CHUNKS, database=None)
    @given(
        seed=st.integers(min_value=0, max_value=2**63 - 1),
        scoring=st.sampled_from(["traditional", "simple"]),
    )
    def run(seed: int, scoring: str) -> None:
        # Every game gets the cheap checks at every step; one in twenty the deep ones
        # (views against determinizations, rejected wrong-seat moves) at every step.
        state = play_checked("bakappana", players, seed, deep_checked(seed, 20), scoring=scoring)
        check_finished(state, players, scoring)

    run()


def random_rules(game_id: str, rng: random.Random) -> dict[str, Any]:
    """A valid random combination of a game's house rules (invalid ones are redrawn)."""
    infos = describe(cardtable.core.spec_of(game_id).options_model)
    while True:
        rules: dict[str, Any] = {}
        for info in infos:
            if info.name in ("players", "rounds") or rng.random() < 0.6:
                continue
            if info.choices:
                rules[info.name] = rng.choice(info.choices)
            elif info.name == "double_plain":
                names = ["sake_cup", "lightning", "yellow_paulownia"]
                rules[info.name] = tuple(rng.sample(names, rng.randint(0, 3)))
            elif info.name == "zero_sum_start":
                rules[info.name] = rng.choice([5, 30])
            elif info.bounds[0] is not None:
                rules[info.name] = rng.choice([0, 1, 3, 6])
        if game_id == "hana-awase":
            rules["players"] = rng.choice([2, 3, 4])
            rules["rounds"] = 1
        else:
            rules["rounds"] = rng.choice([1, 1, 1, 3])  # some whole matches, mostly rounds
        try:
            cardtable.load(game_id, **rules)
        except OptionError:
            continue
        return rules


def check_settlement(state: FishingState) -> None:
    """Each game's settlement adds up as its rules say."""
    options: Any = state.game.options
    if state.game.id == "koi-koi":
        start = options.zero_sum_start if options.zero_sum else 0
        assert sum(state.scores()) == start * 2 if options.zero_sum else min(state.scores()) >= 0
        for result in state.result().rounds:
            assert sum(result.scores) == 0 or not options.zero_sum
            assert sum(line.points for line in result.lines) == sum(result.scores)
        return
    for result in state.result().rounds:
        for seat in range(state.n):
            seat_lines = sum(line.points for line in result.lines if line.seat == seat)
            assert seat_lines == result.scores[seat]
    last = state.result().rounds[-1]
    if options.scoring == "simple" or last.outcome == "drawn":
        return
    # traditional: zero-sum except for cards nobody captured (orphans after steals)
    assert sum(last.scores) == sum(value_of(p) for p in state.piles) - 264


GAME_CASES = [
    ("koi-koi", False),
    ("koi-koi", True),
    ("hana-awase", False),
    ("hana-awase", True),
    ("hana-awase-88", False),
    ("hana-awase-88", True),
]


@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize(("game_id", "random_options"), GAME_CASES)
def test_random_games_of_every_hanafuda_game(
    game_id: str, random_options: bool, chunk: int
) -> None:
    @settings(max_examples=GAMES // CHUNKS, database=None)
    @given(seed=st.integers(min_value=0, max_value=2**63 - 1))
    def run(seed: int) -> None:
        rng = random.Random(seed)
        rules = random_rules(game_id, rng) if random_options else {}
        players = rules.pop(
            "players",
            2
            if game_id == "koi-koi"
            else rng.choice([3] if game_id == "hana-awase-88" else [2, 3, 4]),
        )
        state = play_checked(game_id, players, seed, deep_checked(seed, 20), **rules)
        check_settlement(state)

    run()


def test_hand_plays_per_round() -> None:
    # 2 players: 8 hand plays each; 3: 7; 4: 5 (the stock covers the rest).
    for players, per_seat in ((2, 8), (3, 7), (4, 5)):
        state = play_checked("bakappana", players, 99, True, scoring="simple")
        plays = [m for m in state.log if isinstance(m.action, Play)]
        assert len(plays) == players * per_seat


def test_multi_round_matches_stay_zero_sum() -> None:
    for seed in range(40):
        players = 2 + seed % 3
        state = cardtable.load("bakappana", players=players, rounds=3).new_state(seed=seed)
        policy = random.Random(seed)
        while not state.is_over:
            (seat,) = state.to_move
            state.apply(seat, policy.choice(state.legal_actions(seat)))
        assert sum(state.scores()) == 0
        assert all(sum(r.scores) == 0 for r in state.result().rounds)
        assert len(state.result().rounds) == 3
