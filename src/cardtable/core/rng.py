"""Seeded randomness that gives the same stream on every machine and Python version.

The standard library only promises a stable stream for ``random.random()``; its
``shuffle`` and ``randrange`` may change between versions. Games therefore draw every
random decision from :class:`Rng`, a SplitMix64 generator whose algorithm is written here.

>>> rng = Rng(7)
>>> deck = list(range(5))
>>> rng.shuffle(deck)
>>> deck == Rng(7).shuffled(range(5))
True
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Iterator, MutableSequence, Sequence
from typing import Protocol, TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


class RandomSource(Protocol):
    """What bots and determinizations need from a generator (``random.Random`` fits too)."""

    def shuffle(self, x: MutableSequence[T], /) -> None: ...

    def getrandbits(self, k: int, /) -> int: ...


def seed_to_u64(seed: int | str | bytes) -> int:
    """Map any int, str or bytes seed to 64 bits, the same way everywhere."""
    if isinstance(seed, bool):
        raise TypeError("a seed must be an int, str or bytes, not bool")
    if isinstance(seed, int):
        data = b"i" + seed.to_bytes((seed.bit_length() + 8) // 8 or 1, "big", signed=True)
    elif isinstance(seed, str):
        data = b"s" + seed.encode()
    elif isinstance(seed, bytes):
        data = b"b" + seed
    else:
        raise TypeError(f"a seed must be an int, str or bytes, not {type(seed).__name__}")
    return int.from_bytes(hashlib.sha256(data).digest()[:8], "big")


def draw_below(rng: RandomSource, n: int) -> int:
    """A uniform integer in ``[0, n)`` from any :class:`RandomSource` (``random.Random``
    too), for any ``n >= 1``: the one draw games make on a generator they are handed.

    ``getrandbits(32) % n`` would favour the low numbers whenever ``n`` does not divide
    2**32; drawing the fewest bits that hold ``n - 1`` and rejecting the numbers past the
    end is exact, and takes fewer than two tries on average.

    >>> sorted({draw_below(Rng(seed), 3) for seed in range(30)})
    [0, 1, 2]
    """
    if n < 1:
        raise ValueError("draw_below() needs n >= 1")
    bits = (n - 1).bit_length()
    number = rng.getrandbits(bits)
    while number >= n:
        number = rng.getrandbits(bits)
    return number


#: FACTORIALS[n] = n!: the number of orders of n cards
FACTORIALS = tuple(math.factorial(n) for n in range(129))


def shuffle_in_one_draw(x: MutableSequence[T], rng: RandomSource) -> None:
    """Shuffle ``x`` in place from one uniform draw below ``len(x)!``.

    Fisher-Yates again, but its swap indices are the mixed-radix digits of a single
    number, so a 30-card deck costs two 64-bit draws instead of thirty: search bots
    resample hidden cards thousands of times a move. Exact: the digits of a uniform
    number are independent and uniform. Up to 128 items.

    >>> cards = list(range(6))
    >>> shuffle_in_one_draw(cards, Rng(3))
    >>> sorted(cards) == list(range(6)), cards != list(range(6))
    (True, True)
    """
    if len(x) < 2:
        return
    number = draw_below(rng, FACTORIALS[len(x)])
    for i in range(len(x) - 1, 0, -1):
        number, j = divmod(number, i + 1)
        x[i], x[j] = x[j], x[i]


class Rng:
    """SplitMix64: tiny state (one int), so cloning a game state costs nothing."""

    __slots__ = ("_state",)

    def __init__(self, seed: int | str | bytes = 0) -> None:
        self._state = seed_to_u64(seed)

    @classmethod
    def from_state(cls, state: int) -> Rng:
        rng = cls.__new__(cls)
        rng._state = state & _MASK64
        return rng

    @property
    def state(self) -> int:
        return self._state

    def clone(self) -> Rng:
        return Rng.from_state(self._state)

    def next_u64(self) -> int:
        self._state = (self._state + _GOLDEN) & _MASK64
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def getrandbits(self, k: int) -> int:
        """``k`` random bits (any ``k >= 0``), like ``random.Random.getrandbits``."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        out, have = 0, 0
        while have < k:
            out = (out << 64) | self.next_u64()
            have += 64
        return out >> (have - k)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` for ``1 <= n <= 2**64``, without modulo bias.

        Lemire's multiply-shift: one 64-bit draw, and a rare rejection keeps it exact.
        """
        if not 0 < n <= 1 << 64:
            raise ValueError("below() needs 1 <= n <= 2**64")
        # next_u64() inlined: bots call this once per move
        z = self._state = (self._state + _GOLDEN) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        product = (z ^ (z >> 31)) * n
        if product & _MASK64 < n:
            threshold = ((1 << 64) - n) % n
            while product & _MASK64 < threshold:
                product = self.next_u64() * n
        return product >> 64

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits."""
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Sequence[T]) -> T:
        if not seq:
            raise IndexError("cannot choose from an empty sequence")
        return seq[self.below(len(seq))]

    def shuffle(self, x: MutableSequence[T]) -> None:
        """Fisher-Yates in place (``below`` inlined: dealing is on every round's path)."""
        state = self._state
        for i in range(len(x) - 1, 0, -1):
            n = i + 1
            state = (state + _GOLDEN) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            product = (z ^ (z >> 31)) * n
            if product & _MASK64 < n:  # rare: only then can the draw need rejecting
                threshold = ((1 << 64) - n) % n
                while product & _MASK64 < threshold:
                    state = (state + _GOLDEN) & _MASK64
                    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
                    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
                    product = (z ^ (z >> 31)) * n
            j = product >> 64
            x[i], x[j] = x[j], x[i]
        self._state = state

    def draws(self, items: Iterable[T]) -> Iterator[T]:
        """Items in random order, drawn one at a time (a lazy forward Fisher-Yates):
        taking k of n costs k steps, not n."""
        pool = list(items)
        for i in range(len(pool)):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
            yield pool[i]

    def permutation(self, n: int) -> list[int]:
        """``range(n)`` in random order: one 64-bit key per item, sorted in C.

        Three times cheaper than a Python Fisher-Yates for a deck; the order is uniform
        but for ties among the keys (for 48 cards, a chance near 1e-16), which the stable
        sort still breaks the same way on every machine.
        """
        keys = []
        state = self._state
        for _ in range(n):
            state = (state + _GOLDEN) & _MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
            keys.append(z ^ (z >> 31))
        self._state = state
        return sorted(range(n), key=keys.__getitem__)

    def shuffled(self, items: Iterable[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out
