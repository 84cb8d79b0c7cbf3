"""How much is there to gain over greedy? Oracle searches against greedy, 2 players.

On the same mirrored single-round deals, each bot below plays greedy, and its margin is
compared with greedy's own margin on that deal and seat (greedy against greedy): the
paired difference takes out most of the luck of the deal. Bots:

- ``hard``: the real ISMCTS (it resamples every card it cannot see);
- ``sees-hands``: the same search told the other hand (only the stock order is resampled);
- ``sees-all``: the same search told the other hand and the stock order.

The oracles read hidden cards on purpose: they measure how much of a game's outcome a
player can influence at all, which is what bounds any honest bot's edge over greedy.

    .venv/bin/python benchmarks/oracle_gap.py --game bakappana --deals 40

The oracles hand the search a proxy of the state, which the compiled search refuses (it
takes a State): this script runs the engine from its Python source (strength, not speed,
is measured here).
"""

from __future__ import annotations

import os

os.environ["CARDTABLE_PURE_PYTHON"] = "1"  # before cardtable is imported

import argparse
import math
import statistics
from typing import Any

import cardtable
from cardtable.agents import make_agent
from cardtable.agents.ismcts import ISMCTSAgent
from cardtable.core.game import spec_of
from cardtable.core.rng import Rng
from cardtable.core.state import State
from common import revealed_copy, save_figures


class Revealed:
    """A state whose "determinizations" keep the other hands (and with ``stock``, the
    stock order too): an oracle for the search, which otherwise sees only this proxy."""

    def __init__(self, state: Any, stock: bool) -> None:
        self._state = state
        self._stock = stock

    def __getattr__(self, name: str) -> Any:
        return getattr(self._state, name)

    def determinize(self, seat: int, rng: Rng) -> State:
        copy: State = revealed_copy(self._state, self._stock, rng)
        return copy


class OracleAgent:
    def __init__(self, game_id: str, seed: int, stock: bool) -> None:
        rollout = make_agent("greedy", game_id, seed)
        iterations = spec_of(game_id).info.search_iterations  # the hard level's budget
        self.search = ISMCTSAgent(iterations, seed=seed, rollout=rollout)
        self.stock = stock
        self.name = "sees-all" if stock else "sees-hands"

    def choose(self, state: State, seat: int) -> Any:
        return self.search.choose(Revealed(state, self.stock), seat)  # type: ignore[arg-type]


def margins(game_id: str, bot: str, deals: int) -> list[int]:
    """The bot's margin over greedy in each game: every deal from both seats."""
    out = []
    for deal in range(deals):
        for searcher_seat in (0, 1):
            state = cardtable.load(game_id, players=2, rounds=1).new_state(seed=1000 + deal)
            if bot in ("sees-hands", "sees-all"):
                searcher: Any = OracleAgent(game_id, deal, stock=bot == "sees-all")
            else:
                searcher = make_agent(bot, game_id, deal)
            greedy = make_agent("greedy", game_id, deal + 7)
            while not state.is_over:
                (seat,) = state.to_move
                player = searcher if seat == searcher_seat else greedy
                state.apply(seat, player.choose(state, seat))
            scores = state.scores()
            out.append(scores[searcher_seat] - scores[1 - searcher_seat])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="bakappana")
    parser.add_argument("--deals", type=int, default=40)
    parser.add_argument("--bots", default="hard,sees-hands,sees-all")
    args = parser.parse_args()
    baseline = margins(args.game, "greedy", args.deals)
    figures: dict[str, Any] = {"game": args.game, "games": len(baseline)}
    print(f"{args.game}: {len(baseline)} games, margin over greedy, paired with greedy's own")
    for bot in args.bots.split(","):
        played = margins(args.game, bot, args.deals)
        gains = [a - b for a, b in zip(played, baseline, strict=True)]
        mean = statistics.mean(gains)
        half = 1.96 * statistics.stdev(gains) / math.sqrt(len(gains))
        wins = sum(1.0 if m > 0 else 0.5 if m == 0 else 0.0 for m in played) / len(played)
        figures[bot] = {"gain": mean, "interval": [mean - half, mean + half], "win_rate": wins}
        print(
            f"{bot:>11}: {mean:+6.1f} points a game ({mean - half:+.1f} .. {mean + half:+.1f}),"
            f" wins {wins:.1%}"
        )
    save_figures(f"oracle_gap_{args.game}", figures)


if __name__ == "__main__":
    main()
