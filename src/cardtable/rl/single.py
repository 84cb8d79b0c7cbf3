"""A Gymnasium single-agent environment: one seat learns, the others are played by bots
or by policies (self-play and leagues hand in callables, and may swap them between
episodes with :meth:`SingleAgentEnv.set_opponents`).

>>> from cardtable.rl import SingleAgentEnv
>>> env = SingleAgentEnv("bakappana", opponents="random", rounds=1)
>>> observation, info = env.reset(seed=1)
>>> action = int(observation["action_mask"].argmax())
>>> observation, reward, terminated, truncated, info = env.step(action)

An opponent is a bot name (``"greedy"``), an agent (anything with ``choose(state, seat)``)
or a policy: a callable given that seat's observation dict (vector and mask, from its own
view) that returns an action number.

The bots move until the learner has a move. When the match ends before the learner's
first move (a bot's quick shōbu in a one-round match), ``reset`` returns the final
observation with ``info["over"] = True`` and every action allowed by the mask; the next
``step``, whatever its action, ends the episode and pays what the bots' moves earned.
Rewards follow ``reward`` (:mod:`cardtable.rl.rewards`) and include whatever the bots'
moves earned the learner before its first move.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import Any, cast

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import cardtable
from cardtable.agents import make_agent
from cardtable.core.actions import Action
from cardtable.core.agent import Agent
from cardtable.core.encoding import Choice
from cardtable.core.errors import IllegalAction
from cardtable.core.state import State
from cardtable.rl.aec import observation_space, race_seed_of, render_view
from cardtable.rl.encoding import BaseEncoder, apply, encoder_for, observe
from cardtable.rl.rewards import Rewards
from cardtable.rl.snapshot import Snapshot, engine_state, keep_bot

ObsDict = dict[str, Any]
Policy = Callable[[ObsDict], int]
Opponent = str | Agent | Policy


class SingleAgentEnv(gym.Env[ObsDict, int]):
    """``seat`` is the learner; ``opponents`` is one opponent for every other seat, or a
    list (one per seat; the learner's entry is ignored). An illegal action costs
    ``illegal_penalty`` and changes nothing; ``max_illegal`` of them in a row end the
    episode (truncated)."""

    # on the class: Gymnasium's checker reads the render modes before making an instance
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        opponents: Opponent | Sequence[Opponent] = "random",
        seat: int = 0,
        preset: str | None = None,
        illegal_penalty: float = -1.0,
        max_illegal: int = 100,
        render_mode: str | None = None,
        reward: str = "score",
        **options: Any,
    ) -> None:
        self.game = cardtable.load(game_id, preset=preset, **options)
        self.encoder: BaseEncoder = encoder_for(self.game)
        self.seat = seat
        self.illegal_penalty = illegal_penalty
        self.max_illegal = max_illegal
        self.render_mode = render_mode
        self.observation_space = observation_space(self.encoder)
        self.action_space = spaces.Discrete(self.encoder.action_size)  # type: ignore[assignment]
        self.state: State = self.game.new_state(seed=0)
        self.tracker = Rewards(reward, self.state)
        self.set_opponents(opponents)
        self.bots: dict[int, Agent | Policy] = {}  # bot names made into agents at reset
        self.illegal_in_a_row = 0
        self.race_rng = np.random.default_rng(0)

    def set_opponents(self, opponents: Opponent | Sequence[Opponent]) -> None:
        """Who plays the other seats from the next ``reset`` on (a league's hook)."""
        if isinstance(opponents, Sequence) and not isinstance(opponents, str):
            self.opponents: list[Opponent] = list(opponents)
        else:
            self.opponents = [opponents] * self.game.num_players

    def _observation_of(self, seat: int) -> ObsDict:
        return {
            "observation": observe(self.encoder, self.state, seat),
            "action_mask": self.encoder.mask(self.state, seat),
        }

    def _observation(self) -> ObsDict:
        if self.state.is_over:  # the final observation: any action closes the episode
            ones = np.ones(self.encoder.action_size, dtype=np.int8)
            return {
                "observation": observe(self.encoder, self.state, self.seat),
                "action_mask": ones,
            }
        return self._observation_of(self.seat)

    def _choice(self, seat: int) -> Choice:
        """What the opponent in ``seat`` chooses: an agent's action, a policy's number."""
        bot = self.bots[seat]
        choose = getattr(bot, "choose", None)
        if choose is not None:
            return cast(Action, choose(self.state, seat))
        return int(cast(Policy, bot)(self._observation_of(seat)))

    def _choose(self, seat: int) -> None:
        """One move of the opponent in ``seat``."""
        choice = self._choice(seat)
        if isinstance(choice, int):
            apply(self.encoder, self.state, seat, choice)
        else:
            self.state.apply(seat, choice)

    def _others_play(self) -> None:
        """Opponents move until the learner is to move or the game is over. A race (7 słów
        writing) waits for the learner's choice: it is resolved in :meth:`step`."""
        while not self.state.is_over and self.seat not in self.state.to_move:
            self._choose(min(self.state.to_move))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        self.race_rng = np.random.default_rng(race_seed_of(game_seed))
        self.bots = {
            s: make_agent(o, self.game.id, seed=game_seed + s) if isinstance(o, str) else o
            for s, o in enumerate(self.opponents)
            if s != self.seat
        }
        self.set_state(self.game.new_state(seed=game_seed))
        # never the game seed: it rebuilds the opponents' hands and the stock
        info: dict[str, Any] = {}
        if self.state.is_over:
            info["over"] = True
        return self._observation(), info

    def get_state(self) -> Snapshot:
        """A snapshot: a copy of the engine state, the bots as they are (their generators
        too), the rewards not yet paid and the race generator (:mod:`cardtable.rl.snapshot`)."""
        extras = {
            "bots": {seat: keep_bot(bot) for seat, bot in self.bots.items()},
            "tracker": copy.deepcopy(self.tracker),
            "race_rng": copy.deepcopy(self.race_rng),
            "illegal_in_a_row": self.illegal_in_a_row,
        }
        return Snapshot(self.state.clone(), extras)

    def set_state(self, state: State | Snapshot) -> None:
        """Go on from a copy of ``state``: a snapshot goes on exactly where it was taken;
        from a bare engine state the bots go on as they are and rewards count from it. The
        opponents play until the learner has a move (what they earn the learner is paid
        by the next step)."""
        self.state = engine_state(state).clone()
        self.tracker.reset(self.state)
        self.illegal_in_a_row = 0
        if isinstance(state, Snapshot):
            extras = state.extras
            self.bots = {seat: restore() for seat, restore in extras["bots"].items()}
            self.tracker = copy.deepcopy(extras["tracker"])
            self.race_rng = copy.deepcopy(extras["race_rng"])
            self.illegal_in_a_row = extras["illegal_in_a_row"]
        self._others_play()

    def step(self, action: int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        if not self.state.is_over:
            try:
                self._play(int(action))
            except IllegalAction as error:
                self.illegal_in_a_row += 1
                truncated = self.illegal_in_a_row >= self.max_illegal
                refused = {"illegal": str(error)}
                return self._observation(), self.illegal_penalty, False, truncated, refused
            self.illegal_in_a_row = 0
            self._others_play()
        reward = self.tracker.collect(self.state)[self.seat]
        info: dict[str, Any] = {}
        if self.state.is_over:
            info = {"winners": list(self.state.result().winners)}
        return self._observation(), reward, self.state.is_over, False, info

    def _play(self, index: int) -> None:
        """The learner's move; in a race, the opponents choose from the same state (nobody
        sees another's choice) and the encoder resolves all the choices together."""
        if not self.encoder.simultaneous(self.state):
            apply(self.encoder, self.state, self.seat, index)
            return
        self.encoder.decode(self.state, self.seat, index)  # refuses an illegal number
        choices: dict[int, Choice] = {self.seat: index}
        for seat in sorted(self.state.to_move - {self.seat}):
            choices[seat] = self._choice(seat)
        self.encoder.resolve(self.state, choices, self.race_rng)

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The legal actions now (the convention of sb3-contrib's MaskablePPO)."""
        return self._observation()["action_mask"]  # type: ignore[no-any-return]

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return render_view(self.state, self.seat)
