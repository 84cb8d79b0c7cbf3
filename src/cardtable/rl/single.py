"""A Gymnasium single-agent environment: one seat learns, named bots play the others.

>>> from cardtable.rl import SingleAgentEnv
>>> env = SingleAgentEnv("bakappana", opponents="random", rounds=1)
>>> observation, info = env.reset(seed=1)
>>> action = int(observation["action_mask"].argmax())
>>> observation, reward, terminated, truncated, info = env.step(action)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

import cardtable
from cardtable.agents import Agent, make_agent
from cardtable.core.errors import IllegalAction
from cardtable.core.state import State
from cardtable.rl.encoding import BaseEncoder, apply, encoder_for, observe

ObsDict = dict[str, Any]


class SingleAgentEnv(gym.Env[ObsDict, int]):
    """``seat`` is the learner; ``opponents`` names a bot for every other seat (one name
    for all, or a list). An illegal action costs ``illegal_penalty`` and changes nothing;
    ``max_illegal`` of them in a row end the episode (truncated)."""

    def __init__(
        self,
        game_id: str,
        opponents: str | Sequence[str] = "random",
        seat: int = 0,
        preset: str | None = None,
        illegal_penalty: float = -1.0,
        max_illegal: int = 100,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.game = cardtable.load(game_id, preset=preset, **options)
        self.encoder: BaseEncoder = encoder_for(self.game)
        self.seat = seat
        names = [opponents] * self.game.num_players if isinstance(opponents, str) else opponents
        self.opponent_names = list(names)
        self.illegal_penalty = illegal_penalty
        self.max_illegal = max_illegal
        self.render_mode = render_mode
        self.metadata = {"render_modes": ["ansi"]}
        probe = self.game.new_state(seed=0)
        size = len(observe(self.encoder, probe, seat))
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-10.0, 10.0, (size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.encoder.action_size,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(self.encoder.action_size)  # type: ignore[assignment]
        self.state: State = probe
        self.bots: dict[int, Agent] = {}
        self.illegal_in_a_row = 0

    def _observation(self) -> ObsDict:
        return {
            "observation": observe(self.encoder, self.state, self.seat),
            "action_mask": self.encoder.mask(self.state, self.seat),
        }

    def _others_play(self) -> None:
        """Bots move until the learner is to move or the game is over."""
        while not self.state.is_over and self.seat not in self.state.to_move:
            bot_seat = min(self.state.to_move)
            self.state.apply(bot_seat, self.bots[bot_seat].choose(self.state, bot_seat))

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[ObsDict, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        self.state = self.game.new_state(seed=game_seed)
        self.bots = {
            s: make_agent(self.opponent_names[s], self.game.id, seed=game_seed + s)
            for s in range(self.game.num_players)
            if s != self.seat
        }
        self.illegal_in_a_row = 0
        self._others_play()
        return self._observation(), {"seed": game_seed}

    def step(self, action: int) -> tuple[ObsDict, float, bool, bool, dict[str, Any]]:
        before = self.state.scores()[self.seat]
        try:
            apply(self.encoder, self.state, self.seat, int(action))
        except IllegalAction as error:
            self.illegal_in_a_row += 1
            truncated = self.illegal_in_a_row >= self.max_illegal
            return (
                self._observation(),
                self.illegal_penalty,
                False,
                truncated,
                {"illegal": str(error)},
            )
        self.illegal_in_a_row = 0
        self._others_play()
        reward = float(self.state.scores()[self.seat] - before)
        info: dict[str, Any] = {}
        if self.state.is_over:
            info = {"winners": list(self.state.result().winners)}
        return self._observation(), reward, self.state.is_over, False, info

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The legal actions now (the convention of sb3-contrib's MaskablePPO)."""
        return self.encoder.mask(self.state, self.seat)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        return repr(self.state.view(self.seat))
