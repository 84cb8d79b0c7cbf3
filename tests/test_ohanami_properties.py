"""Property tests over 10 000 random seeded Ohanami games (2, 3 and 4 players): every card
in exactly one place, rows always ordered and at most three, scores equal a recount of
the gardens at each stage's end, views hide hands, kept pairs and discards (what every
game promises is the conformance suite's)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable import IllegalAction
from cardtable.games.ohanami.deck import stage_points
from cardtable.games.ohanami.game import OhanamiState, card_set, cards_in
from tests.counts import count, deep_checked

GAMES = count(10000, 40)  # in CHUNKS tests
CHUNKS = count(4, 1)
ALL_CARDS = card_set(list(range(1, 121)))


def check_places(state: OhanamiState) -> None:
    places = [*state.hands, *state.kept, *state.discards, card_set(state.stock)]
    places += [state.garden(s) for s in range(state.n)]
    assert sum(p.bit_count() for p in places) == 120, "a card was lost or duplicated"
    union = 0
    for place in places:
        union |= place
    assert union == ALL_CARDS
    for rows in state.rows:
        assert len(rows) <= 3
        for row in rows:
            assert list(row) == sorted(row) and len(set(row)) == len(row)


def check_views(state: OhanamiState, rng: random.Random) -> None:
    for seat in range(state.n):
        view = state.view(seat)
        hidden = 0
        for other in range(state.n):
            if other != seat:
                hidden |= state.hands[other] | state.kept[other] | state.discards[other]
        private = json.dumps([view["hand"], view["kept"], view["discards"], view["legal_actions"]])
        shown = {
            int(n)
            for n in private.replace("[", " ").replace("]", " ").replace(",", " ").split()
            if n.isdigit()
        }
        assert not (shown & set(cards_in(hidden))), f"seat {seat} sees another seat's cards"
        assert "stock" not in view and "seed" not in view
        check_places(state.determinize(seat, rng))


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games(chunk: int) -> None:
    @settings(max_examples=GAMES // CHUNKS, database=None)
    @given(
        seed=st.integers(min_value=0, max_value=2**63 - 1),
        players=st.sampled_from([2, 3, 4]),
    )
    def run(seed: int, players: int) -> None:
        deep = deep_checked(seed, 20)
        game = cardtable.load("ohanami", players=players)
        state = game.new_state(seed=seed)
        assert isinstance(state, OhanamiState)
        policy = random.Random(seed)
        expected = [0] * players
        stages_seen = 0
        while not state.is_over:
            check_places(state)
            movers = sorted(state.to_move)
            assert movers
            if deep:
                check_views(state, policy)
            for seat in movers:
                actions = state.legal_actions(seat)
                assert actions
                action = policy.choice(actions)
                state.apply(seat, action)
                if deep and seat != movers[-1]:  # committed, the step not yet resolved
                    with pytest.raises(IllegalAction, match="already chosen"):
                        state.apply(seat, action)
            if len(state.results) > stages_seen:  # a stage just ended: recount the gardens
                stages_seen += 1
                for s in range(players):
                    expected[s] += sum(stage_points(state.colour_counts(s), stages_seen).values())
        check_places(state)
        assert list(state.scores()) == expected
        assert len(state.results) == 3

    run()
