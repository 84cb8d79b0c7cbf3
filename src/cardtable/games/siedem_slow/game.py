"""7 słów, the real-time word game, for 1 to 6 players (games/siedem_slow/pages/siedem-slow.md).

Everyone looks at the same 8 letter cards and writes one word at the same time. Time is an
input, not a hidden clock: front ends send the clock's events as actions, so the terminal,
the server and the tests drive a round alike:

* :class:`Submit` sets (or replaces) a seat's word; in the default ``validation="auto"``
  the dictionary and the word-family rule check it at once and say why they refuse it;
* :class:`Flip` locks the word and turns the hourglass: that seat is the round's fastest
  (not allowed to the holder of the don't-flip card). The rulebook says a player who has
  finished their word *must* flip while nobody has: so a seat that may flip finishes its
  word only by flipping;
* :class:`Lock` locks a word without flipping: for the don't-flip holder, a seat with no
  word, the solo game, the no-hourglass variant, and everyone once the sand runs;
* :class:`TimeUp`, sent by the clock as seat :data:`CLOCK`, ends the running timer: the
  hourglass (every word is locked as it stands), the optional soft cap when nobody flips
  (a countdown starts with no fastest player), or the solo hourglass (no bonus this round);
* :class:`Challenge`, :class:`Accept` and :class:`Vote` settle disputed words after the
  writing: the dictionary decides, and a shared-root warning goes to a vote.

Solo mode (``players=1``) is the same engine with the SOLO card's fields (§9).

>>> import cardtable
>>> from cardtable.games.siedem_slow import Submit, Flip, TimeUp, CLOCK
>>> game = cardtable.load("siedem-slow", players=2, deck="en")
>>> state = game.new_state(deals=[{"deck": "K T N S R L D C".split()}])
>>> str(state.area)
'DC|RL|NS|K+1T'
>>> state.apply(0, Submit("cardinals")); state.apply(0, Flip())
>>> state.apply(1, Submit("kit")); state.apply(CLOCK, TimeUp())
>>> state.results[0].scores  # 24 for the word, +2: the fastest player's box
(26, 5)
"""

from cardtable.core.game import Capability, GameInfo, GameSpec, register
from cardtable.games.siedem_slow.actions import (
    CLOCK,
    Accept,
    Challenge,
    Flip,
    Lock,
    Submit,
    TimeUp,
    Vote,
    WordAction,
    parse_action,
)
from cardtable.games.siedem_slow.challenges import FamilyVote
from cardtable.games.siedem_slow.options import SiedemSlowOptions
from cardtable.games.siedem_slow.state import Mark, PlayedWord, SiedemSlowState
from cardtable.games.siedem_slow.tables import Box, Phase

__all__ = [
    "CLOCK",
    "SPEC",
    "Accept",
    "Box",
    "Challenge",
    "FamilyVote",
    "Flip",
    "Lock",
    "Mark",
    "Phase",
    "PlayedWord",
    "SiedemSlowOptions",
    "SiedemSlowState",
    "Submit",
    "TimeUp",
    "Vote",
    "WordAction",
    "parse_action",
]

SPEC = register(
    GameSpec(
        id="siedem-slow",
        title="7 słów",
        summary="Real-time word game for 1-6: one word a round from 8 letter cards.",
        options_model=SiedemSlowOptions,
        start=SiedemSlowState,
        parse_action=parse_action,
        presets={
            "default": {},
            "solo": {"players": 1},
            "english": {"deck": "en"},
            "no-hourglass": {"variant": "no-hourglass"},
            "table": {"validation": "challenge"},
        },
        info=GameInfo(players=(1, 6), simultaneous=True, clock=True, free_text=True),
        family="siedem-slow",
        capabilities={
            Capability.BOTS: "cardtable.games.siedem_slow.bots:BOTS",
            Capability.LESSON: "cardtable.games.siedem_slow.lessons:SIEDEM_SLOW",
            Capability.ENCODER: "cardtable.games.siedem_slow.encoding:SiedemSlowEncoder",
            Capability.TERMINAL: "cardtable.games.siedem_slow.terminal:FRONT_END",
            Capability.COMMANDS: "cardtable.games.siedem_slow.commands:COMMANDS",
            Capability.COMPANION: "cardtable.games.siedem_slow.companion",
            Capability.DOCS: "cardtable.games.siedem_slow.docs",
            Capability.FRAME: "cardtable.games.siedem_slow.frames:frame_extras",
            Capability.REVIEW: "cardtable.games.siedem_slow.frames:review_words",
            Capability.PRACTICE_HINT: "cardtable.games.siedem_slow.frames:practice_hint",
            Capability.WEB: "cardtable.games.siedem_slow.web:CLIENT",
            Capability.PREPARE: "cardtable.games.siedem_slow.dictionary:prepare",
        },
        rule_sections={
            "word": "Scoring a word",
            "bonus": "Bonuses",
            "challenge": "Words that are not allowed",
            "struck-out": "End of the round and of the game",
            "solo": "Solo",
        },
    )
)
