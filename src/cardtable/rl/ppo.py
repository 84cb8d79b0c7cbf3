"""PPO against the built-in bots through VectorGames: the baseline a new method has to beat
(docs/rl.md, "The PPO baseline"). One file, CleanRL style; PyTorch on the CPU (the
``train`` extra), a GPU where one is lent (``--device cuda``).

    python -m cardtable.rl.ppo --game bakappana --minutes 25 --out ppo-bakappana
    python -m cardtable.rl.ppo --game koi-koi --minutes 25 --out ppo-koi-koi
    python -m cardtable.rl.ppo --game bakappana --evaluate ppo-bakappana/ppo.pt
    python -m cardtable.rl.ppo --game koi-koi --rounds 6 --imitate moves.npz --minutes 35

The learner plays both seats of two-player games (half the rows of the batch from each
seat; one round, or ``--rounds`` rounds a match) against ``--opponent`` (``greedy``; any
built-in bot, chosen in the batch by :class:`~cardtable.rl.opponents.BatchBots`).
``--imitate`` first fits the network to a search's moves (:mod:`cardtable.rl.imitation`),
``--init`` starts from earlier weights. The policy is a masked categorical over
the action numbers and the value a second head, both on an MLP over the observation
vector; advantages by GAE, the clipped surrogate, an entropy bonus, the learning rate
annealed to zero. What makes it learn on two cores:

- kickstarting (Schmitt et al., 2018): for the first ``--kickstart-share`` of training a
  cross-entropy term pulls the policy towards the move the opponent bot (or ``--teacher``)
  would play in the learner's place, its weight annealed from ``--kickstart`` to zero; PPO
  starts from the bot's play instead of from random moves, and then improves on it
  against the opponent;
- the reward: +1 for a round finished ahead, -1 behind, 0 level (what the evaluation
  counts), plus ``--margin-weight`` times the score margin over the game's scale, paid
  as the scores change.

At the end the policy (argmax over the legal moves) plays ``--final-deals`` mirrored
deals against the opponent in the arena (each deal from both seats; ties count half), and
the share of rounds ahead is reported with its Wilson 95 % interval; ``--out`` receives
the weights (``ppo.pt``), the curve (``curve.csv``, ``learning_curve.png``) and
``summary.json``. A run bounded by ``--updates`` is the same on every run with the same
seed and thread count; one bounded by ``--minutes`` stops where the time runs out.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, cast

import numpy as np
import torch
from torch import nn

import cardtable
from cardtable.agents.base import registered_for_now
from cardtable.arena.tournament import HeadToHead, head_to_head, run, schedule
from cardtable.core.actions import Action
from cardtable.core.game import spec_of
from cardtable.core.state import State
from cardtable.rl.encoding import BaseEncoder, encoder_for, observe
from cardtable.rl.imitation import Moves, imitate
from cardtable.rl.opponents import BatchBots
from cardtable.rl.vector import CardtableVectorEnv, baseline_options


def unit(config: Config, plural: bool = False) -> str:
    """What a game of the run is called in its figures: a round, or a match."""
    if config.rounds > 1:
        return "matches" if plural else "match"
    return "rounds" if plural else "round"


#: the name the trained policy plays under in the arena
BOT_NAME = "ppo"


@dataclass
class Config:
    game: str  # a game id (its spec's rl_options are the rules played)
    opponent: str = "greedy"
    rounds: int = 0  # rounds a match (0: the game's rl_options, one round where it allows)
    seed: int = 1
    minutes: float = 25.0  # 0: no time limit (then --updates bounds the run)
    updates: int = 0  # 0: until the time is up
    num_envs: int = 128  # half the rows learn from each seat
    num_steps: int = 32  # learner moves a row per update
    lr: float = 3e-4
    gamma: float = 1.0  # a match is a few dozen moves: no discount
    gae_lambda: float = 0.95
    update_epochs: int = 4
    minibatches: int = 4
    clip: float = 0.2
    ent_coef: float = 0.01
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    hidden: int = 256
    month_width: int = 64  # the month network's width a month
    network: str = "month"  # "month", "month-whole" (hanafuda games) or "mlp"
    kickstart: float = 1.0
    kickstart_share: float = 0.3
    teacher: str = ""  # whose moves the kickstart imitates ("": the opponent's)
    init: str = ""  # weights (a ppo.pt) to start from instead of fresh ones: fine-tuning
    # a search's moves (rl/imitation.py's .npz files, comma separated): the network first
    # learns to play them, and the kickstart pulls towards them, not the teacher bot's
    imitate: str = ""
    imitate_epochs: int = 20
    margin_weight: float = 0.5
    threads: int = 1
    device: str = "cpu"
    eval_every: int = 50  # updates between points of the curve (0: none)
    eval_deals: int = 50  # mirrored deals a point of the curve
    final_deals: int = 200  # mirrored deals of the final evaluation (400 rounds)
    eval_seed: int = 10**6  # the evaluation's deals: never the training's


class Network(nn.Module):
    """An MLP over the observation; a masked policy head over the action numbers and a
    value head (CleanRL's orthogonal initialisation)."""

    def __init__(self, observation_size: int, actions: int, hidden: int) -> None:
        super().__init__()
        self.body = nn.Sequential(
            _layer(nn.Linear(observation_size, hidden)),
            nn.ReLU(),
            _layer(nn.Linear(hidden, hidden)),
            nn.ReLU(),
        )
        self.policy = _layer(nn.Linear(hidden, actions), std=0.01)
        self.value = _layer(nn.Linear(hidden, 1), std=1.0)

    def forward(self, observations: torch.Tensor, masks: torch.Tensor) -> tuple[Any, Any]:
        """Masked logits (illegal numbers at -1e9: never drawn) and values."""
        hidden = self.body(observations)
        logits = self.policy(hidden).masked_fill(masks == 0, -1e9)
        return logits, self.value(hidden).squeeze(-1)


#: the hanafuda blocks of 48 cards (one value a card, deck order: month by month, four
#: cards a month), read by name from the encoder's layout
class MonthNetwork(nn.Module):
    """For games whose encoder lays its cards out in groups (``CARD_GROUPS``: the hanafuda
    months): every group's cards (where each of its cards lies, and which are unseen) go
    through the same small network, with a learnt embedding of the group; the groups,
    pooled with the rest of the observation's numbers, give the table's context, which
    each group reads back. A group scores its own actions; the context scores the rest
    (koi-koi, shobu; koi-koi's wild lightning) and the value. The same weights serve every
    month, as the reference learner's do: it learns from far fewer games than a flat MLP.
    ``whole``: the context reads the whole observation too (a yaku spans months: which
    month holds what is lost in the pooling)."""

    def __init__(
        self, encoder: BaseEncoder, actions: int, hidden: int, width: int, whole: bool = False
    ) -> None:
        super().__init__()
        groups = encoder.CARD_GROUPS
        assert groups is not None, "the month network needs the encoder's CARD_GROUPS"
        self.whole = whole
        self.groups, self.size = groups.groups, groups.size
        features = encoder.features()
        self.starts = [features[name].slice.start for name in groups.blocks]
        # the numbers after the card blocks (counts, scores, phase...): the table's tail
        tail = max(features[name].slice.stop for name in groups.blocks)
        self.tail = slice(tail, encoder.observation_size)
        tail_size = encoder.observation_size - tail
        self.month_embedding = nn.Parameter(torch.zeros(self.groups, width))
        per_month = (len(groups.blocks) + 1) * self.size
        # a layer over [month, shared part] is a layer over the month plus one over the
        # shared part: the shared part's is computed once a row, not once a month
        self.month_in = _layer(nn.Linear(per_month, width))
        self.month_in_tail = _layer(nn.Linear(tail_size, width, bias=False))
        self.month_in_2 = _layer(nn.Linear(width, width))
        shared = encoder.observation_size if whole else tail_size
        self.context = nn.Sequential(
            _layer(nn.Linear(2 * width + shared, hidden)), nn.ReLU(),
            _layer(nn.Linear(hidden, hidden)), nn.ReLU(),
        )  # fmt: skip
        self.month_out = _layer(nn.Linear(width, width))
        self.month_out_context = _layer(nn.Linear(hidden, width, bias=False))
        self.month_scores = _layer(nn.Linear(width, len(groups.actions[0])), std=0.01)
        numbers = torch.tensor(groups.actions, dtype=torch.long).reshape(-1)
        others = sorted(set(range(actions)) - set(numbers.tolist()))
        self.others = _layer(nn.Linear(hidden, len(others)), std=0.01)
        self.value = _layer(nn.Linear(hidden, 1), std=1.0)
        self.actions = actions
        self.register_buffer(
            "numbers", torch.cat([numbers, torch.tensor(others)]), persistent=False
        )

    def forward(self, observations: torch.Tensor, masks: torch.Tensor) -> tuple[Any, Any]:
        batch = observations.shape[0]
        deck = self.groups * self.size
        cards = torch.stack([observations[:, s : s + deck] for s in self.starts], dim=1)
        unseen = (1.0 - cards.sum(dim=1, keepdim=True)).clamp(min=0.0)
        cards = torch.cat([cards, unseen], dim=1).reshape(batch, -1, self.groups, self.size)
        months = cards.permute(0, 2, 1, 3).reshape(batch, self.groups, -1)
        tail = observations[:, self.tail]
        first = self.month_in(months) + self.month_in_tail(tail)[:, None, :]
        embedded = torch.relu(self.month_in_2(torch.relu(first))) + self.month_embedding
        shared = observations if self.whole else tail
        pooled = torch.cat([embedded.mean(dim=1), embedded.amax(dim=1), shared], dim=-1)
        context = self.context(pooled)
        own = torch.relu(self.month_out(embedded) + self.month_out_context(context)[:, None, :])
        scores = torch.cat([self.month_scores(own).reshape(batch, -1), self.others(context)], 1)
        logits = scores.new_zeros((batch, self.actions)).index_copy(
            1, cast(torch.Tensor, self.numbers), scores
        )
        logits = logits.masked_fill(masks == 0, -1e9)
        return logits, self.value(context).squeeze(-1)


def make_network(encoder: BaseEncoder, config: Config) -> nn.Module:
    """The month network where the encoder lays its cards out in groups (``month``, or
    ``month-whole`` whose context reads the whole observation too), else the MLP."""
    if config.network in ("month", "month-whole") and encoder.CARD_GROUPS is not None:
        whole = config.network == "month-whole"
        return MonthNetwork(encoder, encoder.action_size, config.hidden, config.month_width, whole)
    return Network(encoder.observation_size, encoder.action_size, config.hidden)


def start_from(network: nn.Module, path: Path, config: Config) -> None:
    """Load the weights of an earlier run into ``network`` (fine-tuning: a one-round policy
    trained on matches, say); its network must be the one this run builds."""
    saved = torch.load(path, map_location="cpu", weights_only=True)
    shape = {key: saved["config"][key] for key in ("network", "hidden", "month_width")}
    wanted = {key: getattr(config, key) for key in shape}
    if shape != wanted:
        raise ValueError(f"{path} holds a {shape} network; this run builds {wanted}")
    network.load_state_dict(full_precision(saved))


def full_precision(saved: dict[str, Any]) -> dict[str, torch.Tensor]:
    """A saved run's weights as the network holds them (they are kept in half precision)."""
    return {key: value.float() for key, value in saved["state"].items()}


def _layer(layer: nn.Linear, std: float = float(np.sqrt(2))) -> nn.Linear:
    nn.init.orthogonal_(layer.weight, std)
    if layer.bias is not None:
        nn.init.constant_(layer.bias, 0.0)
    return layer


@dataclass
class Point:
    """A point of the learning curve: the share of games (rounds, or matches) ahead of the
    opponent."""

    update: int
    seconds: float
    moves: int
    share: float
    low: float
    high: float
    margin: float


@dataclass
class Trained:
    network: nn.Module
    curve: list[Point] = field(default_factory=list)
    updates: int = 0
    moves: int = 0
    seconds: float = 0.0
    illegal: int = 0  # learner actions outside the mask (the masks make it 0)
    kickstart_seconds: float = 0.0
    imitation: float | None = None  # held-out share of the search's moves played, imitated


class PolicyBot:
    """The trained policy as an arena bot: the most likely legal move."""

    name = BOT_NAME

    def __init__(self, network: nn.Module, encoder: BaseEncoder, device: str) -> None:
        self.network, self.encoder, self.device = network, encoder, device

    def choose(self, state: State, seat: int) -> Action:
        observation = torch.from_numpy(observe(self.encoder, state, seat))[None]
        mask = torch.from_numpy(self.encoder.mask(state, seat))[None]
        with torch.no_grad():
            logits, _ = self.network(observation.to(self.device), mask.to(self.device))
        return self.encoder.decode(state, seat, int(logits.argmax()))


def evaluate(network: nn.Module, config: Config, deals: int) -> HeadToHead:
    """The policy against the opponent on ``deals`` mirrored deals (2 x deals rounds)."""
    options = baseline_options(config.game, config.rounds)
    game = cardtable.load(config.game, **options)
    bot = PolicyBot(network, encoder_for(game), config.device)
    jobs = schedule(
        config.game,
        [BOT_NAME, config.opponent],
        games=deals,
        seed=config.eval_seed,
        mode="gauntlet",
        options=options,
    )
    network.eval()
    with registered_for_now(BOT_NAME, "the PPO baseline being evaluated", lambda _g, _s: bot):
        (pair,) = head_to_head(run(jobs), [BOT_NAME, config.opponent])
    network.train()
    return pair


# one loop, top to bottom, as CleanRL writes it: a reader checks the algorithm in one place
def train(config: Config, say: Callable[[str], None] = print) -> Trained:  # noqa: PLR0915
    """Train by PPO until ``config.updates`` or ``config.minutes`` runs out (neither, with
    ``config.imitate``: the imitation alone)."""
    if not (config.updates or config.minutes or config.imitate):
        raise ValueError("bound the run: --updates or --minutes")
    torch.set_num_threads(config.threads)
    torch.manual_seed(config.seed)
    device = torch.device(config.device)
    options = baseline_options(config.game, config.rounds)
    half = config.num_envs // 2
    envs = [
        CardtableVectorEnv(
            config.game, half, opponents=config.opponent, seat=seat, reward="margin", **options
        )
        for seat in (0, 1)
    ]
    teacher = BatchBots(config.teacher or config.opponent, config.game, seed=config.seed)
    encoder = envs[0].games.encoder
    network = make_network(encoder, config).to(device)
    if config.init:
        start_from(network, Path(config.init), config)
    trained = Trained(network)
    begun = time.monotonic()  # the imitation's time counts in the run's minutes
    files = [Path(name) for name in config.imitate.split(",") if name]
    moves = Moves.load_all(files) if files else None
    if moves is not None:
        trained.imitation = imitate(
            network, moves, epochs=config.imitate_epochs, seed=config.seed, say=say
        )
        trained.seconds = time.monotonic() - begun
    optimiser = torch.optim.Adam(network.parameters(), lr=config.lr, eps=1e-5)
    # the margin's part of the reward, over a typical round's margin in this game
    scale = config.margin_weight / spec_of(config.game).info.round_margin

    steps, rows = config.num_steps, half * 2
    observations = torch.zeros((steps, rows, encoder.observation_size))
    masks = torch.zeros((steps, rows, encoder.action_size), dtype=torch.bool)
    actions = torch.zeros((steps, rows), dtype=torch.long)
    teacher_actions = torch.full((steps, rows), -1, dtype=torch.long)
    logprobs, rewards, dones, values = (torch.zeros((steps, rows)) for _ in range(4))

    starts = [env.reset(seed=config.seed * 2 + seat)[0] for seat, env in enumerate(envs)]
    next_obs = torch.from_numpy(np.concatenate([o["observation"] for o in starts]))
    next_mask = torch.from_numpy(np.concatenate([o["action_mask"] for o in starts]) == 1)
    next_done = torch.zeros(rows)

    def progress() -> float:
        done = [trained.updates / config.updates] if config.updates else []
        if config.minutes:
            done.append((time.monotonic() - begun) / (60 * config.minutes))
        return max(done, default=1.0)  # unbounded: the imitation was the whole run

    while progress() < 1.0:
        share = progress()
        optimiser.param_groups[0]["lr"] = config.lr * (1.0 - share)
        kick = 0.0
        if config.kickstart_share > 0:
            kick = config.kickstart * max(0.0, 1.0 - share / config.kickstart_share)
        if kick > 0:
            trained.kickstart_seconds = time.monotonic() - begun
        for step in range(steps):
            observations[step], masks[step], dones[step] = next_obs, next_mask, next_done
            if kick > 0 and moves is None:
                teacher_actions[step] = torch.from_numpy(_teacher_moves(envs, teacher))
            with torch.no_grad():
                logits, value = network(next_obs.to(device), next_mask.to(device))
                log_policy = torch.log_softmax(logits, dim=-1)
                action = torch.multinomial(log_policy.exp(), 1).squeeze(-1)
                chosen_log = log_policy.gather(1, action[:, None]).squeeze(-1)
                logprobs[step], values[step] = chosen_log.cpu(), value.cpu()
            actions[step] = action.cpu()
            trained.illegal += int((~next_mask[torch.arange(rows), actions[step]]).sum())
            chosen = actions[step].numpy()
            parts = [env.step(chosen[i * half : (i + 1) * half]) for i, env in enumerate(envs)]
            paid = np.concatenate(
                [_reward(env, part, scale) for env, part in zip(envs, parts, strict=True)]
            )
            rewards[step] = torch.from_numpy(paid)
            next_obs = torch.from_numpy(np.concatenate([p[0]["observation"] for p in parts]))
            next_mask = torch.from_numpy(np.concatenate([p[0]["action_mask"] for p in parts]) == 1)
            next_done = torch.from_numpy(np.concatenate([p[2] for p in parts]).astype(np.float32))
        trained.moves += steps * rows

        with torch.no_grad():
            _, next_value = network(next_obs.to(device), next_mask.to(device))
            next_value = next_value.cpu()
        advantages = torch.zeros_like(rewards)
        running = torch.zeros(rows)
        for t in reversed(range(steps)):
            after = 1.0 - (next_done if t == steps - 1 else dones[t + 1])
            later = next_value if t == steps - 1 else values[t + 1]
            delta = rewards[t] + config.gamma * later * after - values[t]
            running = delta + config.gamma * config.gae_lambda * after * running
            advantages[t] = running
        returns = advantages + values

        flat = {
            "obs": observations.reshape(-1, encoder.observation_size),
            "mask": masks.reshape(-1, encoder.action_size),
            "action": actions.reshape(-1),
            "logprob": logprobs.reshape(-1),
            "advantage": advantages.reshape(-1),
            "return": returns.reshape(-1),
            "teacher": teacher_actions.reshape(-1),
        }
        _epochs(network, optimiser, config, flat, kick, device, moves)
        trained.updates += 1
        trained.seconds = time.monotonic() - begun
        if config.eval_every and trained.updates % config.eval_every == 0:
            trained.curve.append(_point(trained, config, config.eval_deals))
            say(_describe(trained.curve[-1], config))
    for env in envs:
        env.close()
    return trained


def _teacher_moves(envs: list[CardtableVectorEnv], teacher: BatchBots) -> Any:
    """The opponent bot's move in the learner's place, a row (-1 where the row shows a
    finished game: nothing to imitate)."""
    moves = []
    for env in envs:
        row_moves = np.full(env.num_envs, -1, dtype=np.int64)
        rows = env.learner_rows()
        if rows:
            row_moves[rows] = teacher.actions(env.games, rows)
        moves.append(row_moves)
    return np.concatenate(moves)


def _reward(env: CardtableVectorEnv, step: tuple[Any, ...], scale: float) -> Any:
    """The margin's part, and +1/-1 where a game (a round, or a match) ended ahead/behind
    (the learner's)."""
    _, margin, terminated, _, infos = step
    paid = margin.astype(np.float32) * scale
    for row in np.flatnonzero(terminated):
        scores = infos["final_info"][row]["scores"]
        mine, theirs = scores[env.seat], scores[1 - env.seat]
        paid[row] += float(np.sign(mine - theirs))
    return paid


def _optimise(
    network: nn.Module,
    optimiser: torch.optim.Optimizer,
    config: Config,
    batch: dict[str, torch.Tensor],
    kick: float,
    device: torch.device,
    searched: tuple[torch.Tensor, torch.Tensor, torch.Tensor] | None = None,
) -> None:
    """One minibatch's step: PPO's loss, plus ``kick`` times the cross-entropy towards the
    teacher bot's moves (``batch["teacher"]``) or a search's stored moves (``searched``:
    observations, masks, actions)."""
    batch = {key: value.to(device) for key, value in batch.items()}
    logits, value = network(batch["obs"], batch["mask"])
    log_policy = torch.log_softmax(logits, dim=-1)
    chosen_log = log_policy.gather(1, batch["action"][:, None]).squeeze(-1)
    ratio = (chosen_log - batch["logprob"]).exp()
    # illegal numbers have probability 0 exactly: they add nothing to the entropy
    entropy = -(log_policy.exp() * log_policy).sum(-1)
    advantage = batch["advantage"]
    advantage = (advantage - advantage.mean()) / (advantage.std() + 1e-8)
    surrogate = torch.max(
        -advantage * ratio, -advantage * ratio.clamp(1 - config.clip, 1 + config.clip)
    ).mean()
    value_loss = 0.5 * ((value - batch["return"]) ** 2).mean()
    loss = surrogate + config.vf_coef * value_loss - config.ent_coef * entropy.mean()
    known = batch["teacher"] >= 0
    if kick > 0 and bool(known.any()):
        imitation = nn.functional.cross_entropy(logits[known], batch["teacher"][known])
        loss = loss + kick * imitation
    if kick > 0 and searched is not None:
        observed, allowed, played = (part.to(device) for part in searched)
        stored_logits, _ = network(observed, allowed)
        loss = loss + kick * nn.functional.cross_entropy(stored_logits, played)
    optimiser.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(network.parameters(), config.max_grad_norm)
    optimiser.step()


def _epochs(
    network: nn.Module,
    optimiser: torch.optim.Optimizer,
    config: Config,
    flat: dict[str, torch.Tensor],
    kick: float,
    device: torch.device,
    moves: Moves | None,
) -> None:
    """The update's epochs over the rollout, in shuffled minibatches (with as many of the
    search's stored moves beside each while the kickstart lasts)."""
    size = len(flat["action"])
    batch = size // config.minibatches
    for _ in range(config.update_epochs):
        order = torch.randperm(size)
        for first in range(0, size, batch):
            picked = order[first : first + batch]
            searched = None
            if kick > 0 and moves is not None:
                searched = _searched(moves, torch.randint(len(moves), (len(picked),)))
            minibatch = {k: v[picked] for k, v in flat.items()}
            _optimise(network, optimiser, config, minibatch, kick, device, searched)


def _searched(moves: Moves, rows: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    picked = rows.numpy()
    return (
        torch.from_numpy(moves.observations[picked]),
        torch.from_numpy(moves.masks[picked]),
        torch.from_numpy(moves.actions[picked]),
    )


def _point(trained: Trained, config: Config, deals: int) -> Point:
    pair = evaluate(trained.network, config, deals)
    low, high = pair.interval()
    return Point(
        trained.updates, trained.seconds, trained.moves, pair.share, low, high, pair.margin()[0]
    )


def _describe(point: Point, config: Config) -> str:
    return (
        f"update {point.update:>5} ({point.seconds / 60:5.1f} min, {point.moves:,} moves): "
        f"ahead of {config.opponent} in {point.share:.1%} ({point.low:.1%} – {point.high:.1%}), "
        f"{point.margin:+.1f} a {unit(config)}"
    )


def save(trained: Trained, config: Config, final: Point | None, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    # half precision: the weights ship in the repository (a third of a megabyte to 1 MB
    # as floats); their 400-round figures come out the same
    state = {key: value.half() for key, value in trained.network.state_dict().items()}
    torch.save({"config": asdict(config), "state": state}, out / "ppo.pt")
    rows = ["update,seconds,moves,share,low,high,margin"]
    rows += [",".join(f"{v:g}" for v in asdict(p).values()) for p in trained.curve]
    (out / "curve.csv").write_text("\n".join(rows) + "\n")
    summary = {
        "config": asdict(config),
        "updates": trained.updates,
        "moves": trained.moves,
        "seconds": round(trained.seconds, 1),
        "kickstart_seconds": round(trained.kickstart_seconds, 1),
        "imitation": trained.imitation,
        "final": None if final is None else asdict(final),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    if trained.curve:
        _plot(trained.curve, config, out / "learning_curve.png")


def _plot(curve: list[Point], config: Config, path: Path) -> None:
    import matplotlib  # noqa: PLC0415 - only a run that writes its curve needs it

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - after choosing the Agg backend

    figure, axis = plt.subplots(figsize=(7, 4))
    minutes = [p.seconds / 60 for p in curve]
    axis.plot(minutes, [p.share for p in curve], marker="o")
    axis.fill_between(minutes, [p.low for p in curve], [p.high for p in curve], alpha=0.2)
    axis.axhline(0.5, color="grey", linewidth=0.8)
    # the bar the baseline was set: 55 % of single rounds, 60 % of matches
    bar = 0.6 if config.rounds > 1 else 0.55
    axis.axhline(bar, color="red", linewidth=0.8, linestyle="--")
    axis.set_xlabel("training minutes")
    axis.set_ylabel(f"{unit(config, plural=True)} ahead of {config.opponent}")
    games = f"{2 * config.eval_deals} mirrored {unit(config, plural=True)}"
    rounds = f", {config.rounds}-round matches" if config.rounds > 1 else ""
    axis.set_title(f"PPO baseline, {config.game}{rounds} ({games} a point)")
    figure.tight_layout()
    figure.savefig(path, dpi=110)


def load(path: Path, device: str = "cpu") -> tuple[nn.Module, Config]:
    saved = torch.load(path, map_location=device, weights_only=True)
    config = Config(**{**saved["config"], "device": device})
    options = baseline_options(config.game, config.rounds)
    encoder = encoder_for(cardtable.load(config.game, **options))
    network = make_network(encoder, config)
    network.load_state_dict(full_precision(saved))
    return network.to(device), config


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    defaults = Config(game="")
    parser.add_argument("--game", required=True, help="the game to train, e.g. bakappana")
    for name, value in asdict(defaults).items():
        if name != "game":
            parser.add_argument(f"--{name.replace('_', '-')}", type=type(value), default=value)
    parser.add_argument("--out", type=Path, default=Path("ppo-results"))
    parser.add_argument("--evaluate", type=Path, help="evaluate saved weights, train nothing")
    args = parser.parse_args(argv)
    config = Config(**{name: getattr(args, name) for name in asdict(defaults)})
    if args.evaluate:
        network, saved = load(args.evaluate, config.device)
        torch.set_num_threads(config.threads)
        # --rounds: a policy measured on other matches than it learnt on (a one-round
        # policy on 6-round matches, say)
        config = Config(
            **{
                **asdict(saved),
                "final_deals": config.final_deals,
                "device": config.device,
                "rounds": config.rounds or saved.rounds,
            }
        )
        begun = time.monotonic()
        pair = evaluate(network, config, config.final_deals)
        share, interval, margin = pair.figures()
        print(
            f"{config.game}: ahead of {config.opponent} in {share} of {pair.games} mirrored "
            f"{unit(config, plural=True)} "
            f"(95 % {interval}), margin {margin}, {time.monotonic() - begun:.0f} s"
        )
        return
    trained = train(config)
    final = _point(trained, config, config.final_deals) if config.final_deals else None
    if final is not None:
        games = f"{2 * config.final_deals} {unit(config, plural=True)}"
        print("final: " + _describe(final, config) + f" over {games}")
    save(trained, config, final, args.out)


if __name__ == "__main__":
    main()
