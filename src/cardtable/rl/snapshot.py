"""Snapshots of an environment for search: ``env.get_state()`` returns a :class:`Snapshot`,
the engine state together with what the environment keeps beside it (the bots, each with
its random generator; the rewards not yet paid; a race's choices already made and the
generator that draws the race), so ``env.set_state(env.get_state())`` goes on exactly as
before: the same learner moves meet the same bot moves.

A snapshot is the environment's save, not an engine state: its engine state is
``snapshot.state``, which every part of the API reads (``encoder.mask``, ``observe``, the
bots, ISMCTS, ``clone``, ``determinize``). A snapshot asked for a state's attribute says
so, rather than answering some of them as it did (the encoders and the bots, compiled or
checking the game's state class, refused it). ``set_state`` takes either: a snapshot goes
on exactly, a bare engine state with rewards counted from it and the bots as they are.

>>> from cardtable.rl import SingleAgentEnv
>>> single = SingleAgentEnv("koi-koi", opponents="greedy", rounds=1)
>>> _ = single.reset(seed=1)
>>> saved = single.get_state()
>>> saved.state.is_over, len(saved.state.legal_actions(0)) > 0
(False, True)
>>> single.encoder.mask(saved.state, 0).any()
np.True_
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

from cardtable.core.rng import Rng
from cardtable.core.state import State

#: puts a bot back as it was when the snapshot was taken, and returns it
Restore = Callable[[], Any]


class Snapshot:
    """An engine state (:attr:`state`) and the environment's own part (:attr:`extras`,
    read only by the environment that made it)."""

    __slots__ = ("extras", "state")

    def __init__(self, state: State, extras: dict[str, Any]) -> None:
        self.state = state
        self.extras = extras

    def __getattr__(self, name: str) -> Any:
        # only names a snapshot lacks get here: say where the engine state is
        raise AttributeError(
            f"a Snapshot has no {name!r}: it is the environment's save; "
            f"its engine state is snapshot.state"
        )


def engine_state(state: State | Snapshot) -> State:
    """The engine state of a snapshot, or the state itself."""
    return state.state if isinstance(state, Snapshot) else state


def keep_bot(bot: Any) -> Restore:
    """A way back to ``bot`` as it is now. A copy where the bot can be copied (its
    generators and whatever else it has learnt during the game); a compiled bot that cannot
    be copied keeps its generators' states, which are put back into it."""
    try:
        kept = copy.deepcopy(bot)
    except TypeError:
        generators = list(_generators(bot, set()))
        states = [rng.state for rng in generators]

        def rewind() -> Any:
            for rng, state in zip(generators, states, strict=True):
                rng.__setstate__({"state": state})
            return bot

        return rewind
    return lambda: copy.deepcopy(kept)


def _generators(bot: Any, seen: set[int]) -> Iterator[Rng]:
    """The random generators of a bot and of the bots inside it (an easy bot's greedy)."""
    if id(bot) in seen:
        return
    seen.add(id(bot))
    for name in dir(bot):
        if name.startswith("__"):
            continue
        value = getattr(bot, name, None)
        if isinstance(value, Rng):
            yield value
        elif callable(getattr(value, "choose", None)):
            yield from _generators(value, seen)
