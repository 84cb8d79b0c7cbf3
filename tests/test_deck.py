"""The 48-card deck against games/hanafuda/pages/bakappana.md, "The deck"."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardtable.games.hanafuda import cards, codes
from cardtable.games.hanafuda.deck import (
    ANIMALS,
    CARDS,
    FULL_DECK,
    LIGHTS,
    MONTH_MASKS,
    PLAINS,
    RIBBONS,
    Kind,
    card_index,
    full_months,
    months_with_three,
    months_with_two,
    tagged,
    value_of,
)


def test_codes_indices_and_months() -> None:
    assert len(CARDS) == 48
    for card in CARDS:
        assert card.index == (card.month - 1) * 4 + card.slot - 1
        assert card.code == f"{card.month:02d}-{card.slot}"
        assert card_index(card.code) == card.index


def test_kinds_and_values() -> None:
    counts = Counter(card.kind for card in CARDS)
    assert counts == {Kind.LIGHT: 5, Kind.ANIMAL: 9, Kind.RIBBON: 10, Kind.PLAIN: 24}
    assert value_of(FULL_DECK) == 264
    assert value_of(LIGHTS) == 100 and value_of(ANIMALS) == 90
    assert value_of(RIBBONS) == 50 and value_of(PLAINS) == 24


def test_month_values_match_the_russian_table() -> None:
    per_month = [value_of(mask) for mask in MONTH_MASKS]
    assert per_month == [27, 17, 27, 17, 17, 17, 17, 32, 17, 17, 36, 23]
    assert [c.value for c in CARDS[28:32]] == [20, 10, 1, 1]  # August: no ribbon
    assert [c.value for c in CARDS[40:44]] == [20, 10, 5, 1]  # November: one of each
    assert [c.value for c in CARDS[44:48]] == [20, 1, 1, 1]  # December


def test_derived_sets() -> None:
    assert codes(LIGHTS) == ["01-1", "03-1", "08-1", "11-1", "12-1"]
    assert codes(tagged("poetry_ribbon")) == ["01-2", "02-2", "03-2"]
    assert codes(tagged("blue_ribbon")) == ["06-2", "09-2", "10-2"]
    assert codes(tagged("grass_ribbon")) == ["04-2", "05-2", "07-2"]
    assert codes(tagged("inoshikacho")) == ["06-1", "07-1", "10-1"]
    assert "grass_ribbon" not in CARDS[card_index("11-3")].tags
    assert CARDS[card_index("11-4")].kind is Kind.PLAIN


def test_cards_helper_and_errors() -> None:
    assert cards("01-1 03-1, 8-1") == cards(["01-1", "03-1", 28])
    for bad in ("13-1", "01-5", "moon", ""):
        with pytest.raises(ValueError, match="not a hanafuda card code"):
            card_index(bad)


def test_value_of_matches_a_plain_sum() -> None:
    import random

    rng = random.Random(0)
    for _ in range(500):
        mask = rng.getrandbits(48)
        assert value_of(mask) == sum(c.value for c in CARDS if mask >> c.index & 1)


@given(st.integers(0, FULL_DECK))
def test_the_value_of_any_set_is_its_cards_values_summed(mask: int) -> None:
    assert value_of(mask) == sum(card.value for card in CARDS if mask & card.bit)


@given(st.integers(min_value=0, max_value=FULL_DECK))
def test_months_found_all_at_once_are_the_months_counted_one_by_one(mask: int) -> None:
    """The word-at-once month tests (teshi, kuttsuki, misdeals) agree with counting each
    month's cards."""
    counts = [(mask & month).bit_count() for month in MONTH_MASKS]

    def firsts(wanted: list[bool]) -> int:
        return sum(1 << 4 * month for month, yes in enumerate(wanted) if yes)

    assert full_months(mask) == firsts([n == 4 for n in counts])
    assert months_with_two(mask) == firsts([n == 2 for n in counts])
    assert months_with_three(mask) == firsts([n >= 3 for n in counts])
