"""The hanafuda games score their rounds with the pure functions of
:mod:`cardtable.games.hanafuda.scoring`: over random finished rounds of every game, its
presets and more house rules, the function applied to the facts a table could read off the
finished round gives the state's own result, line for line, and a search copy's result
(no lines) has the same scores."""

from __future__ import annotations

import pickle
import random
from collections.abc import Iterator
from typing import Any

import pytest

import cardtable
from cardtable.core.game import Game, spec_of
from cardtable.core.results import RoundResult
from cardtable.games.hanafuda.deck import cards
from cardtable.games.hanafuda.fishing import FishingState
from cardtable.games.hanafuda.hana_awase import HanaAwaseState
from cardtable.games.hanafuda.koikoi import KoiKoiState
from cardtable.games.hanafuda.options import HanaAwaseOptions, KoiKoiOptions
from cardtable.games.hanafuda.scoring import (
    FinishedRound,
    score_hana_awase_round,
    score_koikoi_round,
    teyaku_lines,
)

#: house rules beyond the presets that reach the rarer paths of the scoring
HOUSE_RULES: list[tuple[str, dict[str, Any]]] = [
    ("bakappana", {"players": 3, "scoring": "simple"}),
    ("bakappana", {"players": 4}),
    (
        "koi-koi",
        {
            "lucky_hands": "win", "draw_last_yaku_scores": True,
            "table_lights_multiplier": "count", "score_opponent_yaku": True,
            "double_if_seven_plus": True, "koikoi_multiplier": "any_x2",
        },
    ),
    (
        "koi-koi",
        {
            "best_yaku_only": True, "oya_ken_points": 6, "sake_viewing": "needs_other_yaku",
            "koikoi_multiplier": "count_opponent", "table_lights_multiplier": "x2",
            "sake_cup_mode": "one_of", "chofuku_mode": "add",
        },
    ),
    ("koi-koi", {"koikoi_multiplier": "own_x2", "continue_with_stock_after_hands": True}),
    ("hana-awase", {"players": 2, "scoring": "simple"}),
    ("hana-awase", {"players": 3, "teyaku": True, "special_payments": True}),
    ("hana-awase", {"players": 4, "willow_row_cancels_yaku": True, "rain_spoils_drinking": True}),
    ("hana-awase-88", {"teyaku": True, "willow_is_plain_for_teyaku": True}),
    ("hana-awase-88", {"fuke_threshold_inclusive": True, "sugawara_excluded_by_lights": True}),
]  # fmt: skip


#: the hanafuda games this module plays
HANAFUDA = ("bakappana", "koi-koi", "hana-awase", "hana-awase-88")


def rule_sets() -> list[tuple[str, str | None, dict[str, Any]]]:
    """Every preset of every hanafuda game, then the house rules above."""
    sets: list[tuple[str, str | None, dict[str, Any]]] = [
        (game_id, preset, {}) for game_id in HANAFUDA for preset in spec_of(game_id).presets
    ]
    return sets + [(game_id, None, rules) for game_id, rules in HOUSE_RULES]


def table_facts(state: FishingState) -> FinishedRound:
    """What players could tell of the round ``state`` has just scored (read field by
    field, not through the state's own ``round_facts``)."""
    koikoi = state if isinstance(state, KoiKoiState) else None
    return FinishedRound(
        piles=tuple(state.piles),
        table=state.table,
        dealer=state.dealer,
        round_no=state.round_no,
        hands=state.dealt_hands,
        first_table=state.start_table,
        calls=tuple(koikoi.calls) if koikoi else (),
        shobu=koikoi.winner if koikoi else None,
        last_improver=koikoi.last_improver if koikoi else None,
    )


def finished_rounds(
    game: Game, rounds: int, seed: int
) -> Iterator[tuple[FishingState, FishingState | None]]:
    """``rounds`` random one-round games played to the end (the piles and the table stay
    as the round left them), each with a search copy that followed the same moves and
    scored the round without lines (None when a lucky hand ended the round as dealt)."""
    rng = random.Random(seed)
    for _ in range(rounds):
        state = game.new_state(seed=rng.randrange(2**31))
        assert isinstance(state, FishingState)
        terse = None if state.is_over else state.clone()
        if terse is not None:
            terse.end_at_round()
        while not state.is_over:
            seat = min(state.to_move)
            action = rng.choice(state.legal_actions(seat))
            for copy in (state, terse):
                assert copy is not None
                copy.apply(seat, action)
        yield state, terse


def test_every_game_scores_its_rounds_with_the_pure_functions() -> None:
    seen: set[str] = set()
    for number, (game_id, preset, rules) in enumerate(rule_sets()):
        game = cardtable.load(game_id, preset, rounds=1, **rules)
        scoring = game.new_state(seed=0).scoring()  # type: ignore[attr-defined]
        for state, terse in finished_rounds(game, 80, seed=number):
            facts = table_facts(state)
            assert state.round_facts() == facts
            (own,) = state.results
            assert scoring(game.options, facts) == own, (game_id, preset, rules, facts)
            quick = scoring(game.options, facts, explain=False)
            if terse is not None:
                assert terse.results == [quick]
            assert (quick.scores, quick.outcome, quick.lines) == (own.scores, own.outcome, ())
            assert sum(line.points for line in own.lines if line.seat == 0) == own.scores[0]
            seen.add(f"{game_id}:{own.outcome}")
            seen.update(line.rule.split(":")[0] for line in own.lines)
    # the random rounds went through the rarer rules, not only card counting
    assert {
        "koi-koi:lucky_hand",
        "koi-koi:exhausted_last_yaku",
        "hana-awase:drawn",
        "hana-awase-88:drawn",
        "bakappana:played",
    } <= seen
    assert {"teyaku", "few_cards", "willow_row_cancels", "oya_ken", "koikoi_bonus"} <= seen
    assert {"opponent_yaku", "multiplier", "lucky", "fuke", "par", "pays"} <= seen


def test_a_played_round_explains_itself_when_read() -> None:
    """The engine's round result makes its lines on first read (play that never reads
    them skips the work), pickles with them, and refuses lines that do not add up."""
    game = cardtable.load("hana-awase-88", rounds=1)
    ((state, _),) = finished_rounds(game, 1, seed=3)
    (result,) = state.results
    made: list[RoundResult] = []
    explained = state.scoring()(game.options, state.round_facts())
    later = RoundResult(1, result.dealer, result.scores, (), result.outcome).explained_later(
        lambda: made.append(explained) or explained
    )
    assert made == []
    assert later.lines == explained.lines and later.lines and made == [explained]
    assert pickle.loads(pickle.dumps(result)) == result == explained
    wrong = RoundResult(1, 0, (1, -1)).explained_later(lambda: explained)
    with pytest.raises(AssertionError, match="do not explain"):
        _ = wrong.lines


def test_a_koikoi_winner_scores_yaku_times_the_calls() -> None:
    # seat 1 stopped with Inoshikachō (5) + Tane (1) after 1 + 2 calls: ×4 under count_all
    facts = FinishedRound(
        piles=(cards("01-1 03-1"), cards("06-1 07-1 10-1 08-2 09-1")), calls=(1, 2), shobu=1
    )
    result = score_koikoi_round(KoiKoiOptions(), facts)
    assert [(line.seat, line.rule, line.points) for line in result.lines] == [
        (1, "yaku:inoshikacho", 5),
        (1, "yaku:tane", 1),
        (1, "multiplier:koikoi", 18),
        (0, "pays", -24),
    ]
    assert result.scores == (-24, 24) and result.outcome == "shobu"
    stock_ran_out = score_koikoi_round(KoiKoiOptions(), FinishedRound(piles=facts.piles))
    assert stock_ran_out.scores == (0, 0) and stock_ran_out.outcome == "exhausted"


def test_hana_awase_teyaku_are_scored_from_the_dealt_hands() -> None:
    options = HanaAwaseOptions(players=3, teyaku=True)
    seven_plains = cards("01-3 01-4 02-3 02-4 03-3 03-4 04-3")
    facts = FinishedRound(
        piles=(cards("01-1 01-2 08-1"), cards("02-1 02-2"), cards("03-1 03-2")),
        hands=(seven_plains, cards("05-1 05-2 05-3 05-4 06-1 06-2 06-3"), 0),
    )
    result = score_hana_awase_round(options, facts)
    assert [line.rule for line in result.lines[:3]] == ["teyaku:7"] * 3
    assert [line.points for line in result.lines[:3]] == [60, -30, -30]
    assert result.lines[:3] == teyaku_lines(options, facts.hands, 3)
    untold = score_hana_awase_round(options, FinishedRound(piles=facts.piles))
    assert [s - u for s, u in zip(result.scores, untold.scores, strict=True)] == [60, -30, -30]


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_determinization_knows_only_the_teyaku_of_the_other_dealt_hands(seat: int) -> None:
    game = cardtable.load("hana-awase-88")
    for seed in range(40):
        state = game.new_state(seed=seed)
        assert isinstance(state, HanaAwaseState)
        if not state.teyaku_lines:
            continue
        sample = state.determinize(seat, random.Random(seed))
        assert isinstance(sample, HanaAwaseState)
        for other, dealt in enumerate(state.dealt_hands):
            known = dealt if other == seat or state.revealed[other] == dealt else 0
            assert sample.dealt_hands[other] == known
        assert sample.teyaku_lines == state.teyaku_lines  # shown teyaku are still scored
        return
    pytest.fail("no deal of 40 showed a teyaku")
