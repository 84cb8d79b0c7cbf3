"""cardtable: play, learn and study hanafuda fishing games, 7 słów and Ohanami.

>>> import cardtable
>>> "bakappana" in cardtable.game_ids()
True
>>> state = cardtable.load("bakappana", players=2).new_state(seed=7)
>>> state.apply(state.dealer, state.legal_actions(state.dealer)[0])
>>> len(state.log)
1
"""

from cardtable.compiled import choose as _choose_engine

_choose_engine()  # before any module of the engine is imported: compiled, or the source

from cardtable import games as _games  # noqa: E402
from cardtable.core import (  # noqa: E402
    GameRecord,
    IllegalAction,
    OptionError,
    game_ids,
    load,
    replay,
)

__all__ = ["GameRecord", "IllegalAction", "OptionError", "game_ids", "load", "replay"]
__version__ = "0.1.0"
del _games, _choose_engine
