"""The PettingZoo AEC environment of any cardtable game.

Agents are ``player_0`` .. ``player_{n-1}`` (seat numbers). The agent to act is the lowest
seat the game waits for. In a simultaneous step every waiting seat acts in turn and no
choice is seen by another before all are in: an Ohanami pick is hidden by the engine
itself; a 7 słów writing race is collected here and played when the last seat has chosen,
the fastest drawn from the seats' own flip decisions (``encoder.resolve``), so the AEC
order gives nobody an advantage. Observations are ``{"observation": float32 vector,
"action_mask": int8 vector}`` built from the seat's own view (the layout:
``env.encoder.features()``); rewards follow ``reward`` (:mod:`cardtable.rl.rewards`).

Seeding: ``reset(seed=s)`` deals game seed ``s``; a later ``reset()`` without a seed deals
the next seed of a generator seeded by ``s``, so a run of resets is the same on every
machine and in every process. The race is drawn from a generator seeded by a hash of the
game seed (:func:`race_seed_of`): nothing public rebuilds the deal. ``get_state()`` and
``set_state()`` hand out and take back a snapshot for search: a copy of the engine state
(``snapshot.state``) with what the environment keeps beside it — the live agents, the
rewards waiting for them, a race's choices already made (:mod:`cardtable.rl.snapshot`).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import cardtable
from cardtable.core.errors import IllegalAction, OptionError
from cardtable.core.state import State
from cardtable.rl.encoding import BaseEncoder, apply, encoder_for, observe
from cardtable.rl.rewards import Rewards
from cardtable.rl.snapshot import Snapshot, engine_state

ObsDict = dict[str, Any]
#: what an illegal action number does: raise IllegalAction (changing nothing), or end the
#: game with ``illegal_reward`` to its player (PettingZoo classic's convention)
ILLEGAL_MODES = ("raise", "terminate")


def observation_space(encoder: BaseEncoder) -> spaces.Dict:
    """The Dict space of an observation: the vector within its layout's bounds, the mask."""
    low, high = encoder.bounds()
    return spaces.Dict(
        {
            "observation": spaces.Box(low, high, dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (encoder.action_size,), dtype=np.int8),
        }
    )


def race_seed_of(game_seed: int) -> int:
    """The seed of a game's race generator: a hash of the game seed, so the generator (whose
    seed anyone may read, ``rng.bit_generator.seed_seq``) never hands out the deal."""
    return int(np.random.SeedSequence([game_seed, 1]).generate_state(1, np.uint64)[0])


def render_view(state: State, seat: int | None) -> str:
    """A seat's view as text, one key a line (what that seat may see, nothing more)."""
    view = state.view(seat, brief=True)
    return "\n".join(f"{key}: {view[key]}" for key in sorted(view) if key != "events")


class CardtableEnv(AECEnv[str, ObsDict, int]):  # type: ignore[misc]
    """``reward``: ``"score"`` (default), ``"margin"``, ``"win-round"`` or ``"win-match"``.
    ``illegal``: ``"raise"`` (default: an illegal action number raises IllegalAction and
    changes nothing) or ``"terminate"`` (PettingZoo classic's convention: the game ends,
    its player is paid ``illegal_reward``, the others 0; samplers that ignore the mask,
    such as PettingZoo's ``parallel_seed_test``, then play whole episodes).
    ``render("ansi")`` shows the view of the agent to act (``render_seat`` fixes a seat)."""

    # on the class: checkers read the render modes before making an instance (each
    # instance adds its name)
    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        preset: str | None = None,
        render_mode: str | None = None,
        reward: str = "score",
        render_seat: int | None = None,
        illegal: str = "raise",
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        super().__init__()
        if illegal not in ILLEGAL_MODES:
            raise OptionError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, not {illegal!r}")
        self.illegal = illegal
        self.illegal_reward = illegal_reward
        self.game = cardtable.load(game_id, preset=preset, **options)
        self.metadata = {
            **CardtableEnv.metadata,
            "is_parallelizable": False,
            "name": f"cardtable_{game_id.replace('-', '_')}_v0",
        }
        self.encoder: BaseEncoder = encoder_for(self.game)
        self.render_mode = render_mode
        self.render_seat = render_seat
        self.reward_mode = reward
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_players)]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        probe = self.game.new_state(seed=0)
        self.tracker = Rewards(reward, probe)
        space = observation_space(self.encoder)
        self.observation_spaces = {agent: space for agent in self.possible_agents}
        self.action_spaces = {
            agent: spaces.Discrete(self.encoder.action_size) for agent in self.possible_agents
        }
        self.state_: State = probe
        self.agents: list[str] = []
        self.infos: dict[str, dict[str, Any]] = {}
        self.pending: dict[int, int] = {}
        self._seeds: np.random.Generator | None = None
        # private, and a hash of the game seed: the game seed itself rebuilds every hand
        self._race_seed = race_seed_of(0)
        self._race_rng: np.random.Generator | None = None

    @property
    def race_rng(self) -> np.random.Generator:
        """The generator that decides races (seeded by :func:`race_seed_of` the game seed;
        made when needed)."""
        if self._race_rng is None:
            self._race_rng = np.random.default_rng(self._race_seed)
        return self._race_rng

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
            game_seed = seed
        else:
            if self._seeds is None:
                self._seeds = np.random.default_rng()
            game_seed = int(self._seeds.integers(0, 2**62))
        self._race_seed = race_seed_of(game_seed)
        self._race_rng = None
        self.set_state(self.game.new_state(seed=game_seed))

    def get_state(self) -> Snapshot:
        """A snapshot: a copy of the engine state (``snapshot.state``: search may change it
        freely), the live agents and the rewards waiting for them, the choices already made
        in a race and the race generator (:mod:`cardtable.rl.snapshot`)."""
        extras = {
            "agents": list(self.agents),
            "agent_selection": self.agent_selection,
            "rewards": dict(self.rewards),
            "cumulative_rewards": dict(self._cumulative_rewards),
            "terminations": dict(self.terminations),
            "truncations": dict(self.truncations),
            "infos": copy.deepcopy(self.infos),
            "pending": dict(self.pending),
            "race_seed": self._race_seed,
            "race_rng": copy.deepcopy(self._race_rng),
            "tracker": copy.deepcopy(self.tracker),
        }
        return Snapshot(self.state_.clone(), extras)

    def set_state(self, state: State | Snapshot) -> None:
        """Go on from a copy of ``state``: a snapshot exactly where it was taken (its live
        agents, the rewards waiting for them, a race's choices already made); a bare engine
        state with every agent live, no choice pending and rewards counted from it. Either
        may be taken while this environment's game is over (save, play to the end,
        restore: the search loop)."""
        self.state_ = engine_state(state).clone()
        if isinstance(state, Snapshot):
            extras = state.extras
            self.agents = list(extras["agents"])
            self.rewards = dict(extras["rewards"])
            self._cumulative_rewards = dict(extras["cumulative_rewards"])
            self.terminations = dict(extras["terminations"])
            self.truncations = dict(extras["truncations"])
            self.infos = copy.deepcopy(extras["infos"])
            self.pending = dict(extras["pending"])
            self._race_seed = extras["race_seed"]
            self._race_rng = copy.deepcopy(extras["race_rng"])
            self.tracker = copy.deepcopy(extras["tracker"])
            self.agent_selection = extras["agent_selection"]
            return
        self.agents = self.possible_agents[:]
        self.pending = {}
        self.tracker.reset(self.state_)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, self.state_.is_over)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: self._final_info() for agent in self.agents}
        self.agent_selection = self._next_agent()

    def _final_info(self) -> dict[str, Any]:
        """What every agent's info says once the game is over (nothing before)."""
        if not self.state_.is_over:
            return {}
        return {"winners": list(self.state_.result().winners), "scores": list(self.state_.scores())}

    def _waiting(self) -> list[int]:
        return sorted(s for s in self.state_.to_move if s not in self.pending)

    def _next_agent(self) -> str:
        waiting = self.state_.to_move
        if self.pending:
            waiting = waiting - self.pending.keys()
        if not waiting:
            return self.agent_selection if self.agents else self.possible_agents[0]
        return self.possible_agents[min(waiting)]

    def observe(self, agent: str) -> ObsDict:
        seat = self.seat_of[agent]
        mask = self.encoder.mask(self.state_, seat)
        if seat in self.pending:
            mask[:] = 0
        return {"observation": observe(self.encoder, self.state_, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} is to move: give an action number")
        seat = self.seat_of[agent]
        self._cumulative_rewards[agent] = 0.0
        try:
            self._play(seat, int(action))
        except IllegalAction as error:
            if self.illegal == "raise":
                raise
            self.end_on_illegal({agent: error})
            self._accumulate_rewards()
            return
        paid = self.tracker.collect(self.state_)
        self.rewards = {a: paid[self.seat_of[a]] for a in self.agents}
        if self.state_.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
            for a in self.agents:
                self.infos[a] = self._final_info()
        self.agent_selection = self._next_agent()
        self._accumulate_rewards()

    def _play(self, seat: int, action: int) -> None:
        """Play ``seat``'s action number (an illegal one raises IllegalAction, changing
        nothing); in a race, collect it and resolve the race when the last seat chose."""
        if self.pending or self.encoder.simultaneous(self.state_):
            self.encoder.decode(self.state_, seat, action)  # refuses an illegal number
            self.pending[seat] = action
            if not self._waiting():
                choices, self.pending = self.pending, {}
                self.encoder.resolve(self.state_, choices, self.race_rng)
        else:
            apply(self.encoder, self.state_, seat, action)

    def end_on_illegal(self, offenders: dict[str, IllegalAction]) -> None:
        """PettingZoo classic's convention (``illegal="terminate"``): the game ends, every
        agent that played an illegal action (several may, in one simultaneous step) is paid
        ``illegal_reward``, the others 0."""
        self.rewards = {a: self.illegal_reward if a in offenders else 0.0 for a in self.agents}
        self.terminations = dict.fromkeys(self.agents, True)
        for agent, error in offenders.items():
            self.infos[agent] = {"illegal": str(error)}

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        seat = self.render_seat
        if seat is None:
            seat = self.seat_of[self.agent_selection]
        return render_view(self.state_, seat)

    def close(self) -> None:
        pass


def env(game_id: str, preset: str | None = None, **options: Any) -> CardtableEnv:
    """The AEC environment of a game, e.g. ``env("koi-koi", preset="nintendo")``."""
    return CardtableEnv(game_id, preset=preset, **options)
