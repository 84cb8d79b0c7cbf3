"""What a reinforcement-learning environment needs of a game: fixed-size observations
from a seat's view and a numbered action space with a legal-action mask. Each game's
encoder lives in its package (the ``ENCODER`` capability of its spec) and builds on
:class:`BaseEncoder`; ``cardtable.rl`` is the machinery around it. The functions at the
end (:func:`encoder_for`, :func:`observe`...) live here, not in the RL layer, because the
bots read observations too (the learned evaluator, ``agents.network``) and a bot must play
without the ``rl`` extra.

An observation is built from the seat's view and nothing else, so it cannot leak a card
the seat may not see (a test compares observations across determinizations). Actions are
numbered once per game; ``decode`` turns a number back into the engine's action.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.core.actions import Action
from cardtable.core.errors import IllegalAction
from cardtable.core.game import Capability, Game
from cardtable.core.state import State

Vector = npt.NDArray[np.float32]
Mask = npt.NDArray[np.int8]
JSON = dict[str, Any]
#: a seat's choice in a step: an action number, or an engine action (a bot's own move)
Choice = int | Action
#: the most seats any game has: per-seat features are padded to it
MAX_SEATS = 6


@dataclass(frozen=True)
class Feature:
    """One named block of an observation: where it lies, the range its values keep to
    (the environment clips to it) and what it says."""

    name: str
    slice: slice
    low: float
    high: float
    doc: str

    @property
    def size(self) -> int:
        return int(self.slice.stop - self.slice.start)


#: a block of a layout: name, size, low, high, what it says
Block = tuple[str, int, float, float, str]


@dataclass(frozen=True)
class CardGroups:
    """Cards that come in groups of one size (the hanafuda months), as an encoder lays
    them out: a network may read every group with the same weights (``rl.ppo``'s month
    network). ``blocks`` are the observation's blocks that hold one value a card, the
    cards group by group (card ``g * size + k`` is the ``k``-th of group ``g``);
    ``actions[g]`` are the numbers of the actions the cards of group ``g`` take, as many
    for every group."""

    blocks: tuple[str, ...]
    groups: int
    size: int
    actions: tuple[tuple[int, ...], ...]


def layout(blocks: Sequence[Block]) -> tuple[Feature, ...]:
    """Features laid end to end in the order given."""
    out, start = [], 0
    for name, size, low, high, doc in blocks:
        out.append(Feature(name, slice(start, start + size), low, high, doc))
        start += size
    return tuple(out)


class BaseEncoder(ABC):
    """What an environment needs of a game family: subclasses number the actions and turn
    a view into a vector; masks and decoding follow from the numbering. ``LAYOUT`` names
    the blocks of the vector (see :meth:`features`)."""

    observation_size = 0
    action_size = 0
    #: scores are divided by this scale (then clipped to their feature's range)
    score_scale = 100.0
    #: the named blocks of the observation, in order (empty: one block "observation")
    LAYOUT: tuple[Block, ...] = ()
    #: the cards' groups where the game's cards come in groups (None: no such layout)
    CARD_GROUPS: CardGroups | None = None

    def features(self) -> dict[str, Feature]:
        """The observation's layout: every block by name, with its slice and range.

        >>> from cardtable.games.hanafuda.encoding import HanafudaEncoder
        >>> hand = HanafudaEncoder().features()["hand"]
        >>> hand.slice, hand.low, hand.high
        (slice(0, 48, None), 0.0, 1.0)
        """
        blocks = self.LAYOUT or (("observation", self.observation_size, -10.0, 10.0, ""),)
        return {feature.name: feature for feature in layout(blocks)}

    def bounds(self) -> tuple[Vector, Vector]:
        """Per-value lower and upper bounds of the observation (from the layout)."""
        cached: tuple[Vector, Vector] | None = getattr(self, "_bounds", None)
        if cached is not None:
            return cached
        low = np.zeros(self.observation_size, dtype=np.float32)
        high = np.zeros(self.observation_size, dtype=np.float32)
        for feature in self.features().values():
            low[feature.slice], high[feature.slice] = feature.low, feature.high
        self._bounds = (low, high)
        return low, high

    @abstractmethod
    def observe(self, view: JSON) -> Vector:
        """The fixed-size vector of a seat's view."""

    def observe_state(self, state: State, seat: int) -> Vector:
        """:meth:`observe` of ``seat``'s view of ``state`` (an encoder may build it from the
        engine's own numbers, equal to the view's: its tests say so)."""
        return self.observe(self.view_of(state, seat))

    def observe_states(self, states: Sequence[State], seats: Sequence[int]) -> Vector:
        """:meth:`observe` of each state's seat, as rows of one array (before clipping):
        what learners stepping many games at once call. An encoder may build them from the
        engine's own numbers, equal to the views' (its tests say so)."""
        out = np.zeros((len(states), self.observation_size), dtype=np.float32)
        for row, (state, seat) in enumerate(zip(states, seats, strict=True)):
            out[row] = self.observe_state(state, seat)
        return out

    def masks(self, states: Sequence[State], seats: Sequence[int]) -> Mask:
        """:meth:`mask` of each state's seat, as rows of one array."""
        out = np.zeros((len(states), self.action_size), dtype=np.int8)
        for row, (state, seat) in enumerate(zip(states, seats, strict=True)):
            out[row] = self.mask(state, seat)
        return out

    def seats_to_move(self, states: Sequence[State]) -> list[int]:
        """The seat to move in each state (the lowest, where several may act)."""
        return [min(state.to_move) for state in states]

    def play_numbers(self, states: Sequence[State], numbers: Sequence[int]) -> list[int]:
        """Each state's seat to move (the lowest, where several may act) plays its action
        number, as :func:`apply` plays one (an illegal number raises
        IllegalAction, after the rows before it have moved); the rows whose scores may have
        changed (every row, unless an engine can tell: a fishing game's change only when
        a round ends)."""
        for state, number in zip(states, numbers, strict=True):
            seat = min(state.to_move)
            action = self.named(state, seat, number)
            state.apply(seat, action)
            self.after(state, seat, action)
        return list(range(len(states)))

    @abstractmethod
    def index_of(self, state: State, seat: int, action: Action) -> int:
        """The number of a legal ``action`` of ``seat``."""

    def legal_indices(self, state: State, seat: int) -> list[int]:
        return [self.index_of(state, seat, action) for action in state.legal_actions(seat)]

    def mask(self, state: State, seat: int) -> Mask:
        mask = np.zeros(self.action_size, dtype=np.int8)
        if seat in state.to_move:
            mask[self.legal_indices(state, seat)] = 1
        return mask

    def decode(self, state: State, seat: int, index: int) -> Action:
        for action in state.legal_actions(seat):
            if self.index_of(state, seat, action) == index:
                return action
        raise IllegalAction(f"action {index} is not legal for seat {seat} now")

    def named(self, state: State, seat: int, index: int) -> Action:
        """The action number ``index`` names, for the engine's ``apply`` to judge: an
        encoder whose numbers name actions by themselves skips :meth:`decode`'s check."""
        return self.decode(state, seat, index)

    def view_of(self, state: State, seat: int) -> JSON:
        """What the observation is built from: the seat's brief view (an encoder may add
        what that seat can work out itself, never more)."""
        return state.view(seat, brief=True)

    def after(self, state: State, seat: int, action: Action) -> None:  # noqa: B027
        """What follows a decoded action by itself (nothing, unless the game says so)."""

    def deal_cards(self) -> tuple[str, ...]:
        """The cards a chance player deals one at a time in a search wrapper with explicit
        chance nodes (:mod:`cardtable.rl.openspiel`); empty: the game offers none."""
        return ()

    def deal(self, probe: State, dealer: int, order: Sequence[str]) -> JSON:
        """The fixed deal (``new_state(deals=[...])``) of ``order``, the deal cards in the
        order chance drew them, shaped like ``probe``'s first round."""
        raise IllegalAction("this game has no explicit chance model")

    def action_of(self, state: State, seat: int, choice: Choice) -> Action:
        """The engine action of a choice (an action number is decoded)."""
        return self.decode(state, seat, choice) if isinstance(choice, int) else choice

    def simultaneous(self, state: State) -> bool:
        """Whether the waiting seats decide at once in a step the engine would otherwise
        take one by one (a race): environments then collect every waiting seat's choice
        and hand them to :meth:`resolve` together. Engines that hide simultaneous choices
        themselves (an Ohanami pick) need not say so."""
        return False

    def resolve(
        self, state: State, choices: Mapping[int, Choice], rng: np.random.Generator
    ) -> None:
        """Play the choices (seat: action number or engine action) of one step; a race is
        decided by the choices and ``rng``, never by seat order. By default they are played
        in an order drawn from ``rng`` (an engine that hides simultaneous choices, as an
        Ohanami pick, makes the order moot); a choice an earlier one made illegal (a second
        challenge while one is open) is dropped, and its seat chooses again."""
        actions = {seat: self.action_of(state, seat, choice) for seat, choice in choices.items()}
        order = sorted(actions)
        if len(order) > 1:
            order = [int(seat) for seat in rng.permutation(order)]
        for seat in order:
            if seat not in state.to_move or state.illegal_reason(seat, actions[seat]) is not None:
                continue
            state.apply(seat, actions[seat])
            self.after(state, seat, actions[seat])


def relative(values: Sequence[Any], seat: int, size: int, scale: float = 1.0) -> Vector:
    """Per-seat numbers rotated so the viewer comes first, padded to ``size``."""
    out = np.zeros(size, dtype=np.float32)
    count = len(values)
    for offset in range(count):
        out[offset] = float(values[(seat + offset) % count]) / scale
    return out


def one_hot(index: int, size: int) -> Vector:
    out = np.zeros(size, dtype=np.float32)
    if 0 <= index < size:
        out[index] = 1.0
    return out


def encoder_for(game: Game) -> BaseEncoder:
    """A fresh encoder of the game (IllegalAction when the game has none).

    >>> import cardtable
    >>> encoder = encoder_for(cardtable.load("koi-koi"))
    >>> state = cardtable.load("koi-koi").new_state(seed=1)
    >>> seat = min(state.to_move)
    >>> observe(encoder, state, seat).shape == (encoder.observation_size,)
    True
    """
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
