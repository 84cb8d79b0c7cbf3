"""The learned evaluator's network at play time: a small multilayer perceptron in numpy
(no deep-learning runtime for players), read from weights the package ships.

Its input is a seat's RL observation (the game's encoder) with the match context zeroed
(:data:`CONTEXT_FEATURES`: the net judges the round in front of it, whatever the match
score, so single-round training data serves a 12-round match). Two ReLU layers feed two
heads: the **margin head**, a distribution over the seat's round margin (its round score
less the other seat's, clipped to ``-limit … limit``), from which a search reads any
reward it likes; and the **policy head**, logits over the game's action numbers (trained
on the moves played; no bot reads it yet).

``cardtable.training`` trains it (PyTorch, an optional extra) and writes the file this
module reads; a test checks both compute the same numbers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from cardtable.core.encoding import BaseEncoder, observe
from cardtable.core.state import State

#: observation features that describe the match rather than the round: zeroed on input
CONTEXT_FEATURES = ("scores", "round")
#: the layers of a network file, in order: trunk layers, then the two heads
LAYERS = ("trunk0", "trunk1", "margin", "policy")
Floats = npt.NDArray[np.float32]


def context_mask(encoder: BaseEncoder) -> npt.NDArray[np.bool_]:
    """Which observation features :data:`CONTEXT_FEATURES` cover."""
    mask = np.zeros(encoder.observation_size, dtype=bool)
    for name, feature in encoder.features().items():
        if name in CONTEXT_FEATURES:
            mask[feature.slice] = True
    return mask


def network_input(
    encoder: BaseEncoder, state: State, seat: int, context: npt.NDArray[np.bool_]
) -> Floats:
    """``seat``'s observation as the network reads it: ``context`` (:func:`context_mask`)
    zeroed. Self-play rows and the search's leaves are both made here."""
    row = observe(encoder, state, seat)
    row[context] = 0.0
    return row


def binary_prefix(encoder: BaseEncoder) -> int:
    """How many leading features are bits (card sets): data files pack them."""
    size = 0
    for feature in encoder.features().values():
        if (feature.low, feature.high) != (0.0, 1.0) or feature.name in CONTEXT_FEATURES:
            break
        size = feature.slice.stop
    return size


@dataclass(frozen=True)
class Network:
    """A trained policy/margin network: its layers and what it was trained for."""

    weights: dict[str, tuple[Floats, Floats]]
    game: str
    margin_limit: int
    #: the root mean square round margin of the training data (a scale for rewards)
    typical_margin: float
    info: dict[str, object]

    @property
    def margins(self) -> npt.NDArray[np.float64]:
        """The round margins the margin head's outputs stand for, in order."""
        return np.arange(-self.margin_limit, self.margin_limit + 1, dtype=np.float64)

    @property
    def stages(self) -> list[dict[str, Any]]:
        """The training runs that made these weights, the first first."""
        stages = self.info.get("stages", [])
        return list(stages) if isinstance(stages, list) else []

    def forward(self, rows: Floats) -> tuple[Floats, Floats]:
        """Margin logits and policy logits of observation ``rows`` (one row a position)."""
        hidden = rows
        for name in LAYERS[:2]:
            weight, bias = self.weights[name]
            hidden = np.maximum(hidden @ weight + bias, 0.0)
        weight, bias = self.weights["margin"]
        margin = hidden @ weight + bias
        weight, bias = self.weights["policy"]
        return margin, hidden @ weight + bias

    def margin_distribution(self, rows: Floats) -> npt.NDArray[np.float64]:
        """The probability of each of :attr:`margins`, a row per position."""
        logits = self.forward(rows)[0].astype(np.float64)
        return softmax(logits)

    def margin_chances(self, row: Floats, bits: int) -> npt.NDArray[np.float64]:
        """:meth:`margin_distribution` of one position whose first ``bits`` features are
        bits, the way a search wants it: the first layer adds the weight rows of the set
        bits (a few dozen of hundreds) and the policy head is skipped."""
        weight, bias = self.weights["trunk0"]
        hidden = weight[np.flatnonzero(row[:bits])].sum(axis=0) + row[bits:] @ weight[bits:]
        hidden = np.maximum(hidden + bias, 0.0)
        weight, bias = self.weights["trunk1"]
        hidden = np.maximum(hidden @ weight + bias, 0.0)
        weight, bias = self.weights["margin"]
        return softmax((hidden @ weight + bias).astype(np.float64))

    def save(self, path: Path) -> None:
        arrays: dict[str, Any] = {}
        for name, (weight, bias) in self.weights.items():
            arrays[f"{name}_w"], arrays[f"{name}_b"] = weight, bias
        meta = {
            "game": self.game,
            "margin_limit": self.margin_limit,
            "typical_margin": self.typical_margin,
            "info": self.info,
        }
        arrays["meta"] = np.array(json.dumps(meta))
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: Path) -> Network:
        with np.load(path) as data:
            meta = json.loads(str(data["meta"]))
            weights = {
                name: (
                    data[f"{name}_w"].astype(np.float32),
                    data[f"{name}_b"].astype(np.float32),
                )
                for name in LAYERS
            }
        return cls(
            weights,
            str(meta["game"]),
            int(meta["margin_limit"]),
            float(meta["typical_margin"]),
            dict(meta["info"]),
        )


def softmax(logits: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """The softmax over the last axis."""
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    out: npt.NDArray[np.float64] = shifted / shifted.sum(axis=-1, keepdims=True)
    return out


_READ: dict[Path, Network] = {}


def read_network(path: Path) -> Network | None:
    """The network a package ships at ``path`` (None: it ships none), read once."""
    if path not in _READ:
        if not path.exists():
            return None
        _READ[path] = Network.load(path)
    return _READ[path]
