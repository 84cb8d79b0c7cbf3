"""The State protocol every game implements (OpenSpiel's shape, boardgame.io's discipline).

A state is plain data plus these methods. It mutates in :meth:`State.apply` and is copied
by :meth:`State.clone`, which games keep cheap because bots clone thousands of times a
second. What a seat may see is computed by :meth:`State.view`; nothing else is shown to
a client.
"""

from __future__ import annotations

from abc import abstractmethod
from typing import Any, Final

from mypy_extensions import mypyc_attr

from cardtable.core.actions import Action, LoggedMove
from cardtable.core.errors import IllegalAction
from cardtable.core.protocols import GameLike
from cardtable.core.results import MatchResult, RoundResult
from cardtable.core.rng import RandomSource
from cardtable.locales import Reason, reason

JSON = dict[str, Any]
_new_tuple: Final = tuple.__new__
#: the class as a constant: compiled, an imported class is otherwise a look-up in a dict
_LOGGED_MOVE: Final = LoggedMove
#: The seat a front end's clock acts as, in games whose spec declares a clock.
CLOCK = -1


# Subclassed by every game's state, most of them interpreted (the compiled engine:
# cardtable.compiled). Not an ABC: compiled, every subclass would share ABCMeta's cache of
# subclass checks, and isinstance(a Bakappana state, KoiKoiState) came out true.
@mypyc_attr(allow_interpreted_subclasses=True)
class State:
    """A game in progress.

    ``seed`` and ``deals`` are what the state was started from; with ``log`` they rebuild
    it exactly (``GameRecord.of(state)``).
    """

    __slots__ = ("deals", "game", "log", "seed")

    game: GameLike
    seed: int
    deals: tuple[JSON, ...]
    log: list[LoggedMove]

    def __getstate__(self) -> JSON:
        # Hints send states to other processes pickled. A compiled class pickles only its
        # own attributes; a game's interpreted subclass adds slots of its own.
        names: set[str] = set()
        for cls in type(self).__mro__:
            names.update(getattr(cls, "__slots__", ()))
            names.update(getattr(cls, "__mypyc_attrs__", ()))
        return {name: getattr(self, name) for name in names if hasattr(self, name)}

    def __setstate__(self, state: JSON) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    def begin(self, game: GameLike, seed: int, deals: tuple[JSON, ...]) -> None:
        """Record what the state starts from (every game's constructor calls this first)."""
        self.game = game
        self.seed = seed
        self.deals = deals
        self.log = []

    # -- whose turn and what they may do ---------------------------------------------
    @property
    @abstractmethod
    def to_move(self) -> frozenset[int]:
        """Seats that must act now (several in simultaneous steps); empty when over."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now (empty when it is not to move)."""

    @abstractmethod
    def illegal_reason(self, seat: int, action: Action) -> str | None:
        """Why ``action`` by ``seat`` is not allowed now, or None when it is."""

    @abstractmethod
    def _perform(self, seat: int, action: Action) -> None:
        """Carry out an action already known to be legal."""

    def apply(self, seat: int, action: Action) -> None:
        """Play ``action`` for ``seat``; an illegal one raises IllegalAction and changes nothing."""
        reason = self.illegal_reason(seat, action)
        if reason is not None:
            raise IllegalAction(reason)
        self._perform(seat, action)
        # tuple.__new__ skips NamedTuple's Python-level constructor: apply is a hot path.
        self.log.append(_new_tuple(_LOGGED_MOVE, (seat, action)))

    def advance(self, seat: int, action: Action) -> None:
        """Play an action taken from ``legal_actions(seat)`` without checking it again and
        without logging it: the search's step on its own copies (never a real game)."""
        self._perform(seat, action)

    # -- copies and hidden information ------------------------------------------------
    @abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    @abstractmethod
    def determinize(self, seat: int, rng: RandomSource) -> State:
        """A copy in which everything ``seat`` cannot see is resampled consistently."""

    @abstractmethod
    def view(self, seat: int | None, *, brief: bool = False) -> JSON:
        """JSON-ready dict of what ``seat`` may see; ``None`` is a spectator.

        ``brief`` leaves out what can be derived or replayed (the move history, the list
        of legal moves, the last round's breakdown): the position only, which is what a
        learner observes on every step."""

    def shared_view(self) -> JSON:
        """The part of every seat's :meth:`view` that all seats and spectators see alike.
        ``view(seat)`` is ``{**shared_view(), **own_view(seat)}``, the two with no key in
        common: a server that sends every seat its view works the shared part out once a
        move, not once a seat. A game that does not split its view shares nothing."""
        return {}

    def own_view(self, seat: int | None) -> JSON:
        """What ``seat``'s :meth:`view` adds to :meth:`shared_view` (its hand, its moves)."""
        return self.view(seat)

    def round_view(self) -> JSON:
        """The part of :meth:`shared_view` that stays the same while :meth:`round_key` does
        (the rounds before this one, the deal): ``shared_view()`` is ``{**round_view(),
        **moving_view()}``, the two with no key in common, so a server works it out and
        encodes it once a round, not once a move. A game without one has ``{}``."""
        return {}

    def moving_view(self) -> JSON:
        """:meth:`shared_view` without :meth:`round_view`."""
        return self.shared_view()

    def round_key(self) -> object:
        """What :meth:`round_view` depends on: while it compares equal, so does the view."""
        return None

    # -- outcome ---------------------------------------------------------------------
    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def scores(self) -> tuple[int, ...]:
        """Running (or final) match score of each seat."""

    @abstractmethod
    def result(self) -> MatchResult:
        """Scores plus the breakdown of every finished round."""

    # -- what search needs (the Searchable protocol; these defaults fit every game) -----
    @property
    def rounds_carry_over(self) -> bool:
        """A round builds on the ones before: search to the end of the game (the spec)."""
        return self.game.rounds_carry_over

    @property
    def rounds_finished(self) -> int:
        """How many rounds (or stages) have been scored: search bots stop a playout at the
        end of the current round. Games override this with a cheaper count."""
        return len(self.result().rounds)

    @property
    def rounds_planned(self) -> int | None:
        """How many rounds (or stages) a whole game has, when that is fixed: search bots
        weigh a round's margin by how much of the match is left."""
        rounds = getattr(self.game.options, "rounds", None)
        return rounds if isinstance(rounds, int) else None

    def round_scores(self, index: int) -> tuple[int, ...]:
        """The scores of finished round ``index`` (0-based)."""
        return self.result().rounds[index].scores

    def end_at_round(self, *, explain: bool = False) -> None:
        """Make this state end when the current round is scored, instead of dealing the
        next one, on the round's final board. Unless ``explain``, it may score that round
        without explaining it (no score lines): search copies need no more. (Games that
        deal for a round override this; by default there is nothing to do.)"""

    def round_may_end(self, seat: int, action: Action) -> bool:
        """Whether ``seat``'s ``action`` could end the round (True may be said of a move
        that does not; False never of one that does). A server shows a round's final
        board from a copy made before the move that ends it: a game that says False for
        most moves spares it that copy on every other one. By default every move may."""
        return True

    # -- helpers shared by all games --------------------------------------------------
    @property
    def num_players(self) -> int:
        """How many seats play (the one name for it: options and views say ``players``)."""
        return self.game.num_players

    def not_to_move_reason(self, seat: int) -> Reason:
        if not 0 <= seat < self.num_players:
            return reason("illegal.no_seat", seat=seat, last=self.num_players - 1)
        if self.is_over:
            return reason("illegal.over")
        waiting = ", ".join(str(s) for s in sorted(self.to_move))
        return reason("illegal.not_to_move", seat=seat, waiting=waiting)


@mypyc_attr(allow_interpreted_subclasses=True)
class KeepsRounds(State):
    """A state that keeps a ``results`` list of finished rounds (or stages) and running
    ``totals`` per seat (a subclass, not a mixin: the compiled engine allows one base)."""

    __slots__ = ("results", "totals")

    results: list[RoundResult]
    totals: list[int]

    def scores(self) -> tuple[int, ...]:
        return tuple(self.totals)

    @property
    def rounds_finished(self) -> int:
        return len(self.results)

    def round_scores(self, index: int) -> tuple[int, ...]:
        return self.results[index].scores
