"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012).

The bot never looks at what its seat cannot see: every iteration starts from
``state.determinize(seat, rng)``, a full state in which all hidden cards are resampled,
so the real hands and stock are thrown away before the search reads anything. A
``belief`` may deal instead (the ``expert`` level's hand reader draws likely hands more
often): its dealer must read only what the seat sees too, and return a fresh state at
every call (the search plays it out). One tree is shared by all determinizations; a
child's UCB uses how often it was *available*, since an action legal in one
determinization may not be in another.

A playout runs to the end of the current round with the rollout bot — to the end of
the game when rounds build on each other (Ohanami's stages: a card placed now scores in
every later stage) — and is judged by what it means for the match. In the last round a
seat's reward in [0, 1] is half for winning the game (a shared win counts half) and half
for the margin over the best other seat; before it, the reward is the margin alone,
squashed less the more rounds are left to turn it round, which is roughly the chance to
win from there.
Margins are measured in the game's own currency: the search keeps the root mean square of
the round margins its playouts have seen (koi-koi points, hana-awase card values).

When the rollout bot can shortlist moves (Ohanami's greedy bot), only its
``ROOT_WIDTH`` best are searched for the seat itself: with 45 keeps to choose from, a
budget of a few hundred playouts spread over all of them picks almost at random.

Simultaneous steps (Ohanami) are searched as if the seats chose one after the other;
determinization hides the others' committed choices, so no seat learns another's.

>>> import cardtable
>>> state = cardtable.load("bakappana", rounds=1).new_state(seed=3)
>>> bot = ISMCTSAgent(iterations=50, seed=1)
>>> bot.choose(state, state.dealer) in state.legal_actions(state.dealer)
True
"""

from __future__ import annotations

import gc
import math
import threading
import time
from collections.abc import Callable
from typing import Final, Protocol, cast

from cardtable.agents.base import Agent, Shortlisting, actions_for, make_agent, register_agent
from cardtable.core.actions import Action
from cardtable.core.game import spec_of
from cardtable.core.protocols import FastPlayout
from cardtable.core.rng import Rng
from cardtable.core.state import State

EXPLORATION = 0.7
#: at most this many of the searching seat's moves are searched when the rollout bot can
#: shortlist them (Ohanami's 45 keeps would leave each a handful of playouts otherwise)
ROOT_WIDTH = 8
#: margins are scaled by the RMS round margin seen so far; this many playouts make it settle
MARGIN_MEMORY = 4096


class Dealer(Protocol):
    """Deals the hidden cards for one searching seat at one position: a belief about them
    (``sample`` must read nothing that seat cannot see)."""

    def sample(self, rng: Rng) -> State: ...


#: makes the dealer for (position, searching seat); None: deal uniformly
Belief = Callable[[State, int], Dealer | None]


class LeafValue(Protocol):
    """Judges a leaf without playing it out (a learned evaluator): each seat's reward,
    read from the searching ``seat``'s view only."""

    @property
    def typical_margin(self) -> float: ...

    def rewards(self, state: State, seat: int, scale: float, rounds_left: int) -> list[float]: ...


class Node:
    """A tree node: the action that led here and the seat that took it.

    A plain class, not a dataclass: compiled, a dataclass's ``__init__`` is still the
    Python function the dataclass module writes, and a search makes a node an iteration."""

    __slots__ = ("action", "after", "available", "children", "reward", "seat", "visits")

    def __init__(self, action: Action | None = None, seat: int = -1, available: int = 0) -> None:
        self.action = action
        self.seat = seat
        self.visits = 0
        self.available = available
        self.reward = 0.0
        self.children: dict[Action, Node] = {}
        #: what follows this action, by what everybody saw happen with it (a card turned
        #: from the stock), when the search tells outcomes apart
        self.after: dict[int, Node] | None = None

    def outcome(self, seen: int) -> Node:
        """The node of the moves that follow this action when ``seen`` happened with it."""
        after = self.after
        if after is None:
            after = self.after = {}
        node = after.get(seen)
        if node is None:
            node = after[seen] = Node()
        return node

    def ucb(self, exploration: float = EXPLORATION) -> float:
        mean = self.reward / self.visits
        # float(): compiled, math.log of a float is a C call, of an int a Python one
        return mean + exploration * math.sqrt(math.log(float(self.available)) / self.visits)


class CollectorPause:
    """The cycle collector off while any search runs (a context manager shared by every
    search of the process): the tree and the copies make no reference cycles, and freeing
    them is reference counting's work, while the collector would walk the growing tree
    again and again (about a twentieth of a search's time). Searches in threads overlap, so
    the first to start turns it off and the last to end turns it back on, if it was on."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.searches = 0
        self.was_on = False

    def __enter__(self) -> None:
        with self.lock:
            if not self.searches:
                self.was_on = gc.isenabled()
                gc.disable()
            self.searches += 1

    def __exit__(self, *exc: object) -> None:
        with self.lock:
            self.searches -= 1
            if not self.searches and self.was_on:
                gc.enable()


COLLECTOR_PAUSE: Final = CollectorPause()


def match_rewards(totals: tuple[int, ...], scale: float, rounds_left: int) -> list[float]:
    """Each seat's reward for match ``totals`` with ``rounds_left`` rounds still to play
    after this one; ``scale`` is a typical round margin (see the module docstring)."""
    best = max(totals)
    winners = totals.count(best)
    # each seat's best opponent: the best score, or the runner-up's for the best seat
    runner_up = sorted(totals)[-2] if len(totals) > 1 else best
    rewards = []
    for score in totals:
        others = runner_up if score == best and winners == 1 else best
        margin = (score - others) / scale
        if rounds_left:
            rewards.append(0.5 + 0.5 * math.tanh(0.8 * margin / math.sqrt(float(rounds_left))))
        else:
            win = (1.0 if winners == 1 else 0.5) if score == best else 0.0
            rewards.append(0.5 * win + 0.25 * math.tanh(margin) + 0.25)
    return rewards


class ISMCTSAgent:
    """ISMCTS with an iteration budget and an optional time budget per move: ``seconds``
    stops a move's search early (None: the iterations alone decide, so a seed replays the
    same moves under any load); ``live_seconds`` is the level's clock at a live table,
    which only a live table puts on (:func:`cardtable.agents.base.on_the_clock`)."""

    name = "ismcts"

    def __init__(
        self,
        iterations: int = 1000,
        seconds: float | None = None,
        rollout: Agent | None = None,
        seed: int | None = None,
        belief: Belief | None = None,
        leaf: LeafValue | None = None,
        leaf_share: float = 1.0,
        live_seconds: float | None = None,
        horizon: int = 0,
        exploration: float = EXPLORATION,
        max_turns: int = 0,
        observe: Callable[[State], int] | None = None,
    ) -> None:
        self.iterations = iterations
        #: the tree holds the moves of this many turns at most (a turn: one seat's moves
        #: in a row), playouts the rest (0: no limit)
        self.max_turns = max_turns
        #: what everybody sees happen after a move (a number): the tree tells the moves
        #: that follow apart by it, so a later choice is not averaged over different draws
        self.observe = observe
        self.exploration = exploration  # UCB's weight on trying the less tried
        #: judge a playout as if at least this many rounds were left after it: its
        #: margin in points, not who won (0: the game's last round, or a playout to the
        #: end of the game, is played to win)
        self.horizon = horizon
        #: a leaf's reward is this share of the leaf value's, the rest the playout's
        self.leaf = leaf
        self.leaf_share = leaf_share
        self.seconds = seconds
        self.live_seconds = live_seconds
        self.rollout = rollout
        self.belief = belief
        self.rng = Rng(0 if seed is None else seed)
        self.margin_square = 0.0  # mean square of the playouts' round margins
        self.margins_seen = 0
        self.fast_playouts = False  # random playouts by the game's own engine

    def choose(self, state: State, seat: int) -> Action:
        legal = actions_for(state, seat)
        if len(legal) == 1:
            return legal[0]
        # The tree is freed before the collector is back on: turned on with the tree
        # alive, its first pass would walk every node, all of them new since it stopped.
        with COLLECTOR_PAUSE:
            root = self.search(state, seat, legal)
            action = max(root.children.values(), key=lambda child: child.visits).action
            del root
        assert action is not None
        return action

    def search(self, state: State, seat: int, legal: list[Action], shortlist: bool = True) -> Node:
        """The search tree's root after the budget, for ``seat`` choosing among ``legal``
        (``shortlist``: only the rollout bot's best few, when it can tell them)."""
        if shortlist and isinstance(self.rollout, Shortlisting) and len(legal) > ROOT_WIDTH:
            legal = self.rollout.shortlist(state, seat, legal, ROOT_WIDTH)
        root = Node()
        self.fast_playouts = self.rollout is None and isinstance(state, FastPlayout)
        # Search to the end of this round, or of the game when rounds build on each other.
        until = None if state.rounds_carry_over else state.rounds_finished
        rounds_left = self.rounds_left(state)
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        dealer = None if self.belief is None else self.belief(state, seat)
        with COLLECTOR_PAUSE:
            for iteration in range(self.iterations):
                # checked every iteration: one costs far more than a look at the clock
                if deadline is not None and iteration and time.perf_counter() > deadline:
                    break
                if dealer is None:
                    sample = state.determinize(seat, self.rng)
                else:
                    sample = dealer.sample(self.rng)
                if until is not None:
                    sample.end_at_round()
                self._iterate(root, sample, seat, until, rounds_left, legal)
        return root

    def rounds_left(self, state: State) -> int:
        """How many rounds a playout of this round is judged to leave to play after it (0:
        the last, played to win; :attr:`horizon` at least)."""
        planned, until = state.rounds_planned, state.rounds_finished
        left = 0 if planned is None or state.rounds_carry_over else max(planned - until - 1, 0)
        return max(left, self.horizon)

    def _iterate(
        self,
        root: Node,
        state: State,
        seat: int,
        until: int | None,
        rounds_left: int,
        root_actions: list[Action],
    ) -> None:
        node, path = root, []
        turns, last_mover = 0, -1
        max_turns, observe = self.max_turns, self.observe
        while _going(state, until):
            if node is root:  # the seat's own moves are the same in every determinization
                mover, legal = seat, root_actions
            else:
                mover = min(state.to_move)
                if mover != last_mover and max_turns and turns >= max_turns:
                    break
                legal = state.legal_actions(mover)
            if mover != last_mover:
                turns, last_mover = turns + 1, mover
            # One look-up per legal action: hashing actions is a large part of a walk.
            children = node.children
            untried: list[Action] = []
            available: list[Node] = []
            for action in legal:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.available += 1
                    available.append(child)
            if untried:
                action = untried[self.rng.below(len(untried))]
                child = children[action] = Node(action, mover, available=1)
                state.advance(mover, action)
                path.append(child)
                break
            child = _most_promising(available, self.exploration)
            assert child.action is not None
            state.advance(mover, child.action)
            path.append(child)
            node = child if observe is None else child.outcome(observe(state))
        learned: list[float] | None = None
        if self.leaf is not None and _going(state, until):
            scale = math.sqrt(self.margin_square) or self.leaf.typical_margin
            learned = self.leaf.rewards(state, seat, scale, rounds_left)
        if learned is not None and self.leaf_share >= 1.0:
            rewards = learned
        else:
            self._playout(state, until)
            scale = self._margin_scale(state, until)
            rewards = match_rewards(state.scores(), scale, rounds_left)
            if learned is not None:
                share = self.leaf_share
                pairs = zip(rewards, learned, strict=True)
                rewards = [(1 - share) * r + share * v for r, v in pairs]
        for child in path:
            child.visits += 1
            child.reward += rewards[child.seat]

    def _margin_scale(self, state: State, until: int | None) -> float:
        """The RMS margin (of the round, or of the game when searching to its end) over the
        playouts so far, this one included."""
        if until is None or state.rounds_finished > until:
            scores = state.scores() if until is None else state.round_scores(until)
            margin = max(scores) - min(scores)
            self.margins_seen = min(self.margins_seen + 1, MARGIN_MEMORY)
            self.margin_square += (margin * margin - self.margin_square) / self.margins_seen
        return math.sqrt(self.margin_square) or 1.0

    def _playout(self, state: State, until: int | None) -> None:
        if self.fast_playouts and until is not None:  # the game's own: no listing, no checks
            cast(FastPlayout, state).random_playout(self.rng, until)
            return
        while _going(state, until):
            for mover in sorted(state.to_move):
                if self.rollout is not None:
                    action = self.rollout.choose(state, mover)
                else:
                    actions = state.legal_actions(mover)
                    action = actions[self.rng.below(len(actions))]
                state.advance(mover, action)


def _most_promising(children: list[Node], exploration: float) -> Node:
    """The child of highest UCB, the first of equals (``max(children, key=Node.ucb)`` as a
    loop: compiled, it runs without a Python call per child)."""
    best = children[0]
    best_value = best.ucb(exploration)
    for child in children[1:]:
        value = child.ucb(exploration)
        if value > best_value:
            best, best_value = child, value
    return best


def _going(state: State, until: int | None) -> bool:
    """Whether a search copy goes on: not over, and still in round ``until`` (None: to the
    end of the game)."""
    return not state.is_over and (until is None or state.rounds_finished == until)


class EpsilonGreedy:
    """The greedy bot, but a random move a share of the time (the ``easy`` level)."""

    name = "easy"

    def __init__(self, game_id: str, epsilon: float, seed: int | None) -> None:
        self.greedy = make_agent("greedy", game_id, seed)
        self.epsilon = epsilon
        self.rng = Rng(0 if seed is None else seed + 1)

    def choose(self, state: State, seat: int) -> Action:
        if self.rng.random() < self.epsilon:
            actions = actions_for(state, seat)
            return actions[self.rng.below(len(actions))]
        return self.greedy.choose(state, seat)


LEVELS = {
    "easy": "the greedy bot with every other move at random",
    "medium": "the greedy bot",
    "hard": "ISMCTS, determinized iterations per move with greedy playouts "
    "(the game's budget: under a second a move on one core)",
}


def search_level(
    game_id: str,
    seed: int | None,
    rollout: str = "greedy",
    belief: Belief | None = None,
    live_seconds: float | None = None,
    leaf: LeafValue | None = None,
    leaf_share: float = 1.0,
    iterations: int | None = None,
    horizon: int = 0,
    exploration: float = EXPLORATION,
    max_turns: int = 0,
    observe: Callable[[State], int] | None = None,
) -> ISMCTSAgent:
    """A level's search: the game's budget in iterations (``iterations`` when given; at a
    live table at most ``live_seconds`` a move), playouts by its ``rollout`` bot, hidden
    cards dealt by ``belief`` (uniformly without one), leaves judged ``leaf_share`` by
    ``leaf``, playouts judged by their margin alone when ``horizon`` says to play for
    points (see :class:`ISMCTSAgent`). No clock runs until a live table puts it on:
    envs, the arena and replays get the same moves from the same seed."""
    return ISMCTSAgent(
        iterations=iterations or spec_of(game_id).info.search_iterations,
        live_seconds=live_seconds,
        seed=seed,
        rollout=make_agent(rollout, game_id, seed),
        belief=belief,
        leaf=leaf,
        leaf_share=leaf_share,
        horizon=horizon,
        exploration=exploration,
        max_turns=max_turns,
        observe=observe,
    )


register_agent(
    "ismcts",
    "information-set Monte Carlo tree search (1 000 iterations, random playouts)",
    lambda game_id, seed: ISMCTSAgent(iterations=1000, seed=seed),
)
register_agent("easy", LEVELS["easy"], lambda g, seed: EpsilonGreedy(g, 0.5, seed))
register_agent("medium", LEVELS["medium"], lambda g, seed: make_agent("greedy", g, seed))
register_agent("hard", LEVELS["hard"], search_level)
