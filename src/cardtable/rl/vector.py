"""Many games of one kind stepped at once: learners, self-play and search pay the Python
layers once a batch, not once a move.

- :class:`VectorGames`: ``size`` games side by side. Each step, every game's seat to move
  plays an action number; observations and masks come as arrays, one row a game, from
  the game's encoder (hanafuda builds them from the engine's card sets in a few array
  operations); a finished game is dealt again from the next seed.
- :func:`rollout`: ``games`` whole games played by one batched policy for every seat,
  and their scores.
- :class:`CardtableVectorEnv`: a Gymnasium vector environment (``num_envs`` games; seat
  ``seat`` learns, a batched policy plays the other seats), autoreset in the same step.

A batched policy takes ``(observations, masks, seats)`` (rows of the games to move, the
seat each row acts for) and returns an action number per row.

>>> result = rollout("koi-koi", 16, random_policy(seed=1), batch=8, seed=3, rounds=1)
>>> result.scores.shape, result.steps > 16
((16, 2), True)
>>> envs = CardtableVectorEnv("koi-koi", num_envs=4, rounds=1)
>>> observations, infos = envs.reset(seed=1)
>>> observations["observation"].shape, observations["action_mask"].shape
((4, 368), (4, 386))
>>> actions = observations["action_mask"].argmax(axis=1)
>>> observations, rewards, terminated, truncated, infos = envs.step(actions)
>>> rewards.shape, terminated.dtype
((4,), dtype('bool'))
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

import cardtable
from cardtable.core.encoding import Mask, Vector
from cardtable.core.errors import IllegalAction
from cardtable.core.game import spec_of
from cardtable.core.state import State
from cardtable.rl.aec import observation_space
from cardtable.rl.encoding import clipped, encoder_for
from cardtable.rl.opponents import Actions, BatchBots
from cardtable.rl.rewards import Rewards


def baseline_options(game_id: str, rounds: int = 0) -> dict[str, Any]:
    """The rules the baseline trains and is measured on: the game's ``rl_options`` (its
    spec's GameInfo; two players and one round, where the game allows them), with
    ``rounds`` rounds a match where it is given (``--rounds 6``: six-round matches)."""
    options = dict(spec_of(game_id).info.rl_options)
    if rounds:
        options["rounds"] = rounds
    return options


Seats = npt.NDArray[np.int64]
#: (observations, masks, seats) of the rows to move -> an action number per row
BatchPolicy = Callable[[Vector, Mask, Seats], Actions]


def random_policy(seed: int = 0) -> BatchPolicy:
    """Uniformly random legal actions, a whole batch in one draw."""
    rng = np.random.default_rng(seed)

    def choose(observations: Vector, masks: Mask, seats: Seats) -> Actions:
        # one draw a row picks among the row's legal cells of the flattened masks (a row
        # with none plays 0, which its game refuses); a draw over every cell of the
        # masks cost five times as much
        rows, width = masks.shape
        # a 0/1 byte mask read as bools: numpy finds nonzero bools ten times faster
        cells = np.flatnonzero(masks.view(np.bool_) if masks.itemsize == 1 else masks)
        if not len(cells):
            return np.zeros(rows, dtype=np.int64)
        firsts = np.arange(rows, dtype=np.int64) * width
        starts = np.searchsorted(cells, firsts)
        counts = np.searchsorted(cells, firsts + width) - starts
        picks = np.minimum(starts + (rng.random(rows) * counts).astype(np.int64), len(cells) - 1)
        chosen: Actions = np.where(counts > 0, cells[picks] - firsts, 0)
        return chosen

    return choose


class Step(NamedTuple):
    """What a step of :class:`VectorGames` did: each row's reward per seat, which rows
    finished a game (and were dealt a new one), and the finished games themselves."""

    rewards: npt.NDArray[np.float32]
    finished: npt.NDArray[np.bool_]
    ended: list[tuple[int, State]]


class VectorGames:
    """``size`` games of ``game_id`` stepped together (rows ``0 .. size-1``). Deals are
    seeded: ``seed`` starts a generator whose draws seed the games, so a run is the same
    on every machine. A game over as dealt (a koi-koi lucky hand) counts as ended at once
    (:attr:`ended_at_deal`, with its row) and is dealt again. Games whose seats act at
    once in a race (7 słów) need the AEC or parallel environment: a step refuses them."""

    def __init__(
        self,
        game_id: str,
        size: int,
        *,
        seed: int = 0,
        preset: str | None = None,
        reward: str = "score",
        **options: Any,
    ) -> None:
        if size < 1:
            raise ValueError("a vector of games needs at least one game")
        self.game = cardtable.load(game_id, preset=preset, **options)
        self.encoder = encoder_for(self.game)
        self.players = self.game.num_players
        self._seeds = np.random.default_rng(seed)
        #: games over as dealt, with their rows, until their reader clears the list
        self.ended_at_deal: list[tuple[int, State]] = []
        #: actions played so far, in every row
        self.moves = 0
        self.states: list[State] = []
        self.trackers: list[Rewards] = []
        for row in range(size):
            state = self._deal(row)
            self.states.append(state)
            self.trackers.append(Rewards(reward, state))

    @property
    def size(self) -> int:
        return len(self.states)

    def _deal(self, row: int) -> State:
        while True:
            state = self.game.new_state(seed=int(self._seeds.integers(0, 2**62)))
            if not state.is_over:
                return state
            self.ended_at_deal.append((row, state))

    def seats(self, rows: Sequence[int] | None = None) -> Seats:
        """The seat to move in each row (the lowest, where several may act)."""
        picked = self.states if rows is None else [self.states[row] for row in rows]
        return np.array(self.encoder.seats_to_move(picked), dtype=np.int64)

    def observe(self, rows: Sequence[int] | None = None) -> tuple[Vector, Mask, Seats]:
        """Observations, masks and seats of ``rows`` (all when None), for the seat to move."""
        picked = self.states if rows is None else [self.states[row] for row in rows]
        listed = self.encoder.seats_to_move(picked)
        observations = clipped(self.encoder, self.encoder.observe_states(picked, listed))
        masks = self.encoder.masks(picked, listed)
        return observations, masks, np.array(listed, dtype=np.int64)

    def step(self, actions: Sequence[int] | Actions, rows: Sequence[int] | None = None) -> Step:
        """Each row's seat to move plays its action number (an illegal one raises
        IllegalAction, after the rows before it have moved)."""
        chosen = list(range(self.size) if rows is None else rows)
        numbers = np.asarray(actions).tolist()
        if len(numbers) != len(chosen):
            raise ValueError(f"{len(numbers)} actions for {len(chosen)} rows")
        rewards = np.zeros((self.size, self.players), dtype=np.float32)
        finished = np.zeros(self.size, dtype=np.bool_)
        ended: list[tuple[int, State]] = []
        picked = [self.states[row] for row in chosen]
        # only a game whose facts say seats may act at once can be in a race
        if self.game.spec.info.simultaneous and any(map(self.encoder.simultaneous, picked)):
            raise IllegalAction(
                f"{self.game.id}: seats act at once here; use the AEC or parallel env"
            )
        # only the rows whose scores may have changed are asked for their rewards
        changed = self.encoder.play_numbers(picked, numbers)
        self.moves += len(numbers)
        for index in changed:
            row, state = chosen[index], picked[index]
            gained = self.trackers[row].collect(state)
            if any(gained):  # most moves score nothing
                rewards[row] = gained
            if state.is_over:
                finished[row] = True
                ended.append((row, state))
                self.states[row] = self._deal(row)
                self.trackers[row].reset(self.states[row])
        return Step(rewards, finished, ended)


class Rollout(NamedTuple):
    """Whole games played by :func:`rollout`: each game's final scores (a row a game, in
    the order they ended) and the moves played."""

    scores: npt.NDArray[np.float64]
    steps: int


def rollout(
    game_id: str,
    games: int,
    policy: BatchPolicy | None = None,
    *,
    batch: int = 64,
    seed: int = 0,
    preset: str | None = None,
    **options: Any,
) -> Rollout:
    """``games`` whole games, ``batch`` at a time, every seat played by ``policy``
    (random legal moves when None); games over as dealt count too."""
    choose = policy or random_policy(seed)
    vector = VectorGames(game_id, min(batch, games), seed=seed, preset=preset, **options)
    scores: list[tuple[int, ...]] = []
    steps = 0
    while True:
        scores += [state.scores() for _, state in vector.ended_at_deal]
        vector.ended_at_deal.clear()
        if len(scores) >= games:
            break
        observations, masks, seats = vector.observe()
        step = vector.step(choose(observations, masks, seats))
        steps += vector.size
        scores += [state.scores() for _, state in step.ended]
    return Rollout(np.array(scores[:games], dtype=np.float64), steps)


class CardtableVectorEnv(VectorEnv[dict[str, Any], Actions, Any]):
    """``num_envs`` games; seat ``seat`` learns, ``opponents`` plays the other seats until
    the learner is to move again: a batched policy (random legal moves when None) or a
    built-in bot (:meth:`set_opponents`; ``"hard"`` with ``opponent_jobs`` workers).

    Observations are ``{"observation": (num_envs, size) float32, "action_mask":
    (num_envs, actions) int8}``. An illegal action number costs ``illegal_penalty`` and
    changes nothing in its game. Autoreset in the same step: where a game ended,
    ``terminated`` is True, the observation is the next game's first and
    ``infos["final_obs"]`` holds the last one. Rewards follow ``reward``
    (:mod:`cardtable.rl.rewards`); what the opponents earn the learner before its first
    move in a new game is paid with its next step.

    Every game the learner sits in is an episode of its own, its return what the game paid
    the learner. A game over before the learner's first move (over as dealt, or ended by
    the opponents' first moves) is handed out as the single-agent env does: its final
    observation with every action allowed, and the next step, whatever its action, ends
    that episode with the game's reward; the row's next game waits meanwhile."""

    def __init__(
        self,
        game_id: str,
        num_envs: int = 8,
        opponents: BatchPolicy | BatchBots | str | None = None,
        seat: int = 0,
        preset: str | None = None,
        reward: str = "score",
        illegal_penalty: float = -1.0,
        opponent_jobs: int = 0,
        **options: Any,
    ) -> None:
        self.game_id, self.preset, self.reward, self.options = game_id, preset, reward, options
        self.num_envs = num_envs
        self.seat = seat
        self.illegal_penalty = illegal_penalty
        self.opponent_jobs = opponent_jobs
        self.set_opponents(opponents)
        self.games = VectorGames(game_id, num_envs, preset=preset, reward=reward, **options)
        encoder = self.games.encoder
        self.single_observation_space = observation_space(encoder)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(encoder.action_size)
        self.action_space = spaces.MultiDiscrete([encoder.action_size] * num_envs)
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
        #: rewards owed to the learner's next step (its opponents' moves in a new game)
        self.carried = np.zeros(num_envs, dtype=np.float32)
        self._rewards = np.zeros(num_envs, dtype=np.float32)
        self._final: dict[int, State] = {}
        #: per row, games over before the learner's first move (final state, return), in
        #: the order they ended: each is handed out as an episode before the row goes on
        self._held: list[deque[tuple[State, float]]] = [deque() for _ in range(num_envs)]
        self._masks = np.zeros((num_envs, encoder.action_size), dtype=np.int8)
        #: a finished game's mask, shared by every final observation (read-only)
        self._no_moves = np.zeros(encoder.action_size, dtype=np.int8)
        self._no_moves.flags.writeable = False

    def set_opponents(self, opponents: BatchPolicy | BatchBots | str | None) -> None:
        """Who plays the other seats: a batched policy (random legal moves when None), a
        built-in bot's name (chosen in the batch, or on ``opponent_jobs`` workers: use
        them for the search levels) or a :class:`BatchBots`. A league swaps them here."""
        if isinstance(opponents, str):
            opponents = BatchBots(opponents, self.game_id, jobs=self.opponent_jobs)
        self.opponents = opponents or random_policy()

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        chosen = seed if seed is not None else int(np.random.default_rng().integers(2**62))
        if isinstance(self.opponents, BatchBots):
            self.opponents.reseed(chosen)
        self.games = VectorGames(
            self.game_id,
            self.num_envs,
            seed=chosen,
            preset=self.preset,
            reward=self.reward,
            **self.options,
        )
        self.carried[:] = 0.0
        self._held = [deque() for _ in range(self.num_envs)]
        # every row starts a new game: the opponents' first moves are paid with the
        # learner's first step
        ended = np.ones(self.num_envs, dtype=np.bool_)
        self._hold_dealt_over()
        self._others_play(ended)
        return self._observations(), {}

    def _observations(self) -> dict[str, Any]:
        held = [row for row in range(self.num_envs) if self._held[row]]
        if not held:
            observations, self._masks, _ = self.games.observe()
            return {"observation": observations, "action_mask": self._masks}
        encoder = self.games.encoder
        live = [row for row in range(self.num_envs) if not self._held[row]]
        observations = np.zeros((self.num_envs, encoder.observation_size), dtype=np.float32)
        self._masks = np.ones((self.num_envs, encoder.action_size), dtype=np.int8)
        if live:
            observations[live], self._masks[live], _ = self.games.observe(live)
        # a held row shows its finished game from the learner's seat: the row's next game
        # may be waiting for an opponent, whose view the learner must not get
        finals = [self._held[row][0][0] for row in held]
        observations[held] = clipped(
            encoder, encoder.observe_states(finals, [self.seat] * len(held))
        )
        return {"observation": observations, "action_mask": self._masks}

    def learner_rows(self) -> list[int]:
        """The rows where the learner has a real move now (not a held finished game): a
        teacher bot may be asked what it would play there (``BatchBots.actions``)."""
        return [row for row in range(self.num_envs) if not self._held[row]]

    def _others_play(self, ended: npt.NDArray[np.bool_]) -> None:
        """Opponents move until the learner is to move in every game not held; their
        moves' rewards go to the learner's current episode, or to the next where its game
        already ended."""
        while True:
            seats = self.games.seats()
            waiting = np.fromiter((bool(h) for h in self._held), np.bool_, self.num_envs)
            rows = np.flatnonzero((seats != self.seat) & ~waiting)
            if not len(rows):
                return
            listed = rows.tolist()
            if isinstance(self.opponents, BatchBots):
                actions = self.opponents.actions(self.games, listed)
            else:
                actions = self.opponents(*self.games.observe(listed))
            self._collect(self.games.step(actions, listed), ended)

    def _collect(self, step: Step, ended: npt.NDArray[np.bool_]) -> None:
        """The learner's rewards of a step: to this episode, or to the next one where its
        game has already ended (``ended``, which this step's finished games join). A game
        that ends after the row's episode ended (the learner never moved in it) is held."""
        earned = step.rewards[:, self.seat]
        self._rewards += np.where(ended, 0.0, earned)
        self.carried += np.where(ended, earned, 0.0)
        for row, state in step.ended:
            if not ended[row]:
                ended[row] = True
                self._final[row] = state
            else:
                self._held[row].append((state, float(self.carried[row])))
                self.carried[row] = 0.0
        self._hold_dealt_over()

    def _hold_dealt_over(self) -> None:
        """Games over as dealt are episodes too, paid as the single-agent env pays them
        (what a tracker started on the dealt state collects)."""
        for row, state in self.games.ended_at_deal:
            paid = Rewards(self.reward, state).collect(state)[self.seat]
            self._held[row].append((state, paid))
        self.games.ended_at_deal.clear()

    def step(
        self, actions: Actions
    ) -> tuple[dict[str, Any], npt.NDArray[np.float32], Any, Any, dict[str, Any]]:
        actions = np.asarray(actions, dtype=np.int64)
        self._rewards = self.carried.copy()
        self.carried[:] = 0.0
        self._final = {}
        ended = np.zeros(self.num_envs, dtype=np.bool_)
        held = np.fromiter((bool(h) for h in self._held), np.bool_, self.num_envs)
        for row in np.flatnonzero(held).tolist():
            # any action closes a held game's episode, with what that game paid
            self._final[row], self._rewards[row] = self._held[row].popleft()
            ended[row] = True
        inside = (actions >= 0) & (actions < self._masks.shape[1])
        legal = inside.copy()
        legal[inside] = self._masks[np.flatnonzero(inside), actions[inside]] == 1
        self._rewards[~legal & ~held] += self.illegal_penalty
        playing = legal & ~held
        rows = np.flatnonzero(playing).tolist()
        self._collect(self.games.step(actions[playing], rows), ended)
        self._others_play(ended)
        infos: dict[str, Any] = {}
        if self._final:
            infos = self._final_infos(ended)
        truncated = np.zeros(self.num_envs, dtype=np.bool_)
        return self._observations(), self._rewards, ended, truncated, infos

    def _final_infos(self, ended: npt.NDArray[np.bool_]) -> dict[str, Any]:
        """Gymnasium's same-step autoreset infos: each ended game's last observation (no
        legal action left) and final scores, flagged by ``_final_obs``/``_final_info``."""
        encoder = self.games.encoder
        rows = sorted(self._final)
        states = [self._final[row] for row in rows]
        vectors = clipped(encoder, encoder.observe_states(states, [self.seat] * len(rows)))
        final_obs = np.full(self.num_envs, None, dtype=object)
        final_info = np.full(self.num_envs, None, dtype=object)
        for row, state, vector in zip(rows, states, vectors, strict=True):
            final_obs[row] = {"observation": vector, "action_mask": self._no_moves}
            final_info[row] = {"scores": state.scores(), "winners": state.result().winners}
        return {
            "final_obs": final_obs,
            "_final_obs": ended.copy(),
            "final_info": final_info,
            "_final_info": ended.copy(),
        }

    def close_extras(self, **kwargs: Any) -> None:
        if isinstance(self.opponents, BatchBots):
            self.opponents.close()
