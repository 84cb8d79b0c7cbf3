"""Words that read right (issue 48, item 6) where no browser is needed: Russian spells
koi-koi one way; the terminal names the players as the browser does ("Bot (średni)", not
"medium (2)"), in its score lines too ("Gracz 1", not "nr 1" or "№ 1"); the terminal's
round calculator says who pays whom in the case the sentence asks for."""

from __future__ import annotations

import re

import pytest

from cardtable.agents import make_agent
from cardtable.cli.common import seat_names
from cardtable.core.results import RoundResult, ScoreLine
from cardtable.core.terminal import Seat, console, score_table
from cardtable.locales import SeatRef, catalogue, message

from .test_cli import cardtable


def test_russian_spells_koikoi_one_way() -> None:
    spellings = {
        found.lower()
        for text in catalogue("ru").values()
        for found in re.findall(r"[кК]о[иий]-[кК]о[иий]", text)
    }
    assert spellings == {"кои-кои"}


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("pl", ["Ty", "Bot (średni)", "Bot (średni) 2"]),
        ("ru", ["Вы", "Бот (средний)", "Бот (средний) 2"]),
    ],
)
def test_the_terminal_names_bots_as_the_browser_does(lang: str, names: list[str]) -> None:
    bot = make_agent("random", "koi-koi", seed=1)
    seats = [Seat(0, "human"), Seat(1, "medium", bot), Seat(2, "medium", bot)]
    assert seat_names(seats, lang) == names


@pytest.mark.parametrize("lang", ["pl", "ru"])
def test_a_terminal_score_line_names_the_player_paid(lang: str) -> None:
    names = [message("term.player", lang, n=1), message("term.player", lang, n=2)]
    pays = ScoreLine.of(1, "pays", -6, "line.pays", seat=SeatRef(0))
    result = RoundResult(1, 0, (6, -6), (pays,), "shobu")
    with console.capture() as captured:
        console.print(score_table(result, names, "", "Σ", lang))
    said = captured.get()
    assert message("line.pays", lang, seat=names[0]) in said
    assert "№" not in said and " nr " not in said


@pytest.mark.parametrize(
    ("lang", "pays"), [("pl", "Gracz 2 płaci Graczowi 1: "), ("ru", "Игрок 2 платит Игроку 1: ")]
)
def test_the_terminal_calculator_says_who_pays_whom_in_the_right_case(lang: str, pays: str) -> None:
    done = cardtable(
        "companion", "hanafuda", "koi-koi", "--pile", "01-1 03-1 08-1", "--pile", "02-4",
        "--shobu", "1", "--lang", lang,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert pays in done.stdout, done.stdout
    assert message("pad.round", lang) in done.stdout
