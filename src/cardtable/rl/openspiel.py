"""An OpenSpiel (``pyspiel``) Python game of a cardtable game, with explicit chance nodes,
so OpenSpiel's algorithms (MCCFR, CFR-style solvers, its tests) run on it as they are.
Needs the ``openspiel`` extra (``pip install cardtable[openspiel]``).

The game is one round as a match (pass ``rounds=1``; later rounds would be dealt from a
seed, not by chance nodes). Chance first draws the dealer (uniform over the seats), then
deals the game's deal cards one at a time (uniform over those left): hands in seat order,
the table, then the stock, top first. The game must offer a chance model
(``encoder.deal_cards()``): the hanafuda games do. Player actions are the environment's
action numbers (docs/rl.md). Returns at the end are the win/loss of the round's scores
(``cardtable.rl.rewards.ranking``: +1 a sole first place, -1 a sole last), zero-sum.
The information state of a seat is its view after each move so far (perfect recall);
the observation tensor is the RL observation (layout: ``encoder.features()``).

>>> import pyspiel
>>> game = load_game("koi-koi", rounds=1)
>>> game.num_players(), game.num_distinct_actions()
(2, 386)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 2)
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pyspiel

import cardtable
from cardtable.core.errors import IllegalAction
from cardtable.core.game import Game
from cardtable.core.state import State
from cardtable.rl.encoding import BaseEncoder, apply, encoder_for, observe
from cardtable.rl.rewards import ranking

#: an upper bound of moves in one round (chance deals included)
MAX_LENGTH = 400


class Runtime:
    """What states of one OpenSpiel game share: the cardtable game, its encoder, the deal
    cards, a probe state for the deal's shape. Kept here, not on the pyspiel object (a
    pickled copy of that has no Python attributes)."""

    def __init__(self, game_id: str, options_json: str) -> None:
        self.cardtable_game: Game = cardtable.load(game_id, **json.loads(options_json))
        self.encoder: BaseEncoder = encoder_for(self.cardtable_game)
        self.cards = self.encoder.deal_cards()
        if not self.cards:
            raise IllegalAction(f"{game_id} has no explicit chance model for OpenSpiel")
        self.probe: State = self.cardtable_game.new_state(seed=0)


_RUNTIMES: dict[tuple[str, str], Runtime] = {}
#: short name -> cardtable game id
_REGISTERED: dict[str, str] = {}


def runtime_of(game: Any) -> Runtime:
    name = game.get_type().short_name
    options = str(game.get_parameters().get("options", "{}"))
    key = (name, options)
    if key not in _RUNTIMES:
        _RUNTIMES[key] = Runtime(_REGISTERED[name], options)
    return _RUNTIMES[key]


class CardtableGame(pyspiel.Game):  # type: ignore[misc]
    """``params["options"]``: the cardtable options as JSON (OpenSpiel's parameters are
    flat values; this way a game pickles and loads by name with its options)."""

    def __init__(self, game_id: str, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        params.setdefault("options", "{}")
        _REGISTERED[short_name(game_id)] = game_id
        runtime = Runtime(game_id, str(params["options"]))
        _RUNTIMES[(short_name(game_id), str(params["options"]))] = runtime
        players = runtime.cardtable_game.num_players
        game_type = pyspiel.GameType(
            short_name=short_name(game_id),
            long_name=f"cardtable {game_id}",
            dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
            chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
            information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
            utility=pyspiel.GameType.Utility.ZERO_SUM,
            reward_model=pyspiel.GameType.RewardModel.TERMINAL,
            max_num_players=players,
            min_num_players=players,
            provides_information_state_string=True,
            provides_information_state_tensor=False,
            provides_observation_string=True,
            provides_observation_tensor=True,
            parameter_specification={"options": "{}"},
        )
        info = pyspiel.GameInfo(
            num_distinct_actions=runtime.encoder.action_size,
            max_chance_outcomes=max(len(runtime.cards), players),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=MAX_LENGTH,
        )
        super().__init__(game_type, info, params)

    def new_initial_state(self) -> CardtableState:
        return CardtableState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> Observer:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return Observer(runtime_of(self), perfect_recall)


class CardtableState(pyspiel.State):  # type: ignore[misc]
    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self.cg = runtime_of(game)
        self.dealer: int | None = None
        self.dealt: list[str] = []
        self.engine: State | None = None
        self.start: tuple[int, ...] = ()
        self.views: list[list[str]] = [[] for _ in range(self.cg.cardtable_game.num_players)]

    # -- whose turn ------------------------------------------------------------------------
    def current_player(self) -> int:
        if self.engine is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.engine.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return min(self.engine.to_move)

    def is_terminal(self) -> bool:
        return self.engine is not None and self.engine.is_over

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealer is None:
            players = self.cg.cardtable_game.num_players
            return [(seat, 1.0 / players) for seat in range(players)]
        left = [i for i, card in enumerate(self.cg.cards) if card not in self.dealt]
        return [(i, 1.0 / len(left)) for i in left]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.engine is not None
        return sorted(self.cg.encoder.legal_indices(self.engine, player))

    # -- moves -----------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        if self.engine is None:
            if self.dealer is None:
                self.dealer = int(action)
            else:
                self.dealt.append(self.cg.cards[action])
            if len(self.dealt) == len(self.cg.cards):
                assert self.dealer is not None
                deal = self.cg.encoder.deal(self.cg.probe, self.dealer, self.dealt)
                self.engine = self.cg.cardtable_game.new_state(seed=0, deals=[deal])
                self.start = self.engine.scores()
                self._remember()
            return
        apply(self.cg.encoder, self.engine, min(self.engine.to_move), int(action))
        self._remember()

    def _remember(self) -> None:
        assert self.engine is not None
        for seat, seen in enumerate(self.views):
            seen.append(json.dumps(self.engine.view(seat, brief=True), sort_keys=True))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"dealer {action}" if self.dealer is None else f"deal {self.cg.cards[action]}"
        assert self.engine is not None
        try:
            return str(self.cg.encoder.decode(self.engine, player, action))
        except IllegalAction:
            return f"action {action}"

    # -- outcome ---------------------------------------------------------------------------
    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.cg.cardtable_game.num_players
        assert self.engine is not None
        change = [a - b for a, b in zip(self.engine.scores(), self.start, strict=True)]
        return ranking(change)

    def get_state(self) -> State | None:
        """A copy of the engine state (None while chance deals)."""
        return None if self.engine is None else self.engine.clone()

    def __str__(self) -> str:
        if self.engine is None:
            return f"dealer {self.dealer}, dealt {' '.join(self.dealt)}"
        return json.dumps(self.engine.view(None, brief=True), sort_keys=True)

    def __deepcopy__(self, memo: dict[int, Any]) -> CardtableState:
        copy = CardtableState(self.get_game())
        copy.dealer, copy.dealt, copy.start = self.dealer, list(self.dealt), self.start
        copy.engine = None if self.engine is None else self.engine.clone()
        copy.views = [list(seen) for seen in self.views]
        return copy


class Observer:
    """OpenSpiel's observer of a seat: the RL observation as the tensor; as a string, the
    seat's view now or, with perfect recall, its views after every move so far."""

    def __init__(self, game: Runtime, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.encoder.observation_size, dtype=np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: CardtableState, player: int) -> None:
        self.tensor[:] = 0.0
        if state.engine is not None:
            self.tensor[:] = observe(self.game.encoder, state.engine, player)

    def string_from(self, state: CardtableState, player: int) -> str:
        if state.engine is None:
            return f"seat {player}: dealing"
        if self.perfect_recall:
            return f"seat {player}: " + "|".join(state.views[player])
        return f"seat {player}: {state.views[player][-1]}"


def short_name(game_id: str) -> str:
    return "cardtable_" + game_id.replace("-", "_")


_DONE: set[str] = set()


def register(game_id: str, **options: Any) -> str:
    """Register the game with ``pyspiel`` (made once with ``options`` to learn its type)
    and return its short name (``cardtable_koi_koi`` for ``koi-koi``):
    ``pyspiel.load_game(name, {"options": '{"rounds": 1}'})`` then works."""
    name = short_name(game_id)
    if name not in _DONE:
        game = CardtableGame(game_id, {"options": json.dumps(options, sort_keys=True)})
        maker = type(
            f"CardtableGame_{name}",
            (CardtableGame,),
            {"__init__": lambda self, params=None: CardtableGame.__init__(self, game_id, params)},
        )
        pyspiel.register_game(game.get_type(), maker)
        _DONE.add(name)
    return name


def load_game(game_id: str, **options: Any) -> Any:
    """The OpenSpiel game of a cardtable game with these options (``rounds=1``)."""
    name = register(game_id, **options)
    return pyspiel.load_game(name, {"options": json.dumps(options, sort_keys=True)})
