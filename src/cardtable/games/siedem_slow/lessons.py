"""7 słów's guided first game (``Capability.LESSON``): a seed found by ``lesson_search``
(data in ``lessons/siedem-slow.json``) in which a word from the area, columns and
bonuses, the hourglass and a challenge come up in order; the coach's lines are
``lesson.siedem.*`` and name the words the seed's areas allow.

The lesson's table has no clock until the learner flips the hourglass (no flip cap, the
hourglass at its longest), its opponent writes only once the learner has flipped
(``bots_wait``), and words are checked when challenged, so the opponent's wrong word can
be challenged; the learner's own wrong word is still explained with the dictionary's
reason (``check``).

>>> from cardtable.core.game import Capability, spec_of
>>> lesson = spec_of("siedem-slow").capability(Capability.LESSON)
>>> [step.idea for step in lesson.steps_of(0) if step.idea]
['word', 'columns', 'hourglass', 'challenge']
"""

from __future__ import annotations

from cardtable.core.actions import Action
from cardtable.core.lesson import Condition, Lesson, found, read_lazily, scripted
from cardtable.core.state import State
from cardtable.games.siedem_slow.game import Challenge, Flip, SiedemSlowState, Submit
from cardtable.games.siedem_slow.scoring import normalize
from cardtable.locales import Reason


def _scores(state: State, seat: int, action: Action) -> list[int]:
    """The bonuses of the area cards a written word scores."""
    if not isinstance(state, SiedemSlowState) or not isinstance(action, Submit):
        return []
    return [c.card.bonus for c in state.word_score(seat, action.word).cards]


def _refused(state: State, target: int) -> bool:
    if not isinstance(state, SiedemSlowState):
        return False
    word = state.entries[target] or ""
    return bool(word) and state.dictionary.problem(word) is not None


#: 7 słów's ideas, in the order the lesson brings them up
IDEAS: dict[str, Condition] = {
    # a word from the area's letters: it scores some, and only plain cards
    "word": lambda s, n, a: bool(_scores(s, n, a)) and not any(_scores(s, n, a)),
    # columns and bonuses: the word scores a rare card's bonus
    "columns": lambda s, n, a: any(_scores(s, n, a)),
    # the hourglass: the first to finish flips it
    "hourglass": lambda s, n, a: isinstance(a, Flip) and len(getattr(s, "played", ())) > 0,
    # a challenge of a word the dictionary refuses
    "challenge": lambda s, n, a: isinstance(a, Challenge) and _refused(s, a.seat),
}


def _check(state: State, seat: int, action: Action) -> Reason | None:
    """The learner's word the dictionary refuses is explained at once."""
    if isinstance(state, SiedemSlowState) and isinstance(action, Submit):
        return state.dictionary_reason(seat, action.word)
    return None


def _same(wanted: Action, action: Action) -> bool:
    """The word asked for, written in any case (the engine writes it in lower case)."""
    if isinstance(wanted, Submit) and isinstance(action, Submit):
        return normalize(wanted.word) == normalize(action.word)
    return bool(wanted.to_json() == action.to_json())


def _lesson() -> Lesson:
    data = found(__package__, "siedem-slow")
    script = scripted(data["script"], lambda s: f"lesson.siedem.{s['say']}" if "say" in s else "")
    return Lesson(
        game="siedem-slow",
        options=data["options"],
        seed=data["seed"],
        script=script,
        ideas=IDEAS,
        check=_check,
        bots_wait=True,
        same=_same,
    )


__getattr__ = read_lazily(SIEDEM_SLOW=_lesson)
