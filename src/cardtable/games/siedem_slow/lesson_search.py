"""Find the deal of 7 słów's guided first game; the result is data,
``lessons/siedem-slow.json``. Run again after a rules, dictionary or deck change (and
write the words it names into the coach's lines, ``lesson.siedem.*``):

    python -m cardtable.games.siedem_slow.lesson_search

Round 1 needs a short common word of plain letters (the first word); round 2 a common
word that scores a rare card's bonus (columns and bonuses), and a string the dictionary
refuses, made of the area's letters, for the opponent (the challenge).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import cardtable
from cardtable.games.siedem_slow.game import Accept, Flip, Lock, SiedemSlowState, Submit
from cardtable.games.siedem_slow.solver import Solution, solve

HERE = Path(__file__).resolve().parent / "lessons"
#: the lesson's table: two players, two rounds, words checked when challenged, no clock
#: until the learner flips (and the hourglass at its longest then)
OPTIONS: dict[str, Any] = {
    "players": 2,
    "rounds": 2,
    "validation": "challenge",
    "flip_cap_seconds": 0,
    "hourglass_seconds": 300,
}
COMMON = 4.5  # wordfreq Zipf: words a newcomer knows


def _plain(word: str) -> bool:
    return word.isascii() and word.isalpha()


def _common(state: SiedemSlowState) -> list[Solution]:
    pool = state.dictionary.common_mask(COMMON)
    return [s for s in solve(state.area, state.dictionary, top=400, pool=pool) if _plain(s.word)]


def _round_one(state: SiedemSlowState) -> tuple[str, str] | None:
    """The learner's first word (3 letters, two of the area's) and the opponent's, which
    scores less."""
    words = _common(state)
    short = [s for s in words if len(s.word) == 3 and len(state.word_score(0, s.word).cards) == 2]
    if not short:
        return None
    # the opponent's word scores less: the learner, who flips, marks the bonus box
    others = [s for s in words if 4 <= len(s.word) <= 5 and 0 < s.points < short[0].points]
    if not others:
        return None
    return short[0].word, others[0].word


def _round_two(state: SiedemSlowState) -> tuple[str, str] | None:
    """The learner's bonus word and the opponent's wrong one."""
    for found in _common(state):
        score = state.word_score(0, found.word)
        rare = [c for c in score.cards if c.card.bonus > 0]
        if 4 <= len(found.word) <= 5 and len(rare) == 1 and found.points >= 10:
            wrong = found.word[::-1]
            if state.dictionary.problem(wrong) is not None and wrong != found.word:
                return found.word, wrong
    return None


def search(limit: int = 500) -> dict[str, Any]:
    game = cardtable.load("siedem-slow", **OPTIONS)
    for seed in range(limit):
        state = game.new_state(seed=seed)
        assert isinstance(state, SiedemSlowState)
        first = _round_one(state)
        if first is None:
            continue
        area_one = str(state.area)
        mine, theirs = first
        for seat, action in ((0, Submit(mine)), (0, Flip()), (1, Submit(theirs)), (1, Lock())):
            state.apply(seat, action)
        state.apply(0, Accept())
        state.apply(1, Accept())
        second = _round_two(state)
        if second is None:
            continue
        bonus, wrong = second
        script = [
            {"seat": 0, "action": Submit(mine).to_json(), "say": "word", "idea": "word"},
            {"seat": 0, "action": Flip().to_json(), "say": "flip"},
            {"seat": 1, "action": Submit(theirs).to_json()},
            {"seat": 1, "action": Lock().to_json()},
            {"seat": 0, "action": Accept().to_json(), "say": "accept"},
            {"seat": 1, "action": Accept().to_json()},
            {"seat": 0, "action": Submit(bonus).to_json(), "say": "columns", "idea": "columns"},
            {"seat": 0, "action": Flip().to_json(), "say": "hourglass", "idea": "hourglass"},
            {"seat": 1, "action": Submit(wrong).to_json()},
            {"seat": 1, "action": Lock().to_json()},
            {"seat": 0, "action": {"type": "challenge", "seat": 1}, "say": "challenge",
             "idea": "challenge"},
            {"seat": 0, "action": Accept().to_json(), "say": "struck"},
            {"seat": 1, "action": Accept().to_json()},
        ]  # fmt: skip
        return {
            "seed": seed,
            "options": OPTIONS,
            "areas": [area_one, str(state.area)],
            "script": script,
        }
    raise SystemExit(f"no seed below {limit} fits the lesson")


if __name__ == "__main__":
    HERE.mkdir(exist_ok=True)
    found = search()
    (HERE / "siedem-slow.json").write_text(json.dumps(found, indent=1, ensure_ascii=False) + "\n")
    print(found["seed"], found["areas"], [s["action"] for s in found["script"]])
