"""Games: a registered spec (facts, options, presets, capabilities) plus chosen options.

A game declares itself once with a :class:`GameSpec`: what it is (:class:`GameInfo`:
player range, simultaneous steps, clock, how its scores add up), how to start and parse
it, and where its capabilities live (:class:`Capability`: bots, RL encoder, terminal
view, companion scorer, web renderer...). The layers above ask the spec and import no
game, the way boardgame.io's server knows no particular game.

>>> import cardtable
>>> game = cardtable.load("bakappana", players=3, rounds=1)
>>> game.id, game.num_players, game.spec.info.players
('bakappana', 3, (2, 4))
"""

from __future__ import annotations

import importlib
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cardtable.core.actions import Action
from cardtable.core.errors import OptionError
from cardtable.core.options import GameOptions, build_options
from cardtable.locales import exclude_catalogues, include_catalogues

if TYPE_CHECKING:
    from cardtable.core.state import State

JSON = dict[str, Any]
StateFactory = Callable[["Game", int, tuple[JSON, ...]], "State"]
ActionParser = Callable[[Mapping[str, Any]], Action]
#: the sum of every seat's match score that a game's rules promise, for these options;
#: None where it is not fixed (scores that only grow, cards nobody captured)
ScoreTotal = Callable[[GameOptions], int | None]


def no_fixed_total(options: GameOptions) -> int | None:
    return None


@dataclass(frozen=True)
class GameInfo:
    """The facts of a game that front ends, bots and the conformance suite rely on."""

    #: fewest and most seats
    players: tuple[int, int]
    #: several seats act in one step (Ohanami's keeps, 7 słów's writing)
    simultaneous: bool = False
    #: a round builds on the ones before (Ohanami's gardens grow over its stages), so a
    #: search must look to the end of the game, not of the round
    rounds_carry_over: bool = False
    #: the state asks front ends to run a clock (``state.timer``); at its end they send
    #: the game's time-up action as seat :data:`cardtable.core.state.CLOCK`
    clock: bool = False
    #: some moves are free text (7 słów's words): ``legal_actions`` lists only the others
    free_text: bool = False
    #: how the match scores add up (see :data:`ScoreTotal`)
    score_total: ScoreTotal = no_fixed_total
    #: the ``hard`` bot's search iterations a move: what fits in well under a second
    search_iterations: int = 150
    #: offered first where a front end lists the games (the lobby's choice for a newcomer)
    featured: bool = False
    #: the rules a quick reinforcement-learning baseline trains on (``rl.ppo``): two
    #: players and one round, where the game allows them
    rl_options: Mapping[str, Any] = field(default_factory=dict)
    #: a typical score margin of one round: a learner's reward divides the margin by it
    round_margin: float = 10.0


class Capability(StrEnum):
    """What a game package hands out through its spec, each named by where it lives
    (``"package.module:attribute"``) and imported on first use.

    ``BOTS``: ``Mapping[str, BotSpec]`` of the game's own bots (``cardtable.agents``);
    ``ENCODER``: a zero-argument factory of the RL encoder (``cardtable.core.encoding``);
    ``TERMINAL``: the terminal front end, a ``TerminalFrontEnd`` (``cardtable.core.terminal``);
    ``COMMANDS``: the game's own ``cardtable`` commands, ``Command`` objects (same module);
    ``HINTS``: a module with ``explain(state, seat, action)``, ``describe(action, lang,
    codes)`` and ``show(value, lang, codes)`` (``codes``: name cards by the codes the
    terminal's player types too), optionally ``named(action, lang)``: the move without its
    verb, as the coach's note says what was played (``cardtable.agents.hints``);
    ``COMPANION``: a module scoring a game played with the box: ``PAD`` (the browser pad)
    and ``results(game_id, options, data)`` (``cardtable.companion``);
    ``WEB``: the browser client, a ``WebClient`` (``cardtable.core.web``): the package's
    ``web/`` folder with its renderer and score pad, and the card data its art draws from;
    ``FRAME``: ``extras(state) -> JSON``, what a server frame adds for everyone at the
    table (public: 7 słów's best words after a round);
    ``REVIEW``: ``review(state, seat) -> list[JSON]``, what the review after a game adds
    from the finished state (7 słów: the solver's best words beside each word written);
    ``DOCS``: a module with ``PAGES`` (the folder of the game's rule page ``GAME.md`` and
    its translations ``LANG/GAME.md``) and ``TABLES`` (block name -> ``table(game_id,
    lang)``, the markdown ``make docs`` fills in); a game whose page is not there yet has
    none (:meth:`GameSpec.has_rule_page`);
    ``LESSON``: the guided first game, a ``Lesson`` (``cardtable.learn``): its deal, every
    scripted move and the coach's lines;
    ``PRACTICE_HINT``: ``practice_hint(state, seat) -> {"texts": {lang: text}}``, what a
    seat may ask for during a round at a table where no other person plays, for a game
    without ``HINTS`` (7 słów: the solver's best words for the seat's letters);
    ``PREPARE``: ``prepare() -> list[str]``, the game's slow first-use work done ahead of
    time, saying what it made (7 słów: its dictionaries' indexes, ~30 s on a fresh
    install); the server runs it in the background as it starts, so the first table
    does not wait, and the test run once before its workers start.
    """

    BOTS = "bots"
    ENCODER = "encoder"
    TERMINAL = "terminal"
    COMMANDS = "commands"
    HINTS = "hints"
    COMPANION = "companion"
    WEB = "web"
    FRAME = "frame"
    REVIEW = "review"
    DOCS = "docs"
    LESSON = "lesson"
    PRACTICE_HINT = "practice_hint"
    PREPARE = "prepare"


@dataclass(frozen=True)
class GameSpec:
    """How a game registers itself once."""

    id: str
    title: str
    summary: str
    options_model: type[GameOptions]
    start: StateFactory
    parse_action: ActionParser
    info: GameInfo
    presets: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    family: str = ""
    capabilities: Mapping[Capability, str] = field(default_factory=dict)
    #: a folder of the game's own message catalogues (``LANG.json``) for a game that lives
    #: outside ``cardtable.games`` (whose packages' ``locales/`` are read anyway)
    locales: Path | None = None
    #: score-line rule prefix (``"yaku"`` of ``"yaku:tsukimi"``) -> the heading of the
    #: game's rule page that explains it, so a score line links to its rule
    rule_sections: Mapping[str, str] = field(default_factory=dict)

    def has(self, capability: Capability) -> bool:
        return capability in self.capabilities

    def capability(self, capability: Capability, missing: str | None = None) -> Any:
        """The capability's object, imported on first use; a game without it is an
        OptionError saying ``missing`` (or that the game has no such capability)."""
        target = self.capabilities.get(capability)
        if target is None:
            raise OptionError(missing or f"{self.title} has no {capability.value} capability")
        return _resolve(target)

    def rule_page(self, lang: str = "en") -> Path:
        """Where the game's rule page is (``GAME.md`` in its ``DOCS`` module's ``PAGES``),
        or its translation into ``lang`` (``LANG/GAME.md``, which may not exist); a game
        without a page is an OptionError that says so."""
        page = self._page_path(lang)
        if page is None or not self.has_rule_page():
            raise OptionError(f"{self.title} has no rule page yet", given=[self.id])
        return page

    def has_rule_page(self, lang: str = "en") -> bool:
        """Whether the game's page (``GAME.md``, or its ``lang`` translation) is there: a
        game may share its family's ``DOCS`` and not have a page of its own yet."""
        page = self._page_path(lang)
        return page is not None and page.is_file()

    def _page_path(self, lang: str) -> Path | None:
        docs = self.optional(Capability.DOCS)
        if docs is None:
            return None
        pages = Path(docs.PAGES)
        return (pages if lang == "en" else pages / lang) / f"{self.id}.md"

    def optional(self, capability: Capability, default: Any = None) -> Any:
        """The capability's object, or ``default`` for a game without it."""
        target = self.capabilities.get(capability)
        return default if target is None else _resolve(target)


_RESOLVED: dict[str, Any] = {}


def _resolve(target: str) -> Any:
    if target not in _RESOLVED:
        module, _, attribute = target.partition(":")
        value: Any = importlib.import_module(module)
        for part in attribute.split(".") if attribute else ():
            value = getattr(value, part)
        _RESOLVED[target] = value
    return _RESOLVED[target]


class Game:
    """A game with its options fixed: the factory of states."""

    __slots__ = ("options", "spec")

    def __init__(self, spec: GameSpec, options: GameOptions) -> None:
        self.spec = spec
        self.options = options

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def num_players(self) -> int:
        """How many seats this game has (every game's options have ``players``)."""
        return int(getattr(self.options, "players", self.spec.info.players[0]))

    @property
    def rounds_carry_over(self) -> bool:
        """A round builds on the ones before (:attr:`GameInfo.rounds_carry_over`)."""
        return self.spec.info.rounds_carry_over

    def new_state(
        self, seed: int | None = None, deals: Sequence[Mapping[str, Any]] | None = None
    ) -> State:
        """A new game. Same seed and same moves give the same game on any machine.

        ``deals`` fixes the deal of the first rounds (one mapping per round); rounds beyond
        the list are dealt from the seed. Without a seed one is drawn from the OS's CSPRNG
        and kept in ``state.seed``.
        """
        if seed is None:
            seed = secrets.randbits(63)
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"a seed must be an integer, not {seed!r}")
        fixed = tuple(deals or ())
        for k, deal in enumerate(fixed):
            if not isinstance(deal, Mapping):
                raise OptionError(f"deals[{k}] must be a mapping, not {type(deal).__name__}")
        return self.spec.start(self, seed, tuple(dict(d) for d in fixed))

    def parse_action(self, data: Mapping[str, Any]) -> Action:
        """The action a JSON object describes (raises IllegalAction when malformed)."""
        return self.spec.parse_action(data)

    def __repr__(self) -> str:
        changed = self.options.changed()
        args = "".join(f", {k}={v!r}" for k, v in changed.items())
        return f"cardtable.load({self.id!r}{args})"


_REGISTRY: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> GameSpec:
    if spec.id in _REGISTRY and _REGISTRY[spec.id] is not spec:
        raise ValueError(f"game id {spec.id!r} is registered twice")
    _REGISTRY[spec.id] = spec
    if spec.locales is not None:
        include_catalogues(spec.locales)
    return spec


def unregister(game_id: str) -> None:
    """Forget a registered game (tests that register a game of their own put it back)."""
    spec = _REGISTRY.pop(game_id, None)
    if spec is not None and spec.locales is not None:
        exclude_catalogues(spec.locales)


def game_ids() -> list[str]:
    """Ids of every registered game, in registration order."""
    return list(_REGISTRY)


def prepare_games() -> Iterator[tuple[str, list[str] | Exception]]:
    """Each game's ``PREPARE`` work (see :class:`Capability`) done in turn: its id, and
    what it made or why it failed (a game whose work fails, or fails to import, fails
    alone)."""
    for spec in list(_REGISTRY.values()):
        if not spec.has(Capability.PREPARE):
            continue
        try:
            made: list[str] | Exception = list(spec.capability(Capability.PREPARE)())
        except Exception as failure:  # the caller says it; the other games go on
            made = failure
        yield spec.id, made


def spec_of(game_id: str) -> GameSpec:
    try:
        return _REGISTRY[game_id]
    except KeyError:
        valid = ", ".join(_REGISTRY)
        raise OptionError(
            f"unknown game {game_id!r}; valid games: {valid}", given=[game_id]
        ) from None


def load(game_id: str, preset: str | None = None, **options: Any) -> Game:
    """A game by id, from a named preset and house rules that override it."""
    spec = spec_of(game_id)
    chosen = build_options(spec.options_model, game_id, spec.presets, preset, options)
    return Game(spec, chosen)
