"""The real word lists (Debian's wpolish and wamerican, installed by make test): filtering,
the cached index, reasons for refusals, and the solver over 4 million words."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from cardtable.core.errors import OptionError
from cardtable.games.siedem_slow import Area, dictionary, load_dictionary, score_word, solve
from cardtable.games.siedem_slow.dictionary import (
    PROBLEM_CODES,
    build_index,
    index_dir,
    resolve_source,
)
from cardtable.locales import catalogue

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
    refused = words.problem("Aachen")
    assert refused is not None and refused.text("pl") == "nazwa własna (Aachen)"
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


def test_two_threads_asking_for_a_new_list_wait_for_one_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server prepares the dictionaries in the background while a first table may
    ask for one: the second caller waits for the build the first started."""
    monkeypatch.setenv("CARDTABLE_CACHE_DIR", str(tmp_path / "cache"))
    own = tmp_path / "words.txt"
    own.write_text("kot\ndom\nlas\n", encoding="utf-8")
    builds: list[Path] = []
    started, second_asks = threading.Event(), threading.Event()

    def resolve(source: str, language: str) -> Path:
        if source == str(own) and builds:  # a caller that comes while the build runs
            second_asks.set()
        return resolve_source(source, language)

    def slow_build(path: Path, language: str, folder: Path, progress: object = None) -> None:
        if path == own:  # (not a system list some other thread of this worker loads)
            builds.append(folder)
            started.set()
            assert second_asks.wait(5), "the second thread never asked"
        build_index(path, language, folder)

    monkeypatch.setattr(dictionary, "resolve_source", resolve)
    monkeypatch.setattr(dictionary, "build_index", slow_build)
    with ThreadPoolExecutor(2) as pool:
        first = pool.submit(load_dictionary, str(own), "pl")
        assert started.wait(5)
        second = pool.submit(load_dictionary, str(own), "pl")
        assert first.result() is second.result()
    assert len(builds) == 1 and len(first.result()) == 3


def test_a_list_is_built_aside_and_half_built_indexes_of_gone_processes_are_removed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server builds in a process of its own (the build's memory goes back when it
    ends), and a build cleans up what a stopped server left half written."""
    monkeypatch.setenv("CARDTABLE_CACHE_DIR", str(tmp_path / "cache"))
    own = tmp_path / "words.txt"
    own.write_text("kot\ndom\nlas\nKraków\n", encoding="utf-8")
    folder = index_dir(own, "pl")
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    abandoned = folder.with_name(f"{folder.name}.tmp{gone}")
    (abandoned / "half").mkdir(parents=True)
    ours_running = folder.with_name(f"{folder.name}.tmp{os.getppid()}")
    ours_running.mkdir()
    words = load_dictionary(str(own), "pl", aside=True)
    assert len(words) == 3 and words.problem("kraków") == "proper noun (Kraków)"
    assert (folder / "meta.json").exists()
    assert not abandoned.exists() and ours_running.exists()  # a live process's is left


def test_prepare_loads_each_installed_language() -> None:
    made = dictionary.prepare()
    assert [line.split()[0] for line in made] == ["pl", "en"]  # make test installs both
    assert load_dictionary("default", "pl") is load_dictionary("default", "pl")


@pytest.mark.parametrize("lang", ["en", "pl", "ru"])
def test_every_refusal_of_a_word_is_said_in_every_language(lang: str) -> None:
    """Each refusal code is said three ways (short after "struck:", a pad's sentence, a
    refused move's sentence), so no front end shows one in English to a Polish reader."""
    said = catalogue(lang)
    for code in PROBLEM_CODES:
        for prefix in ("siedem.why.", "pad.why.", "illegal.siedem.word."):
            assert f"{prefix}{code}" in said, f"{prefix}{code}"
