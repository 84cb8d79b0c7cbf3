"""Score lines speak the player's language: every line of every game, in en, pl and ru."""

from __future__ import annotations

import random
import re

import pytest

import cardtable
from cardtable.core.results import ScoreLine
from cardtable.core.state import State
from cardtable.locales import LANGUAGES, Localized, SeatRef, Term, catalogue, message

FIELD = re.compile(r"{(\w+)}")

#: (game, options): between them these produce every kind of score line the engines have
CONFIGS = [
    ("bakappana", {"players": 3}),
    ("koi-koi", {}),
    ("koi-koi", {"preset": "koikoi_japan"}),
    ("koi-koi", {"koikoi_multiplier": "count_all", "zero_sum": True, "oya_ken_points": 6}),
    ("koi-koi", {"double_if_seven_plus": True, "table_lights_multiplier": "count"}),
    ("hana-awase", {"players": 3}),
    ("hana-awase-88", {}),
    ("hana-awase-88", {"willow_row_cancels_yaku": True}),
    ("ohanami", {"players": 3}),
]


def finished_lines(game_id: str, options: dict[str, object], games: int) -> list[ScoreLine]:
    lines: list[ScoreLine] = []
    for seed in range(games):
        state: State = cardtable.load(game_id, **options).new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in sorted(state.to_move):
                if seat in state.to_move:
                    state.apply(seat, rng.choice(state.legal_actions(seat)))
        lines.extend(line for r in state.result().rounds for line in r.lines)
    return lines


def test_catalogues_agree_on_the_fields_of_every_message() -> None:
    english = catalogue("en")
    for lang in LANGUAGES:
        other = catalogue(lang)
        assert set(other) == set(english), lang
        for key, text in english.items():
            assert set(FIELD.findall(other[key])) == set(FIELD.findall(text)), (lang, key)


@pytest.mark.parametrize(("game_id", "options"), CONFIGS)
def test_every_line_is_said_in_every_language(game_id: str, options: dict[str, object]) -> None:
    lines = finished_lines(game_id, options, games=25)
    assert lines
    translated = 0
    for line in lines:
        assert line.message in catalogue("en"), line.message
        said = line.to_json()["labels"]
        assert set(said) == set(LANGUAGES)
        assert said["en"] == line.label
        for lang, text in said.items():
            assert text and "{" not in text and "line." not in text, (lang, text)
            assert not re.search(r"Localized|Term\(", text), text
        translated += said["pl"] != said["en"] and said["ru"] != said["en"]
    # yaku names keep their romaji but gain a translation; only bare numbers stay the same
    assert translated >= len(lines) // 2


def test_values_in_a_line_are_said_in_the_readers_language() -> None:
    name = Localized("Sankō", "Sankō (trzy światła)", "Санко (три света)")
    line = ScoreLine.of(0, "opponent_yaku:sanko", 5, "line.opponent_yaku", yaku=name)
    assert line.text("en") == "Opponent's Sankō"
    assert line.text("pl") == "Sankō (trzy światła) przeciwnika"
    assert line.text("ru") == "Санко (три света) соперника"
    assert line.text("xx") == line.text("en")  # an unknown language falls back to English
    lucky = ScoreLine.of(1, "lucky:teshi", 6, "line.lucky", kind=Term("lucky.teshi"))
    assert lucky.text("pl") == f"Szczęśliwa ręka: {message('lucky.teshi', 'pl')}"


def test_a_messages_own_fields_may_be_named_seat_and_points() -> None:
    line = ScoreLine.of(2, "pays", -4, "line.pays", seat=SeatRef(0))
    assert (line.seat, line.points, line.label) == (2, -4, "Pays seat 1")
    assert line.text("pl") == "Zapłata dla: nr 1"
    # a front end that knows the players fills the message itself, with their names
    data = line.to_json()
    assert (data["message"], data["values"]) == ("line.pays", {"seat": {"seat": 0}})


def test_koikoi_yaku_lines_name_the_yaku_in_each_language() -> None:
    from cardtable.games.hanafuda import cards
    from cardtable.games.hanafuda.options import KoiKoiOptions
    from cardtable.games.hanafuda.scoring import FinishedRound, score_koikoi_round

    options = KoiKoiOptions()
    won = FinishedRound(piles=(cards("08-1 09-1"), 0), shobu=0)  # Tsukimi-zake
    lines = score_koikoi_round(options, won).lines
    (line,) = [line for line in lines if line.rule == "yaku:tsukimi"]
    row = options.yaku_table.row("tsukimi")
    assert line.text("en") == row.name
    assert (
        line.text("pl")
        == f"{row.name} ({row.meaning('pl')})"
        == "Tsukimi-zake (Sake pod księżycem)"
    )
    assert line.text("ru") == f"{row.name} ({row.meaning('ru')})"
