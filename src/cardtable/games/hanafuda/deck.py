"""The 48 hanafuda cards as data, and card sets as int bitsets.

A card is an index ``0..47`` = ``(month - 1) * 4 + (slot - 1)``; its public name is the
code ``MM-K``. A set of cards is an int whose bit ``i`` is card ``i`` (python-chess style),
so a month's cards are the nibble ``MONTH_MASKS[month - 1]`` and set algebra is ``& | ^``.

>>> cards("01-1 03-1 08-1") == (1 << 0) | (1 << 8) | (1 << 28)
True
>>> codes(cards("08-1 01-1"))
['01-1', '08-1']
>>> CARDS[28].name_en, CARDS[28].kind.name, CARDS[28].value
('Moon', 'LIGHT', 20)
>>> value_of(FULL_DECK)
264
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import IntEnum
from typing import Final

from mypy_extensions import i64

from cardtable.core.frozen import Frozen
from cardtable.core.rng import NATIVE


class Kind(IntEnum):
    """Card kinds, in the order of the first-dealer draw (light beats animal...)."""

    LIGHT = 0
    ANIMAL = 1
    RIBBON = 2
    PLAIN = 3


KIND_VALUE = {Kind.LIGHT: 20, Kind.ANIMAL: 10, Kind.RIBBON: 5, Kind.PLAIN: 1}
KIND_NAMES = {
    "en": {Kind.LIGHT: "light", Kind.ANIMAL: "animal", Kind.RIBBON: "ribbon", Kind.PLAIN: "plain"},
    "pl": {
        Kind.LIGHT: "jasna",
        Kind.ANIMAL: "zwierzę",
        Kind.RIBBON: "wstęga",
        Kind.PLAIN: "zwykła",
    },
    "ru": {
        Kind.LIGHT: "яркая",
        Kind.ANIMAL: "животное",
        Kind.RIBBON: "лента",
        Kind.PLAIN: "простая",
    },
    "ja": {Kind.LIGHT: "光", Kind.ANIMAL: "種", Kind.RIBBON: "短冊", Kind.PLAIN: "カス"},
}


def kind_name(kind: Kind, lang: str = "en") -> str:
    """A kind in ``lang`` (English for a language without one): ``light``, ``jasna``."""
    return KIND_NAMES.get(lang, KIND_NAMES["en"])[kind]


@dataclass(frozen=True, slots=True)
class Month(Frozen):
    number: int
    plant_ja: str
    plant_en: str
    plant_pl: str
    plant_ru: str

    def name(self, lang: str = "en") -> str:
        """The plant in ``lang`` (English for a language without one)."""
        return {"pl": self.plant_pl, "ru": self.plant_ru}.get(lang, self.plant_en)


MONTHS: tuple[Month, ...] = (
    Month(1, "matsu", "Pine", "Sosna", "Сосна"),
    Month(2, "ume", "Plum", "Śliwa", "Слива"),
    Month(3, "sakura", "Cherry", "Wiśnia", "Сакура"),
    Month(4, "fuji", "Wisteria", "Glicynia", "Глициния"),
    Month(5, "ayame", "Iris", "Irys", "Ирис"),
    Month(6, "botan", "Peony", "Piwonia", "Пион"),
    Month(7, "hagi", "Bush clover", "Koniczyna", "Леспедеца"),
    Month(8, "susuki", "Susuki grass", "Miskant", "Мискант"),
    Month(9, "kiku", "Chrysanthemum", "Chryzantema", "Хризантема"),
    Month(10, "momiji", "Maple", "Klon", "Клён"),
    Month(11, "yanagi", "Willow", "Wierzba", "Ива"),
    Month(12, "kiri", "Paulownia", "Pawłownia", "Павловния"),
)


@dataclass(frozen=True, slots=True)
class Card(Frozen):
    index: int
    code: str
    month: int
    slot: int
    kind: Kind
    tags: frozenset[str]
    name_en: str
    name_pl: str
    name_ru: str

    @property
    def value(self) -> int:
        return KIND_VALUE[self.kind]

    @property
    def bit(self) -> int:
        return 1 << self.index

    @property
    def plant(self) -> Month:
        return MONTHS[self.month - 1]

    def name(self, lang: str = "en") -> str:
        return {"pl": self.name_pl, "ru": self.name_ru}.get(lang, self.name_en)

    def __str__(self) -> str:
        return self.code


L, A, R, P = Kind.LIGHT, Kind.ANIMAL, Kind.RIBBON, Kind.PLAIN

# (code, kind, tags, English, Polish and Russian name): games/hanafuda/pages/bakappana.md,
# "The deck"; slot order = value order.
_TABLE: tuple[tuple[str, Kind, str, str, str, str], ...] = (
    ("01-1", L, "crane", "Crane", "Żuraw", "Журавль"),
    (
        "01-2",
        R,
        "poetry_ribbon red_ribbon",
        "Poetry ribbon",
        "Wstęga z wierszem",
        "Лента со стихами",
    ),
    ("01-3", P, "", "Pine", "Sosna", "Сосна"),
    ("01-4", P, "", "Pine", "Sosna", "Сосна"),
    ("02-1", A, "bush_warbler", "Bush warbler", "Słowik", "Соловей"),
    (
        "02-2",
        R,
        "poetry_ribbon red_ribbon",
        "Poetry ribbon",
        "Wstęga z wierszem",
        "Лента со стихами",
    ),
    ("02-3", P, "", "Plum", "Śliwa", "Слива"),
    ("02-4", P, "", "Plum", "Śliwa", "Слива"),
    ("03-1", L, "curtain", "Curtain", "Kurtyna", "Занавес"),
    (
        "03-2",
        R,
        "poetry_ribbon red_ribbon",
        "Poetry ribbon",
        "Wstęga z wierszem",
        "Лента со стихами",
    ),
    ("03-3", P, "", "Cherry", "Wiśnia", "Сакура"),
    ("03-4", P, "", "Cherry", "Wiśnia", "Сакура"),
    ("04-1", A, "cuckoo", "Cuckoo", "Kukułka", "Кукушка"),
    (
        "04-2",
        R,
        "plain_red_ribbon grass_ribbon red_ribbon",
        "Red ribbon",
        "Czerwona wstęga",
        "Красная лента",
    ),
    ("04-3", P, "", "Wisteria", "Glicynia", "Глициния"),
    ("04-4", P, "", "Wisteria", "Glicynia", "Глициния"),
    ("05-1", A, "bridge", "Eight-plank bridge", "Most", "Мост"),
    (
        "05-2",
        R,
        "plain_red_ribbon grass_ribbon red_ribbon",
        "Red ribbon",
        "Czerwona wstęga",
        "Красная лента",
    ),
    ("05-3", P, "", "Iris", "Irys", "Ирис"),
    ("05-4", P, "", "Iris", "Irys", "Ирис"),
    ("06-1", A, "butterflies inoshikacho", "Butterflies", "Motyle", "Бабочки"),
    ("06-2", R, "blue_ribbon", "Blue ribbon", "Niebieska wstęga", "Синяя лента"),
    ("06-3", P, "", "Peony", "Piwonia", "Пион"),
    ("06-4", P, "", "Peony", "Piwonia", "Пион"),
    ("07-1", A, "boar inoshikacho", "Boar", "Dzik", "Кабан"),
    (
        "07-2",
        R,
        "plain_red_ribbon grass_ribbon red_ribbon",
        "Red ribbon",
        "Czerwona wstęga",
        "Красная лента",
    ),
    ("07-3", P, "", "Bush clover", "Koniczyna", "Леспедеца"),
    ("07-4", P, "", "Bush clover", "Koniczyna", "Леспедеца"),
    ("08-1", L, "moon", "Moon", "Księżyc", "Луна"),
    ("08-2", A, "geese", "Geese", "Gęsi", "Гуси"),
    ("08-3", P, "august_grass", "Susuki grass", "Trawy", "Мискант"),
    ("08-4", P, "august_grass", "Susuki grass", "Trawy", "Мискант"),
    ("09-1", A, "sake_cup", "Sake cup", "Czarka", "Чаша сакэ"),
    ("09-2", R, "blue_ribbon", "Blue ribbon", "Niebieska wstęga", "Синяя лента"),
    ("09-3", P, "", "Chrysanthemum", "Chryzantema", "Хризантема"),
    ("09-4", P, "", "Chrysanthemum", "Chryzantema", "Хризантема"),
    ("10-1", A, "deer inoshikacho", "Deer", "Jeleń", "Олень"),
    ("10-2", R, "blue_ribbon", "Blue ribbon", "Niebieska wstęga", "Синяя лента"),
    ("10-3", P, "", "Maple", "Klon", "Клён"),
    ("10-4", P, "", "Maple", "Klon", "Клён"),
    ("11-1", L, "rain_man", "Rain man", "Człowiek w deszczu", "Человек под дождём"),
    ("11-2", A, "swallow", "Swallow", "Jaskółka", "Ласточка"),
    (
        "11-3",
        R,
        "plain_red_ribbon willow_ribbon red_ribbon",
        "Red ribbon",
        "Czerwona wstęga",
        "Красная лента",
    ),
    ("11-4", P, "lightning", "Lightning", "Błyskawica", "Молния"),
    ("12-1", L, "phoenix", "Phoenix", "Feniks", "Феникс"),
    ("12-2", P, "yellow_paulownia", "Yellow paulownia", "Żółta pawłownia", "Жёлтая павловния"),
    ("12-3", P, "", "Paulownia", "Pawłownia", "Павловния"),
    ("12-4", P, "", "Paulownia", "Pawłownia", "Павловния"),
)


def _build() -> tuple[Card, ...]:
    built = []
    for index, (code, kind, tags, *names) in enumerate(_TABLE):
        month, slot = int(code[:2]), int(code[3:])
        if (month - 1) * 4 + slot - 1 != index:
            raise AssertionError(f"deck table out of order at {code}")
        built.append(Card(index, code, month, slot, kind, frozenset(tags.split()), *names))
    return tuple(built)


CARDS: tuple[Card, ...] = _build()
CODES: Final[tuple[str, ...]] = tuple(c.code for c in CARDS)
INDEX_OF_CODE: dict[str, int] = {c.code: c.index for c in CARDS}
FULL_DECK: Final = (1 << 48) - 1
NUM_CARDS: Final = 48

#: card index -> month index 0..11, kind, value (flat tuples: the engine's hot path reads these)
MONTH_OF: Final[tuple[int, ...]] = tuple(i >> 2 for i in range(NUM_CARDS))
KIND_OF: Final[tuple[Kind, ...]] = tuple(c.kind for c in CARDS)
VALUE_OF: Final[tuple[int, ...]] = tuple(c.value for c in CARDS)
MONTH_MASKS: Final[tuple[int, ...]] = tuple(0xF << (4 * m) for m in range(12))
#: for each card, the mask of its month
MONTH_MASK_OF: Final[tuple[int, ...]] = tuple(MONTH_MASKS[i >> 2] for i in range(NUM_CARDS))


def mask_where(predicate: Callable[[Card], bool]) -> int:
    """The set of cards for which ``predicate(card)`` is true."""
    return sum(c.bit for c in CARDS if predicate(c))


def tagged(tag: str) -> int:
    """The set of cards carrying ``tag`` (see the deck table)."""
    found = sum(c.bit for c in CARDS if tag in c.tags)
    if not found:
        raise KeyError(f"no card has tag {tag!r}")
    return found


LIGHTS: Final = mask_where(lambda c: c.kind is Kind.LIGHT)
ANIMALS: Final = mask_where(lambda c: c.kind is Kind.ANIMAL)
RIBBONS: Final = mask_where(lambda c: c.kind is Kind.RIBBON)
PLAINS: Final = mask_where(lambda c: c.kind is Kind.PLAIN)

_LIGHT_VALUE: Final = KIND_VALUE[Kind.LIGHT]
_ANIMAL_VALUE: Final = KIND_VALUE[Kind.ANIMAL]
_RIBBON_VALUE: Final = KIND_VALUE[Kind.RIBBON]
_PLAIN_VALUE: Final = KIND_VALUE[Kind.PLAIN]


def value_of(mask: int) -> int:
    """Sum of the card values in ``mask`` (light 20, animal 10, ribbon 5, plain 1): the
    cards of each kind counted, in words where compiled.

    >>> value_of(FULL_DECK), value_of(cards("01-1 01-2 01-3 02-4"))
    (264, 27)
    """
    return (
        _LIGHT_VALUE * count_cards(mask & LIGHTS)
        + _ANIMAL_VALUE * count_cards(mask & ANIMALS)
        + _RIBBON_VALUE * count_cards(mask & RIBBONS)
        + _PLAIN_VALUE * count_cards(mask & PLAINS)
    )


# Compiled code (NATIVE: the whole hot path or none of it is) reaches ``int.bit_count`` and
# ``int.bit_length`` only as Python method calls: card sets are then counted in words.
_PAIRS: Final[i64] = i64(0x5555_5555_5555_5555)
_NIBBLES: Final[i64] = i64(0x3333_3333_3333_3333)
_BYTES: Final[i64] = i64(0x0F0F_0F0F_0F0F_0F0F)
_BYTE_SUM: Final[i64] = i64(0x0101_0101_0101_0101)


def count_cards(mask: int) -> int:
    """How many cards ``mask`` holds (``mask.bit_count()``).

    >>> count_cards(cards("01-1 03-1 08-1")), count_cards(FULL_DECK), count_cards(0)
    (3, 48, 0)
    """
    if not NATIVE:
        return mask.bit_count()
    # the classic SWAR count: bits summed in pairs, nibbles, bytes, then the bytes at once
    word: i64 = i64(mask)
    word = word - ((word >> 1) & _PAIRS)
    word = (word & _NIBBLES) + ((word >> 2) & _NIBBLES)
    word = (word + (word >> 4)) & _BYTES
    return int(((word * _BYTE_SUM) >> 56) & 255)


def lowest_card(mask: int) -> int:
    """The lowest card of a non-empty ``mask`` (an option is named by its lowest card).

    >>> lowest_card(cards("08-1 03-2"))
    9
    """
    if not NATIVE:
        return (mask & -mask).bit_length() - 1
    return count_cards((mask & -mask) - 1)


# A month is a nibble (its four cards, lowest bit first): these answer "which months" for
# all twelve at once, each month's answer in its nibble's lowest bit.
_MONTH_FIRSTS: Final[i64] = i64(0x1111_1111_1111)
_TWOS: Final[i64] = i64(0x2222_2222_2222)


def _month_counts(mask: int) -> i64:
    """Each month's number of cards in ``mask`` (0 to 4), in the month's nibble."""
    word: i64 = i64(mask)
    word = word - ((word >> 1) & _PAIRS)
    return (word & _NIBBLES) + ((word >> 2) & _NIBBLES)


def full_months(mask: int) -> int:
    """The first card of each month whose four cards all lie in ``mask`` (teshi, a
    misdeal's four of a month on the table).

    >>> full_months(cards("03-1 03-2 03-3 03-4 05-1")) == cards("03-1")
    True
    """
    word: i64 = i64(mask)
    return int(word & (word >> 1) & (word >> 2) & (word >> 3) & _MONTH_FIRSTS)


def months_with_two(mask: int) -> int:
    """The first card of each month of which ``mask`` holds exactly two cards (kuttsuki).

    >>> months_with_two(cards("01-1 01-2 02-1 04-1 04-2 04-3")) == cards("01-1")
    True
    """
    differs: i64 = _month_counts(mask) ^ _TWOS  # a nibble is 0 where the count is 2
    return int(~(differs | (differs >> 1) | (differs >> 2)) & _MONTH_FIRSTS)


def months_with_three(mask: int) -> int:
    """The first card of each month of which ``mask`` holds three or four cards.

    >>> months_with_three(cards("01-1 01-2 02-1 04-1 04-2 04-3")) == cards("04-1")
    True
    """
    # a count of 3 or 4, plus one, is 4 or 5: the nibble's bit 2, and never a carry out
    return int(((_month_counts(mask) + _MONTH_FIRSTS) >> 2) & _MONTH_FIRSTS)


def iter_cards(mask: int) -> Iterator[int]:
    """Card indices in ``mask``, lowest first."""
    while mask:
        yield lowest_card(mask)
        mask &= mask - 1


#: _BYTE_CARDS[k][b]: the cards of byte ``b`` at byte position ``k`` of a card set
_BYTE_CARDS: Final = tuple(
    tuple(tuple(8 * k + i for i in range(8) if b >> i & 1) for b in range(256))
    for k in range((NUM_CARDS + 7) // 8)
)


def card_list(mask: int) -> list[int]:
    """Card indices in ``mask``, lowest first, as a list: a byte at a time, several
    times faster than ``list(iter_cards(mask))`` (search resamples hidden cards often).

    >>> card_list(0b1010_0000_0001) == list(iter_cards(0b1010_0000_0001))
    True
    """
    out: list[int] = []
    for cards_of_byte in _BYTE_CARDS:
        out += cards_of_byte[mask & 255]
        mask >>= 8
    return out


def card_index(code: str) -> int:
    """Index of a card code such as ``"03-1"`` (also accepts ``"3-1"``)."""
    text = code.strip()
    if text in INDEX_OF_CODE:
        return INDEX_OF_CODE[text]
    month, sep, slot = text.partition("-")
    if sep and month.isdigit() and slot.isdigit():
        normal = f"{int(month):02d}-{int(slot)}"
        if normal in INDEX_OF_CODE:
            return INDEX_OF_CODE[normal]
    raise ValueError(f"{code!r} is not a hanafuda card code (MM-K, months 01-12, K 1-4)")


def cards(spec: str | Iterable[str | int]) -> int:
    """A card set from codes: ``cards("01-1 03-1")`` or ``cards(["01-1", 8])``."""
    items = spec.replace(",", " ").split() if isinstance(spec, str) else spec
    mask = 0
    for item in items:
        mask |= 1 << (item if isinstance(item, int) else card_index(item))
    return mask


# Codes of any subset, a byte at a time (views list many card sets on every move).
_BYTE_CODES: Final[tuple[tuple[tuple[str, ...], ...], ...]] = tuple(
    tuple(tuple(CODES[8 * b + k] for k in range(8) if byte >> k & 1) for byte in range(256))
    for b in range(6)
)


def codes(mask: int) -> list[str]:
    """Codes of the cards in ``mask``, in deck order.

    >>> codes(cards("03-1 01-2"))
    ['01-2', '03-1']
    """
    t = _BYTE_CODES
    return [
        *t[0][mask & 255],
        *t[1][mask >> 8 & 255],
        *t[2][mask >> 16 & 255],
        *t[3][mask >> 24 & 255],
        *t[4][mask >> 32 & 255],
        *t[5][mask >> 40 & 255],
    ]


def draw_rank(index: int) -> int:
    """Rank for the first-dealer draw, lowest deals: earliest month first, then light >
    animal > ribbon > plain (two plains of one month tie).

    >>> [draw_rank(card_index(code)) for code in ("01-1", "01-3", "01-4", "02-1")]
    [0, 3, 3, 5]
    """
    return 4 * MONTH_OF[index] + int(KIND_OF[index])


#: draw_rank of every card, looked up by the deal of every new game
DRAW_RANKS: Final[tuple[int, ...]] = tuple(draw_rank(card) for card in range(NUM_CARDS))
