"""ISMCTS: it decides from what its seat may see only, plays legally, and is stronger
than random; the easy / medium / hard levels exist for every game."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

import cardtable
from cardtable.agents import agent_names, bot_levels, make_agent
from cardtable.agents.ismcts import ISMCTSAgent, Node, match_rewards
from cardtable.core.actions import Action
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.games.hanafuda.bots import read_hands, turned_card

GAMES = [("bakappana", 3), ("koi-koi", 2), ("hana-awase-88", 3), ("ohanami", 3)]


def midgame(game_id: str, players: int, seed: int, moves: int) -> State:
    state = cardtable.load(game_id, players=players).new_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over:
            break
        for seat in sorted(state.to_move):
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


@pytest.mark.parametrize(("game_id", "players"), GAMES)
def test_poisoned_hidden_cards_change_no_decision(game_id: str, players: int) -> None:
    for seed in range(6):
        state = midgame(game_id, players, seed, moves=3 + seed)
        seat = min(state.to_move)
        # The same position for this seat, every card it cannot see dealt differently.
        poisoned = state.determinize(seat, Rng(1000 + seed))
        assert poisoned.view(seat) == state.view(seat)
        # ...and it really is different: some other seat would see another game.
        assert any(poisoned.view(s) != state.view(s) for s in range(players) if s != seat)
        real = ISMCTSAgent(iterations=60, seed=seed).choose(state, seat)
        fake = ISMCTSAgent(iterations=60, seed=seed).choose(poisoned, seat)
        assert real == fake


def level_with_budget(game_id: str, seed: int, iterations: int, level: str) -> ISMCTSAgent:
    """A search level as players get it, with a test's budget and no clock."""
    bot = make_agent(level, game_id, seed)
    assert isinstance(bot, ISMCTSAgent)
    bot.iterations, bot.seconds = iterations, None
    return bot


@pytest.mark.parametrize(
    ("game_id", "players", "level"),
    [
        ("koi-koi", 2, "expert"),
        ("koi-koi", 2, "master"),
        ("hana-awase", 3, "expert"),
        ("bakappana", 2, "expert"),
        ("hana-awase-88", 3, "expert"),
        ("ohanami", 2, "expert"),
    ],
)
def test_the_top_levels_read_no_hidden_card(game_id: str, players: int, level: str) -> None:
    read = 0
    budget = 20 if game_id == "ohanami" else 60
    for seed in range(6 if game_id != "ohanami" else 3):
        state = midgame(game_id, players, seed, moves=6 + seed)
        seat = min(state.to_move)
        poisoned = state.determinize(seat, Rng(1000 + seed))
        assert poisoned.view(seat) == state.view(seat)
        if game_id != "ohanami":  # the other seats' plays were read
            read += read_hands(state, seat) is not None
        real = level_with_budget(game_id, seed, budget, level).choose(state, seat)
        assert real == level_with_budget(game_id, seed, budget, level).choose(poisoned, seat)
    assert read >= 4 or game_id == "ohanami"


def turns_below(node: Node, seat: int) -> int:
    """How many turns (one seat's moves in a row, ``seat``'s first) the deepest line of
    the tree under ``node`` holds."""
    deepest = 0

    def walk(node: Node, last: int, turns: int) -> None:
        nonlocal deepest
        followers = list(node.children.values())
        for after in (node.after or {}).values():
            followers += after.children.values()
        for child in followers:
            more = turns + (child.seat != last)
            deepest = max(deepest, more)
            walk(child, child.seat, more)

    walk(node, seat, 1)
    return deepest


def test_a_turn_limit_keeps_the_tree_to_the_first_turns() -> None:
    """``max_turns`` 2 (the ``master`` level's): the tree holds the seat's own turn and the
    other seat's reply, playouts the rest; without a limit 1 000 iterations reach further."""
    state = cardtable.load("koi-koi", rounds=1).new_state(seed=5)
    seat = min(state.to_move)
    legal = state.legal_actions(seat)
    for limit, most in ((1, 1), (2, 2), (3, 3)):
        root = ISMCTSAgent(iterations=1000, seed=2, max_turns=limit).search(state, seat, legal)
        assert turns_below(root, seat) == most
    root = ISMCTSAgent(iterations=1000, seed=2).search(state, seat, legal)
    assert turns_below(root, seat) > 3


def test_observed_outcomes_part_the_moves_that_follow() -> None:
    """With ``observe``, what follows an action is kept apart by what everybody saw happen
    with it (here the card turned from the stock): one node of moves an outcome."""
    state = cardtable.load("koi-koi", rounds=1).new_state(seed=5)
    seat = min(state.to_move)
    legal = state.legal_actions(seat)
    root = ISMCTSAgent(iterations=600, seed=2, observe=turned_card).search(state, seat, legal)
    for child in root.children.values():
        assert not child.children  # every follower hangs under an outcome
        turned = {key % 64 for key in (child.after or {})}
        assert len(turned) == len(child.after or {}) > 1  # one stock card an outcome
        assert not turned & {card for card in range(48) if state.hands[seat] >> card & 1}
    plain = ISMCTSAgent(iterations=600, seed=2).search(state, seat, legal)
    assert all(child.after is None and child.children for child in plain.children.values())


def test_decisions_are_legal_and_reproducible() -> None:
    state = midgame("koi-koi", 2, 4, moves=2)
    seat = min(state.to_move)
    first = ISMCTSAgent(iterations=80, seed=3).choose(state, seat)
    assert first in state.legal_actions(seat)
    assert ISMCTSAgent(iterations=80, seed=3).choose(state, seat) == first


def test_a_time_budget_stops_the_search() -> None:
    state = midgame("bakappana", 2, 1, moves=1)
    seat = min(state.to_move)
    bot = ISMCTSAgent(iterations=10**9, seconds=0.05, seed=1)
    assert bot.choose(state, seat) in state.legal_actions(seat)


def test_ismcts_beats_random_at_bakappana() -> None:
    margin = 0
    for seed in range(12):
        for search_seat in (0, 1):  # mirrored seats
            state = cardtable.load("bakappana", rounds=1).new_state(seed=seed)
            bots = {
                search_seat: ISMCTSAgent(iterations=100, seed=seed),
                1 - search_seat: make_agent("random", "bakappana", seed),
            }
            while not state.is_over:
                (seat,) = state.to_move
                state.apply(seat, bots[seat].choose(state, seat))
            margin += state.scores()[search_seat]
    assert margin / 24 > 3  # measured about +13 per round


@pytest.mark.parametrize("game_id", cardtable.game_ids())
def test_levels_exist_for_every_game(game_id: str) -> None:
    assert {"easy", "medium", "hard", "ismcts", "random", "greedy"} <= set(agent_names(game_id))
    state = midgame(game_id, 2 if game_id != "hana-awase-88" else 3, 0, moves=1)
    seat = min(state.to_move)
    for level in bot_levels(game_id):
        action = make_agent(f"bot:{level}", game_id, 1).choose(state, seat)
        assert state.illegal_reason(seat, action) is None
    # the top level: every card game's search, not 7 słów (whose best word needs none);
    # above it, in koi-koi, the master level (measured there: docs/bots.md)
    assert ("expert" in bot_levels(game_id)) == (game_id != "siedem-slow")
    top = {"siedem-slow": "hard", "koi-koi": "master"}.get(game_id, "expert")
    assert bot_levels(game_id)[-1] == top


@pytest.mark.parametrize(
    ("game_id", "players"), [("bakappana", 2), ("koi-koi", 2), ("hana-awase-88", 3)]
)
def test_fast_random_playout_keeps_the_rules(game_id: str, players: int) -> None:
    from cardtable.games.hanafuda.fishing import FishingState

    for seed in range(30):
        state = midgame(game_id, players, seed, moves=seed % 5)
        assert isinstance(state, FishingState)
        copy = state.determinize(min(state.to_move), Rng(seed))
        copy.end_at_round()
        copy.random_playout(Rng(seed), copy.rounds_finished)
        assert copy.is_over and copy.rounds_finished == state.rounds_finished + 1
        places = [*copy.hands, *copy.piles, copy.table]
        places += [1 << c for c in copy.stock[copy.stock_pos :]]
        assert sum(p.bit_count() for p in places) == 48
        assert not state.is_over or state.rounds_finished == copy.rounds_finished


def test_ohanami_search_plays_to_the_end_of_the_game_among_greedys_best_moves() -> None:
    """A card placed in stage 1 keeps scoring in stages 2 and 3, so the search must judge
    the whole game; and of 45 keeps it searches the few greedy values most."""
    from cardtable.agents import ismcts

    state = cardtable.load("ohanami", players=2).new_state(seed=4)
    assert state.rounds_carry_over and len(state.legal_actions(0)) == 45
    greedy = make_agent("greedy", "ohanami", 1)

    class Watching:
        """The greedy rollout bot, keeping every search copy it plays a move in."""

        def __init__(self) -> None:
            self.copies: dict[int, State] = {}

        def choose(self, copy: State, seat: int) -> Action:
            self.copies[id(copy)] = copy
            return greedy.choose(copy, seat)

        def shortlist(self, state: State, seat: int, legal: list[Action], n: int) -> list[Action]:
            return greedy.shortlist(state, seat, legal, n)  # type: ignore[attr-defined,no-any-return]

    rollout = Watching()
    bot = ISMCTSAgent(iterations=24, seed=1, rollout=rollout)
    choice = bot.choose(state, 0)
    # every playout went on to the end of the game (a copy is played in until then)
    assert rollout.copies
    assert all(copy.is_over and copy.rounds_finished == 3 for copy in rollout.copies.values())
    shortlist = greedy.shortlist(state, 0, state.legal_actions(0), ismcts.ROOT_WIDTH)  # type: ignore[attr-defined]
    assert choice in shortlist and len(shortlist) == ismcts.ROOT_WIDTH
    koikoi = cardtable.load("koi-koi", rounds=3).new_state(seed=4)
    assert not koikoi.rounds_carry_over  # hanafuda rounds are dealt afresh: search one round


@pytest.mark.parametrize(
    "rules",
    [
        {},
        {"preset": "koikoi_japan"},
        {"preset": "battle_hanafuda"},
        {"best_yaku_only": True, "score_opponent_yaku": True, "table_lights_multiplier": "count"},
    ],
)
def test_search_copies_score_rounds_as_the_game_does(rules: dict[str, object]) -> None:
    """A search copy scores its round without score lines: the scores must not change."""
    from cardtable.games.hanafuda.fishing import FishingState

    game = cardtable.load("koi-koi", rounds=1, **rules)  # type: ignore[arg-type]
    for seed in range(60):
        state = game.new_state(seed=seed)
        assert isinstance(state, FishingState)
        explained, terse = state.clone(), state.clone()
        explained.halt_after_round = True
        terse.end_at_round()
        for copy in (explained, terse):
            copy.random_playout(Rng(seed), 0)
        assert explained.log == terse.log == []
        assert explained.round_scores(0) == terse.round_scores(0)
        assert terse.results[0].outcome == explained.results[0].outcome
        if explained.results[0].outcome == "shobu":
            assert explained.results[0].lines and not any(
                line.rule.startswith("yaku:") for line in terse.results[0].lines
            )


@given(
    totals=st.lists(st.integers(-30, 30), min_size=1, max_size=4),
    scale=st.floats(0.5, 20),
    rounds_left=st.integers(0, 11),
)
def test_match_rewards_judge_each_seat_against_its_best_opponent(
    totals: list[int], scale: float, rounds_left: int
) -> None:
    """The rewards as the module docstring says them, seat by seat: the margin over the
    best other seat, squashed; in the last round half of it for winning (half a win when
    shared)."""
    best = max(totals)
    for seat, reward in enumerate(match_rewards(tuple(totals), scale, rounds_left)):
        others = [score for other, score in enumerate(totals) if other != seat]
        margin = (totals[seat] - max(others, default=totals[seat])) / scale
        if rounds_left:
            expected = 0.5 + 0.5 * math.tanh(0.8 * margin / math.sqrt(rounds_left))
        else:
            win = 0.0 if totals[seat] < best else 1.0 if totals.count(best) == 1 else 0.5
            expected = 0.5 * win + 0.25 * math.tanh(margin) + 0.25
        assert reward == pytest.approx(expected)
        assert 0.0 <= reward <= 1.0


def test_a_horizon_plays_the_last_round_for_its_points() -> None:
    """A single round is the game's last: judged by who won it, unless the search is told
    to play it as if rounds were left (``horizon``: its margin alone counts); a match's
    early rounds keep the rounds they really have left."""
    single = cardtable.load("koi-koi", rounds=1).new_state(seed=4)
    match = cardtable.load("koi-koi", rounds=12).new_state(seed=4)
    assert ISMCTSAgent(iterations=1).rounds_left(single) == 0
    assert ISMCTSAgent(iterations=1, horizon=4).rounds_left(single) == 4
    assert ISMCTSAgent(iterations=1).rounds_left(match) == 11
    assert ISMCTSAgent(iterations=1, horizon=4).rounds_left(match) == 11


def test_exploration_spreads_the_search_over_the_moves() -> None:
    """UCB's exploration weight: with none, the search keeps to the move that looks best
    after one try each; with a large one, the tries spread almost evenly."""
    state = cardtable.load("koi-koi", rounds=1).new_state(seed=9)
    seat = min(state.to_move)
    legal = state.legal_actions(seat)
    assert len(legal) > 4  # 2 / len(legal) below one half

    def most_tried_share(exploration: float) -> float:
        bot = ISMCTSAgent(iterations=600, seed=3, exploration=exploration)
        visits = [child.visits for child in bot.search(state, seat, legal).children.values()]
        return max(visits) / sum(visits)

    narrow, wide = most_tried_share(0.0), most_tried_share(50.0)
    assert narrow > 0.5 > 2 / len(legal) > wide


def test_searches_in_threads_leave_the_collector_as_it_was() -> None:
    """A search turns the cycle collector off while it runs (its tree makes no cycles):
    searches overlapping in threads turn it back on when the last one ends, and leave it off
    where it was off."""
    import gc
    import threading

    from cardtable.agents.ismcts import COLLECTOR_PAUSE

    state = cardtable.load("koi-koi", rounds=1).new_state(seed=3)
    seat = min(state.to_move)
    seen_off: list[bool] = []

    def search(seed: int) -> None:
        bot = ISMCTSAgent(iterations=300, seed=seed)
        bot.choose(state.clone(), seat)
        seen_off.append(not gc.isenabled() or COLLECTOR_PAUSE.searches == 0)

    for collecting in (True, False):
        (gc.enable if collecting else gc.disable)()
        try:
            threads = [threading.Thread(target=search, args=(seed,)) for seed in range(6)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert gc.isenabled() is collecting and COLLECTOR_PAUSE.searches == 0
        finally:
            gc.enable()
    assert all(seen_off)
    with COLLECTOR_PAUSE:
        assert not gc.isenabled()
    assert gc.isenabled()
