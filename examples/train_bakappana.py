"""Train a small policy for Bakappana on CPU with numpy, then show in the arena that it
beats the random bot.

    .venv/bin/python examples/train_bakappana.py                 # about a minute
    .venv/bin/python examples/train_bakappana.py --episodes 500  # a quick look

The policy is linear and small (29 weights): each legal move is described by what the
seat's observation says about the month of the card it plays (which of the month's four
cards are in the hand, on the table, flipped, in either pile; the card's kind; the kind
it takes), and a softmax over the legal moves picks one. It learns by REINFORCE with a
per-decision running baseline against the ``random`` bot in the Gymnasium wrapper, one
round per episode. The reward it learns from is shaped: how much its capture margin (own
captured card value minus the opponent's, public on the table) grows after each move,
which is what decides the round's score. The learning curve and the arena report the
game's real scores: every ``--eval-every`` episodes the greedy policy plays mirrored
rounds against ``random``; at the end the curve goes to ``--out``/learning_curve.png and
the policy plays an arena gauntlet against ``random`` and ``greedy`` on mirrored deals.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import matplotlib
import numpy as np
import numpy.typing as npt

import cardtable
from cardtable.agents.base import register_agent
from cardtable.arena.tournament import records, run, schedule
from cardtable.core.actions import Action
from cardtable.core.state import State
from cardtable.rl import SingleAgentEnv
from cardtable.rl.encoding import encoder_for, observe

GAME = "bakappana"
OPTIONS: dict[str, Any] = {"players": 2, "rounds": 1}
Floats = npt.NDArray[np.float64]


# The observation blocks read, by name from the encoder's layout (docs/rl.md): no offsets here.
BLOCK_NAMES = ("hand", "table", "flipped", "pile_0", "pile_1")
BLOCKS = len(BLOCK_NAMES)
STARTS = [
    encoder_for(cardtable.load(GAME, **OPTIONS)).features()[name].slice.start
    for name in BLOCK_NAMES
]
FEATURES = BLOCKS * 4 + 4 + 4 + 1


def month_features(observation: Floats, action: int) -> Floats:
    """What the observation says about the month of the card an action plays: which of
    that month's 4 cards are in each block, the card's kind, the kind it takes, a bias.
    The same weights then serve every month: that is what makes the policy small."""
    if action < 48:
        card, take = action, -1
    elif action < 48 * 5:
        card, take = (action - 48) // 4, (action - 48) % 4
    else:  # a take for the flipped stock card
        card, take = action - 48 * 5, (action - 48 * 5) % 4
    month = card // 4
    out = np.zeros(FEATURES)
    for block, first in enumerate(STARTS):
        start = first + month * 4
        out[block * 4 : block * 4 + 4] = observation[start : start + 4]
    out[BLOCKS * 4 + card % 4] = 1.0
    if take >= 0:
        out[BLOCKS * 4 + 4 + take] = 1.0
    out[-1] = 1.0
    return out


class LinearPolicy:
    """Masked softmax over ``weights @ month_features(observation, action)``."""

    def __init__(self, seed: int) -> None:
        self.weights = np.random.default_rng(seed).normal(0.0, 0.01, FEATURES)

    def features(self, observation: Floats, legal: npt.NDArray[np.intp]) -> Floats:
        return np.array([month_features(observation, int(a)) for a in legal])

    def probabilities(self, features: Floats) -> Floats:
        logits = features @ self.weights
        exp = np.exp(logits - logits.max())
        return exp / exp.sum()

    def best(self, observation: Floats, mask: npt.NDArray[np.int8]) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[np.argmax(self.features(observation, legal) @ self.weights)])


def capture_margin(env: SingleAgentEnv) -> float:
    """Own captured card value minus the opponent's (public: both piles lie face up)."""
    values = env.state.view(env.seat)["pile_values"]
    return float(values[env.seat] - values[1 - env.seat])


def play_episode(
    env: SingleAgentEnv, policy: LinearPolicy, rng: np.random.Generator, seed: int
) -> tuple[list[tuple[Floats, int, float]], float]:
    """One round; each step keeps its legal actions' features, the choice, and how much
    the capture margin grew until our next move (a shaped reward: the round's score is
    decided by those captures)."""
    observation, _ = env.reset(seed=seed)
    steps, total, done = [], 0.0, False
    while not done:
        legal = np.flatnonzero(observation["action_mask"])
        features = policy.features(observation["observation"].astype(np.float64), legal)
        choice = int(rng.choice(len(legal), p=policy.probabilities(features)))
        before = capture_margin(env)
        observation, reward, terminated, truncated, _ = env.step(int(legal[choice]))
        steps.append((features, choice, capture_margin(env) - before))
        total += reward
        done = terminated or truncated
    return steps, total


def evaluate(policy: LinearPolicy, rounds: int, seed: int, opponent: str = "random") -> float:
    """Mean round score of the greedy policy against ``opponent``, from both seats."""
    total = 0.0
    for seat in (0, 1):
        env = SingleAgentEnv(GAME, opponents=opponent, seat=seat, **OPTIONS)
        for k in range(rounds // 2):
            observation, _ = env.reset(seed=seed + k)
            done = False
            while not done:
                action = policy.best(observation["observation"], observation["action_mask"])
                observation, reward, terminated, truncated, _ = env.step(action)
                total += reward
                done = terminated or truncated
    return total / (2 * (rounds // 2))


def train(
    episodes: int,
    seed: int,
    eval_every: int,
    eval_rounds: int,
    rate: float = 0.05,
    opponent: str = "random",
) -> tuple[LinearPolicy, list[tuple[int, float]]]:
    env = SingleAgentEnv(GAME, opponents=opponent, **OPTIONS)
    policy = LinearPolicy(seed)
    rng = np.random.default_rng(seed)
    baseline = np.zeros(16)  # per decision number: the mean return-to-go seen there
    curve = [(0, evaluate(policy, eval_rounds, 10**6, opponent))]
    for episode in range(1, episodes + 1):
        env.seat = episode % 2  # both seats
        steps, _ = play_episode(env, policy, rng, seed * 10**6 + episode)
        to_go = np.cumsum([shaped for *_, shaped in steps][::-1])[::-1]
        for number, ((features, choice, _), value) in enumerate(zip(steps, to_go, strict=True)):
            advantage = (value - baseline[number]) / 20.0
            baseline[number] += 0.01 * (value - baseline[number])
            probs = policy.probabilities(features)
            # d log pi(choice) / d weights = phi(choice) - E_pi[phi]
            policy.weights += rate * advantage * (features[choice] - probs @ features)
        if episode % eval_every == 0:
            curve.append((episode, evaluate(policy, eval_rounds, 10**6, opponent)))
            print(f"episode {episode:>6}: {curve[-1][1]:+.1f} points a round against {opponent}")
    return policy, curve


def policy_agent(policy: LinearPolicy) -> Callable[[str, int | None], Any]:
    encoder = encoder_for_game()

    class TrainedAgent:
        name = "rl-linear"

        def choose(self, state: State, seat: int) -> Action:
            observation = observe(encoder, state, seat).astype(np.float64)
            index = policy.best(observation, encoder.mask(state, seat))
            return encoder.decode(state, seat, index)

    return lambda game_id, seed: TrainedAgent()


def encoder_for_game() -> Any:
    return encoder_for(cardtable.load(GAME, **OPTIONS))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--eval-every", type=int, default=500)
    parser.add_argument("--eval-rounds", type=int, default=200)
    parser.add_argument("--arena-deals", type=int, default=200, help="deals per pairing")
    parser.add_argument("--opponent", default="random", help="the bot it trains against")
    parser.add_argument("--out", type=Path, default=Path("examples/results"))
    args = parser.parse_args()

    policy, curve = train(
        args.episodes, args.seed, args.eval_every, args.eval_rounds, opponent=args.opponent
    )
    args.out.mkdir(parents=True, exist_ok=True)
    np.save(args.out / "policy.npy", policy.weights)
    lines = ["episodes,mean_points_a_round", *(f"{e},{v:.3f}" for e, v in curve)]
    (args.out / "learning_curve.csv").write_text("\n".join(lines) + "\n")

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # noqa: PLC0415 - after choosing the Agg backend

    figure, axis = plt.subplots(figsize=(7, 4))
    axis.plot([e for e, _ in curve], [s for _, s in curve], marker="o")
    axis.axhline(0, color="grey", linewidth=0.8)
    axis.set_xlabel(f"training episodes (one round each, against {args.opponent})")
    axis.set_ylabel(f"mean points a round vs {args.opponent}")
    axis.set_title("Bakappana: 29-weight linear policy, REINFORCE (numpy, CPU)")
    figure.tight_layout()
    figure.savefig(args.out / "learning_curve.png", dpi=120)

    register_agent("rl-linear", "the example's trained linear policy", policy_agent(policy))
    jobs = schedule(
        GAME, ["rl-linear", "random", "greedy"], games=args.arena_deals, seed=args.seed,
        mode="gauntlet", options=OPTIONS,
    )  # fmt: skip
    outcomes = run(jobs)
    summary: dict[str, Any] = {"curve": curve, "arena": {}}
    for opponent in ("random", "greedy"):
        mine = [o for o in outcomes if opponent in o.bots]
        record = records(mine)["rl-linear"]
        low, high = record.interval()
        margin = float(
            np.mean(
                [
                    o.scores[o.bots.index("rl-linear")] - o.scores[o.bots.index(opponent)]
                    for o in mine
                ]
            )
        )
        summary["arena"][opponent] = {
            "games": record.games, "win_rate": record.win_rate, "interval": [low, high],
            "mean_margin": margin,
        }  # fmt: skip
        print(
            f"arena vs {opponent}: {record.games} mirrored games, win rate "
            f"{record.win_rate:.1%} (95 % CI {low:.1%}–{high:.1%}), {margin:+.1f} points a game"
        )
    (args.out / "summary.json").write_text(json.dumps(summary, indent=2))
    print(f"learning curve: {args.out / 'learning_curve.png'}")


if __name__ == "__main__":
    main()
