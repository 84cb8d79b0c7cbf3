"""The PettingZoo ParallelEnv of any cardtable game: every seat the game waits for acts in
one ``step``; the natural form of the simultaneous games (an Ohanami pick, a 7 słów
writing race), and it serves turn games too (one seat waits, the others' masks are all
zero and their actions are ignored).

>>> from cardtable import rl
>>> par = rl.parallel_env("ohanami", players=3)
>>> observations, infos = par.reset(seed=2)
>>> sorted(a for a, o in observations.items() if o["action_mask"].any())
['player_0', 'player_1', 'player_2']
"""

from __future__ import annotations

from typing import Any

from gymnasium import spaces
from pettingzoo import ParallelEnv

from cardtable.core.errors import IllegalAction
from cardtable.core.state import State
from cardtable.rl.aec import CardtableEnv, ObsDict, render_view
from cardtable.rl.snapshot import Snapshot

#: observations, rewards, terminations, truncations and infos of one step, by agent
ParallelStep = tuple[
    dict[str, ObsDict],
    dict[str, float],
    dict[str, bool],
    dict[str, bool],
    dict[str, dict[str, Any]],
]


class CardtableParallelEnv(ParallelEnv[str, ObsDict, int]):  # type: ignore[misc]
    """Options as :class:`~cardtable.rl.aec.CardtableEnv` (it runs underneath: the same
    seeding, rewards, ``get_state``/``set_state``)."""

    metadata: dict[str, Any] = {**CardtableEnv.metadata, "is_parallelizable": True}  # noqa: RUF012 (as the base class)

    def __init__(self, game_id: str, preset: str | None = None, **options: Any) -> None:
        self.aec = CardtableEnv(game_id, preset=preset, **options)
        self.metadata = {**self.aec.metadata, "is_parallelizable": True}
        self.possible_agents = self.aec.possible_agents
        self.render_mode = self.aec.render_mode
        self.agents: list[str] = []

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.observation_space(agent)

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.aec.action_space(agent)

    def _observations(self) -> dict[str, ObsDict]:
        return {agent: self.aec.observe(agent) for agent in self.agents}

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, ObsDict], dict[str, dict[str, Any]]]:
        self.aec.reset(seed=seed, options=options)
        self.agents = self.possible_agents[:]
        return self._observations(), {agent: {} for agent in self.agents}

    def step(self, actions: dict[str, int]) -> ParallelStep:
        aec = self.aec
        state = aec.state_
        waiting = sorted(state.to_move)
        missing = [aec.possible_agents[s] for s in waiting if aec.possible_agents[s] not in actions]
        if missing:
            raise IllegalAction(f"{', '.join(missing)} must act in this step")
        choices = {seat: int(actions[aec.possible_agents[seat]]) for seat in waiting}
        offenders: dict[str, IllegalAction] = {}
        for seat, index in choices.items():
            try:
                aec.encoder.decode(state, seat, index)  # refuses an illegal number
            except IllegalAction as error:
                if aec.illegal == "raise":
                    raise
                offenders[aec.possible_agents[seat]] = error
        if offenders:  # every seat that chose illegally in this step, not only the first
            return self._ended_on_illegal(offenders)
        aec.encoder.resolve(state, choices, aec.race_rng)
        paid = aec.tracker.collect(state)
        rewards = {agent: paid[aec.seat_of[agent]] for agent in self.agents}
        over = state.is_over
        terminations = dict.fromkeys(self.agents, over)
        truncations = dict.fromkeys(self.agents, False)
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        if over:
            winners = list(state.result().winners)
            infos = {a: {"winners": winners, "scores": list(state.scores())} for a in self.agents}
        aec.agent_selection = aec._next_agent()
        observations = self._observations()
        if over:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _ended_on_illegal(self, offenders: dict[str, IllegalAction]) -> ParallelStep:
        """The step where the ``offenders``' illegal actions end the game
        (``illegal="terminate"``)."""
        aec = self.aec
        aec.infos = {a: {} for a in self.agents}
        aec.end_on_illegal(offenders)
        observations = self._observations()
        truncations = dict.fromkeys(self.agents, False)
        result = observations, dict(aec.rewards), dict(aec.terminations), truncations, aec.infos
        self.agents = []
        return result

    def get_state(self) -> Snapshot:
        return self.aec.get_state()

    def set_state(self, state: State | Snapshot) -> None:
        self.aec.set_state(state)
        self.agents = [] if self.aec.state_.is_over else self.possible_agents[:]

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        seat = self.aec.render_seat
        return render_view(self.aec.state_, 0 if seat is None else seat)

    def close(self) -> None:
        pass


def parallel_env(game_id: str, preset: str | None = None, **options: Any) -> CardtableParallelEnv:
    """The ParallelEnv of a game, e.g. ``parallel_env("ohanami", players=3)``."""
    return CardtableParallelEnv(game_id, preset=preset, **options)
