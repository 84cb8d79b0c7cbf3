"""Training the learned evaluator (:mod:`cardtable.agents.network`) with PyTorch on the
CPU: ``pip install 'cardtable[train]'``, then ``cardtable train`` or ``make train``.

The margin head learns the distribution of the round margin (cross-entropy against the
margin the round paid, clipped to the limit), the policy head the moves the self-play bots
chose (cross-entropy over the legal moves). The last ``validation`` share of the rounds is
held out; every epoch's losses on it are logged, the run is seeded and single-threaded
unless told otherwise, so the same command gives the same weights on the same machine.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from cardtable.agents.network import LAYERS, Network
from cardtable.training.selfplay import Samples

try:
    import torch
    from torch import nn
except ImportError as missing:  # pragma: no cover - the message is the feature
    raise ImportError(
        "training needs PyTorch: pip install 'cardtable[train]' (or torch on its own)"
    ) from missing


@dataclass(frozen=True)
class Settings:
    """What a training run is given."""

    hidden: int = 256
    epochs: int = 8
    batch: int = 1024
    learning_rate: float = 1e-3
    weight_decay: float = 1e-5
    margin_limit: int = 40
    #: the policy head's share of the loss (the margin head's is 1)
    policy_weight: float = 1.0
    validation: float = 0.05
    seed: int = 0
    threads: int = 1


@dataclass
class Epoch:
    """One epoch's figures (losses in nats a row)."""

    epoch: int
    train_loss: float
    margin_loss: float
    policy_loss: float
    policy_accuracy: float
    value_error: float  # RMS error of the expected margin, in points
    seconds: float


@dataclass
class Run:
    """A training run: its settings, data and every epoch."""

    settings: Settings
    rows: int
    validation_rows: int
    epochs: list[Epoch] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "settings": asdict(self.settings),
            "rows": self.rows,
            "validation_rows": self.validation_rows,
            "epochs": [asdict(e) for e in self.epochs],
            "torch": torch.__version__,
        }


class PolicyMarginNet(nn.Module):
    """The network of :class:`cardtable.agents.network.Network`, trainable."""

    def __init__(self, inputs: int, hidden: int, margins: int, actions: int) -> None:
        super().__init__()
        self.trunk0 = nn.Linear(inputs, hidden)
        self.trunk1 = nn.Linear(hidden, hidden)
        self.margin = nn.Linear(hidden, margins)
        self.policy = nn.Linear(hidden, actions)

    def forward(self, rows: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        hidden = torch.relu(self.trunk1(torch.relu(self.trunk0(rows))))
        return self.margin(hidden), self.policy(hidden)

    def load(self, network: Network) -> None:
        """Take the weights of a trained network (its layers must have these sizes)."""
        for name in LAYERS:
            weight, bias = network.weights[name]
            layer = getattr(self, name)
            if tuple(layer.weight.shape) != weight.T.shape:
                wanted = tuple(layer.weight.shape)
                raise ValueError(f"the network's {name} layer is {weight.T.shape}, not {wanted}")
            layer.weight.data = torch.from_numpy(weight.T.copy())
            layer.bias.data = torch.from_numpy(bias.copy())

    def exported(self, game: str, limit: int, typical: float, info: dict[str, object]) -> Network:
        """The numpy network with these weights."""
        weights = {}
        for name in LAYERS:
            layer = getattr(self, name)
            weight = layer.weight.detach().numpy().T.astype(np.float32).copy()
            weights[name] = (weight, layer.bias.detach().numpy().astype(np.float32).copy())
        return Network(weights, game, limit, typical, info)


Report = Callable[[Epoch], None]


# one loop, top to bottom (data, epochs, early stop, report): the recipe in one place
def train(  # noqa: PLR0915
    samples: Samples,
    game: str,
    settings: Settings,
    report: Report | None = None,
    start: Network | None = None,
) -> tuple[Network, Run]:
    """Train a network on ``samples``, from ``start``'s weights when given (a later round
    of expert iteration goes on from the last); ``report`` hears of every epoch."""
    torch.manual_seed(settings.seed)
    torch.set_num_threads(settings.threads)
    rows = len(samples)
    # hold out whole moments (row pairs) at the end: later rounds, unseen positions
    held = int(rows * settings.validation) // 2 * 2
    train_rows = np.arange(rows - held)
    valid_rows = np.arange(rows - held, rows)
    observations = torch.from_numpy(samples.observations())
    limit = settings.margin_limit
    targets = torch.from_numpy(np.clip(samples.margins.astype(np.int64), -limit, limit) + limit)
    actions = torch.from_numpy(samples.actions.astype(np.int64))
    legal = torch.from_numpy(samples.masks())
    margins = torch.arange(-limit, limit + 1, dtype=torch.float32)
    net = PolicyMarginNet(
        observations.shape[1], settings.hidden, 2 * limit + 1, samples.action_size
    )
    if start is not None:
        net.load(start)
    optimizer = torch.optim.AdamW(
        net.parameters(), lr=settings.learning_rate, weight_decay=settings.weight_decay
    )
    batches = math.ceil(len(train_rows) / settings.batch)
    schedule = torch.optim.lr_scheduler.OneCycleLR(
        optimizer, max_lr=settings.learning_rate, total_steps=settings.epochs * batches
    )
    generator = np.random.default_rng(settings.seed)
    run = Run(settings, rows, held)

    def losses(index: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
        margin_logits, policy_logits = net(observations[index])
        margin_loss = nn.functional.cross_entropy(margin_logits, targets[index])
        moved = actions[index] >= 0
        logits = policy_logits[moved].masked_fill(~legal[index][moved], -1e9)
        policy_loss = nn.functional.cross_entropy(logits, actions[index][moved])
        return margin_loss, policy_loss, logits

    for epoch in range(settings.epochs):
        started = time.perf_counter()
        net.train()
        order = torch.from_numpy(generator.permutation(train_rows))
        total = 0.0
        for first in range(0, len(order), settings.batch):
            index = order[first : first + settings.batch]
            margin_loss, policy_loss, _ = losses(index)
            loss = margin_loss + settings.policy_weight * policy_loss
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]
            optimizer.step()
            schedule.step()
            total += float(loss.detach()) * len(index)
        net.eval()
        with torch.no_grad():
            index = torch.from_numpy(valid_rows)
            margin_loss, policy_loss, logits = losses(index)
            moved = actions[index] >= 0
            accuracy = float((logits.argmax(1) == actions[index][moved]).float().mean())
            expected = torch.softmax(net(observations[index])[0], 1) @ margins
            error = float(((expected - (targets[index] - limit)) ** 2).mean().sqrt())
        result = Epoch(
            epoch + 1,
            total / len(order),
            float(margin_loss),
            float(policy_loss),
            accuracy,
            error,
            time.perf_counter() - started,
        )
        run.epochs.append(result)
        if report is not None:
            report(result)
    typical = float(np.sqrt(np.mean(samples.margins.astype(np.float64) ** 2)))
    earlier = start.stages if start is not None else []
    network = net.exported(game, limit, typical, {"stages": [*earlier, run.to_json()]})
    return network, run
