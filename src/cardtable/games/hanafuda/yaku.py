"""Yaku (scoring combinations) as data, and one evaluator for every table.

A yaku is declared once as a :class:`YakuDef`: the cards it counts, how many it needs, its
points and the points per extra card, the cards it requires, which other yaku it replaces, its
group (only the best of a group scores) and the table cards that void it (weather). The koi-koi
table (games/hanafuda/pages/koi-koi.md, "Yaku") and the hana-awase table
(games/hanafuda/pages/hana-awase.md, "Scoring") are lists of such rows; house rules pick or
adjust rows, they never add code paths.

>>> from cardtable.games.hanafuda import cards
>>> [(y.name, y.points) for y in evaluate("koi-koi", cards("01-1 03-1 08-1 09-1"))]
[('Sankō', 5), ('Hanami-zake', 5), ('Tsukimi-zake', 5)]
>>> [(y.name, y.points) for y in evaluate("hana-awase", cards("03-1 08-1 09-1"))]
[('Nomi', 30)]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Final, NamedTuple

from librt.vecs import vec
from mypy_extensions import i64

from cardtable.core.frozen import Frozen
from cardtable.core.game import spec_of
from cardtable.core.options import GameOptions, build_options
from cardtable.games.hanafuda.deck import (
    ANIMALS,
    LIGHTS,
    MONTH_MASKS,
    PLAINS,
    RIBBONS,
    cards,
    codes,
    count_cards,
    tagged,
)
from cardtable.locales import Localized, catalogue, message

#: the numbers of a row in YakuTable._compiled: requires, counts, doubles, need, points,
#: extra, void_if_table
ROW_WORDS: Final = 7
#: slots of a table's remembered totals (a power of two: a pile's bits pick its slot)
_TOTAL_SLOTS: Final = 1 << 12
#: the pile's part of a remembered total; the points are above it (under 2**15)
_PILE_BITS: Final[i64] = (1 << 48) - 1

RAIN_MAN: Final = cards("11-1")
SAKE_CUP: Final = cards("09-1")
CURTAIN: Final = cards("03-1")
MOON: Final = cards("08-1")
DRY_LIGHTS: Final = LIGHTS & ~RAIN_MAN
POETRY: Final = tagged("poetry_ribbon")
BLUE: Final = tagged("blue_ribbon")
GRASS: Final = tagged("grass_ribbon")
INOSHIKACHO: Final = tagged("inoshikacho")
WILLOW_RIBBON: Final = cards("11-3")
NOVEMBER, DECEMBER = MONTH_MASKS[10], MONTH_MASKS[11]
DOUBLE_PLAIN_CARDS = {
    "sake_cup": SAKE_CUP,
    "lightning": tagged("lightning"),
    "yellow_paulownia": tagged("yellow_paulownia"),
}


@dataclass(frozen=True, slots=True)
class YakuDef(Frozen):
    """One row of a yaku table.

    Scores when every card of ``requires`` is held and at least ``need`` cards of
    ``counts`` are held (cards of ``doubles`` count twice); then it is worth
    ``points + extra * (count - need)``.

    Its names live in the message catalogues (locales/*.json), under
    ``yaku.GAME.KEY``: the romaji players say in every language, ``.native`` the
    Japanese, ``.meaning`` a translation (empty where the rules give none).
    """

    game: str  # the table's catalogue section: "koi-koi" or "hana-awase"
    key: str
    counts: int
    need: int
    points: int
    extra: int = 0
    requires: int = 0
    doubles: int = 0
    group: str = ""  # within a non-empty group only the best yaku scores
    replaces: tuple[str, ...] = ()
    void_if_table: int = 0  # not scored while any of these cards lies on the table

    @property
    def message_key(self) -> str:
        return f"yaku.{self.game}.{self.key}"

    @property
    def name(self) -> str:
        """The romaji, as players say it in every language."""
        return message(self.message_key)

    @property
    def native(self) -> str:
        """The name in Japanese."""
        return message(f"{self.message_key}.native")

    def meaning(self, lang: str) -> str:
        """The name translated into ``lang`` ("" where the rules give none)."""
        return catalogue(lang).get(f"{self.message_key}.meaning", "")

    def said(self) -> Localized:
        """The name for score lines: the romaji every player uses, and in Polish and
        Russian with the translation beside it."""
        name, pl, ru = self.name, self.meaning("pl"), self.meaning("ru")
        return Localized(name, f"{name} ({pl})" if pl else name, f"{name} ({ru})" if ru else name)

    def missing(self, captured: int) -> int:
        """How many more cards ``captured`` needs for this row (0 when it scores).

        >>> from cardtable.games.hanafuda.deck import cards
        >>> koikoi_table({}).row("tsukimi").missing(cards("08-1"))
        1
        """
        return max(self.need - self.count(captured), count_cards(self.requires & ~captured), 0)

    def count(self, captured: int) -> int:
        """How many of the row's cards ``captured`` holds (cards of ``doubles`` twice)."""
        return count_cards(captured & self.counts) + count_cards(captured & self.doubles)

    def points_for(self, captured: int, table: int = 0) -> int:
        """Points this row gives ``captured`` on its own (0 when it does not score)."""
        if captured & self.requires != self.requires or table & self.void_if_table:
            return 0
        count = self.count(captured)
        if count < self.need:
            return 0
        return self.points + self.extra * (count - self.need)

    def without_cup(self, cup_as: str) -> YakuDef:
        """The row with the sake cup left out of the class it is not used for, when the cup
        counts as an animal or a plain, not both (koi-koi ``sake_cup_mode=one_of``)."""
        other_class = PLAINS if cup_as == "animal" else ANIMALS & ~SAKE_CUP
        if self.counts & SAKE_CUP and self.counts & other_class:
            return replace(self, counts=self.counts & ~SAKE_CUP, doubles=self.doubles & ~SAKE_CUP)
        return self


class YakuProgress(NamedTuple):
    """How far a pile is towards a yaku it has not made yet (``name``: the catalogue key of
    its name, which front ends say in the reader's language)."""

    key: str
    name: str
    have: int
    need: int
    missing: int

    def to_json(self) -> dict[str, Any]:
        return self._asdict()


@dataclass(frozen=True, slots=True)
class Yaku(Frozen):
    """A scored yaku: its name, points and the cards that make it."""

    name: str
    points: int
    cards: tuple[str, ...]
    key: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "points": self.points,
            "cards": list(self.cards),
        }


# -- the koi-koi table (§6.2) --------------------------------------------------------------
def _koikoi(key: str, **fields: Any) -> YakuDef:
    return YakuDef(game="koi-koi", key=key, **fields)


def _hana_awase(key: str, **fields: Any) -> YakuDef:
    return YakuDef(game="hana-awase", key=key, **fields)


KOIKOI_ROWS: tuple[YakuDef, ...] = (
    _koikoi("goko", counts=LIGHTS, need=5, points=10, group="lights"),
    _koikoi("shiko", counts=DRY_LIGHTS, need=4, points=8, group="lights"),
    _koikoi("ame_shiko", counts=LIGHTS, need=4, requires=RAIN_MAN, points=7, group="lights"),
    _koikoi("sanko", counts=DRY_LIGHTS, need=3, points=5, group="lights"),
    _koikoi("hanami", counts=CURTAIN | SAKE_CUP, requires=CURTAIN | SAKE_CUP, need=2, points=5),
    _koikoi("tsukimi", counts=MOON | SAKE_CUP, requires=MOON | SAKE_CUP, need=2, points=5),
    _koikoi("inoshikacho", counts=INOSHIKACHO, requires=INOSHIKACHO, need=3, points=5),
    _koikoi("tane", counts=ANIMALS, need=5, points=1, extra=1),
    _koikoi("akatan", counts=POETRY, requires=POETRY, need=3, points=5),
    _koikoi("aotan", counts=BLUE, requires=BLUE, need=3, points=5),
    _koikoi("chofuku", counts=POETRY | BLUE, requires=POETRY | BLUE, need=6, points=10,
            replaces=("akatan", "aotan")),
    _koikoi("tanzaku", counts=RIBBONS, need=5, points=1, extra=1),
    _koikoi("kasu", counts=PLAINS | SAKE_CUP, need=10, points=1, extra=1),
)  # fmt: skip

# -- the hana-awase dekiyaku table (§5.5) ----------------------------------------------------
HANA_AWASE_ROWS: tuple[YakuDef, ...] = (
    _hana_awase("goko", counts=LIGHTS, need=5, points=200, replaces=("shiko",)),
    _hana_awase("shiko", counts=DRY_LIGHTS, need=4, points=60),
    _hana_awase("nanatan", counts=RIBBONS & ~WILLOW_RIBBON, need=7, points=40,
                replaces=("rokutan",)),
    _hana_awase("aotan", counts=BLUE, requires=BLUE, need=3, points=40),
    _hana_awase("akatan", counts=POETRY, requires=POETRY, need=3, points=40),
    _hana_awase("rokutan", counts=RIBBONS & ~WILLOW_RIBBON, need=6, points=30),
    _hana_awase("nomi", counts=CURTAIN | MOON | SAKE_CUP, requires=CURTAIN | MOON | SAKE_CUP,
                need=3, points=30, replaces=("hanami", "tsukimi")),
    _hana_awase("omote_sugawara", counts=cards("01-1 02-1 03-1"),
                requires=cards("01-1 02-1 03-1"), need=3, points=30),
    _hana_awase("matsu_kiri_bozu", counts=cards("01-1 08-1 12-1"),
                requires=cards("01-1 08-1 12-1"), need=3, points=20),
    _hana_awase("inoshikacho", counts=INOSHIKACHO, requires=INOSHIKACHO, need=3, points=20),
    _hana_awase("tsukimi", counts=MOON | SAKE_CUP, requires=MOON | SAKE_CUP, need=2, points=20),
    _hana_awase("hanami", counts=CURTAIN | SAKE_CUP, requires=CURTAIN | SAKE_CUP, need=2,
                points=20),
    _hana_awase("kusa", counts=GRASS, requires=GRASS, need=3, points=20),
    _hana_awase("fuji_shima", counts=MONTH_MASKS[3], requires=MONTH_MASKS[3], need=4, points=20),
    _hana_awase("yanagi_shima", counts=NOVEMBER, requires=NOVEMBER, need=4, points=20),
    _hana_awase("kiri_shima", counts=DECEMBER, requires=DECEMBER, need=4, points=20),
)  # fmt: skip

KOIKOI_KEYS = tuple(row.key for row in KOIKOI_ROWS)
HANA_AWASE_KEYS = tuple(row.key for row in HANA_AWASE_ROWS)
VIEWING: Final = frozenset({"hanami", "tsukimi", "nomi"})


@dataclass(frozen=True, slots=True)
class YakuTable:
    """The rows in force under some house rules, and how to score a pile with them."""

    rows: tuple[YakuDef, ...]
    #: koi-koi ``sake_viewing=needs_other_yaku``: viewing yaku need another yaku beside them
    viewing_needs_other: bool = False
    #: koi-koi ``sake_cup_mode=one_of``: score the cup as an animal or a plain, the better
    cup_one_of: bool = False
    #: koikoi_japan: viewing yaku are worth ``(points, points_after_own_koikoi)``
    viewing_values: tuple[int, int] | None = None
    #: hana-awase ``rain_spoils_drinking``: the rain man's holder scores no viewing yaku
    rain_spoils_drinking: bool = False
    #: table cards that can void a yaku (the weather rule)
    void_cards: int = field(default=0, compare=False, repr=False)
    #: the rows, by how the sake cup is scored ("": as both; "animal" / "plain" under
    #: ``cup_one_of``), for :meth:`_rows_alone`' inlined rule: each row's ROW_WORDS numbers
    #: one after the other in machine words (compiled, read without unboxing a number)
    _compiled: dict[str, vec[i64]] = field(default_factory=dict, compare=False, repr=False)
    #: per row (by index), the rows it replaces, as a bit mask of indices
    _replaces: tuple[int, ...] = field(default=(), compare=False, repr=False)
    #: per row, the index of its group among the table's groups (-1: none)
    _groups: tuple[int, ...] = field(default=(), compare=False, repr=False)
    #: the viewing rows (hanami, tsukimi, nomi), as a bit mask of indices
    _viewing: int = field(default=0, compare=False, repr=False)
    #: each row's name for score lines, by key (a round's scoring is on the playout path)
    _names: dict[str, Localized] = field(default_factory=dict, compare=False, repr=False)
    #: progress already worked out, by (pile, cards out of reach), as the views send it:
    #: every view of a frame asks for every seat's
    _progress: dict[tuple[int, int], tuple[dict[str, Any], ...]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    #: yaku already evaluated, by (pile, the table's voiding cards, koi-koi calls): every
    #: view of every move lists every pile's yaku, and piles change only on captures
    _evaluated: dict[tuple[int, int, int], tuple[Yaku, ...]] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )
    #: totals already worked out where no table card voids a row and no koi-koi was
    #: called (nearly every total), each as ``pile | points << 48`` in the slot its pile's
    #: bits pick (-1: none): a turn asks for the pile's total before and after it, and the
    #: one before is the one after the seat's turn before. One word a slot, so a thread
    #: reads a pile with its own points; a few slots, so they stay in the processor's cache
    _totals: vec[i64] = field(
        default_factory=lambda: vec[i64]([-1] * _TOTAL_SLOTS),
        compare=False,
        hash=False,
        repr=False,
    )

    def __post_init__(self) -> None:
        # Table cards that can void a yaku (the weather rule); other table cards never matter.
        mask = 0
        for row in self.rows:
            mask |= row.void_if_table
        object.__setattr__(self, "void_cards", mask)
        for cup_as in ("", "animal", "plain"):
            self._compiled[cup_as] = vec[i64](
                number
                for r in (row.without_cup(cup_as) if cup_as else row for row in self.rows)
                for number in (
                    r.requires, r.counts, r.doubles, r.need, r.points, r.extra, r.void_if_table
                )
            )  # fmt: skip
        index = {row.key: i for i, row in enumerate(self.rows)}
        groups = list(dict.fromkeys(row.group for row in self.rows if row.group))
        replaces = tuple(
            sum(1 << index[key] for key in row.replaces if key in index) for row in self.rows
        )
        object.__setattr__(self, "_replaces", replaces)
        grouped = tuple(groups.index(row.group) if row.group else -1 for row in self.rows)
        object.__setattr__(self, "_groups", grouped)
        viewing = sum(1 << i for i, row in enumerate(self.rows) if row.key in VIEWING)
        object.__setattr__(self, "_viewing", viewing)
        self._names.update((row.key, row.said()) for row in self.rows)

    def __reduce__(self) -> tuple[Any, ...]:
        # A copy sent to another process carries the rules, not the memo: it grows to
        # thousands of entries, and a bot thread adds to it while a hint is sent.
        rules = (self.rows, self.viewing_needs_other, self.cup_one_of, self.viewing_values)
        return (type(self), (*rules, self.rain_spoils_drinking))

    def name_of(self, key: str) -> Localized:
        """The name a score line gives yaku ``key`` (:meth:`YakuDef.said`)."""
        return self._names[key]

    def row(self, key: str) -> YakuDef:
        for row in self.rows:
            if row.key == key:
                return row
        raise KeyError(key)

    def evaluated(self, captured: int, table: int = 0, koikoi_calls: int = 0) -> list[Yaku]:
        """:meth:`evaluate`, remembered: for views, which list every pile's yaku on every
        move (a search's piles are too many to remember, and it evaluates them itself)."""
        key = (captured, table & self.void_cards, koikoi_calls)
        known = self._evaluated.get(key)
        if known is None:
            if len(self._evaluated) >= 1 << 14:
                self._evaluated.clear()
            known = self._evaluated[key] = tuple(self.evaluate(captured, table, koikoi_calls))
        return list(known)

    def evaluate(self, captured: int, table: int = 0, koikoi_calls: int = 0) -> list[Yaku]:
        """Every yaku ``captured`` scores, in table order."""
        scoring, points = self._scoring(captured, table, koikoi_calls)
        out: list[Yaku] = []
        for i, row in enumerate(self.rows):
            if scoring >> i & 1:
                shown = tuple(codes(captured & (row.counts | row.requires)))
                out.append(Yaku(self._names[row.key].en, points[i], shown, row.key))
        return out

    def progress(self, captured: int, elsewhere: int) -> list[YakuProgress]:
        """The yaku ``captured`` is at most two cards from, has half of, and can still
        make (``elsewhere``: cards out of its reach).

        >>> from cardtable.games.hanafuda.deck import cards
        >>> moon_and_cup = cards("08-1 09-1")  # tsukimi made: hanami lacks only the curtain
        >>> [(p.key, p.have, p.need) for p in koikoi_table({}).progress(moon_and_cup, 0)]
        [('hanami', 1, 2)]
        >>> [(p.key, p.missing) for p in koikoi_table({}).progress(cards("01-1 08-1"), 0)]
        [('sanko', 1), ('tsukimi', 1)]
        >>> gone = cards("03-1 11-1 12-1")  # the other lights are in another pile
        >>> [p.key for p in koikoi_table({}).progress(cards("01-1 08-1"), gone)]
        ['tsukimi']
        """
        return [YakuProgress(*near) for near in self._near(captured, elsewhere)]

    def progress_json(self, captured: int, elsewhere: int) -> list[dict[str, Any]]:
        """:meth:`progress` as JSON, the same dicts every call (a view reads them only).
        Remembered as plain dicts, which the cycle collector stops looking at: a loaded
        server's views make thousands of these a second, and the named tuples they were
        made from were most of what its young generation held."""
        key = (captured, elsewhere)
        cached = self._progress.get(key)
        if cached is None:
            if len(self._progress) >= 1 << 14:
                self._progress.clear()
            cached = self._progress[key] = tuple(
                dict(zip(YakuProgress._fields, near, strict=True))
                for near in self._near(captured, elsewhere)
            )
        return list(cached)

    def _near(self, captured: int, elsewhere: int) -> list[tuple[str, str, int, int, int]]:
        """:meth:`progress`'s entries, as the fields of a :class:`YakuProgress`."""
        found: dict[str, tuple[str, str, int, int, int]] = {}  # of a group the nearest
        for row in self.rows:
            have, missing = row.count(captured), row.missing(captured)
            if not missing or missing > 2 or 2 * have < row.need:
                continue
            if row.requires & elsewhere or row.count(row.counts & ~elsewhere) < row.need:
                continue
            slot = row.group or row.key
            best = found.get(slot)
            if best is None or (missing, row.need) < (best[4], best[3]):
                found[slot] = (row.key, row.message_key, have, row.need, missing)
        return list(found.values())

    def total(self, captured: int, table: int = 0, koikoi_calls: int = 0) -> int:
        """The points of :meth:`evaluate` without building the yaku (the engine's hot path)."""
        if count_cards(captured) < 2:
            return 0
        if koikoi_calls or table & self.void_cards or captured >> 48:  # (past the deck: as is)
            return _sum_of(*self._scoring(captured, table, koikoi_calls))
        pile: i64 = captured
        slot = (pile ^ (pile >> 12) ^ (pile >> 24) ^ (pile >> 36)) & (_TOTAL_SLOTS - 1)
        known = self._totals[slot]
        if known >= 0 and known & _PILE_BITS == pile:
            return int(known >> 48)
        points = _sum_of(*self._scoring(captured, 0, 0))
        if points < 1 << 15:
            self._totals[slot] = pile | i64(points) << 48
        return points

    def row_points(self, captured: int, table: int = 0, cup_as: str = "") -> dict[str, int]:
        """Every row that scores on its own, by key, with its points: before one yaku
        replaces another or a group keeps its best (``cup_as``: see :attr:`_compiled`)."""
        scoring, points = self._rows_alone(captured, table, cup_as)
        return {row.key: points[i] for i, row in enumerate(self.rows) if scoring >> i & 1}

    def _scoring(self, captured: int, table: int, koikoi_calls: int) -> tuple[int, list[int]]:
        """The rows ``captured`` scores together, as a mask of row indices, and every
        row's points; under ``cup_one_of`` the better way to count the cup."""
        if self.cup_one_of and captured & SAKE_CUP:
            animal = self._combine(captured, table, koikoi_calls, "animal")
            plain = self._combine(captured, table, koikoi_calls, "plain")
            if _sum_of(*plain) > _sum_of(*animal):
                return plain
            return animal
        return self._combine(captured, table, koikoi_calls, "")

    def _rows_alone(self, captured: int, table: int, cup_as: str) -> tuple[int, list[int]]:
        """:meth:`YakuDef.points_for` of every row, inlined over the flat rows (every
        total scans all of them; test_yaku checks that the two agree)."""
        scoring = 0
        points = [0] * len(self.rows)
        rows = self._compiled[cup_as]
        pile: i64 = captured
        on_table: i64 = table
        for i in range(len(self.rows)):
            at = i * ROW_WORDS
            requires = rows[at]
            if pile & requires != requires or on_table & rows[at + 6]:  # void_if_table
                continue
            count = count_cards(pile & rows[at + 1])  # counts
            if rows[at + 2]:  # doubles
                count += count_cards(pile & rows[at + 2])
            need = rows[at + 3]
            if count >= need:
                scoring |= 1 << i
                points[i] = int(rows[at + 4] + rows[at + 5] * (count - need))  # points, extra
        return scoring, points

    def _combine(
        self, captured: int, table: int, koikoi_calls: int, cup_as: str
    ) -> tuple[int, list[int]]:
        """The rows alone, then the rules that join them: the rain spoils drinking, a yaku
        drops those it replaces, a group keeps its best, viewing values and the need of
        another yaku beside viewing ones."""
        scoring, points = self._rows_alone(captured, table, cup_as)
        if not scoring:
            return scoring, points
        if self.rain_spoils_drinking and captured & RAIN_MAN:
            scoring &= ~self._viewing
        for i, replaced in enumerate(self._replaces):
            if replaced and scoring >> i & 1:
                scoring &= ~replaced
        best = [-1] * len(self._groups)  # per group, the row that holds it so far
        for i, group in enumerate(self._groups):
            if group < 0 or not scoring >> i & 1:
                continue
            holder = best[group]
            if holder < 0:
                best[group] = i
            elif points[i] > points[holder]:
                scoring &= ~(1 << holder)
                best[group] = i
            else:
                scoring &= ~(1 << i)
        if self.viewing_values is not None and scoring & self._viewing:
            value = self.viewing_values[1 if koikoi_calls else 0]
            for i in range(len(points)):
                if self._viewing >> i & 1:
                    points[i] = value
        if self.viewing_needs_other and not scoring & ~self._viewing:
            scoring = 0
        return scoring, points


def _sum_of(scoring: int, points: list[int]) -> int:
    """The total of the rows in ``scoring`` (a loop: compiled, sum() is a builtins call)."""
    total = 0
    for i, value in enumerate(points):
        if scoring >> i & 1:
            total += value
    return total


def _opt(options: GameOptions | Mapping[str, Any], name: str, default: Any) -> Any:
    if isinstance(options, Mapping):
        return options.get(name, default)
    return getattr(options, name, default)


def koikoi_table(options: GameOptions | Mapping[str, Any]) -> YakuTable:
    """The koi-koi rows under house rules (§6.2, §6.3)."""
    return _koikoi_table(
        chofuku_mode=_opt(options, "chofuku_mode", "replace"),
        extra_bonus=_opt(options, "set_yaku_extra_bonus", False),
        inoshikacho=_opt(options, "inoshikacho_enabled", True),
        sake_viewing=_opt(options, "sake_viewing", "normal"),
        weather=_opt(options, "weather_ruins_viewing", True),
        cup_mode=_opt(options, "sake_cup_mode", "both"),
        double_plain=tuple(sorted(_opt(options, "double_plain", ()))),
        viewing_value=_opt(options, "viewing_value", "standard"),
    )


@lru_cache(maxsize=256)
def _koikoi_table(
    *,
    chofuku_mode: str,
    extra_bonus: bool,
    inoshikacho: bool,
    sake_viewing: str,
    weather: bool,
    cup_mode: str,
    double_plain: tuple[str, ...],
    viewing_value: str,
) -> YakuTable:
    rows = {row.key: row for row in KOIKOI_ROWS}
    if chofuku_mode == "none":
        del rows["chofuku"]
    elif chofuku_mode == "add":
        rows["chofuku"] = replace(rows["chofuku"], replaces=())
    if extra_bonus:
        # Wikipedia style: +1 per extra card of the class, and the count yaku of that class
        # is not scored again for the same cards.
        rows["inoshikacho"] = replace(
            rows["inoshikacho"], counts=ANIMALS, extra=1, replaces=("tane",)
        )
        for key in ("akatan", "aotan"):
            rows[key] = replace(rows[key], counts=RIBBONS, extra=1, replaces=("tanzaku",))
        if "chofuku" in rows:
            rows["chofuku"] = replace(
                rows["chofuku"],
                counts=RIBBONS,
                extra=1,
                replaces=(*rows["chofuku"].replaces, "tanzaku"),
            )
    if not inoshikacho:
        del rows["inoshikacho"]
    if sake_viewing == "disabled":
        del rows["hanami"], rows["tsukimi"]
    elif weather:
        rows["hanami"] = replace(rows["hanami"], void_if_table=NOVEMBER)
        rows["tsukimi"] = replace(rows["tsukimi"], void_if_table=DECEMBER)
    if cup_mode == "animal_only":
        rows["kasu"] = replace(rows["kasu"], counts=PLAINS)
    doubles = 0
    for name in double_plain:
        doubles |= DOUBLE_PLAIN_CARDS[name]
    if cup_mode == "animal_only":
        doubles &= ~SAKE_CUP
    if doubles:
        rows["kasu"] = replace(rows["kasu"], doubles=doubles)
    return YakuTable(
        rows=tuple(rows.values()),
        viewing_needs_other=sake_viewing == "needs_other_yaku",
        cup_one_of=cup_mode == "one_of",
        viewing_values=(1, 3) if viewing_value == "low" else None,
    )


def hana_awase_table(options: GameOptions | Mapping[str, Any]) -> YakuTable:
    """The hana-awase rows under house rules (§5.4, §5.5)."""
    return _hana_awase_table(
        sugawara_excluded=_opt(options, "sugawara_excluded_by_lights", False),
        rain_spoils=_opt(options, "rain_spoils_drinking", False),
    )


@lru_cache(maxsize=16)
def _hana_awase_table(*, sugawara_excluded: bool, rain_spoils: bool) -> YakuTable:
    rows = {row.key: row for row in HANA_AWASE_ROWS}
    if sugawara_excluded:
        for key in ("goko", "shiko"):
            rows[key] = replace(rows[key], replaces=(*rows[key].replaces, "omote_sugawara"))
    return YakuTable(rows=tuple(rows.values()), rain_spoils_drinking=rain_spoils)


def table_for(options: GameOptions) -> YakuTable | None:
    """The yaku table a game scores with under ``options``: the one its options model
    declares (``yaku_table``); None for a game without yaku (Bakappana)."""
    table = getattr(options, "yaku_table", None)
    return table if isinstance(table, YakuTable) else None


def evaluate(
    game_id: str,
    captured: int | str | Iterable[str],
    *,
    table: int | str | Sequence[str] = 0,
    koikoi_calls: int = 0,
    **house_rules: Any,
) -> list[Yaku]:
    """The yaku a pile of captured cards scores in a game under its house rules.

    ``table`` (the cards on the table, for the weather rule) and ``koikoi_calls`` (the
    holder's calls this round, for rules that depend on them) give the context.
    Unknown games or house rules raise OptionError.
    """
    spec = spec_of(game_id)
    options = build_options(spec.options_model, game_id, spec.presets, None, house_rules)
    yaku_table = table_for(options)
    if yaku_table is None:
        return []
    pile = captured if isinstance(captured, int) else cards(captured)
    on_table = table if isinstance(table, int) else cards(table)
    return yaku_table.evaluate(pile, on_table, koikoi_calls)
