"""7 słów (the Polish edition of Wordsy): letter deck, play area, scoring, dictionary, word
families, solver and the game (games/siedem_slow/pages/siedem-slow.md).

>>> from cardtable.games.siedem_slow import Area, score_word
>>> score_word("LUMPENPROLETARIAT", Area.parse("L+1P|TN|ML+1|DB")).points
26
"""

from cardtable.games.siedem_slow import game
from cardtable.games.siedem_slow.area import Area, LetterCard
from cardtable.games.siedem_slow.dictionary import Dictionary, load_dictionary
from cardtable.games.siedem_slow.game import (
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
from cardtable.games.siedem_slow.scoring import WordScore, score_word
from cardtable.games.siedem_slow.solver import Solution, solve

__all__ = [
    "CLOCK",
    "Accept",
    "Area",
    "Challenge",
    "Dictionary",
    "Flip",
    "LetterCard",
    "Lock",
    "SiedemSlowState",
    "Solution",
    "Submit",
    "TimeUp",
    "Vote",
    "WordScore",
    "game",
    "load_dictionary",
    "score_word",
    "solve",
]
