"""The seeded generator: a published test vector, determinism, uniformity."""

import pickle
import random
from collections import Counter

import pytest

from cardtable.core.rng import FACTORIALS, Rng, draw_below, seed_to_u64, shuffle_in_one_draw


def test_splitmix64_reference_vector() -> None:
    # SplitMix64 from state 0: the reference implementation's first outputs.
    rng = Rng.from_state(0)
    assert rng.next_u64() == 0xE220A8397B1DCDAF
    assert rng.next_u64() == 0x6E789E6AA1B965F4


def test_same_seed_same_stream_and_clone_is_independent() -> None:
    a, b = Rng(42), Rng(42)
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]
    c = a.clone()
    assert a.next_u64() == c.next_u64()
    a.next_u64()
    assert a.state != c.state


def test_seed_types_are_distinguished_and_bool_refused() -> None:
    assert seed_to_u64(1) != seed_to_u64("1") != seed_to_u64(b"1")
    assert seed_to_u64(-5) != seed_to_u64(5)
    with pytest.raises(TypeError):
        seed_to_u64(True)


def test_below_is_uniform_and_in_range() -> None:
    rng = Rng(3)
    counts = Counter(rng.below(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    for value in counts.values():
        assert abs(value - 10_000) < 400  # > 4 standard deviations
    with pytest.raises(ValueError):
        rng.below(0)


@pytest.mark.parametrize("source", [Rng(5), random.Random(5)], ids=["Rng", "random.Random"])
def test_draw_below_is_uniform_and_in_range_for_any_source(source: Rng | random.Random) -> None:
    # n = 3 * 2**30 is where `getrandbits(32) % n` was most biased: the numbers below
    # 2**30 came up twice as often as the rest (a third of the range, half the draws).
    n = 3 << 30
    draws = [draw_below(source, n) for _ in range(30_000)]
    assert all(0 <= d < n for d in draws)
    low = sum(d < 1 << 30 for d in draws)
    assert abs(low - 10_000) < 330  # > 4 standard deviations; the biased draw gave ~15 000
    counts = Counter(draw_below(source, 6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(abs(value - 10_000) < 400 for value in counts.values())
    assert {draw_below(source, 1) for _ in range(10)} == {0}
    with pytest.raises(ValueError):
        draw_below(source, 0)


def test_shuffle_is_a_permutation_and_matches_below() -> None:
    items = list(range(48))
    Rng(9).shuffle(items)
    assert sorted(items) == list(range(48)) and items != list(range(48))
    rng, expected = Rng(9), list(range(48))
    for i in range(47, 0, -1):
        j = rng.below(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    assert items == expected


def readable_shuffle(x: list[int], rng: Rng | random.Random) -> None:
    """shuffle_in_one_draw as its docstring says it: the digits of one number below n!."""
    if len(x) < 2:
        return
    number = draw_below(rng, FACTORIALS[len(x)])
    for i in range(len(x) - 1, 0, -1):
        number, j = divmod(number, i + 1)
        x[i], x[j] = x[j], x[i]


@pytest.mark.parametrize("make", [Rng, random.Random], ids=["Rng", "random.Random"])
def test_the_one_draw_shuffle_takes_the_digits_of_its_number(make: type) -> None:
    """The search's shuffle divides its number in machine-word limbs: the same order as
    the plain digits, for every length it takes (one limb, several, the longest)."""
    for n in [*range(40), 64, 100, 128]:
        for seed in range(12):
            fast, readable = list(range(n)), list(range(n))
            shuffle_in_one_draw(fast, make(seed))
            readable_shuffle(readable, make(seed))
            assert fast == readable, (n, seed)


def test_permutation_is_uniform_enough_and_reproducible() -> None:
    assert Rng(3).permutation(48) == Rng(3).permutation(48)
    assert sorted(Rng(3).permutation(48)) == list(range(48))
    rng = Rng(8)
    first = Counter(rng.permutation(4)[0] for _ in range(40_000))
    assert all(abs(count - 10_000) < 450 for count in first.values())


def test_permutation_is_the_sort_by_its_keys() -> None:
    """The packed sort orders a deck as sorting the indices by their 64-bit keys (the
    generator's next outputs) does, so every seed deals what it always dealt. Seed 6271
    draws two keys whose top bits are equal: those are ordered by their whole keys."""
    tied = Rng(6271)
    assert len({tied.next_u64() >> 40 for _ in range(48)}) < 48
    for seed in (6271, *range(300)):
        rng = Rng(seed)
        keys = [rng.next_u64() for _ in range(48)]
        permuted = Rng(seed)
        assert permuted.permutation(48) == sorted(range(48), key=keys.__getitem__)
        assert permuted.state == rng.state


def test_a_generator_pickles_and_clones_with_its_state() -> None:
    reference = Rng(99)
    reference.below(5)
    expected = [reference.next_u64() for _ in range(3)]
    rng = Rng(99)
    rng.below(5)
    for copy in (pickle.loads(pickle.dumps(rng)), rng.clone()):
        assert copy.state == rng.state
        assert [copy.next_u64() for _ in range(3)] == expected
    assert [rng.next_u64() for _ in range(3)] == expected  # the copies drew on their own


def test_draws_are_lazy_and_a_permutation() -> None:
    drawn = list(Rng(4).draws(range(48)))
    assert sorted(drawn) == list(range(48))
    rng = Rng(4)
    first_three = [card for card, _ in zip(rng.draws(range(48)), range(3), strict=False)]
    assert first_three == drawn[:3]


def test_getrandbits_lengths() -> None:
    rng = Rng(1)
    assert rng.getrandbits(0) == 0
    assert all(rng.getrandbits(100) < 1 << 100 for _ in range(50))
    assert 0 <= rng.random() < 1
