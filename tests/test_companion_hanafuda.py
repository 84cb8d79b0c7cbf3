"""The round calculator agrees with the engines: the facts of 2 000 random finished rounds,
entered as a table would enter them, give exactly the engine's score lines and scores."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

import cardtable
from cardtable.core.errors import OptionError
from cardtable.core.results import RoundResult
from cardtable.games.hanafuda.companion import Match, RoundFacts, score_round, settlement
from cardtable.games.hanafuda.deck import codes
from cardtable.games.hanafuda.fishing import FishingState
from cardtable.games.hanafuda.koikoi import KoiKoiState

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("bakappana", {"players": 2}),
    ("bakappana", {"players": 3, "scoring": "simple"}),
    ("bakappana", {"players": 4}),
    ("koi-koi", {}),
    ("koi-koi", {"preset": "nintendo"}),
    ("koi-koi", {"preset": "koikoi_japan"}),
    ("koi-koi", {"preset": "battle_hanafuda"}),
    (
        "koi-koi",
        {
            "lucky_hands": "win", "weather_ruins_viewing": True, "draw_last_yaku_scores": True,
            "table_lights_multiplier": "count", "score_opponent_yaku": True,
            "double_if_seven_plus": True,
        },
    ),
    ("koi-koi", {"best_yaku_only": True, "oya_ken_points": 6, "sake_viewing": "needs_other_yaku"}),
    ("hana-awase", {"players": 2}),
    ("hana-awase", {"players": 3, "teyaku": True, "special_payments": True}),
    ("hana-awase", {"players": 4, "willow_row_cancels_yaku": True, "rain_spoils_drinking": True}),
    ("hana-awase-88", {}),
    ("hana-awase-88", {"teyaku": True, "willow_is_plain_for_teyaku": True}),
]  # fmt: skip


def facts_at_scoring(state: FishingState, dealt: list[int]) -> RoundFacts:
    """What a table could tell at the end of the round the engine is scoring."""
    koikoi = isinstance(state, KoiKoiState)
    return RoundFacts(
        piles=tuple(tuple(codes(pile)) for pile in state.piles),
        dealer=state.dealer,
        table=tuple(codes(state.table)),
        first_table=tuple(codes(state.start_table)),
        hands=tuple(tuple(codes(hand)) for hand in dealt),
        calls=tuple(state.calls) if koikoi else (),  # type: ignore[attr-defined]
        shobu=state.winner if koikoi else None,  # type: ignore[attr-defined]
        last_improver=state.last_improver if koikoi else None,  # type: ignore[attr-defined]
        round_no=state.round_no,
    )


def scored_rounds(
    game_id: str, options: dict[str, Any], rounds: int, seed: int
) -> Iterator[tuple[RoundFacts, RoundResult]]:
    """Random games until ``rounds`` rounds were scored: each round's facts and result.

    The facts are read off a copy told to stop on the round's final board (as the table's
    round break does): the engine deals the next round in the same move. Rounds that end
    as they are dealt (lucky hands) are left out."""
    options = dict(options)
    preset = options.pop("preset", None)
    game = cardtable.load(game_id, preset, rounds=12, **options)
    found = 0
    rng = random.Random(seed)
    while found < rounds:
        state = game.new_state(seed=rng.randrange(2**31))
        while not state.is_over and found < rounds:
            seat = min(state.to_move)
            action = rng.choice(state.legal_actions(seat))
            final = state.clone()
            final.end_at_round(explain=True)
            final.apply(seat, action)
            if final.rounds_finished > state.rounds_finished:
                assert isinstance(final, FishingState)
                facts = facts_at_scoring(final, list(final.dealt_hands))
                yield facts, final.result().rounds[state.rounds_finished]
                found += 1
            state.apply(seat, action)


@pytest.mark.slow
def test_calculator_agrees_with_the_engines_on_2000_random_rounds() -> None:
    total = 0
    outcomes: set[str] = set()
    rules: set[str] = set()
    for number, (game_id, options) in enumerate(CONFIGS):
        calculator_options = {k: v for k, v in options.items() if k != "preset"}
        if "preset" in options:
            preset = cardtable.core.game.spec_of(game_id).presets[options["preset"]]
            calculator_options = {**preset, **calculator_options}
        for facts, engine_result in scored_rounds(game_id, options, 150, seed=number):
            calculated = score_round(game_id, calculator_options, facts)
            assert calculated.scores == engine_result.scores, (game_id, options, facts)
            assert calculated.lines == engine_result.lines
            assert calculated.outcome == engine_result.outcome
            outcomes.add(f"{game_id}:{engine_result.outcome}")
            rules.update(line.rule.split(":")[0] for line in engine_result.lines)
            total += 1
    assert total >= 2000
    # the random rounds went through the interesting paths, not only plain card counting
    assert {"koi-koi:shobu", "koi-koi:exhausted", "hana-awase:played"} <= outcomes
    assert {"yaku", "multiplier", "cards", "par", "pays"} <= rules
    assert rules & {"teyaku", "lucky"}


def test_a_koikoi_round_with_calls_as_a_table_enters_it() -> None:
    # seat 1 called koi-koi twice, seat 0 once; seat 1 stopped with Inoshikachō + Tane
    facts = RoundFacts(
        piles=(
            ("01-1", "03-1", "02-1"),
            ("06-1", "07-1", "10-1", "08-2", "09-1", "11-2", "04-1"),
        ),
        calls=(1, 2),
        shobu=1,
    )
    result = score_round("koi-koi", {"koikoi_multiplier": "own_x2"}, facts)
    rules = [line.rule for line in result.lines if line.seat == 1]
    assert "yaku:inoshikacho" in rules and any(r.startswith("multiplier:") for r in rules)
    assert result.scores[0] == -result.scores[1] < 0


def test_bad_entries_are_refused_with_the_reason() -> None:
    with pytest.raises(OptionError, match="two places"):
        score_round("bakappana", {"players": 2}, RoundFacts(piles=(("01-1",), ("01-1",))))
    with pytest.raises(OptionError, match="give 3 piles"):
        score_round("hana-awase-88", {}, RoundFacts(piles=((), ())))
    with pytest.raises(OptionError, match="13-1"):
        score_round("bakappana", {"players": 2}, RoundFacts(piles=(("13-1",), ())))
    with pytest.raises(OptionError, match="shōbu"):
        score_round("koi-koi", {}, RoundFacts(piles=((), ()), shobu=5))


def test_a_running_match_and_its_settlement() -> None:
    match = Match("hana-awase", {"players": 3})
    engine_totals = [0, 0, 0]
    for facts, engine_result in scored_rounds("hana-awase", {"players": 3}, 3, seed=11):
        match.add(facts)
        engine_totals = [t + s for t, s in zip(engine_totals, engine_result.scores, strict=True)]
    assert len(match.rounds) == 3
    assert list(match.totals) == engine_totals
    assert sum(match.totals) == 0  # traditional hana-awase is zero-sum
    payments = settlement(match.totals)
    received = [0] * 3
    for payer, payee, amount in payments:
        received[payee] += amount
        received[payer] -= amount
    assert received == list(match.totals)


def test_koikoi_teyaku_needs_the_dealt_hand() -> None:
    hand = ("01-3", "01-4", "01-1", "01-2", "03-3", "03-4", "05-3", "05-4")  # four of a month
    facts = RoundFacts(piles=((), ()), hands=(hand, ()), shobu=0)
    result = score_round("koi-koi", {"lucky_hands": "win"}, facts)
    assert result.outcome == "lucky_hand"
    assert result.lines[0].rule == "lucky:teshi"
    assert (
        score_round("koi-koi", {"lucky_hands": "win"}, RoundFacts(piles=((), ()))).outcome
        != "lucky_hand"
    )
