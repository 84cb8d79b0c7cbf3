"""What the top level could gain in koi-koi: variants of the search against ``hard`` (or
the level ``--against`` names: ``expert`` for a level above it) on mirrored single-round
deals (the arena's schedule and process pool; each game journalled as it ends). ``--game``
names another hanafuda game (its journals go to a folder of its name), ``--rounds`` a
match's length (a folder ``N-rounds``).

Variants (each ISMCTS at the hard level's budget, greedy playouts unless said):

- ``expert``: the shipped level (hands dealt by the hand reader);
- ``strategist-playouts``: the hand reader, playouts by the strategist instead of greedy
  (about 0.8 s a move); ``strategist-playouts-1k`` the same with 1 000 iterations a move
  (about expert's time);
- ``for-points``: ``expert`` judging each playout by its margin as if four rounds were left
  (a single round is otherwise played to win it, not for its points);
- ``explore-0.35``, ``explore-1.4``: ``expert`` with half and twice its UCB exploration;
- ``learned``: the hand reader, each leaf judged by the learned evaluator alone (no
  playout: the shipped network, ``make train``);
- ``learned-mix``: the hand reader, a leaf judged half by its playout, half by the network;
- ``exact-endgame``: ``expert`` until every hand holds at most four cards, then each move
  valued by solving the hand reader's sampled deals exactly to the end of the round
  (minimax with alpha-beta: each sampled world has perfect information);
- ``reader-24``: ``expert`` whose reader keeps each iteration's deal from 24 weighed
  candidates instead of 8 (a sharper posterior, at more time a move);
- ``reader-t32``: ``expert`` whose reader's softmax runs at temperature 32 instead of 8
  (a softer reading: its model, the strategist, is not how ``expert`` plays);
- ``turns-1``, ``turns-2``, ``turns-3``: ``expert`` whose tree holds only the first one,
  two or three turns (a turn: one seat's moves in a row), greedy playouts the rest;
  ``turns-2`` is the ``master`` level;
- ``observed``: ``expert`` whose tree keeps the moves after each action apart by the card
  turned from the stock with it, instead of averaging them over every card turned;
- ``sees-hands``: an oracle told the other hand (only the stock order is dealt afresh):
  how much perfect hand reading could gain at most;
- ``sees-all``: an oracle told the stock order too.

The oracles read hidden cards on purpose: they bound what any honest bot can gain.

    .venv/bin/python benchmarks/against_hard.py --variants sees-hands,learned --deals 200 --jobs 2
    .venv/bin/python benchmarks/against_hard.py --variants strategist-playouts --against expert
    .venv/bin/python benchmarks/against_hard.py --variants turns-2 --against expert --rounds 12
    .venv/bin/python benchmarks/against_hard.py --variants turns-2 --deals 800 --resume ...
    .venv/bin/python benchmarks/against_hard.py --tally benchmarks/results/device/x-expert.jsonl

``--resume`` keeps the games a journal holds and plays the rest: a run stopped part way,
or grown to more deals (the first deals of a seed are the same at any ``--deals``).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import IO, Any

from cardtable.agents.base import EXPERT_SECONDS, Agent, actions_for, register_agent
from cardtable.agents.ismcts import EXPLORATION, Dealer, match_rewards, search_level
from cardtable.agents.learned import LearnedLeaf
from cardtable.arena.tournament import GameOutcome, head_to_head, read_outcomes, run, schedule
from cardtable.core.actions import Action
from cardtable.core.rng import Rng
from cardtable.core.state import State
from cardtable.games.hanafuda.bots import expert, read_hands, trained_network, turned_card
from cardtable.games.hanafuda.bots.inference import CANDIDATES, TEMPERATURE
from cardtable.games.hanafuda.encoding import HanafudaEncoder
from common import revealed_copy, save_figures


class TrueHands:
    """An oracle's dealer (see :func:`common.revealed_copy`)."""

    def __init__(self, state: State, stock: bool) -> None:
        self.state, self.stock = state, stock

    def sample(self, rng: Rng) -> State:
        copy: State = revealed_copy(self.state, self.stock, rng)
        return copy


def oracle(stock: bool) -> Any:
    def make(game_id: str, seed: int | None) -> Agent:
        return search_level(game_id, seed, belief=lambda state, seat: TrueHands(state, stock))

    return make


def learned(share: float) -> Any:
    def make(game_id: str, seed: int | None) -> Agent:
        network = trained_network(game_id)
        assert network is not None, "no trained network: make train"
        leaf = LearnedLeaf(network, HanafudaEncoder())
        return search_level(
            game_id, seed, belief=read_hands, live_seconds=EXPERT_SECONDS, leaf=leaf,
            leaf_share=share,
        )  # fmt: skip

    return make


def playouts(
    rollout: str,
    iterations: int | None = None,
    horizon: int = 0,
    exploration: float = EXPLORATION,
    **search: Any,
) -> Any:
    def make(game_id: str, seed: int | None) -> Agent:
        return search_level(
            game_id, seed, rollout=rollout, belief=read_hands, iterations=iterations,
            live_seconds=EXPERT_SECONDS, horizon=horizon, exploration=exploration, **search,
        )  # fmt: skip

    return make


class ExactEndgame:
    """``expert`` until every hand holds at most ``cards`` cards (hand sizes are public);
    then each legal move is valued by its exact outcome in ``worlds`` deals sampled by the
    hand reader (the stock's order too), both seats playing perfectly in each, and the best
    mean played: perfect-information Monte Carlo, solved instead of played out."""

    name = "exact-endgame"

    def __init__(self, game_id: str, seed: int | None, cards: int = 4, worlds: int = 96) -> None:
        self.search = expert(game_id, seed)
        self.cards, self.worlds = cards, worlds
        self.rng = Rng(0 if seed is None else seed + 7)

    def choose(self, state: State, seat: int) -> Action:
        legal = actions_for(state, seat)
        if len(legal) == 1 or max(state.view(seat)["hand_sizes"]) > self.cards:
            return self.search.choose(state, seat)
        dealer = read_hands(state, seat)
        rounds_left, until = self.search.rounds_left(state), state.rounds_finished
        scale = self.search.margin_square**0.5 or 5.0  # the search's RMS round margin
        values = [0.0] * len(legal)
        for _ in range(self.worlds):
            world = state.determinize(seat, self.rng) if dealer is None else dealer.sample(self.rng)
            world.end_at_round()
            for index, action in enumerate(legal):
                child = world.clone()
                child.advance(seat, action)
                values[index] += solved(child, seat, until, scale, rounds_left, -1.0, 2.0)
        return legal[max(range(len(legal)), key=values.__getitem__)]


def solved(
    state: State, seat: int, until: int, scale: float, rounds_left: int, low: float, high: float
) -> float:
    """``seat``'s reward at the end of round ``until`` from ``state`` with both seats
    playing perfectly (alpha-beta between ``low`` and ``high``)."""
    if state.is_over or state.rounds_finished != until:
        return match_rewards(state.scores(), scale, rounds_left)[seat]
    mover = min(state.to_move)
    best = -1.0 if mover == seat else 2.0
    for action in state.legal_actions(mover):
        child = state.clone()
        child.advance(mover, action)
        value = solved(child, seat, until, scale, rounds_left, low, high)
        if mover == seat:
            best, low = max(best, value), max(low, value)
        else:
            best, high = min(best, value), min(high, value)
        if low >= high:
            break
    return best


def other_reader(candidates: int = CANDIDATES, temperature: float = TEMPERATURE) -> Any:
    def make(game_id: str, seed: int | None) -> Agent:
        def belief(state: State, seat: int) -> Dealer | None:
            return read_hands(state, seat, temperature, candidates)

        return search_level(game_id, seed, belief=belief, live_seconds=EXPERT_SECONDS)

    return make


VARIANTS = {
    "strategist-playouts": playouts("strategist"),
    "strategist-playouts-1k": playouts("strategist", 1000),
    "for-points": playouts("greedy", horizon=4),
    "explore-0.35": playouts("greedy", exploration=0.35),
    "explore-1.4": playouts("greedy", exploration=1.4),
    "learned": learned(1.0),
    "learned-mix": learned(0.5),
    "exact-endgame": ExactEndgame,
    "turns-1": playouts("greedy", max_turns=1),
    "turns-2": playouts("greedy", max_turns=2),
    "turns-3": playouts("greedy", max_turns=3),
    "observed": playouts("greedy", observe=turned_card),
    "reader-24": other_reader(candidates=24),
    "reader-t32": other_reader(temperature=32.0),
    "sees-hands": oracle(False),
    "sees-all": oracle(True),
}


def tally(journal: Path) -> str:
    """A journal's figures (``VARIANT-OPPONENT.jsonl``) over the deals played from both
    seats: a run cut short leaves some played from one seat only, which are not mirrored."""
    variant, opponent = journal.stem.rsplit("-", 1)
    outcomes = read_outcomes(journal)
    seats = Counter(outcome.deal_seed for outcome in outcomes)
    mirrored = [outcome for outcome in outcomes if seats[outcome.deal_seed] == 2]
    if not mirrored:
        return f"{variant} – {opponent}: no deal played from both seats yet"
    (pairing,) = head_to_head(mirrored, [variant, opponent])
    share, interval, margin = pairing.figures()
    games = "matches" if journal.parent.name.endswith("-rounds") else "rounds"
    return f"{variant} – {opponent}: {pairing.games} {games}, {share} ({interval}), margin {margin}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variants", default="expert,learned,learned-mix,sees-hands")
    parser.add_argument("--deals", type=int, default=200, help="deals, each from both seats")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--against", default="hard", help="the level each variant meets")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/against_hard"))
    parser.add_argument("--game", default="koi-koi", help="a hanafuda game (koi-koi unless told)")
    parser.add_argument("--players", type=int, help="players, where the game lets you choose")
    parser.add_argument("--rounds", type=int, default=1, help="rounds a game (12: a match)")
    parser.add_argument(
        "--resume", action="store_true",
        help="keep the games a journal already holds and play the rest (more --deals: more)",
    )  # fmt: skip
    parser.add_argument("--tally", type=Path, help="only print this journal's figures")
    args = parser.parse_args()
    if args.tally is not None:
        print(tally(args.tally))
        return
    for name, make in VARIANTS.items():
        register_agent(name, f"benchmark variant {name}", make)  # the pool's forks see them
    out = args.out if args.rounds == 1 else args.out / f"{args.rounds}-rounds"
    if args.game != "koi-koi":
        out /= args.game
    out.mkdir(parents=True, exist_ok=True)
    figures: dict[str, Any] = {"game": args.game, "deals": args.deals, "rounds": args.rounds}
    options = {"rounds": args.rounds}
    if args.players is not None:
        options["players"] = args.players
    opponent = args.against
    for variant in args.variants.split(","):
        jobs = schedule(args.game, [variant, opponent], games=args.deals, seed=args.seed,
                        options=options)  # fmt: skip
        path = out / f"{variant}-{opponent}.jsonl"
        done = read_outcomes(path) if args.resume and path.exists() else []
        played = {outcome.index for outcome in done}
        for outcome in done:  # a journal of other deals would mix two runs' figures
            job = jobs[outcome.index] if outcome.index < len(jobs) else None
            if job is None or (job.deal_seed, job.bots) != (outcome.deal_seed, outcome.bots):
                raise SystemExit(f"{path} holds games of another run: --out elsewhere")
        started = time.perf_counter()
        with path.open("a" if done else "w") as journal:

            def kept(outcome: GameOutcome, journal: IO[str] = journal) -> None:
                journal.write(json.dumps(outcome.to_json()) + "\n")
                journal.flush()  # a long run can be read while it plays

            left = [job for job in jobs if job.index not in played]
            outcomes = done + run(left, workers=args.jobs, on_done=kept)
        (pairing,) = head_to_head(outcomes, [variant, opponent])
        share, interval, margin = pairing.figures()
        seconds = time.perf_counter() - started
        print(f"{variant:>12} – {opponent}: {share} ({interval}), margin {margin}, {seconds:.0f} s")
        figures[variant] = {"share": share, "interval": interval, "margin": margin}
    save_figures(
        f"against_{opponent}" + ("" if args.game == "koi-koi" else f"_{args.game}"), figures
    )


if __name__ == "__main__":
    main()
