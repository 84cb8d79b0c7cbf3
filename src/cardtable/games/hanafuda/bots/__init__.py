"""The hanafuda games' own bots (the ``BOTS`` capability of their specs): ``greedy``
takes the most valuable capture, the ``strategist`` (also the ``medium`` level) plans yaku,
denies the opponent's and calls koi-koi by risk."""

from importlib import resources
from pathlib import Path

from cardtable.agents.base import EXPERT_SECONDS, Agent, BotSpec
from cardtable.agents.ismcts import Dealer, search_level
from cardtable.agents.network import Network, read_network
from cardtable.core.state import State
from cardtable.games.hanafuda.bots.greedy import GreedyAgent
from cardtable.games.hanafuda.bots.inference import CANDIDATES, TEMPERATURE, HandReader
from cardtable.games.hanafuda.bots.strategist import StrategistAgent
from cardtable.games.hanafuda.fishing import FishingState

STRATEGIST = "rule-based: values, yaku proximity, denial, safe discards, koi-koi by risk"


def trained_network(game_id: str) -> Network | None:
    """The learned evaluator this package ships for ``game_id`` (``make train``)."""
    return read_network(Path(str(resources.files(__name__) / "weights" / f"{game_id}.npz")))


def read_hands(
    state: State, seat: int, temperature: float = TEMPERATURE, candidates: int = CANDIDATES
) -> Dealer | None:
    """The hand reader as a search's dealer, where there are plays to read (``expert``'s
    settings unless told others: benchmarks/against_hard.py tries some)."""
    assert isinstance(state, FishingState)
    reader = HandReader(state, seat, temperature, candidates)
    return reader if reader.plays else None


def expert(game_id: str, seed: int | None) -> Agent:
    """ISMCTS as ``hard``, dealing the hidden cards by what the others played."""
    return search_level(game_id, seed, belief=read_hands, live_seconds=EXPERT_SECONDS)


def turned_card(state: State) -> int:
    """What everybody saw a move bring in a fishing game: how many cards were turned from
    the stock and the last of them (the search's ``observe``, tried and not kept: see
    docs/bots.md, "Above expert")."""
    assert isinstance(state, FishingState)
    drawn = state.stock_pos
    return drawn * 64 + state.stock[drawn - 1] if drawn else 0


#: the ``master`` level's tree holds the seat's own turn and the reply to it: below that a
#: tree's moves are averaged over every deal and stock card it imagined, and its untried
#: moves are tried at random, while the greedy playout plays each deal's cards as they lie
MASTER_TURNS = 2


def master(game_id: str, seed: int | None) -> Agent:
    """``expert`` with its tree cut after the other seat's reply (docs/bots.md, "Above
    expert": koi-koi rounds against ``expert``)."""
    return search_level(
        game_id, seed, belief=read_hands, live_seconds=EXPERT_SECONDS, max_turns=MASTER_TURNS
    )


BOTS = {
    "greedy": BotSpec(
        "takes the most valuable capture now (card values and yaku); careful discards",
        lambda game_id, seed: GreedyAgent(seed),
    ),
    "strategist": BotSpec(STRATEGIST, lambda game_id, seed: StrategistAgent(seed)),
    "medium": BotSpec(
        "the strategist: yaku proximity, denial, safe discards, koi-koi by risk",
        lambda game_id, seed: StrategistAgent(seed),
    ),
    "expert": BotSpec(
        "ISMCTS as hard, dealing the hidden cards by what the others played "
        "(determinizations weighed by the strategist's reading of their plays)",
        expert,
    ),
}
#: koi-koi's bots: the ``master`` level is measured there (the other games' rounds swing
#: too much with the cards to show it above ``expert`` in the rounds one machine plays)
KOIKOI_BOTS = {
    **BOTS,
    "master": BotSpec(
        "expert's search, its tree cut after the other seat's reply: greedy playouts "
        "judge what follows, to the end of the round",
        master,
    ),
}

__all__ = ["BOTS", "KOIKOI_BOTS", "GreedyAgent", "StrategistAgent"]
