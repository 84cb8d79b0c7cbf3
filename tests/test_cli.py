"""The cardtable command as a person uses it: typed input, bad input, saving, replay."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest


def cardtable(*args: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": "120", "TERM": "dumb", "CARDTABLE_LANG": "en"}
    return subprocess.run(
        [sys.executable, "-m", "cardtable", *args],
        input=typed,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=env,
    )


def test_play_a_whole_round_with_bad_input_along_the_way(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    typed = "xyz\n99\nh\nb\n" + "1\n" * 40
    done = cardtable(
        "play",
        "bakappana",
        "--seats",
        "human,random",
        "--rounds",
        "1",
        "--seed",
        "3",
        "--delay",
        "0",
        "--save",
        str(save),
        typed=typed,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "Dealer draw:" in out
    assert "'xyz' is not a move here" in out
    assert "There is no move 99: choose 1 to" in out
    assert "Type the number of a move, or a card code" in out
    assert "Round 1 result" in out and "Game over" in out
    assert "Traceback" not in out + done.stderr
    record = json.loads(save.read_text())
    assert record["game"] == "bakappana" and record["seed"] == 3 and record["log"]


def test_a_card_code_is_a_move() -> None:
    args = ("play", "bakappana", "--seats", "human,greedy", "--seed", "3", "--rounds", "1")
    done = cardtable(*args, "--delay", "0", typed="")
    # No input at all: the game stops cleanly at the first prompt.
    assert done.returncode == 0 and "Game stopped." in done.stdout
    menu = re.findall(r"^\s+\d+\. play\s+(\d\d-\d)", done.stdout, flags=re.MULTILINE)
    unique = [code for code in menu if menu.count(code) == 1]
    assert unique, done.stdout
    done = cardtable(*args, "--delay", "0", typed=f"{unique[0]}\n" + "1\n" * 40)
    assert done.returncode == 0
    assert f"You: plays  {unique[0]}" in done.stdout


def test_quit_saves_and_replay_shows_the_moves(tmp_path: Path) -> None:
    save = tmp_path / "partial.json"
    done = cardtable(
        "play",
        "bakappana",
        "--players",
        "3",
        "--seats",
        "human,greedy,random",
        "--seed",
        "5",
        "--delay",
        "0",
        "--save",
        str(save),
        typed="1\n2\nq\n",
    )
    assert done.returncode == 0 and "Game stopped." in done.stdout
    assert f"cardtable replay {save}" in " ".join(done.stdout.split())
    moves = len(json.loads(save.read_text())["log"])
    assert moves >= 2
    shown = cardtable("replay", str(save), "--no-step")
    assert shown.returncode == 0, shown.stderr
    assert f"move {moves}/{moves}" in shown.stdout
    assert "Player 1: play" in shown.stdout


def test_errors_are_messages_not_tracebacks(tmp_path: Path) -> None:
    cases = [
        (("play", "bakappana", "--rule", "scoring=fancy"), "option scoring='fancy' is not valid"),
        (("play", "bakappana", "--rule", "nonsense"), "--rule takes KEY=VALUE"),
        (("play", "bakapana"), "unknown game 'bakapana'"),
        (("play", "bakappana", "--seats", "human,wizard"), "unknown bot 'wizard'"),
        (("play", "bakappana", "--players", "5"), "option players=5 is not valid"),
        (("replay", str(tmp_path / "missing.json")), "no such file"),
        (("rules", "nope"), "unknown game 'nope'"),
    ]
    for args, message in cases:
        done = cardtable(*args)
        assert done.returncode == 2, (args, done.stdout, done.stderr)
        assert message in " ".join(done.stdout.split()), (args, done.stdout)
        assert "Traceback" not in done.stdout + done.stderr


def test_rules_lists_every_option_preset_and_bot() -> None:
    done = cardtable("rules", "bakappana")
    assert done.returncode == 0
    text = " ".join(done.stdout.split())
    for needle in (
        "Bakappana",
        "stock-only",
        "two_player_stop_when_hands_empty",
        "scoring",
        "traditional",
        "family",
        "quick",
        "greedy",
        "random",
    ):
        assert needle in text


def test_rules_in_polish_and_russian() -> None:
    done = cardtable("rules", "koi-koi", "--lang", "ru")
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    for needle in ("Подсчёт очков", "Момент решения", "Опции игры koi-koi", "Наборы правил",
                   "Боты", "сёбу", "Hanami-zake", "weather_ruins_viewing"):  # fmt: skip
        assert needle in text, needle
    for english in (" the ", " and ", " of ", " when ", "Options of", "Presets", "meaning"):
        assert english not in text, english
    polish = cardtable("rules", "ohanami", "--lang", "pl")
    assert polish.returncode == 0 and "nigdy pomiędzy" in polish.stdout
    assert " the " not in polish.stdout
    assert "never between" in cardtable("rules", "ohanami").stdout
    refused = cardtable("rules", "ohanami", "--lang", "de")
    assert refused.returncode == 2 and "--lang must be one of en, pl, ru" in refused.stdout


#: words of an English sentence (the terminal in Polish or Russian must not print them)
ENGLISH_WORDS = re.compile(
    r"\b(the|and|of|when|you|your|plays|flips|takes|table|hand|round|stock|match|pile|"
    r"player|dealer|deals|choice|move|help|result|total|game|over|winner|stopped|pts)\b",
    re.IGNORECASE,
)


def english_words(text: str) -> list[str]:
    """English words outside code spans and commands (`cardtable rules …`, --lang)."""
    text = re.sub(r"`[^`]*`", "", text)
    return ENGLISH_WORDS.findall(text)


def test_koikoi_in_russian_and_polish_in_the_terminal() -> None:
    args = ("play", "koi-koi", "--seats", "human,greedy", "--seed", "3", "--rounds", "1")
    typed = "xyz\n99\nh\n" + "1\n" * 40
    done = cardtable(*args, "--delay", "0", "--lang", "ru", typed=typed)
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    for needle in (
        "Жребий сдающего",
        "Ваш ход: сыграйте карту с руки.",
        "сыграть",
        "Журавль",  # 01-1, a card name
        "Стол",
        "Рука",
        "Колода",
        "Ход 1–",
        "'xyz' — здесь не ход",
        "Хода 99 нет",
        "Итог раунда 1",
        "Игра окончена",
    ):
        assert needle in text, needle
    assert not english_words(done.stdout), english_words(done.stdout)
    polish = cardtable(*args, "--delay", "0", "--lang", "pl", typed="1\n" * 40)
    assert polish.returncode == 0
    assert "Twój ruch: zagraj kartę z ręki." in polish.stdout and "Żuraw" in polish.stdout
    assert not english_words(polish.stdout), english_words(polish.stdout)


def test_the_english_menu_names_each_card_in_english_only() -> None:
    """The koi-koi menu with --lang en names a card once, in English: no Polish name beside
    it ("Curtain Kurtyna" was shown before)."""
    from cardtable.games.hanafuda.deck import CARDS

    args = ("play", "koi-koi", "--seats", "human,greedy", "--seed", "3", "--rounds", "1")
    done = cardtable(*args, "--delay", "0", "--lang", "en", typed="1\n" * 40)
    assert done.returncode == 0, done.stderr
    menus = [line for line in done.stdout.splitlines() if re.match(r"\s*\d+\. ", line)]
    assert menus, done.stdout[-2000:]
    english = {card.name_en for card in CARDS}
    polish = {card.name_pl for card in CARDS} - english
    shown = " ".join(menus)
    assert any(name in shown for name in english)
    assert not [name for name in polish if re.search(rf"\b{re.escape(name)}\b", shown)]


def test_a_refused_move_is_said_in_the_players_language() -> None:
    """A card typed that is not in the hand: the rules' reason, in Russian and Polish."""
    args = ("play", "koi-koi", "--seats", "human,greedy", "--seed", "3", "--rounds", "1")
    russian = cardtable(*args, "--delay", "0", "--lang", "ru", typed="12-1\nq\n")
    assert "✗ 12-1 нет у вас в руке" in russian.stdout, russian.stdout[-2000:]
    assert "is not in your hand" not in russian.stdout
    polish = cardtable(*args, "--delay", "0", "--lang", "pl", typed="12-1\nq\n")
    assert "✗ 12-1 nie ma w twojej ręce" in polish.stdout
    english = cardtable(*args, "--delay", "0", typed="12-1\nq\n")
    assert "✗ 12-1 is not in your hand" in english.stdout


def test_games_lists_bakappana() -> None:
    done = cardtable("games")
    assert done.returncode == 0 and "bakappana" in done.stdout


def test_koikoi_decision_prompt_in_the_terminal() -> None:
    # The first seed (searched in order, so the test is stable) where the person makes a yaku.
    for seed in range(1, 40):
        done = cardtable(
            "play", "koi-koi", "--seats", "human,random", "--seed", str(seed),
            "--rounds", "1", "--delay", "0", typed="1\n" * 40,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        if "Stop and score (shōbu) or go on (koi-koi)?" in done.stdout:
            break
    else:
        raise AssertionError("no koi-koi decision in 40 seeds")
    text = " ".join(done.stdout.split())
    assert "koi-koi: go on" in text and "shōbu: stop now" in text
    assert "Round 1 result" in text


def test_rules_of_every_hanafuda_game() -> None:
    for game, needles in {
        "koi-koi": ("weather_ruins_viewing", "koikoi_multiplier", "nintendo", "Hanami-zake"),
        "hana-awase": ("Omote-sugawara", "forced_hand_match", "traditional"),
        "hana-awase-88": ("teyaku", "fuke_threshold_inclusive", "japanese"),
    }.items():
        done = cardtable("rules", game)
        assert done.returncode == 0, done.stderr
        text = " ".join(done.stdout.split())
        for needle in needles:
            assert needle in text, (game, needle)
        assert "<!--" not in text


def test_play_with_house_rules_and_presets() -> None:
    done = cardtable(
        "play", "koi-koi", "--seats", "greedy,greedy", "--preset", "nintendo",
        "--rule", "double_plain=sake_cup,lightning", "--rounds", "3", "--seed", "2", "--delay", "0",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "Game over" in done.stdout
    bad = cardtable(
        "play", "koi-koi", "--rule", "draw_passes_deal=yes", "--rule", "oya_ken_points=2"
    )
    assert bad.returncode == 2 and "exclude each other" in bad.stdout


def test_ohanami_in_the_terminal() -> None:
    args = ("play", "ohanami", "--seats", "human,greedy", "--seed", "4", "--delay", "0")
    first = cardtable(*args, typed="")
    hand = re.search(r"Hand\s+((?:\s*\d+\S)+)", first.stdout)
    assert hand, first.stdout
    cards = re.findall(r"\d+", hand.group(1))[:2]
    done = cardtable(*args, typed=f"1\n{cards[0]} {cards[1]}\n1\n")
    text = " ".join(done.stdout.split())
    assert "Type the two cards to keep" in text
    assert "is not a move here" in text  # "1" is no pair of cards
    assert "Place your kept cards" in text and "→ new row" in text
    assert done.returncode == 0 and "Game stopped." in text
    rules = cardtable("rules", "ohanami")
    assert (
        rules.returncode == 0
        and "pink_tiebreak" in rules.stdout
        and "never between" in rules.stdout
    )


def test_ohanami_in_russian_in_the_terminal() -> None:
    args = ("play", "ohanami", "--seats", "human,greedy", "--seed", "4", "--delay", "0")
    first = cardtable(*args, "--lang", "ru", typed="")
    hand = re.search(r"Рука\s+((?:\s*\d+\S)+)", first.stdout)
    assert hand, first.stdout
    cards = re.findall(r"\d+", hand.group(1))[:2]
    done = cardtable(*args, "--lang", "ru", typed=f"{cards[0]} {cards[1]}\n1\n")
    text = " ".join(done.stdout.split())
    for needle in ("Этап 1", "Оставьте две карты", "Выложите оставленные карты", "новый ряд"):
        assert needle in text, needle
    assert done.returncode == 0 and "Игра остановлена." in text
    assert not english_words(done.stdout), english_words(done.stdout)


def test_solve_prints_the_best_words_and_refuses_bad_areas() -> None:
    done = cardtable("solve", "TH|RS|LN|DM", "--deck", "en", "--top", "3")
    assert done.returncode == 0, done.stderr
    assert "MOTHERLANDS" in done.stdout and "28" in done.stdout
    bad = cardtable("solve", "DS|PH+3|LN|KR")
    assert bad.returncode == 2 and "the pl deck has no H+3 card" in bad.stdout
    missing = cardtable("solve", "DS|PH|LN|KR", "--dictionary", "/no/such/list")
    assert missing.returncode == 2 and "no word list at /no/such/list" in missing.stdout


def test_siedem_slow_solo_in_the_terminal(tmp_path: Path) -> None:
    save = tmp_path / "solo.json"
    words = "cat\nxyzzyq\ndog\ntree\nhouse\nriver\nbook\nwater\n"
    args = ("play", "siedem-slow", "--preset", "solo", "-r", "difficulty=hard", "-r", "deck=en")
    done = cardtable(*args, "--seed", "2", "--save", str(save), typed=words)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "SOLO card: hourglass on field 1" in out
    assert "✓ CAT:" in out and "XYZZYQ: not in the dictionary" in out
    assert "Round 7" in out and "SOLO target of 120" in out
    record = json.loads(save.read_text())
    assert record["options"]["players"] == 1 and len(record["log"]) == 14
    replayed = cardtable("replay", str(save))
    assert replayed.returncode == 0 and "WATER" in replayed.stdout


def test_siedem_slow_solo_in_russian_in_the_terminal(tmp_path: Path) -> None:
    save = tmp_path / "solo.json"
    words = "cat\nxyzzyq\ndog\ntree\nhouse\nriver\nbook\nwater\n"
    args = ("play", "siedem-slow", "--preset", "solo", "-r", "difficulty=hard", "-r", "deck=en")
    done = cardtable(*args, "--seed", "2", "--save", str(save), "--lang", "ru", typed=words)
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    for needle in (
        "Карта SOLO: часы на поле 1",
        "Песок сыплется: 30 с. Ваше слово:",
        "✓ CAT: 4 очк.",
        "XYZZYQ: нет в словаре",
        "Раунд 7",
        "цели SOLO (120)",
    ):
        assert needle in text, needle
    # the player's words are English here (deck=en): look at everything else
    said = re.sub(r"\b(CAT|XYZZYQ|DOG|TREE|HOUSE|RIVER|BOOK|WATER)\b", "", done.stdout)
    said = said.replace(str(save), "")  # the path of the saved game
    assert not english_words(said), english_words(said)
    replayed = cardtable("replay", str(save), "--lang", "pl")
    assert replayed.returncode == 0 and "Koniec gry" in replayed.stdout


def test_siedem_slow_against_a_bot_in_real_time() -> None:
    args = (
        "play", "siedem-slow", "--seats", "human,bot:hard", "--think", "0.05", "--seed", "5",
        "--rule", "deck=en", "--rule", "rounds=2", "--rule", "grace_seconds=0",
    )  # fmt: skip
    done = cardtable(*args, typed="cat\n?\ndog\n")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "flipped the hourglass" in out
    assert "Hint — the best words here:" in out
    assert "Round 2" in out and "Game over" in out
    two_humans = cardtable("play", "siedem-slow", "--seats", "human,human", typed="")
    assert two_humans.returncode == 2 and "exactly one human" in two_humans.stdout


def test_the_language_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.cli.common import default_language

    for var in ("CARDTABLE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    assert default_language() == "en"
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    assert default_language() == "ru"
    monkeypatch.setenv("LC_ALL", "pl_PL.UTF-8")
    assert default_language() == "pl"
    monkeypatch.setenv("CARDTABLE_LANG", "de")
    assert default_language() == "en"
