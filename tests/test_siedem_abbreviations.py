"""Abbreviations are decided from morfeusz2's readings, not from a list of strings
(games/siedem_slow/pages/siedem-slow.md, "Words that are not allowed": proper nouns, hyphenated
words, abbreviations and acronyms are out, nothing else)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardtable.games.siedem_slow import Dictionary
from cardtable.games.siedem_slow.abbreviations import abbreviation_test

SAMPLE = Path(__file__).parent / "data" / "siedem_abbreviations.tsv"
#: ordinary words a hand-written list used to refuse, and forms of them it accepted
REAL_WORDS = ["sen", "lek", "ul", "min", "por", "lic", "ok", "red", "tel"]
THEIR_FORMS = ["snu", "leki", "ula", "mina"]
INTERJECTIONS = ["brr", "hm", "bzzz", "pst"]
ABBREVIATIONS = ["np", "itd", "itp", "prof", "tzw", "godz", "mgr", "dr", "km", "kg", "zł"]
ACRONYMS = ["cd", "vat", "pesel", "bhp", "sms"]


def sample() -> list[tuple[str, str, str]]:
    rows = []
    for line in SAMPLE.read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            form, verdict, reading = line.split("\t")
            rows.append((form, verdict, reading))
    return rows


def test_the_hand_checked_sample_of_short_forms_is_classified_as_checked() -> None:
    rows = sample()
    assert len(rows) >= 200
    is_abbreviation = abbreviation_test("pl")
    wrong = [
        (form, verdict)
        for form, verdict, _ in rows
        if is_abbreviation(form) != (verdict == "abbreviation")
    ]
    assert wrong == []
    refused = sum(verdict == "abbreviation" for _, verdict, _ in rows)
    assert f"{len(rows)} forms, {refused} refused ({refused / len(rows):.0%})" in (
        SAMPLE.read_text(encoding="utf-8").replace(" %", "%")
    )


@pytest.mark.parametrize("word", REAL_WORDS + THEIR_FORMS + INTERJECTIONS)
def test_ordinary_words_and_interjections_are_words(word: str) -> None:
    assert not abbreviation_test("pl")(word)


@pytest.mark.parametrize("form", ABBREVIATIONS + ACRONYMS)
def test_abbreviations_and_acronyms_are_refused(form: str) -> None:
    assert abbreviation_test("pl")(form)


def test_the_dictionary_filter_uses_the_rule() -> None:
    words = Dictionary.from_words([*REAL_WORDS, *THEIR_FORMS, *ABBREVIATIONS, "PKP"], "pl")
    for word in REAL_WORDS + THEIR_FORMS:
        assert words.problem(word) is None, word
    for form in [*ABBREVIATIONS, "pkp"]:
        assert words.problem(form) == "abbreviation", form


def test_english_without_an_analyser_refuses_vowel_less_forms_and_latin_abbreviations() -> None:
    is_abbreviation = abbreviation_test("en")
    assert [w for w in ("by", "rhythm", "sky", "etc", "ie", "nth", "kg") if is_abbreviation(w)] == [
        "etc",
        "ie",
        "nth",
        "kg",
    ]
