"""The 7 słów score pad against the engine: whole games dealt by the engine, their areas
and words entered into the pad, give the same rounds, bonus boxes, totals and winners."""

from __future__ import annotations

import random
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
    solve,
)
from cardtable.games.siedem_slow.companion import PadProblem, WordRound, play_pad, play_round
from cardtable.games.siedem_slow.game import Phase
from tests.siedem_helpers import word_list


def engine_game(
    players: int, options: dict[str, Any], seed: int
) -> tuple[SiedemSlowState, list[WordRound]]:
    """A real game (the engine deals), played by seats writing solver words; and the same
    game as a table would enter it into the pad."""
    rng = random.Random(seed)
    state = cardtable.load("siedem-slow", players=players, **options).new_state(seed=seed)
    assert isinstance(state, SiedemSlowState)
    entries = []
    while not state.is_over:
        number, area = state.round, str(state.area)
        best = solve(
            state.area,
            state.dictionary,
            top=12,
            allowed=lambda w: all(state.word_problem(s, w) is None for s in range(players)),
        )
        words = []
        for _ in range(players):
            pick = rng.choice([*range(min(len(best), 6)), None])
            words.append("" if pick is None or pick >= len(best) else best[pick].word)
        words = [w if w not in words[:k] else "" for k, w in enumerate(words)]  # no two alike
        for seat, word in enumerate(words):
            if word and state.illegal_reason(seat, Submit(word)) is None:
                state.apply(seat, Submit(word))
            else:
                words[seat] = ""
        writers = [s for s in range(players) if words[s] and state.may_flip(s)]
        fastest = rng.choice(writers) if writers else None
        if fastest is not None:
            state.apply(fastest, Flip())
        for seat in range(players):
            writing = state.phase in (Phase.WRITING, Phase.HOURGLASS)
            if state.round == number and writing and seat in state.to_move:
                state.apply(seat, Lock())
        challenges = []
        if state.phase == Phase.REVIEW and rng.random() < 0.5:
            target = rng.choice([s for s in range(players) if words[s]] or [0])
            challenger = (target + 1) % players
            if state.illegal_reason(challenger, Challenge(target)) is None:
                state.apply(challenger, Challenge(target))
                challenges.append((challenger, target))
        while state.round == number and state.phase in (Phase.REVIEW, Phase.VOTE):
            seat = min(state.to_move)
            state.apply(
                seat,
                Accept()
                if state.phase == Phase.REVIEW
                else cardtable.games.siedem_slow.Vote(False),
            )
        entries.append(WordRound(area, tuple(words), fastest, tuple(challenges)))
    return state, entries


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (3, {"deck": "en"}),
        (2, {"deck": "en", "validation": "challenge"}),
        (5, {"deck": "en"}),
        (6, {"deck": "en", "fastest_needs": 1}),
    ],
)
def test_pad_agrees_with_engine_games(players: int, options: dict[str, Any]) -> None:
    for seed in range(4):
        engine, entries = engine_game(players, options, seed)
        pad = play_pad(players, options, entries)
        assert pad.is_over
        assert pad.results == engine.results
        assert pad.marks == engine.marks
        assert pad.result().scores == engine.result().scores
        assert pad.result().winners == engine.result().winners


def test_refused_words_and_flips_say_why() -> None:
    good = WordRound("MD|SS|J+2L|J+1Y", ("misjudges", ""), fastest=0)
    with pytest.raises(PadProblem, match=r"round 1, player 2: QQQ") as problem:
        play_pad(2, {"deck": "en"}, [WordRound("MD|SS|J+2L|J+1Y", ("misjudges", "qqq"))])
    assert problem.value.seat == 1 and problem.value.round == 1
    with pytest.raises(PadProblem, match="cannot flip"):
        play_pad(2, {"deck": "en"}, [WordRound("MD|SS|J+2L|J+1Y", ("misjudges", ""), fastest=1)])
    with pytest.raises(PadProblem, match="columns"):
        play_pad(2, {"deck": "en"}, [WordRound("MDSS", ("", ""))])
    with pytest.raises(PadProblem, match="game is over"):
        play_pad(2, {"deck": "en", "rounds": 1}, [good, good])


def test_companion_commands_in_the_terminal() -> None:
    from .test_cli import cardtable as run_cli

    done = run_cli(
        "companion", "siedem-slow", "--deck", "en", "--round", "MD|SS|J+2L|J+1Y;misjudges,qqq;1"
    )
    assert done.returncode == 2 and "QQQ: not in the dictionary" in done.stdout
    done = run_cli(
        "companion", "siedem-slow", "--deck", "en", "--round", "MD|SS|J+2L|J+1Y;misjudges,;1"
    )
    assert done.returncode == 0 and "Totals: Player 1 25, Player 2 0" in done.stdout
    area = "MD|SS|J+2L|J+1Y"
    done = run_cli(
        "companion", "siedem-slow", "--players", "1", "--deck", "en",
        "--round", f"{area};misjudges", "--round", f"{area};judges;late",
    )  # fmt: skip
    assert "Totals: Player 1 39" in done.stdout and "SOLO field 2" in done.stdout
    done = run_cli(
        "companion", "siedem-slow", "--deck", "en", "--validation", "challenge",
        "--round", f"{area};misjudges,judges;1;2>1",
    )  # fmt: skip
    assert "Failed challenge of MISJUDGES" in done.stdout
    done = run_cli(
        "companion", "ohanami", "--stage", "3", "--garden", "blue=3,pink=5", "--garden", "7 14 21"
    )
    assert "Pink (sakura): 5 cards" in done.stdout and "Grey (stones): 3 × 7" in done.stdout
    done = run_cli(
        "companion", "hanafuda", "koi-koi", "--pile", "08-1 08-2 09-1", "--pile", "", "--shobu", "1"
    )
    assert "Player 2 pays Player 1: 5" in done.stdout


def engine_solo_game(options: dict[str, Any], seed: int) -> tuple[SiedemSlowState, list[WordRound]]:
    """A solo game dealt by the engine: solver words, sometimes locked after the sand ran
    out; and the same game as the pad would be told it."""
    rng = random.Random(seed)
    state = cardtable.load("siedem-slow", players=1, **options).new_state(seed=seed)
    assert isinstance(state, SiedemSlowState)
    entries = []
    while not state.is_over:
        area = str(state.area)
        best = solve(
            state.area, state.dictionary, top=8, allowed=lambda w: state.word_problem(0, w) is None
        )
        word = best[rng.randrange(len(best))].word if best and rng.random() < 0.9 else ""
        if word:
            state.apply(0, Submit(word))
        late = rng.random() < 0.4
        if late:
            state.apply(CLOCK, TimeUp())
        state.apply(0, Lock())
        entries.append(WordRound(area, (word,), late=late))
    return state, entries


@pytest.mark.parametrize("difficulty", ["normal", "brutal"])
def test_solo_pad_moves_the_hourglass_like_the_engine(difficulty: str) -> None:
    options = {"deck": "en", "difficulty": difficulty}
    fields = set()
    for seed in range(6):
        engine, entries = engine_solo_game(options, seed)
        pad = play_pad(1, options, [])
        for entry in entries:
            play_round(pad, entry)
            fields.add(pad.field_name)
        assert pad.results == engine.results
        assert pad.penalties == engine.penalties and pad.field == engine.field
        assert pad.result().scores == engine.result().scores
    assert len(fields) >= 2  # the games did move the hourglass


def test_solo_rounds_say_late_and_nobody_else_flips() -> None:
    with pytest.raises(PadProblem, match="nobody else flips"):
        play_pad(1, {"deck": "en"}, [WordRound("MD|SS|J+2L|J+1Y", ("misjudges",), fastest=0)])
    with pytest.raises(PadProblem, match="only the solo game"):
        play_pad(2, {"deck": "en"}, [WordRound("MD|SS|J+2L|J+1Y", ("misjudges", ""), late=True)])


@pytest.mark.parametrize("uphold", [True, False])
def test_a_family_challenge_is_voted_on_in_the_pad(tmp_path: Path, uphold: bool) -> None:
    options = {"deck": "pl", "dictionary": word_list(tmp_path)}
    first = WordRound("KT|LS|ZW|DR", ("śmiech", "dom", "kot"), fastest=0)
    second = WordRound(
        "KT|LS|ZW|DR",
        ("las", "przydomowy", "śmieszny"),
        fastest=1,
        challenges=((0, 1),),
        upholds=(False, False, uphold),
    )
    pad = play_pad(3, options, [first])
    assert pad.family_warning(1, "przydomowy") is not None  # what the pad page shows
    play_round(pad, second)
    words = {w.seat: w for w in pad.played[1]}
    assert words[1].struck is uphold
    lines = {line.rule for line in pad.results[1].lines if line.seat in (0, 1)}
    assert ("challenge:upheld" in lines) is uphold and ("challenge:failed" in lines) is not uphold
