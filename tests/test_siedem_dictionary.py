"""The real word lists (Debian's wpolish and wamerican, installed by make test): filtering,
the cached index, reasons for refusals, and the solver over 4 million words."""

from __future__ import annotations

from pathlib import Path

import pytest

from cardtable.core.errors import OptionError
from cardtable.games.siedem_slow import Area, load_dictionary, score_word, solve
from cardtable.games.siedem_slow.dictionary import index_dir, resolve_source

RULEBOOK_WORDS = [
    "wyselekcjonowany",
    "lumpenproletariat",
    "snopowiązałka",
    "europarlamentarzysta",
    "antropomorfizacja",
    "dziesięciogroszówka",
    "blachodachówka",
    "podpajęczynówkowy",
    "słowotwórczy",
]


def test_the_sjp_list_has_every_rulebook_word_and_refuses_what_the_rules_refuse() -> None:
    words = load_dictionary("default", "pl")
    assert len(words) > 3_900_000
    for word in RULEBOOK_WORDS:
        assert words.problem(word) is None, word
    assert words.problem("Aachen") == "proper noun (Aachen)"
    assert words.problem("itd") == "abbreviation"
    assert words.problem("adhd") == "abbreviation"
    assert words.problem("e-mail") == "needs a hyphen, which is not allowed"
    assert words.problem("abbé") == "é is not a letter of the pl alphabet"
    assert words.problem("brzęczyszczykiewiczów") == "not in the dictionary"
    # the index is cached on disk, and a second load reuses it
    assert (index_dir(resolve_source("default", "pl"), "pl") / "meta.json").exists()
    assert load_dictionary("default", "pl") is words


def test_the_solver_over_the_full_list_agrees_with_score_word() -> None:
    words = load_dictionary("default", "pl")
    area = Area.parse("L+1K|NS|WM|L+1R")
    best = solve(area, words, top=20)
    assert len(best) == 20
    assert all(score_word(s.word, area).points == s.points for s in best)
    assert best[0].points >= score_word("wyselekcjonowany", area).points
    assert [s.points for s in best] == sorted((s.points for s in best), reverse=True)


def test_english_list_and_a_word_list_file(tmp_path: Path) -> None:
    english = load_dictionary("default", "en")
    assert "flamethrowers" in english and english.problem("Paris") == "proper noun (Paris)"
    own = tmp_path / "mine.txt"
    own.write_text("kot\ndom\nKraków\n", encoding="utf-8")
    small = load_dictionary(str(own), "pl")
    assert len(small) == 2 and small.problem("kraków") == "proper noun (Kraków)"
    with pytest.raises(OptionError, match="no word list at"):
        load_dictionary(str(tmp_path / "missing.txt"), "pl")
    with pytest.raises(OptionError, match="no dictionary language"):
        load_dictionary("default", "de")
