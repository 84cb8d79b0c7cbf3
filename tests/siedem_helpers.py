"""Helpers for the 7 słów tests: rigged decks, small word lists, scripted rounds."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import cardtable
from cardtable.games.siedem_slow import (
    CLOCK,
    Accept,
    Challenge,
    Flip,
    Lock,
    SiedemSlowState,
    Submit,
    TimeUp,
    Vote,
)
from cardtable.games.siedem_slow.scoring import WordScore

POLISH_WORDS = [
    "kot",
    "kota",
    "koty",
    "kotem",
    "dom",
    "domy",
    "domowy",
    "domownik",
    "przydomowy",
    "śmiech",
    "śmiechy",
    "śmieszny",
    "śmiesznie",
    "śmiać",
    "śmialiśmy",
    "wzdycha",
    "wzdychał",
    "las",
    "lasy",
    "drzewo",
    "drzewa",
    "woda",
    "wody",
    "wodny",
    "wyselekcjonowany",
    "lumpenproletariat",
    "snopowiązałka",
    "europarlamentarzysta",
    "kajak",
    "antropomorfizacja",
    "dziesięciogroszówka",
    "blachodachówka",
    "podpajęczynówkowy",
    "słowotwórczy",
    "zamek",
    "zamki",
    "pies",
    "psa",
    "psy",
    "mleko",
    "mleka",
    "chleb",
    "chleby",
    "okno",
    "okna",
    "ptak",
    "ptaki",
    "rzeka",
    "rzeki",
    "Kraków",
    "Warszawa",
    "Aachen",
    "np",
    "itd",
    "PKP",
    "e-mail",
]


def word_list(tmp_path: Path, words: Sequence[str] = POLISH_WORDS, name: str = "words") -> str:
    """A one-word-a-line file for the ``dictionary`` option."""
    path = tmp_path / f"{name}.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    return str(path)


def new_game(rigged: Sequence[str] | None = None, seed: int = 1, **options: Any) -> SiedemSlowState:
    """A game; ``rigged`` is the deck's cards, top first (the game's only deal)."""
    game = cardtable.load("siedem-slow", **options)
    deals = None if rigged is None else [{"deck": list(rigged)}]
    state = game.new_state(seed=seed, deals=deals)
    assert isinstance(state, SiedemSlowState)
    return state


def play_round(
    state: SiedemSlowState,
    words: Mapping[int, str],
    fastest: int | None = None,
    time_up: bool = True,
    challenges: Sequence[tuple[int, int]] = (),
    votes: bool = True,
) -> None:
    """Everyone writes; ``fastest`` flips first (None: nobody flips, and the soft cap runs
    out); the rest lock or the clock runs out; then the ``(challenger, target)``
    challenges, votes of ``votes``, and everyone accepts."""
    number = state.round
    for seat, word in words.items():
        state.apply(seat, Submit(word))
    if fastest is not None:
        state.apply(fastest, Flip())
    elif state.phase == "writing" and state.timer is not None and state.timer[0] == "cap":
        state.apply(CLOCK, TimeUp())  # a finished word must flip: only the cap avoids it
    if time_up and state.round == number and state.phase == "hourglass":
        state.apply(CLOCK, TimeUp())
    for seat in sorted(state.to_move):
        if state.round == number and state.phase in ("writing", "hourglass"):
            state.apply(seat, Lock())
    for challenger, target in challenges:
        state.apply(challenger, Challenge(target))
        while state.phase == "vote":
            for seat in sorted(state.to_move):
                state.apply(seat, Vote(votes))
    while state.round == number and state.phase == "review" and not state.is_over:
        state.apply(min(state.to_move), Accept())


@pytest.fixture
def fixed_points(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Words score what this mapping says (the sheet examples lost their areas)."""
    table: dict[str, int] = {}
    original = SiedemSlowState.word_score

    def scored(self: SiedemSlowState, seat: int, word: str) -> WordScore:
        if word in table:
            return WordScore(table[word])
        return original(self, seat, word)

    monkeypatch.setattr(SiedemSlowState, "word_score", scored)
    return table
