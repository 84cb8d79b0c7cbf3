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
from typing import Final, Protocol, TypeVar

from librt.vecs import append, vec
from mypy_extensions import i64

T = TypeVar("T")

_MASK64: Final = (1 << 64) - 1
_GOLDEN: Final = 0x9E3779B97F4A7C15
#: a constant: compiled, ``hashlib.sha256`` would be looked up at every new game
_SHA256: Final = hashlib.sha256


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
    return int.from_bytes(_SHA256(data).digest()[:8], "big")


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
FACTORIALS: Final = tuple(math.factorial(n) for n in range(129))
#: shuffle_in_one_draw() divides its number in limbs of this many bits
_LIMB_BITS: Final = 54
_LIMB_MASK: Final = (1 << _LIMB_BITS) - 1


def shuffle_in_one_draw(x: list[T], rng: RandomSource) -> None:
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
    # The number's digits by long division in machine words, on its limbs (most significant
    # first): divmod on a number of a hundred bits makes new numbers at every step. A
    # remainder is below its radix (at most 128), so remainder and limb fit a word.
    limbs = vec[i64](capacity=number.bit_length() // _LIMB_BITS + 1)
    shift = (number.bit_length() // _LIMB_BITS) * _LIMB_BITS
    while shift >= 0:
        limbs = append(limbs, i64((number >> shift) & _LIMB_MASK))
        shift -= _LIMB_BITS
    top = 0  # the limbs above it are zero now
    for i in range(len(x) - 1, 0, -1):
        radix: i64 = i + 1
        rest: i64 = 0
        for k in range(top, len(limbs)):
            current = (rest << _LIMB_BITS) | limbs[k]
            limbs[k] = current // radix
            rest = current % radix
        while top < len(limbs) - 1 and limbs[top] == 0:
            top += 1
        j = int(rest)
        x[i], x[j] = x[j], x[i]


#: True where this module runs compiled (mypyc): ``i64`` is then a machine word whose
#: arithmetic wraps at 64 bits, while the Python source masks each result to 64 bits. The
#: constants below make one piece of code give the same bits both ways.
NATIVE: Final = not __file__.endswith(".py")
_WRAP: Final[i64] = i64(-1) if NATIVE else i64(_MASK64)
#: a key's sign bit flipped where words are signed, so keys sort as unsigned numbers
_ORDER: Final[i64] = i64(-(1 << 63)) if NATIVE else i64(0)
_GOLDEN_WORD: Final[i64] = i64(_GOLDEN - (1 << 64)) if NATIVE else i64(_GOLDEN)
_MIX1: Final[i64] = i64(0xBF58476D1CE4E5B9 - (1 << 64)) if NATIVE else i64(0xBF58476D1CE4E5B9)
_MIX2: Final[i64] = i64(0x94D049BB133111EB - (1 << 64)) if NATIVE else i64(0x94D049BB133111EB)
#: masks that make a right shift of a signed word a logical one
_LOW34: Final[i64] = i64((1 << 34) - 1)
_LOW37: Final[i64] = i64((1 << 37) - 1)
_LOW33: Final[i64] = i64((1 << 33) - 1)
_LOW32: Final[i64] = i64((1 << 32) - 1)
#: below() draws in words for every n under this (two 32-bit halves times n fit a word)
_WORD_BELOW: Final = 1 << 31
#: permutation() sorts indices of up to this many bits packed below the keys' top bits
_PACKED_INDEX_BITS: Final = 12
#: up to this many words an insertion sort beats the built-in sort of boxed numbers
_INSERTION_SORTED: Final = 128


def _to_word(value: int) -> i64:
    """A 64-bit state as this module's word."""
    return i64(value - (1 << 64) if NATIVE and value >= 1 << 63 else value)


def _from_word(word: i64) -> int:
    """A word back as the unsigned 64-bit state."""
    return int(word) & _MASK64


def _mixed(word: i64) -> i64:
    """SplitMix64's output for the state ``word`` (the state already advanced)."""
    z = ((word ^ ((word >> 30) & _LOW34)) * _MIX1) & _WRAP
    z = ((z ^ ((z >> 27) & _LOW37)) * _MIX2) & _WRAP
    return z ^ ((z >> 31) & _LOW33)


def _sorted_words(words: vec[i64]) -> vec[i64]:
    """``words`` in ascending order: compiled, an insertion sort in place (a deck's few
    dozen words sort fastest so); read as Python, or many, the built-in sort of a copy."""
    if not NATIVE or len(words) > _INSERTION_SORTED:
        return vec[i64](sorted(words))
    for i in range(1, len(words)):
        word = words[i]
        j = i - 1
        while j >= 0 and words[j] > word:
            words[j + 1] = words[j]
            j -= 1
        words[j + 1] = word
    return words


class Rng:
    """SplitMix64: tiny state (one 64-bit word), so cloning a game state costs nothing.

    The state is kept as this module's word (:data:`NATIVE`: a machine word where
    compiled), so a draw makes no big Python integer; :attr:`state` gives it unsigned."""

    __slots__ = ("_word",)

    def __init__(self, seed: int | str | bytes = 0, *, state: int | None = None) -> None:
        self._word: i64 = _to_word(seed_to_u64(seed) if state is None else state & _MASK64)

    @classmethod
    def from_state(cls, state: int) -> Rng:
        """The generator whose state is ``state`` (a search's copy of a game's)."""
        return cls(state=state)

    @property
    def state(self) -> int:
        return _from_word(self._word)

    def clone(self) -> Rng:
        copy = Rng(state=0)
        copy._word = self._word
        return copy

    def __reduce__(self) -> tuple[type[Rng], tuple[()], dict[str, int]]:
        # compiled, the word is no attribute pickle can read: the state goes by keyword
        return (Rng, (), {"state": self.state})

    def __setstate__(self, data: dict[str, int]) -> None:
        self._word = _to_word(data["state"])

    def next_u64(self) -> int:
        word: i64 = (self._word + _GOLDEN_WORD) & _WRAP
        self._word = word
        return _from_word(_mixed(word))

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
        if NATIVE and 0 < n < _WORD_BELOW:
            # Compiled, the same draw in machine words: the high 64 bits of the 96-bit
            # product from two 32-bit halves. A low half below n (about n in 2**64) may
            # need the rejection: the exact code below then draws again from the start.
            state: i64 = (self._word + _GOLDEN_WORD) & _WRAP
            mixed = _mixed(state)
            bound: i64 = i64(n)
            low: i64 = (mixed & _LOW32) * bound
            middle: i64 = ((mixed >> 32) & _LOW32) * bound + ((low >> 32) & _LOW32)
            if middle & _LOW32 or low & _LOW32 >= bound:
                self._word = state
                return int((middle >> 32) & _LOW32)
        if not 0 < n <= 1 << 64:
            raise ValueError("below() needs 1 <= n <= 2**64")
        product = self.next_u64() * n
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
        """Fisher-Yates in place, one :meth:`below` a card."""
        for i in range(len(x) - 1, 0, -1):
            j = self.below(i + 1)
            x[i], x[j] = x[j], x[i]

    def draws(self, items: Iterable[T]) -> Iterator[T]:
        """Items in random order, drawn one at a time (a lazy forward Fisher-Yates):
        taking k of n costs k steps, not n."""
        pool = list(items)
        for i in range(len(pool)):
            j = i + self.below(len(pool) - i)
            pool[i], pool[j] = pool[j], pool[i]
            yield pool[i]

    def permutation(self, n: int) -> list[int]:
        """``range(n)`` in random order: one 64-bit key per item, the items sorted by key.

        Three times cheaper than a Fisher-Yates drawing each card; the order is uniform but
        for ties among the keys (for 48 cards, a chance near 1e-16), which are broken the
        same way on every machine. Every round is dealt here, so what is sorted is machine
        words where this module is compiled (see :data:`NATIVE`; a ``vec`` holds them
        unboxed): each key's top bits above its index. Items whose top bits are equal (for
        a 48-card deck, about one deck in 14 000) are put in the order of their whole keys,
        as a sort by the keys alone would have them.

        >>> Rng(5).permutation(10)
        [8, 6, 5, 9, 1, 7, 4, 0, 3, 2]
        """
        start: i64 = self._word
        bits = (n - 1).bit_length() if n > 1 else 1
        if bits > _PACKED_INDEX_BITS:
            return sorted(range(n), key=self._keys(n).__getitem__)
        shift: i64 = i64(34 + bits)
        index_bits: i64 = i64(bits)
        word = start
        packed = vec[i64](capacity=n)
        for index in range(n):
            word = (word + _GOLDEN_WORD) & _WRAP
            packed = append(packed, (((_mixed(word) ^ _ORDER) >> shift) << index_bits) | index)
        self._word = word
        packed = _sorted_words(packed)
        low: i64 = (1 << index_bits) - 1
        order: list[int] = []
        top: i64 = 0
        for k in range(n):
            number = packed[k]
            if k and number >> index_bits == top:  # rare: equal top bits
                self._word = start
                keys = self._keys(n)
                return sorted(range(n), key=keys.__getitem__)
            top = number >> index_bits
            order.append(int(number & low))
        return order

    def _keys(self, n: int) -> list[i64]:
        """The sort keys of :meth:`permutation` (it leaves the state as they do)."""
        keys: list[i64] = []
        word: i64 = self._word
        for _ in range(n):
            word = (word + _GOLDEN_WORD) & _WRAP
            keys.append(_mixed(word) ^ _ORDER)
        self._word = word
        return keys

    def shuffled(self, items: Iterable[T]) -> list[T]:
        out = list(items)
        self.shuffle(out)
        return out
