"""The PettingZoo AEC environment of any cardtable game.

Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers). The agent to act is the lowest
seat the game waits for; in a simultaneous step (an Ohanami pick, a 7 słów round) every
waiting seat acts in turn and the engine keeps each choice hidden until all have chosen,
so the AEC order gives nobody an advantage. Observations are
``{"observation": float32 vector, "action_mask": int8 vector}`` built from the seat's
own view; rewards are the changes of the game's own scores.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import cardtable
from cardtable.core.state import State
from cardtable.rl.encoding import BaseEncoder, apply, encoder_for, observe

ObsDict = dict[str, Any]


class CardtableEnv(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    def __init__(
        self,
        game_id: str,
        preset: str | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = cardtable.load(game_id, preset=preset, **options)
        self.metadata = {
            "render_modes": ["ansi"],
            "is_parallelizable": False,
            "name": f"cardtable_{game_id.replace('-', '_')}_v0",
        }
        self.encoder: BaseEncoder = encoder_for(self.game)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        probe = self.game.new_state(seed=0)
        size = len(observe(self.encoder, probe, 0))
        space = spaces.Dict(
            {
                "observation": spaces.Box(-10.0, 10.0, (size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, (self.encoder.action_size,), dtype=np.int8),
            }
        )
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {
            agent: spaces.Discrete(self.encoder.action_size) for agent in self.possible_agents
        }
        self.state_: State = probe

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self.state_ = self.game.new_state(seed=seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.scores = list(self.state_.scores())
        self.agent_selection = self._next_agent()

    def _next_agent(self) -> str:
        waiting = self.state_.to_move
        if not waiting:
            return self.agent_selection if self.agents else self.possible_agents[0]
        return self.possible_agents[min(waiting)]

    def observe(self, agent: str) -> ObsDict:
        seat = self.seat_of[agent]
        return {
            "observation": observe(self.encoder, self.state_, seat),
            "action_mask": self.encoder.mask(self.state_, seat),
        }

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: give an action number")
        seat = self.seat_of[agent]
        self._cumulative_rewards[agent] = 0.0
        apply(self.encoder, self.state_, seat, int(action))
        now = self.state_.scores()
        self.rewards = {
            a: float(now[self.seat_of[a]] - self.scores[self.seat_of[a]]) for a in self.agents
        }
        self.scores = list(now)
        if self.state_.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
            result = self.state_.result()
            for a in self.agents:
                self.infos[a] = {"winners": list(result.winners), "scores": list(now)}
        self.agent_selection = self._next_agent()
        self._accumulate_rewards()

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        view = self.state_.view(None)
        shown = {k: v for k, v in view.items() if k not in ("events", "previous_events")}
        return repr(shown)

    def close(self) -> None:
        pass


def env(game_id: str, preset: str | None = None, **options: Any) -> CardtableEnv:
    """The AEC environment of a game, e.g. ``env("koi-koi", preset="nintendo")``."""
    return CardtableEnv(game_id, preset=preset, **options)
