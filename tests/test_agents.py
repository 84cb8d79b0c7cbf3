"""Bots: the interface, names, the greedy bot's choices and its edge over random."""

from __future__ import annotations

import pytest

import cardtable
from cardtable import OptionError
from cardtable.agents import agent_names, make_agent
from cardtable.agents.base import on_the_clock
from cardtable.games.hanafuda.actions import Play, Take
from cardtable.games.hanafuda.bots import GreedyAgent
from cardtable.games.hanafuda.deck import card_index
from tests.hanafuda_helpers import make_deal, new_state, play


def test_names_and_errors() -> None:
    assert {"random", "greedy"} <= set(agent_names("bakappana"))
    assert make_agent("bot:greedy", "bakappana").name == "greedy"
    with pytest.raises(
        OptionError,
        match="unknown bot 'smart' for bakappana; valid bots: easy, expert, greedy, hard, ismcts",
    ):
        make_agent("smart", "bakappana")


def test_greedy_takes_the_most_valuable_capture() -> None:
    deal = make_deal(2, hands=[["03-4", "09-3", "11-4"]], table=["03-1", "03-3", "09-4", "11-2"])
    state = new_state("bakappana", deal)
    choice = GreedyAgent(seed=1).choose(state, 0)
    assert choice == Play(card_index("03-4"), card_index("03-1"))  # 21 beats 11 and 2


def test_greedy_takes_the_better_card_for_a_flip() -> None:
    deal = make_deal(2, hands=[["10-3"]], table=["12-1", "12-2"], stock=["12-3"])
    state = new_state("bakappana", deal)
    play(state, "10-3")
    assert GreedyAgent(seed=1).choose(state, 0) == Take(card_index("12-1"))


def test_greedy_discards_the_cheapest_card_when_nothing_matches() -> None:
    hand = ["01-1", "01-2", "02-1", "02-2", "04-1", "04-3", "06-1", "06-2"]
    table = ["03-3", "05-3", "07-3", "09-3", "10-3", "11-3", "12-3", "08-3"]
    deal = make_deal(2, hands=[hand], table=table)
    state = new_state("bakappana", deal)
    hand = state.hands[0]
    assert all(not state.table & (0xF << 4 * (c >> 2)) for c in range(48) if hand >> c & 1)
    assert GreedyAgent(seed=1).choose(state, 0) == Play(card_index("04-3"))


@pytest.mark.parametrize(  # apart: the searching bots take long (slow: make test only)
    "name",
    [
        pytest.param(name, marks=pytest.mark.slow) if name in {"hard", "expert"} else name
        for name in agent_names("bakappana")
    ],
)
def test_every_bot_plays_only_legal_moves_to_the_end(name: str) -> None:
    for players in (2, 3, 4):
        state = cardtable.load("bakappana", players=players, rounds=1).new_state(seed=players)
        # a search stopped by the clock, as at a live table: legal, and a tenth of the time
        bots = [on_the_clock(make_agent(name, "bakappana", seed), 0.1) for seed in range(players)]
        while not state.is_over:
            (seat,) = state.to_move
            state.apply(seat, bots[seat].choose(state, seat))


def test_greedy_beats_random_over_many_mirrored_rounds() -> None:
    margin = 0
    for seed in range(200):
        for greedy_seat in (0, 1):  # mirrored: each deal from both seats
            state = cardtable.load("bakappana", rounds=1).new_state(seed=seed)
            bots = {
                greedy_seat: make_agent("greedy", "bakappana", seed),
                1 - greedy_seat: make_agent("random", "bakappana", seed),
            }
            while not state.is_over:
                (seat,) = state.to_move
                state.apply(seat, bots[seat].choose(state, seat))
            margin += state.scores()[greedy_seat]
    assert margin / 400 > 5  # measured about +15 per round


def test_greedy_koikoi_decisions() -> None:
    from cardtable.games.hanafuda.actions import KOIKOI, SHOBU
    from cardtable.games.hanafuda.bots.greedy import wants_koikoi
    from cardtable.games.hanafuda.koikoi import KoiKoiState
    from tests.hanafuda_helpers import make_position

    early = make_position(
        2,
        piles=[["01-2", "02-2", "04-2", "05-2", "07-2"]],
        hands=[["06-3", "09-3", "08-3", "10-3", "12-3", "01-3"], ["11-4", "12-4", "04-3"]],
        table=["06-2"],
        stock=["05-3", "07-3"],
    )
    state = cardtable.load("koi-koi", rounds=1).new_state(seed=1, deals=[early])
    assert isinstance(state, KoiKoiState)
    play(state, "06-3")  # Tanzaku 2 with five cards left and an opponent with nothing
    assert state.to_move == {0} and wants_koikoi(state, 0)
    assert GreedyAgent(seed=1).choose(state, 0) == KOIKOI
    late = make_position(
        2,
        piles=[["01-2", "02-2", "04-2", "05-2", "07-2"]],
        hands=[["06-3", "09-3"], ["11-4", "12-4"]],
        table=["06-2"],
        stock=["05-3", "07-3"],
    )
    state = cardtable.load("koi-koi", rounds=1).new_state(seed=1, deals=[late])
    play(state, "06-3")
    assert GreedyAgent(seed=1).choose(state, 0) == SHOBU  # one card left: take the points


def test_greedy_beats_random_at_every_yaku_game() -> None:
    for game_id, players in (("koi-koi", 2), ("hana-awase", 3), ("hana-awase-88", 3)):
        margin = 0
        for seed in range(60):
            for greedy_seat in range(players):
                state = cardtable.load(game_id, players=players, rounds=1).new_state(seed=seed)
                bots = [
                    make_agent("greedy" if s == greedy_seat else "random", game_id, seed + s)
                    for s in range(players)
                ]
                while not state.is_over:
                    (seat,) = state.to_move
                    state.apply(seat, bots[seat].choose(state, seat))
                start = getattr(state.game.options, "zero_sum_start", 0)
                if not getattr(state.game.options, "zero_sum", False):
                    start = 0
                margin += state.scores()[greedy_seat] - start
        assert margin > 0, game_id
