"""One conformance suite over every registered game and each of its presets (the way
OpenSpiel's api_test checks every game): the State API's promises, checked at every step
of random seeded games.

- a listed action is legal, round-trips through JSON, and a seat not to move is refused;
- an action that is not legal is refused and changes nothing;
- ``clone`` is independent both ways; ``determinize(seat)`` keeps ``view(seat)`` and the
  spectator's view (so nothing a seat cannot see is in its view); a view is its shared
  part and the seat's own, and the shared part is the spectator's too;
- the record replays to the same state, also through JSON;
- scores add up: each round's lines to its scores, the rounds to the totals, and the
  totals to what the game's spec declares.

The game's facts come from its spec (``GameInfo``): the player range, whether some moves
are free text (7 słów's words come from the game's own ``random`` bot), and the clock
(the clock's action comes from the state, ``Timed``).
"""

from __future__ import annotations

import json
import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable
from cardtable import IllegalAction, OptionError
from cardtable.agents import make_agent
from cardtable.core.actions import Action
from cardtable.core.game import spec_of
from cardtable.core.protocols import Timed
from cardtable.core.record import GameRecord
from cardtable.core.state import CLOCK, State
from cardtable.locales import LANGUAGES, Reason, catalogue
from tests.counts import count, deep_checked

GAMES = count(10, 1)  # a case: every game, preset and player count
#: the share of steps of a deep-checked game that get the dear checks (views, clones)
DEEP_SHARE = 0.3
#: 7 słów plays on the English list here (quick to index); its Polish rules have their tests
OVERRIDES: dict[str, dict[str, Any]] = {"siedem-slow": {"deck": "en", "rounds": 3}}


def cases() -> Iterator[tuple[str, str, int]]:
    """Every game, each preset, each player count the preset allows (its range's ends)."""
    for game_id in cardtable.game_ids():
        spec = spec_of(game_id)
        low, high = spec.info.players
        for preset in spec.presets:
            fixed = spec.presets[preset].get("players")
            counts = [fixed] if fixed is not None else sorted({low, high})
            for players in counts:
                try:
                    new_game(game_id, preset, players)
                except OptionError:  # this preset does not take that many (no-hourglass solo)
                    continue
                yield game_id, preset, players


def new_game(game_id: str, preset: str, players: int) -> cardtable.core.Game:
    options = {"players": players, **OVERRIDES.get(game_id, {})}
    if preset == "english":
        options.pop("deck", None)
    return cardtable.load(game_id, preset=preset, **options)


def snapshot(state: State) -> str:
    """Everything a change would show: every view, the log, the scores."""
    views = [state.view(seat) for seat in (None, *range(state.num_players))]
    return json.dumps([views, len(state.log), state.scores()], sort_keys=True, default=str)


def refused(state: State, seat: int, action: Action) -> None:
    """``action`` by ``seat`` must be refused, with a reason said by a catalogue key (so in
    every language: test_reasons), and change nothing."""
    before = snapshot(state)
    why = state.illegal_reason(seat, action)
    assert isinstance(why, Reason) and all(why.key in catalogue(lang) for lang in LANGUAGES)
    with pytest.raises(IllegalAction):
        state.apply(seat, action)
    assert snapshot(state) == before


def check_views(state: State, rng: random.Random) -> None:
    spectator = state.view(None)
    shared = state.shared_view()
    # what the server sends every seat alike is the spectator's too (nothing hidden in it)
    assert {key: spectator[key] for key in shared} == shared
    # the part a server encodes once a round, and the rest
    in_round, moving = state.round_view(), state.moving_view()
    assert not in_round.keys() & moving.keys(), "a key both in the round's part and moving"
    assert {**in_round, **moving} == shared
    for seat in [None, *range(state.num_players)]:
        own = state.own_view(seat)
        assert not shared.keys() & own.keys(), "a key both shared and a seat's own"
        assert {**shared, **own} == state.view(seat)
    for seat in range(state.num_players):
        view = state.view(seat)
        for _ in range(2):
            sample = state.determinize(seat, rng)
            assert sample.view(seat) == view, "a view changed when hidden cards were re-dealt"
            assert sample.view(None) == spectator


def check_round_key(
    state: State, before: tuple[object, dict[str, Any]]
) -> tuple[object, dict[str, Any]]:
    """While ``State.round_key`` stays the same, so does ``round_view`` (a server sends
    the part it encoded at the first move of the round with every later one)."""
    key = state.round_key()
    now = state.round_view()
    if key == before[0]:
        assert now == before[1], f"round_view changed under the same round_key {key!r}"
    return key, now


def check_clone(state: State, movers: list[int], rng: random.Random) -> None:
    before = snapshot(state)
    copy = state.clone()
    assert snapshot(copy) == before
    seat = movers[0]
    actions = copy.legal_actions(seat)
    if actions:
        copy.apply(seat, rng.choice(actions))
        assert snapshot(state) == before, "playing on a clone changed the original"
    state_copy = state.clone()
    state.legal_actions(seat)  # a no-op must stay one
    assert snapshot(state_copy) == snapshot(state)


def check_pickling(state: State, movers: list[int]) -> None:
    """A state and its moves travel to the compute pool pickled (bots, hints, the coach):
    back, the state shows the same and has the same moves, and it plays on (a compiled
    frozen record unpickled field by field refuses its fields)."""
    copy = pickle.loads(pickle.dumps(state))
    assert snapshot(copy) == snapshot(state)
    seat = movers[0]
    actions = state.legal_actions(seat)
    assert pickle.loads(pickle.dumps(actions)) == actions
    if actions:
        copy.apply(seat, pickle.loads(pickle.dumps(actions[0])))


def fields_of(state: State) -> list[str]:
    """Every field the state holds, read as pickling reads them (``State.__getstate__``):
    the ``__slots__`` of interpreted classes and the ``__mypyc_attrs__`` of compiled ones,
    which have no ``__slots__`` (read from ``__slots__`` alone, a compiled state has none)."""
    return sorted(state.__getstate__())


def check_clone_fields(state: State) -> None:
    """A clone has every field of the state, equal, and no mutable container in common
    (a clone written by hand cannot forget a field or share a list)."""
    copy = state.clone()
    assert type(copy) is type(state)
    for name in fields_of(state):
        assert hasattr(copy, name), f"{type(state).__name__}.clone forgets {name}"
        original, copied = getattr(state, name), getattr(copy, name)
        assert_independent(original, copied, f"{type(state).__name__}.{name}")


def test_the_clone_check_reads_every_field_and_finds_a_forgotten_one() -> None:
    """Under the compiled engine too (FishingState's fields are then a compiled class's,
    with no ``__slots__``): the check reads them all, and fails on a ``copy_into`` that
    forgets one."""
    from cardtable.core.game import Game
    from cardtable.games.hanafuda.fishing import FishingState
    from tests.toy_flowers.game import SPEC, HanaKazoeOptions, HanaKazoeState

    class ForgetsTheTable(HanaKazoeState):
        """A broken copy: every field of the state but ``table``."""

        __slots__ = ()

        def copy_into(self, new: FishingState) -> None:
            whole = HanaKazoeState()
            super().copy_into(whole)
            copied = whole.__getstate__()
            del copied["table"]
            new.__setstate__(copied)

    game = Game(SPEC, HanaKazoeOptions())
    state = ForgetsTheTable(game, 3, ())
    fields = fields_of(state)
    assert {"table", "hands", "piles", "stock", "dealer", "rng", "log"} <= set(fields)
    check_clone_fields(HanaKazoeState(game, 3, ()))  # the engine's own copy: complete
    with pytest.raises(AssertionError, match=r"ForgetsTheTable\.clone forgets table"):
        check_clone_fields(state)


def assert_independent(original: Any, copied: Any, where: str) -> None:
    if isinstance(original, list | dict | set | bytearray):
        assert copied == original, f"{where} differs in the clone"
        assert copied is not original, f"{where} is shared with the clone"
        items = original.values() if isinstance(original, dict) else original
        copied_items = copied.values() if isinstance(copied, dict) else copied
        if isinstance(original, list | dict):
            for number, (a, b) in enumerate(zip(items, copied_items, strict=True)):
                assert_independent(a, b, f"{where}[{number}]")


def check_scores(state: State) -> None:
    result = state.result()
    start = state.game.new_state(seed=0).scores()
    for round_result in result.rounds:
        if not round_result.lines:
            continue
        for seat, points in enumerate(round_result.scores):
            said = sum(line.points for line in round_result.lines if line.seat == seat)
            assert said == points, f"round {round_result.number}: lines do not add up"
    for seat, total in enumerate(result.scores):
        assert total == start[seat] + sum(r.scores[seat] for r in result.rounds)
    promised = state.game.spec.info.score_total(state.game.options)
    if promised is not None and state.is_over:
        assert sum(result.scores) == promised
    if state.is_over:
        assert result.winners, "a finished game names its winners"


def check_replay(state: State) -> None:
    again = cardtable.replay(
        state.game.id, state.game.options, state.seed, state.log, deals=state.deals
    )
    assert snapshot(again) == snapshot(state)
    loaded = GameRecord.from_json(json.loads(json.dumps(GameRecord.of(state).to_json())))
    assert snapshot(loaded.replay()) == snapshot(state)


def choose(state: State, seat: int, rng: random.Random, free_text: Any) -> Action:
    actions = state.legal_actions(seat)
    if free_text is not None and (not actions or rng.random() < 0.5):
        return free_text.choose(state, seat)  # type: ignore[no-any-return]
    return rng.choice(actions)


def step(state: State, seat: int, action: Action, deep: bool) -> None:
    """Apply ``action``; in a deep-checked game a copy told to ``end_at_round`` makes the
    same move too, and must stop on the round just scored, with the same scores (the
    table's result screen shows that copy's final board)."""
    halted = state.clone() if deep else None
    rounds = state.rounds_finished
    may_end = state.round_may_end(seat, action)
    state.apply(seat, action)
    # a server copies the game only before a move the game says may end the round
    assert may_end or state.rounds_finished == rounds, "a round ended on a move said not to"
    if halted is None:
        return
    halted.end_at_round()
    halted.apply(seat, action)
    if state.rounds_finished > rounds:
        # (a move can end two rounds: koi-koi's next deal may hold a lucky hand)
        assert halted.is_over and halted.to_move == frozenset()
        assert halted.round_scores(rounds) == state.round_scores(rounds)
        if state.is_over:  # the game's own end (7 słów scores its strike-outs as a round)
            # a round that ended at its deal after this one (a lucky hand) is the difference
            later = [
                state.round_scores(n) for n in range(halted.rounds_finished, state.rounds_finished)
            ]
            expected = tuple(sum(column) for column in zip(halted.scores(), *later, strict=True))
            assert expected == tuple(state.scores())
        else:
            assert halted.rounds_finished == rounds + 1
            if state.rounds_finished == rounds + 1:
                assert halted.scores() == state.scores()
    else:
        assert not halted.is_over or state.is_over


def play_checked(game: cardtable.core.Game, seed: int, deep: bool) -> State:
    info = game.spec.info
    state = game.new_state(seed=seed)
    low, high = info.players
    assert low <= state.num_players <= high
    rng = random.Random(seed)
    writer = make_agent("random", game.id, seed) if info.free_text else None
    seen: list[Action] = []
    steps = 0
    round_part = (state.round_key(), state.round_view())
    while not state.is_over:
        round_part = check_round_key(state, round_part)
        steps += 1
        assert steps < 5000, "the game does not end"
        movers = sorted(state.to_move)
        if (
            isinstance(state, Timed)
            and state.timer is not None
            and (not movers or rng.random() < 0.05)
        ):
            step(state, CLOCK, state.time_up(), deep)
            continue
        assert movers, "a game that is not over has someone to move"
        assert info.simultaneous or len(movers) == 1
        for seat in range(state.num_players):
            actions = state.legal_actions(seat)
            if seat not in movers:
                assert actions == []
                continue
            assert actions or info.free_text, "a seat to move has a legal action"
            assert len(set(actions)) == len(actions)
            for action in actions:
                assert state.illegal_reason(seat, action) is None
                assert game.parse_action(json.loads(json.dumps(action.to_json()))) == action
            if deep and rng.random() < DEEP_SHARE:
                others = [s for s in range(state.num_players) if s not in movers]
                for action in actions[:3]:
                    for other in others[:1]:
                        refused(state, other, action)
                for old in seen[-5:]:
                    if not info.free_text and old not in actions:
                        refused(state, seat, old)
        if deep and rng.random() < DEEP_SHARE:
            check_views(state, rng)
            check_clone(state, movers, rng)
            check_clone_fields(state)
            check_pickling(state, movers)
        seat = rng.choice(movers)
        action = choose(state, seat, rng, writer)
        seen.append(action)
        step(state, seat, action, deep)
        check_scores(state)
    assert state.to_move == frozenset()
    check_round_key(state, round_part)  # a finished table's frames show the last round too
    check_replay(state)
    return state


@pytest.mark.parametrize(("game_id", "preset", "players"), list(cases()))
def test_conformance(game_id: str, preset: str, players: int) -> None:
    game = new_game(game_id, preset, players)

    @settings(max_examples=GAMES, database=None, deadline=None)
    @given(seed=st.integers(min_value=0, max_value=2**63 - 1))
    def run(seed: int) -> None:
        # every game gets the cheap checks at every step; one in four the dear ones too
        play_checked(game, seed, deep_checked(seed, 4))

    run()


def test_every_game_declares_its_facts_and_a_default() -> None:
    for game_id in cardtable.game_ids():
        spec = spec_of(game_id)
        low, high = spec.info.players
        assert 0 < low <= high <= 6
        assert "default" in spec.presets
        assert low <= cardtable.load(game_id).num_players <= high


@pytest.mark.parametrize("game_id", ["koi-koi", "bakappana", "hana-awase"])
def test_most_fishing_moves_cannot_end_a_round(game_id: str) -> None:
    """The server copies a game before a move only where the move may end the round: for
    the fishing games, a turn of a hand's last card or a decision, far from every move."""
    game = cardtable.load(game_id)
    rng = random.Random(7)
    asked = said_yes = 0
    for seed in range(20):
        state = game.new_state(seed=seed)
        while not state.is_over:
            seat = min(state.to_move)
            action = rng.choice(state.legal_actions(seat))
            asked += 1
            said_yes += state.round_may_end(seat, action)
            state.apply(seat, action)
    assert said_yes < asked / 3, f"{said_yes} of {asked} moves may end a round"
