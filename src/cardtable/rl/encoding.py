"""The machinery between an environment and a game's encoder (the ``ENCODER`` capability
of its spec; the encoders live in the game packages, on :mod:`cardtable.core.encoding`).

>>> import cardtable
>>> encoder = encoder_for(cardtable.load("koi-koi"))
>>> state = cardtable.load("koi-koi").new_state(seed=1)
>>> seat = min(state.to_move)
>>> observe(encoder, state, seat).shape == (encoder.observation_size,)
True
"""

from __future__ import annotations

import numpy as np

from cardtable.core.encoding import BaseEncoder, Vector
from cardtable.core.errors import IllegalAction
from cardtable.core.game import Capability, Game
from cardtable.core.state import State

__all__ = ["BaseEncoder", "apply", "clipped", "encoder_for", "layout_table", "observe"]


def encoder_for(game: Game) -> BaseEncoder:
    """A fresh encoder of the game (IllegalAction when the game has none)."""
    make = game.spec.optional(Capability.ENCODER)
    if make is None:
        raise IllegalAction(f"no RL encoding for {game.id} yet")
    encoder: BaseEncoder = make()
    return encoder


def observe(encoder: BaseEncoder, state: State, seat: int) -> Vector:
    """The observation of ``seat``: built from its view only, clipped to the ranges its
    layout declares (``encoder.features()``)."""
    return clipped(encoder, encoder.observe_state(state, seat))


def clipped(encoder: BaseEncoder, vectors: Vector) -> Vector:
    """Observations (one per row) clipped, in place, to the ranges of their layout."""
    low, high = encoder.bounds()
    np.minimum(vectors, high, out=vectors)  # two ufuncs: cheaper than np.clip here
    return np.maximum(vectors, low, out=vectors)


def layout_table(encoder: BaseEncoder) -> str:
    """The observation layout as a Markdown table (docs/rl.md holds one per family)."""
    lines = ["| feature | slice | size | range | meaning |", "|---|---|---|---|---|"]
    for feature in encoder.features().values():
        where = f"{feature.slice.start}:{feature.slice.stop}"
        span = f"{feature.low:g} … {feature.high:g}"
        lines.append(f"| `{feature.name}` | {where} | {feature.size} | {span} | {feature.doc} |")
    return "\n".join(lines)


def apply(encoder: BaseEncoder, state: State, seat: int, index: int) -> None:
    """Play action number ``index`` for ``seat`` (an illegal number raises IllegalAction)."""
    action = encoder.named(state, seat, index)
    state.apply(seat, action)
    encoder.after(state, seat, action)
