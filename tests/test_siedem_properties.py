"""Property tests for 7 słów: the solver is exact, scores stay in bounds, random games keep
every card in one place, scores add up, and nobody sees a word being written."""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.core.errors import IllegalAction, OptionError
from cardtable.games.siedem_slow import (
    CLOCK,
    Area,
    Dictionary,
    LetterCard,
    SiedemSlowState,
    Submit,
    TimeUp,
    score_word,
    solve,
)
from cardtable.games.siedem_slow.area import deck_cards
from cardtable.games.siedem_slow.tables import DECKS, MAX_RARE_IN_AREA, MAX_SAME_LETTER_IN_AREA
from tests.counts import count
from tests.siedem_helpers import POLISH_WORDS, new_game

GAMES = count(2000)


@cache
def english_words() -> list[str]:
    lines = Path("/usr/share/dict/american-english").read_text().split()
    return [w for w in lines if w.isascii() and w.isalpha() and w.islower()]


def two_on_two(cards: list[LetterCard | None]) -> bool:
    letters = Counter(c.letter for c in cards if c is not None)
    return not letters or max(letters.values()) <= MAX_SAME_LETTER_IN_AREA


# areas as the game makes them: at most 2 cards of a letter (the solver refuses more)
areas = (
    st.lists(st.one_of(st.none(), st.sampled_from(deck_cards(DECKS["en"]))), min_size=8, max_size=8)
    .filter(two_on_two)
    .map(Area)
)
word_lists = st.lists(
    st.text(alphabet="abcdefghklmnoprstwyz", min_size=1, max_size=12), min_size=1, max_size=60
)
modes = st.sampled_from(
    [
        {},
        {"better": "column"},
        {"veteran_letters": 4},
        {"veteran_letters": 2, "veteran_counts": "letters"},
        {"veteran_letters": 3, "veteran_counts": "uses"},
    ]
)


@settings(max_examples=count(400))
@given(areas, word_lists, modes)
def test_solver_ranking_equals_a_brute_force_scan(
    area: Area, words: list[str], mode: dict[str, object]
) -> None:
    dictionary = Dictionary.from_words(words, language="en")
    found = solve(area, dictionary, top=len(words), **mode)  # type: ignore[arg-type]
    scored = {w: score_word(w, area, **mode).points for w in dictionary.words}  # type: ignore[arg-type]
    expected = sorted((w for w in scored if scored[w] > 0), key=lambda w: (-scored[w], len(w), w))
    assert [s.word for s in found] == expected
    assert all(s.points == scored[s.word] for s in found)


def test_the_solver_refuses_an_area_the_rules_cannot_make() -> None:
    with pytest.raises(OptionError, match="2-on-2"):
        solve(Area.parse("SS|S_|__|__", "en"), Dictionary.from_words(["sass"], "en"))


@settings(max_examples=count(1000))
@given(areas, st.text(alphabet="abcdefghijklmnopqrstuvwxyz", max_size=40), modes)
def test_a_word_never_scores_more_than_the_area(
    area: Area, word: str, mode: dict[str, object]
) -> None:
    points = score_word(word, area, **mode).points  # type: ignore[arg-type]
    assert 0 <= points <= area.total
    if "veteran_letters" in mode:
        assert points <= score_word(word, area).points


# -- random games ------------------------------------------------------------------------------
def check_invariants(state: SiedemSlowState, views: bool) -> None:
    in_area = [card for _, card in state.area.cards()]
    everything = Counter(in_area + state.pile.deck + state.pile.discard)
    assert everything == Counter(deck_cards(DECKS[state.options.deck]))
    assert sum(card.rare for card in in_area) <= MAX_RARE_IN_AREA
    letters = Counter(card.letter for card in in_area)
    assert not letters or max(letters.values()) <= MAX_SAME_LETTER_IN_AREA
    assert [sum(r.scores[s] for r in state.results) for s in range(state.n)] == state.totals
    if not views or state.phase not in ("writing", "hourglass", "overtime"):
        return
    history = {w.word for words in state.played for w in words}
    for seat in range(state.n):
        shown = set(strings_in(state.view(seat)))
        for other in range(state.n):
            word = state.entries[other]
            if other != seat and word and word != state.entries[seat] and word not in history:
                assert word not in shown  # a word being written is nobody else's to see


def strings_in(data: object) -> list[str]:
    """Every string value (not key) in a JSON-like structure."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for value in data.values() for s in strings_in(value)]
    if isinstance(data, list | tuple):
        return [s for item in data for s in strings_in(item)]
    return []


def random_game(seed: int, language: str, players: int, **options: object) -> SiedemSlowState:
    rng = random.Random(seed)
    pool = POLISH_WORDS if language == "pl" else english_words()[:3000]
    state = new_game(seed=seed, players=players, deck=language, **options)
    for _ in range(2000):
        if state.is_over:
            break
        seats = sorted(state.to_move)
        if state.timer is not None and (not seats or rng.random() < 0.05):
            state.apply(CLOCK, TimeUp())
        elif seats:
            seat = rng.choice(seats)
            if state.phase in ("writing", "hourglass", "overtime") and rng.random() < 0.6:
                word = rng.choice(pool)
                before = state.view(seat)
                try:
                    state.apply(seat, Submit(word))
                except IllegalAction:
                    assert state.view(seat) == before  # a refused word changes nothing
            else:
                actions = state.legal_actions(seat)
                state.apply(seat, rng.choice(actions))
        check_invariants(state, views=seed % 5 == 0)  # views are dear: one game in 5
    assert state.is_over
    return state


CASES = [
    ("en", 1, {}),
    ("en", 2, {}),
    ("en", 3, {"validation": "challenge"}),
    ("en", 6, {"veterans": (0, 3)}),
    ("en", 4, {"variant": "no-hourglass"}),
    ("pl", 3, {"dictionary": "<fixture>"}),
]


@pytest.mark.slow
@pytest.mark.parametrize(("language", "players", "options"), CASES)
def test_random_games_keep_every_invariant(
    tmp_path_factory: pytest.TempPathFactory,
    language: str,
    players: int,
    options: dict[str, object],
) -> None:
    if options.get("dictionary") == "<fixture>":
        path = tmp_path_factory.mktemp("words") / "words.txt"
        path.write_text("\n".join(POLISH_WORDS), encoding="utf-8")
        options = {**options, "dictionary": str(path)}
    games = max(GAMES // len(CASES), 20)
    for seed in range(games):
        state = random_game(seed, language, players, **options)
        result = state.result()
        assert sum(sum(r.scores) for r in result.rounds) == sum(result.scores)
        assert len(state.played) == state.options.rounds


def test_letter_cards_round_trip_through_their_names() -> None:
    for deck in DECKS.values():
        for card in deck_cards(deck):
            assert LetterCard.parse(str(card), deck) == card
