"""``cardtable play GAME --labels``: each card in the terminal with its month, its kind and,
in the games that count card values, its points — in every language; none without it."""

from __future__ import annotations

import re

import pytest

from .test_cli import cardtable

KINDS = {
    "en": "light|animal|ribbon|plain",
    "pl": "jasna|zwierzę|wstęga|zwykła",
    "ru": "яркая|животное|лента|простая",
}
POINTS = {"en": r"\d+ pts?", "pl": r"\d+ pkt", "ru": r"\d+ очк(?:о|ов)"}


def played(game: str, lang: str, *extra: str) -> str:
    args = ("play", game, "--seats", "human,greedy", "--seed", "3", "--rounds", "1")
    done = cardtable(*args, "--delay", "0", "--lang", lang, *extra, typed="1\n" * 40)
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("lang", ["en", "pl", "ru"])
def test_labels_give_month_kind_and_points_where_the_game_counts_them(lang: str) -> None:
    label = re.compile(rf"\b(1[0-2]|[1-9]) · ({KINDS[lang]}) · {POINTS[lang]}")
    text = played("hana-awase", lang, "--labels")
    # the crane in the hand or on the table, the moon...: every card the board shows
    assert len(label.findall(text)) >= 16, text[-3000:]
    assert not label.findall(played("hana-awase", lang)), "labels without --labels"


@pytest.mark.parametrize("lang", ["en", "pl", "ru"])
def test_koikoi_labels_say_the_kind_without_points(lang: str) -> None:
    text = played("koi-koi", lang, "--labels")
    kind = re.compile(rf"\b(1[0-2]|[1-9]) · ({KINDS[lang]})\b")
    assert len(kind.findall(text)) >= 16
    assert not re.search(rf"· ({KINDS[lang]}) · {POINTS[lang]}", text), "koi-koi has no card points"
