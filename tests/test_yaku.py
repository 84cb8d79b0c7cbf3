"""Yaku tables and the evaluator: games/hanafuda/pages/koi-koi.md ("Yaku") and hana-awase.md
("Scoring"), and the edge cases on yaku."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable import OptionError, load
from cardtable.games.hanafuda.deck import PLAINS, RIBBONS, cards, codes
from cardtable.games.hanafuda.docs import row_cards
from cardtable.games.hanafuda.yaku import (
    HANA_AWASE_ROWS,
    KOIKOI_ROWS,
    VIEWING,
    YakuTable,
    evaluate,
    hana_awase_table,
    koikoi_table,
)
from tests.counts import count


def points(game: str, pile: str, **rules: object) -> dict[str, int]:
    return {y.key: y.points for y in evaluate(game, pile, **rules)}


def test_tables_are_complete_and_named() -> None:
    assert len(HANA_AWASE_ROWS) == 16
    assert sorted(r.points for r in HANA_AWASE_ROWS) == sorted(
        [200, 60, 40, 40, 40, 30, 30, 30, 20, 20, 20, 20, 20, 20, 20, 20]
    )
    for row in (*KOIKOI_ROWS, *HANA_AWASE_ROWS):
        assert row.name and row.meaning("en") and row.meaning("pl") and row.native
        assert row_cards(row, "en")  # the rule pages' words for its cards
    assert all(
        row.meaning("ru")
        for row in HANA_AWASE_ROWS
        if row.key not in {"inoshikacho", "tsukimi", "hanami"}
    )


def test_edge_11_a_card_in_several_yaku() -> None:
    # the sake cup in Hanami + Tsukimi + Tane + Kasu
    pile = "03-1 08-1 09-1 02-1 04-1 05-1 06-1 " + " ".join(codes(PLAINS)[:9])
    got = points("koi-koi", pile)
    assert got["hanami"] == 5 and got["tsukimi"] == 5
    assert got["tane"] == 1  # 5 animals: cup, warbler, cuckoo, bridge, butterflies
    assert got["kasu"] == 1  # 9 plains + the cup
    # 9 plains + cup = Kasu on its own
    assert points("koi-koi", " ".join(codes(PLAINS)[:9]) + " 09-1") == {"kasu": 1}
    # six poetry/blue ribbons = chōfuku 10 + Tanzaku 2
    assert points("koi-koi", "01-2 02-2 03-2 06-2 09-2 10-2") == {"chofuku": 10, "tanzaku": 2}


def test_edge_12_light_yaku() -> None:
    assert points("koi-koi", "01-1 03-1 08-1 11-1") == {"ame_shiko": 7}
    assert points("koi-koi", "01-1 03-1 11-1") == {}
    assert points("koi-koi", "01-1 03-1 08-1 11-1 12-1") == {"goko": 10}
    assert points("koi-koi", "01-1 03-1 08-1 12-1") == {"shiko": 8}
    assert points("koi-koi", "01-1 03-1 12-1") == {"sanko": 5}


def test_edge_13_weather_voids_viewing_while_the_card_is_on_the_table() -> None:
    pile = "03-1 08-1 09-1"
    assert points("koi-koi", pile, table="11-2") == {"tsukimi": 5}  # rain: no hanami
    assert points("koi-koi", pile, table="12-3") == {"hanami": 5}  # fog: no tsukimi
    assert points("koi-koi", pile, table="01-3") == {"hanami": 5, "tsukimi": 5}
    assert points("koi-koi", pile, table="11-2", weather_ruins_viewing=False) == {
        "hanami": 5,
        "tsukimi": 5,
    }


def test_edge_14_hana_awase_exclusions_and_stacking() -> None:
    assert points("hana-awase", "03-1 08-1 09-1") == {"nomi": 30}  # not 70
    assert points("hana-awase", "01-1 03-1 08-1 11-1 12-1")["goko"] == 200
    assert "shiko" not in points("hana-awase", "01-1 03-1 08-1 11-1 12-1")
    seven = "01-2 02-2 03-2 06-2 09-2 10-2 04-2"
    got = points("hana-awase", seven)
    assert got == {"nanatan": 40, "akatan": 40, "aotan": 40}  # 120, no rokutan
    assert points("hana-awase", "01-2 02-2 03-2 06-2 09-2 04-2") == {"rokutan": 30, "akatan": 40}
    # the willow ribbon does not count towards six ribbons
    assert "rokutan" not in points("hana-awase", "01-2 02-2 04-2 05-2 07-2 11-3")


def test_hana_awase_other_yaku() -> None:
    assert points("hana-awase", "01-1 02-1 03-1")["omote_sugawara"] == 30
    assert points("hana-awase", "01-1 08-1 12-1")["matsu_kiri_bozu"] == 20
    assert points("hana-awase", "04-2 05-2 07-2") == {"kusa": 20}
    assert points("hana-awase", "04-1 04-2 04-3 04-4") == {"fuji_shima": 20}
    assert points("hana-awase", "11-1 11-2 11-3 11-4") == {"yanagi_shima": 20}
    assert points("hana-awase", "12-1 12-2 12-3 12-4") == {"kiri_shima": 20}
    assert points("hana-awase", "06-1 07-1 10-1") == {"inoshikacho": 20}
    lights = "01-1 02-1 03-1 08-1 12-1"
    assert "omote_sugawara" in points("hana-awase", lights)
    assert "omote_sugawara" not in points("hana-awase", lights, sugawara_excluded_by_lights=True)


def test_edge_15_rain_spoils_drinking_for_its_holder_only() -> None:
    assert points("hana-awase", "03-1 08-1 09-1 11-1", rain_spoils_drinking=True) == {}
    assert points("hana-awase", "03-1 08-1 09-1", rain_spoils_drinking=True) == {"nomi": 30}


def test_koikoi_yaku_options_change_the_score() -> None:
    six = "01-2 02-2 03-2 06-2 09-2 10-2"
    assert points("koi-koi", six, chofuku_mode="add") == {
        "akatan": 5, "aotan": 5, "chofuku": 10, "tanzaku": 2,
    }  # fmt: skip
    assert points("koi-koi", six, chofuku_mode="none") == {"akatan": 5, "aotan": 5, "tanzaku": 2}
    seven = six + " 04-2"
    assert points("koi-koi", seven, set_yaku_extra_bonus=True) == {"chofuku": 11}
    assert points("koi-koi", "01-2 02-2 03-2 04-2", set_yaku_extra_bonus=True) == {"akatan": 6}
    isc = "06-1 07-1 10-1 02-1 04-1"
    assert points("koi-koi", isc) == {"inoshikacho": 5, "tane": 1}
    assert points("koi-koi", isc, set_yaku_extra_bonus=True) == {"inoshikacho": 7}
    assert points("koi-koi", isc, inoshikacho_enabled=False) == {"tane": 1}
    assert points("koi-koi", "03-1 09-1", sake_viewing="disabled") == {}
    assert points("koi-koi", "03-1 09-1", sake_viewing="needs_other_yaku") == {}
    assert points("koi-koi", "03-1 09-1 01-1 12-1", sake_viewing="needs_other_yaku") == {
        "sanko": 5, "hanami": 5,
    }  # fmt: skip
    assert points("koi-koi", "03-1 09-1", viewing_value="low") == {"hanami": 1}
    assert points("koi-koi", "03-1 09-1", viewing_value="low", koikoi_calls=1) == {"hanami": 3}


def test_sake_cup_modes_and_double_plains() -> None:
    nine_plains = " ".join(codes(PLAINS & ~(1 << 43) & ~(1 << 45))[:9])
    four_animals = "02-1 04-1 05-1 06-1"
    pile = f"{nine_plains} {four_animals} 09-1"
    assert points("koi-koi", pile) == {"tane": 1, "kasu": 1}
    assert points("koi-koi", pile, sake_cup_mode="animal_only") == {"tane": 1}
    assert points("koi-koi", pile, sake_cup_mode="one_of") in ({"tane": 1}, {"kasu": 1})
    assert points("koi-koi", f"{nine_plains} 09-1 {four_animals} 07-1", sake_cup_mode="one_of") == {
        "tane": 2
    }  # as an animal the cup makes Tane 2, better than Kasu 1
    eight = " ".join(codes(PLAINS & ~(1 << 43) & ~(1 << 45))[:8])
    assert points("koi-koi", f"{eight} 11-4") == {}
    assert points("koi-koi", f"{eight} 11-4", double_plain="lightning") == {"kasu": 1}
    assert points(
        "koi-koi", f"{eight} 11-4 12-2", double_plain=("lightning", "yellow_paulownia")
    ) == {"kasu": 3}


def test_counted_cards_are_listed() -> None:
    (tanzaku,) = evaluate("koi-koi", " ".join(codes(RIBBONS & ~0x222)[:5]))
    assert len(tanzaku.cards) == 5 and tanzaku.points == 1


def test_evaluate_checks_its_arguments() -> None:
    with pytest.raises(OptionError, match="unknown game"):
        evaluate("go", "01-1")
    with pytest.raises(OptionError, match="chofuku_mode"):
        evaluate("koi-koi", "01-1", chofuku_mode="double")
    assert evaluate("bakappana", "01-1 03-1 08-1") == []


TABLES = [
    koikoi_table({}),
    koikoi_table({"sake_cup_mode": "one_of", "double_plain": ["lightning"]}),
    koikoi_table({"set_yaku_extra_bonus": True, "chofuku_mode": "add"}),
    koikoi_table({"viewing_value": "low", "weather_ruins_viewing": False}),
    koikoi_table({"double_plain": ["lightning"], "chofuku_mode": "none"}),
    koikoi_table({"sake_viewing": "needs_other_yaku", "sake_cup_mode": "animal_only"}),
    hana_awase_table({}),
    hana_awase_table({"rain_spoils_drinking": True, "sugawara_excluded_by_lights": True}),
]


def readable_yaku(table: YakuTable, pile: int, on_table: int, calls: int) -> dict[str, int]:
    """The yaku a pile scores, worked out the slow way the rules say it (koi-koi.md, "Yaku";
    hana-awase.md, "Scoring"): every row on its own (YakuDef.points_for), then the rain spoils
    drinking, a yaku drops those it replaces, a group keeps its best, viewing values, viewing
    yaku that need another; with the cup counted both ways, the better."""

    def scored(cup_as: str) -> dict[str, int]:
        rows = {row.key: row.without_cup(cup_as) if cup_as else row for row in table.rows}
        points = {key: row.points_for(pile, on_table) for key, row in rows.items()}
        points = {key: value for key, value in points.items() if value}
        if table.rain_spoils_drinking and pile & cards("11-1"):
            points = {key: value for key, value in points.items() if key not in VIEWING}
        for key in list(points):
            if key in points:
                for replaced in rows[key].replaces:
                    points.pop(replaced, None)
        for group in {row.group for row in table.rows if row.group}:
            members = [key for key in points if rows[key].group == group]
            if members:
                keep = max(members, key=lambda key: (points[key], -members.index(key)))
                for key in members:
                    if key != keep:
                        del points[key]
        if table.viewing_values is not None:
            for key in VIEWING & points.keys():
                points[key] = table.viewing_values[1 if calls else 0]
        if table.viewing_needs_other and not points.keys() - VIEWING:
            return {}
        return points

    if table.cup_one_of and pile & cards("09-1"):
        animal, plain = scored("animal"), scored("plain")
        return plain if sum(plain.values()) > sum(animal.values()) else animal
    return scored("")


@settings(max_examples=count(3000), deadline=None)
@given(
    table=st.sampled_from(TABLES),
    cards=st.permutations(range(48)),
    size=st.integers(2, 30),
    on_table=st.integers(0, (1 << 48) - 1),
    calls=st.integers(0, 3),
)
def test_the_evaluator_agrees_with_the_rules_read_slowly(
    table: YakuTable, cards: list[int], size: int, on_table: int, calls: int
) -> None:
    """The evaluator works on bit masks of rows (the engine's hot path): its yaku and its
    total equal the rules applied row by row, for every house-rule table, also for a
    pile one card away."""
    first = sum(1 << c for c in cards[:size])
    second = first ^ (1 << cards[0]) | (1 << cards[size])  # one card swapped
    on_table &= ~(first | second)
    for pile in (first, second):
        expected = readable_yaku(table, pile, on_table, calls)
        assert {y.key: y.points for y in table.evaluate(pile, on_table, calls)} == expected
        assert [y.key for y in table.evaluate(pile, on_table, calls)] == list(expected)
        assert table.total(pile, on_table, calls) == sum(expected.values())
        # the views' remembered evaluation: the same, asked once or again, whatever a
        # caller does to the list it was given
        for _ in range(2):
            shown = table.evaluated(pile, on_table, calls)
            assert {y.key: y.points for y in shown} == expected
            shown.clear()
            # the engine's remembered total (no call, no voiding card on the table)
            assert table.total(pile) == sum(readable_yaku(table, pile, 0, 0).values())


@settings(max_examples=count(2000), deadline=None)
@given(
    table=st.sampled_from(TABLES),
    cup_as=st.sampled_from(["", "animal", "plain"]),
    cards=st.permutations(range(48)),
    size=st.integers(0, 30),
    on_table=st.integers(0, (1 << 48) - 1),
)
def test_the_inlined_points_agree_with_the_readable_rule(
    table: YakuTable, cup_as: str, cards: list[int], size: int, on_table: int
) -> None:
    """row_points (the evaluator's inlined scan) gives every row the points that
    YakuDef.points_for says, with the cup counted either way."""
    pile = sum(1 << c for c in cards[:size])
    on_table &= ~pile
    rows = [row.without_cup(cup_as) if cup_as else row for row in table.rows]
    readable = {row.key: row.points_for(pile, on_table) for row in rows}
    inlined = table.row_points(pile, on_table, cup_as)
    assert inlined == {key: points for key, points in readable.items() if points}


@settings(max_examples=count(1000), deadline=None)
@given(
    table=st.sampled_from(TABLES),
    cards=st.permutations(range(48)),
    size=st.integers(0, 16),
    others=st.integers(0, 16),
)
def test_the_views_progress_is_the_progress_as_json(
    table: YakuTable, cards: list[int], size: int, others: int
) -> None:
    """What a view shows of a pile's progress (remembered as plain dicts) says what
    ``progress`` says, asked once or again, whatever a caller does to the list."""
    pile = sum(1 << c for c in cards[:size])
    elsewhere = sum(1 << c for c in cards[size : size + others])
    expected = [near.to_json() for near in table.progress(pile, elsewhere)]
    for _ in range(2):
        shown = table.progress_json(pile, elsewhere)
        assert shown == expected
        shown.clear()


def test_a_pickled_table_scores_the_same_and_leaves_its_memos_behind() -> None:
    """Hints and coach notes are sent to worker processes pickled, while bots go on adding
    to the table's memos: a copy must carry the rules only."""
    import pickle

    table = koikoi_table(load("koi-koi").options)  # type: ignore[arg-type]
    piles = [cards("01-1 03-1 08-1 11-1 12-1"), cards("09-1 06-1 10-1"), cards("08-2 09-2")]
    totals = [table.total(pile, cards("09-1"), 1) for pile in piles]
    assert table.progress_json(piles[1], 0) and table._progress
    assert table.evaluated(piles[0]) and table._evaluated
    assert table.total(piles[0]) and any(entry >= 0 for entry in table._totals)
    copy = pickle.loads(pickle.dumps(table))
    assert copy == table and not copy._progress and copy.void_cards == table.void_cards
    assert not copy._evaluated and all(entry < 0 for entry in copy._totals)
    assert [copy.total(pile, cards("09-1"), 1) for pile in piles] == totals
    assert len(pickle.dumps(table)) == len(pickle.dumps(copy))


def test_remembered_totals_stay_bounded_and_right() -> None:
    """The engine remembers piles' totals in a few slots that piles share: many piles later
    (each slot taken over many times) every total asked is still its pile's."""
    table = koikoi_table(load("koi-koi").options)  # type: ignore[arg-type]
    rng = random.Random(4)
    piles = [sum(1 << c for c in rng.sample(range(48), rng.randint(2, 20))) for _ in range(40_000)]
    expected = {pile: sum(y.points for y in table.evaluate(pile)) for pile in piles}
    slots = len(table._totals)
    for pile in piles + piles[::-1]:
        assert table.total(pile) == expected[pile]
    assert len(table._totals) == slots < len(piles) // 4


def test_a_number_past_the_deck_is_scored_as_it_is_not_remembered() -> None:
    """total() takes any number (a plugin's piles): bits past the deck's 48 never reach the
    remembered slots, where they would land in the points of the pile below them."""
    table = koikoi_table(load("koi-koi").options)  # type: ignore[arg-type]
    plains = cards("01-3 02-3")
    for pile in (1 << 50 | plains, plains, 1 << 50 | plains):
        assert table.total(pile) == sum(y.points for y in table.evaluate(pile)) == 0
