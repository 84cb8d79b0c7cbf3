"""The Ohanami score pad agrees with the engine on random games, by cards and by counts."""

from __future__ import annotations

import random

import pytest

import cardtable
from cardtable.core.errors import OptionError
from cardtable.games.ohanami.companion import Garden, OhanamiPad, results, stage_result
from cardtable.games.ohanami.game import OhanamiState
from cardtable.locales import Term, message


def play_stage(state: OhanamiState, rng: random.Random) -> None:
    stage = state.stage
    while not state.is_over and state.stage == stage:
        for seat in sorted(state.to_move):
            state.apply(seat, rng.choice(state.legal_actions(seat)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pad_agrees_with_the_engine(players: int) -> None:
    rng = random.Random(players)
    for game_number in range(40):
        state = cardtable.load("ohanami", players=players).new_state(seed=game_number)
        assert isinstance(state, OhanamiState)
        by_cards, by_counts = OhanamiPad(players), OhanamiPad(players)
        for stage in range(3):
            play_stage(state, rng)
            gardens = [
                Garden(cards=tuple(c for row in state.rows[s] for c in row)) for s in range(players)
            ]
            engine = state.results[stage]
            assert by_cards.add_stage(gardens) == engine
            counted = by_counts.add_stage(
                [Garden(counts=state.colour_counts(s)) for s in range(players)]
            )
            assert counted.scores == engine.scores
        result = state.result()
        assert by_cards.totals == by_counts.totals == result.scores
        assert tuple(by_cards.leaders()) == result.winners


def test_bad_gardens_are_refused_with_the_reason() -> None:
    with pytest.raises(OptionError, match="two gardens"):
        stage_result(2, 1, [Garden(cards=(5, 6)), Garden(cards=(6,))])
    with pytest.raises(OptionError, match="there is no card 121"):
        stage_result(2, 1, [Garden(cards=(121,)), Garden()])
    with pytest.raises(OptionError, match=r"Grey \(stones\): the box has only 17 such cards"):
        stage_result(2, 3, [Garden(counts={"grey": 18}), Garden()])
    with pytest.raises(OptionError, match=r"Blue \(water\): a count cannot be below 0"):
        stage_result(2, 1, [Garden(counts={"blue": -4}), Garden()])
    with pytest.raises(OptionError, match="stages 1 to 3"):
        stage_result(2, 4, [Garden(), Garden()])


def test_a_refused_count_comes_with_its_reason_for_the_page() -> None:
    """The pad's answer carries the refusal's catalogue key and values, so the page says
    it in its own language (here as the Polish page would)."""
    current = [{"counts": {"blue": 99}}, {"counts": {"pink": -4}}]
    why = results("ohanami", {"players": 2}, {"rounds": [], "current": current})[
        "current_error_reason"
    ]
    assert why["key"] == "pad.count_over"
    values = why["values"]
    assert values["which"] == "blue" and (values["have"], values["wanted"]) == (34, 99)
    said = message(why["key"], "pl", **{**values, "colour": Term(values["colour"]["term"])})
    assert said == "Niebieskie (woda): w pudełku jest ich tylko 34, nie 99."
    current[0] = {"counts": {"blue": 2}}
    why = results("ohanami", {"players": 2}, {"rounds": [], "current": current})[
        "current_error_reason"
    ]
    assert why["key"] == "pad.count_negative" and why["values"]["wanted"] == -4
