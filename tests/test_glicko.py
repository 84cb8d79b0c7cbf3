"""Glicko-2 as the ratings use it (server/glicko.py): the paper's example is its doctest;
here what a player sees follow from it."""

from __future__ import annotations

from cardtable.server.glicko import START_DEVIATION, Glicko


def test_a_win_raises_a_loss_lowers_and_both_grow_surer() -> None:
    ala, olga = Glicko(), Glicko()
    won, lost = ala.after([(olga, 1.0)]), olga.after([(ala, 0.0)])
    assert won.rating > 1500 > lost.rating
    assert abs((won.rating - 1500) + (lost.rating - 1500)) < 1e-6  # equals: what one gains
    assert won.deviation < START_DEVIATION and lost.deviation < START_DEVIATION


def test_a_draw_between_equals_moves_nobody_and_an_upset_moves_more() -> None:
    drawn = Glicko().after([(Glicko(), 0.5)])
    assert abs(drawn.rating - 1500) < 1e-6
    strong, weak = Glicko(1800, 60), Glicko(1400, 60)
    expected = strong.after([(weak, 1.0)]).rating - strong.rating
    upset = weak.after([(strong, 1.0)]).rating - weak.rating
    assert 0 < expected < upset


def test_an_idle_period_makes_a_rating_less_sure_never_past_the_start() -> None:
    sure = Glicko(1600, 50, 0.06)
    assert sure.after([]).deviation > 50
    assert Glicko().after([]).deviation == START_DEVIATION


def test_shown_groups_thousands_with_a_space() -> None:
    assert Glicko(1512.4, 179.6).shown() == "1 512 ± 180"
    assert Glicko(987, 60).shown() == "987 ± 60"
