"""The OpenSpiel game wrapper: OpenSpiel's own random simulation test, api-style checks of
chance nodes, legal actions, observations and returns, and one of its algorithms (outcome
sampling MCCFR) on a one-round koi-koi. Skipped when the ``openspiel`` extra is absent."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from cardtable.core.errors import IllegalAction  # noqa: E402
from cardtable.rl.encoding import observe  # noqa: E402
from cardtable.rl.openspiel import load_game, runtime_of  # noqa: E402

CASES = [
    ("koi-koi", {"rounds": 1}),
    ("bakappana", {"players": 3, "rounds": 1}),
    ("hana-awase-88", {"rounds": 1}),
]


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=[g for g, _ in CASES])
def test_openspiels_random_simulation_test_passes(game_id: str, options: dict[str, int]) -> None:
    game = load_game(game_id, **options)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


@pytest.mark.parametrize(("game_id", "options"), CASES, ids=[g for g, _ in CASES])
def test_api_checks_along_random_plays(game_id: str, options: dict[str, int]) -> None:
    game = load_game(game_id, **options)
    runtime = runtime_of(game)
    players = game.num_players()
    rng = np.random.default_rng(4)
    for _ in range(3):
        state = game.new_initial_state()
        chance_nodes = 0
        while not state.is_terminal():
            assert state.returns() == [0.0] * players
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                assert sum(probs) == pytest.approx(1.0) and len(set(outcomes)) == len(outcomes)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                chance_nodes += 1
                continue
            player = state.current_player()
            legal = state.legal_actions()
            assert legal == sorted(legal) and legal
            assert all(0 <= a < game.num_distinct_actions() for a in legal)
            tensor = np.asarray(state.observation_tensor(player), dtype=np.float32)
            engine = state.get_state()
            assert np.array_equal(tensor, observe(runtime.encoder, engine, player))
            child = state.clone()
            child.apply_action(legal[0])
            assert len(child.history()) == len(state.history()) + 1  # the clone is apart
            state.apply_action(int(rng.choice(legal)))
        assert chance_nodes == 1 + 48  # the dealer, then every card
        returns = state.returns()
        assert sum(returns) == pytest.approx(0.0) and max(returns) <= 1.0


def test_information_states_hide_the_other_hands() -> None:
    game = load_game("koi-koi", rounds=1)
    cards = runtime_of(game).cards
    first, second = game.new_initial_state(), game.new_initial_state()
    # the same dealer, first hand and table; the second hand and the stock differ (a deal
    # with four cards of a month in a hand would be a misdeal, dealt again from a seed)
    order = [int(i) for i in np.random.default_rng(3).permutation(48)]
    other = order[:8] + order[24:32] + order[16:24] + order[8:16] + order[32:]
    for state, deal in ((first, order), (second, other)):
        state.apply_action(0)
        for index in deal:
            state.apply_action(index)
    engine = first.get_state()
    mine = sorted(cards[i] for i in order[:8])
    holder = next(s for s in (0, 1) if sorted(engine.view(s)["hand"]) == mine)
    assert first.information_state_string(holder) == second.information_state_string(holder)
    assert first.information_state_string(1 - holder) != second.information_state_string(1 - holder)
    assert first.observation_string(holder) == second.observation_string(holder)


def test_outcome_sampling_mccfr_runs_on_one_round_of_koi_koi() -> None:
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = load_game("koi-koi", rounds=1)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(60):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    probabilities = policy.action_probabilities(state)
    assert sorted(probabilities) == state.legal_actions()
    assert sum(probabilities.values()) == pytest.approx(1.0)


def test_the_game_loads_by_name_and_games_without_a_chance_model_are_refused() -> None:
    load_game("koi-koi", rounds=1)
    game = pyspiel.load_game("cardtable_koi_koi", {"options": '{"rounds": 1}'})
    assert game.num_players() == 2 and game.num_distinct_actions() == 386
    with pytest.raises(IllegalAction):
        load_game("ohanami", players=3)
