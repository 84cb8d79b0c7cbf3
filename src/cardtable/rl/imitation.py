"""What a search would play, as data a network learns from: the PPO baseline's start on
matches (docs/rl.md, "The PPO baseline"), and a policy prior for a search.

``collect`` plays the teacher (a search level: ``hard``) in the learner's seat against the
opponent over many games at once (``CardtableVectorEnv``, both seats), and keeps every
position it moved in: the learner's observation, its mask and the teacher's action
number. ``--minutes`` bounds the run; ``--jobs`` worker processes search (spawned: a
script calls it under ``if __name__ == "__main__":``). The file (``.npz``) holds
``observations`` (float32), ``masks`` (bool), ``actions`` (int64) and the settings.

    python -m cardtable.rl.imitation --game koi-koi --rounds 6 --teacher hard \\
        --minutes 25 --jobs 2 --out moves.npz

``imitate`` fits a network to such a file (cross-entropy over the legal moves), holding a
share of the positions out to say how often it plays the teacher's move there.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from cardtable.rl.opponents import BatchBots
from cardtable.rl.vector import CardtableVectorEnv, baseline_options


@dataclass
class Moves:
    """Positions and the teacher's action number in each."""

    observations: npt.NDArray[np.float32]
    masks: npt.NDArray[np.bool_]
    actions: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.actions)

    def save(self, path: Path, settings: dict[str, Any]) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez_compressed(
            path,
            observations=self.observations,
            masks=self.masks,
            actions=self.actions,
            settings=json.dumps(settings),
        )

    @classmethod
    def load(cls, path: Path) -> Moves:
        with np.load(path) as saved:
            return cls(saved["observations"], saved["masks"], saved["actions"])

    @classmethod
    def load_all(cls, paths: list[Path]) -> Moves:
        """The moves of several files (collections run side by side), one after another."""
        parts = [cls.load(path) for path in paths]
        return cls(
            np.concatenate([part.observations for part in parts]),
            np.concatenate([part.masks for part in parts]),
            np.concatenate([part.actions for part in parts]),
        )


def collect(
    game: str,
    *,
    teacher: str = "hard",
    opponent: str = "greedy",
    minutes: float = 25.0,
    rows: int = 16,
    jobs: int = 1,
    seed: int = 1,
    say: Callable[[str], None] = print,
    **options: Any,
) -> Moves:
    """The teacher's moves in the learner's seat against ``opponent``, for ``minutes``:
    ``rows`` games at once, half of them from each seat."""
    envs = [
        CardtableVectorEnv(game, rows // 2, opponents=opponent, seat=seat, **options)
        for seat in (0, 1)
    ]
    observations: list[npt.NDArray[np.float32]] = []
    masks: list[npt.NDArray[np.bool_]] = []
    actions: list[npt.NDArray[np.int64]] = []
    begun, said = time.monotonic(), 0.0
    with BatchBots(teacher, game, seed=seed, jobs=jobs) as bots:
        shown = [env.reset(seed=seed * 2 + seat)[0] for seat, env in enumerate(envs)]
        while time.monotonic() - begun < 60 * minutes:
            for index, env in enumerate(envs):
                learning = env.learner_rows()
                chosen = np.zeros(env.num_envs, dtype=np.int64)  # a held row: any number
                if learning:
                    chosen[learning] = bots.actions(env.games, learning)
                    observations.append(shown[index]["observation"][learning].copy())
                    masks.append(shown[index]["action_mask"][learning] == 1)
                    actions.append(chosen[learning])
                shown[index] = env.step(chosen)[0]
            elapsed = time.monotonic() - begun
            if elapsed - said >= 60:
                said = elapsed
                count = sum(len(part) for part in actions)
                say(f"{elapsed / 60:4.1f} min: {count:,} positions of {teacher}")
    for env in envs:
        env.close()
    return Moves(np.concatenate(observations), np.concatenate(masks), np.concatenate(actions))


def imitate(
    network: nn.Module,
    moves: Moves,
    *,
    epochs: int = 20,
    batch: int = 256,
    lr: float = 1e-3,
    held_out: float = 0.1,
    seed: int = 1,
    say: Callable[[str], None] = print,
) -> float:
    """Fit ``network`` (masked logits, values: the PPO networks) to the teacher's moves; the
    weights of the epoch that matched the held-out positions best are kept. Returns that
    share of held-out positions where the network's most likely move is the teacher's."""
    generator = torch.Generator().manual_seed(seed)
    order = torch.randperm(len(moves), generator=generator)
    cut = max(1, int(len(moves) * held_out))
    test, train = order[:cut], order[cut:]
    observations = torch.from_numpy(moves.observations)
    masks = torch.from_numpy(moves.masks)
    actions = torch.from_numpy(moves.actions)
    optimiser = torch.optim.Adam(network.parameters(), lr=lr)

    def agreement() -> float:
        with torch.no_grad():
            logits, _ = network(observations[test], masks[test])
        return float((logits.argmax(-1) == actions[test]).float().mean())

    best, kept = agreement(), {k: v.clone() for k, v in network.state_dict().items()}
    say(f"before: plays the teacher's move in {best:.1%} of {cut:,} held-out positions")
    for epoch in range(epochs):
        shuffled = train[torch.randperm(len(train), generator=generator)]
        for first in range(0, len(shuffled), batch):
            picked = shuffled[first : first + batch]
            logits, _ = network(observations[picked], masks[picked])
            loss: Any = nn.functional.cross_entropy(logits, actions[picked])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        share = agreement()
        say(f"epoch {epoch + 1:>3}: the teacher's move in {share:.1%} of held-out positions")
        if share > best:
            best, kept = share, {k: v.clone() for k, v in network.state_dict().items()}
    network.load_state_dict(kept)
    return best


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", required=True, help="the game, e.g. koi-koi")
    parser.add_argument("--rounds", type=int, default=0, help="rounds a match (0: the game's)")
    parser.add_argument("--teacher", default="hard", help="the bot whose moves are kept")
    parser.add_argument("--opponent", default="greedy", help="who the teacher plays")
    parser.add_argument("--minutes", type=float, default=25.0, help="how long to collect")
    parser.add_argument("--rows", type=int, default=16, help="games played at once")
    parser.add_argument("--jobs", type=int, default=1, help="processes that search")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, required=True, help="the .npz to write")
    args = parser.parse_args(argv)

    options = baseline_options(args.game, args.rounds)
    moves = collect(
        args.game,
        teacher=args.teacher,
        opponent=args.opponent,
        minutes=args.minutes,
        rows=args.rows,
        jobs=args.jobs,
        seed=args.seed,
        **options,
    )
    settings = {**vars(args), "out": str(args.out), "options": options, "positions": len(moves)}
    moves.save(args.out, settings)
    print(f"{len(moves):,} positions of {args.teacher} in {args.out}")


if __name__ == "__main__":
    main()
