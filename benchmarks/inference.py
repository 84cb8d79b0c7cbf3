"""How well the hand reader (cardtable.games.hanafuda.bots.inference) guesses the hidden
hand, against uniform determinization, over koi-koi positions.

    .venv/bin/python benchmarks/inference.py --positions 1000

Positions are seat 0's card plays in one-round koi-koi games (after the opponent's first
hand play of the round), seat 0 played by the strategist and the opponent by
``--opponent`` (the strategist is the reader's own model; greedy is not). For each
position ``--candidates`` uniform determinizations are weighed by the reader. Printed:

- *true hand / uniform*: the likelihood of the true hand over the candidates' mean
  likelihood, the factor by which the reader's weighting raises the true hand's
  probability above the uniform one (geometric mean over positions; > 1 is better);
- *per card*: the probability each card really in the hand gets (the weighted share of
  candidates holding it) against the uniform share, and the mean log loss (bits) over
  every unseen card of both guesses (lower is better).

The first half of the positions chooses the softmax temperature (of ``--temperatures``)
with the lowest log loss; the second half reports on it.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass

import cardtable
from cardtable.agents import make_agent
from cardtable.core.rng import Rng
from cardtable.games.hanafuda.bots.inference import HandReader, hand_plays
from cardtable.games.hanafuda.deck import FULL_DECK, count_cards
from cardtable.games.hanafuda.fishing import FishingState
from common import save_figures


@dataclass
class Position:
    state: FishingState
    samples: list[FishingState]


def positions(count: int, opponent: str, candidates: int, seed: int) -> list[Position]:
    """``count`` positions of seat 0 with uniform determinizations, from seeded games."""
    game = cardtable.load("koi-koi", rounds=1)
    found: list[Position] = []
    rng = Rng(seed)
    game_seed = seed
    while len(found) < count:
        bots = [
            make_agent("strategist", "koi-koi", seed=game_seed),
            make_agent(opponent, "koi-koi", seed=game_seed + 1),
        ]
        state = game.new_state(seed=game_seed)
        game_seed += 2
        while not state.is_over and len(found) < count:
            seat = min(state.to_move)
            assert isinstance(state, FishingState)
            if seat == 0 and state.phase == "play" and hand_plays(state, 0):
                samples = [state.determinize(0, rng) for _ in range(candidates)]
                found.append(Position(state.clone(), samples))
            state.apply(seat, bots[seat].choose(state, seat))
    return found


def scores(found: list[Position], temperature: float) -> dict[str, float]:
    """The reader's guesses against uniform ones over ``found``."""
    log_ratio = loss_model = loss_uniform = true_model = true_uniform = 0.0
    cards = hand_cards = 0
    for position in found:
        state = position.state
        reader = HandReader(state, 0, temperature)
        weights = [reader.likelihood(sample.hands) for sample in position.samples]
        mean = sum(weights) / len(weights)
        log_ratio += math.log(reader.likelihood(state.hands) / mean)
        seen = state.hands[0] | state.table | sum(state.piles)
        if state.pending >= 0:
            seen |= 1 << state.pending
        hand = state.hands[1]
        unseen = FULL_DECK & ~seen
        uniform = count_cards(hand) / count_cards(unseen)
        for card in range(48):
            if not unseen >> card & 1:
                continue
            held = sum(
                w for w, s in zip(weights, position.samples, strict=True) if s.hands[1] >> card & 1
            )
            # a little of the uniform guess: a share of 0 would cost infinite log loss
            share = 0.98 * held / (mean * len(weights)) + 0.02 * uniform
            truth = bool(hand >> card & 1)
            loss_model -= math.log2(share if truth else 1 - share)
            loss_uniform -= math.log2(uniform if truth else 1 - uniform)
            cards += 1
            if truth:
                true_model += share
                true_uniform += uniform
                hand_cards += 1
    return {
        "positions": len(found),
        "temperature": temperature,
        "true_hand_over_uniform": math.exp(log_ratio / len(found)),
        "true_card_share_model": true_model / hand_cards,
        "true_card_share_uniform": true_uniform / hand_cards,
        "log_loss_bits_model": loss_model / cards,
        "log_loss_bits_uniform": loss_uniform / cards,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--positions", type=int, default=1000, help="reported (as many again calibrate)"
    )
    parser.add_argument("--candidates", type=int, default=100)
    parser.add_argument("--opponent", action="append", help="strategist, greedy (both by default)")
    parser.add_argument("--temperatures", type=float, nargs="+", default=[2.0, 8.0, 32.0])
    args = parser.parse_args()
    report = {}
    for opponent in args.opponent or ["strategist", "greedy"]:
        start = time.perf_counter()
        found = positions(2 * args.positions, opponent, args.candidates, seed=7)
        calibration, held_out = found[: args.positions], found[args.positions :]
        losses = {}
        for temperature in args.temperatures:
            losses[temperature] = scores(calibration, temperature)["log_loss_bits_model"]
            print(
                f"  {opponent}: temperature {temperature:g}: log loss {losses[temperature]:.4f}",
                file=sys.stderr,
            )
        best = min(losses, key=losses.__getitem__)
        figures = scores(held_out, best)
        figures["seconds"] = time.perf_counter() - start
        report[opponent] = figures
        print(
            f"opponent {opponent:<10} {figures['positions']} positions, temperature {best:g}: "
            f"true hand {figures['true_hand_over_uniform']:.2f}x uniform; a true card's share "
            f"{figures['true_card_share_model']:.3f} vs {figures['true_card_share_uniform']:.3f}; "
            f"log loss {figures['log_loss_bits_model']:.4f} vs "
            f"{figures['log_loss_bits_uniform']:.4f} bits a card"
        )
    save_figures("inference", report)


if __name__ == "__main__":
    main()
