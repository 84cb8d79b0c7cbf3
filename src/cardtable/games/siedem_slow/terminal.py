"""``cardtable play siedem-slow``: 7 słów in real time in the terminal, against word bots.

The engine has no clock; this loop is the clock. Bots "write" for their thinking time and
then flip the hourglass (or lock their word); once someone flips, everybody has 30 seconds.
The person types a word and Enter: it is checked at once (a refusal says why) and locked,
flipping the hourglass when the rules allow. ``?`` shows the solver's best words as a hint.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from cardtable.agents.base import Thinking
from cardtable.core.actions import Action
from cardtable.core.errors import IllegalAction
from cardtable.core.record import GameRecord
from cardtable.core.state import State
from cardtable.core.terminal import (
    Guide,
    Seat,
    TerminalFrontEnd,
    console,
    score_table,
    show_final,
)
from cardtable.games.siedem_slow.game import (
    CLOCK,
    Accept,
    Challenge,
    Flip,
    Lock,
    Phase,
    SiedemSlowState,
    Submit,
    TimeUp,
    Vote,
)
from cardtable.games.siedem_slow.solver import solve
from cardtable.games.siedem_slow.tables import COLUMN_VALUES
from cardtable.locales import message, reason_text

TICK = 0.1
#: what a vote's answer starts with when it says yes (y, tak, да)
YES = ("y", "t", "д")


def said(key: str, lang: str, **values: object) -> str:
    """A word of the 7 słów terminal (games/siedem_slow/locales) in ``lang``."""
    return message(f"siedem.term.{key}", lang, **values)


def render_area(state: SiedemSlowState) -> RenderableType:
    """The 8 cards over their column values, rare cards marked with their bonus."""
    table = Table(show_header=False, box=None, padding=(0, 1))
    for _ in COLUMN_VALUES:
        table.add_column(justify="center", width=7)
    for row in range(2):
        cells = []
        for column in range(len(COLUMN_VALUES)):
            card = state.area.slots[column * 2 + row]
            if card is None:
                cells.append(Text("  ·  ", "dim"))
            else:
                style = "bold black on yellow" if card.rare else "bold black on white"
                label = f" {card.letter} " + (f"+{card.bonus}" if card.rare else "  ")
                cells.append(Text(label, style))
        table.add_row(*cells)
    table.add_row(*(Text(f"[{v}]", "bold cyan") for v in COLUMN_VALUES))
    return table


def render_board(state: SiedemSlowState, names: Sequence[str], lang: str = "en") -> RenderableType:
    scores = "  ".join(f"{names[s]} {state.totals[s]}" for s in range(state.n))
    rounds = state.options.rounds
    info = [
        Text(said("round_info", lang, number=state.round, rounds=rounds, scores=scores), "bold")
    ]
    if state.holder is not None:
        info.append(Text(said("dont_flip", lang, name=names[state.holder]), "magenta"))
    if state.main is not None:
        info.append(Text(said("main_player", lang, name=names[state.main]), "magenta"))
    if state.solo:
        solo = state.view(0)["solo"]
        fields = " / ".join(said("red", lang) if f == "red" else f for f in solo["fields"])
        field = said("red", lang) if solo["field"] == "red" else solo["field"]
        info.append(
            Text(
                said("solo_card", lang, field=field, fields=fields, target=solo["target"]),
                "magenta",
            )
        )
    words = f"{len(state.dictionary):,}".replace(",", " " if lang != "en" else ",")
    title = said("deck_title", lang, deck=state.options.deck, words=words)
    return Panel(Group(render_area(state), *info), title=title, expand=False)


class WordTable:
    """One game in real time: bots on timers, the person on a line reader, the clock."""

    def __init__(
        self,
        state: SiedemSlowState,
        seats: Sequence[Seat],
        names: Sequence[str],
        *,
        think_scale: float = 1.0,
        save: Path | None = None,
        lang: str = "en",
        guide: Guide | None = None,
    ) -> None:
        self.lang = lang
        self.guide = guide
        self.spoken = -1  # the log's length when the guide last spoke
        self.state = state
        self.seats = seats
        self.names = names
        self.think_scale = think_scale
        self.save = save
        self.human = next(s.number for s in seats if s.is_human)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.bot_ready: dict[int, float] = {}
        self.deadline: float | None = None
        self.announced: set[int] = set()
        threading.Thread(target=self._read_lines, daemon=True).start()

    def _read_lines(self) -> None:
        while True:
            try:
                self.lines.put(input())
            except (EOFError, KeyboardInterrupt):
                self.lines.put(None)
                return

    def apply(self, seat: int, action: Action) -> None:
        self.state.apply(seat, action)
        if self.save is not None:
            GameRecord.of(self.state).save(self.save)

    # -- the loop -----------------------------------------------------------------------
    def run(self) -> bool:
        """Play to the end; False when the person quit."""
        while not self.state.is_over:
            if not self._play_round():
                return False
        console.print(
            score_table(
                self.state.results[-1],
                self.names,
                said("end_title", self.lang),
                said("struck_out", self.lang),
                self.lang,
            )
        )
        if not self.state.solo:
            show_final(self.state, self.names, self.lang)
            if self.guide is not None:
                for text in self.guide.after(self.state):
                    console.print(text)
            return True
        total = self.state.totals[0]
        target = self.state.view(0)["solo"]["target"]
        if self.state.solo_won:
            console.print(
                Text(said("solo_won", self.lang, total=total, target=target), "bold green")
            )
        else:
            console.print(Text(said("solo_lost", self.lang, total=total, target=target), "yellow"))
        return True

    def _play_round(self) -> bool:
        state = self.state
        number = state.round
        console.print(render_board(state, self.names, self.lang))
        now = time.monotonic()
        self.bot_ready = {s.number: now + self._think(s) for s in self.seats if not s.is_human}
        self._start_timer()
        if self.guide is None:  # the guide says it after the coach's line
            console.print(Text(self._prompt_text(), "bold cyan"))
        while state.round == number and not state.is_over:
            if state.phase in (Phase.REVIEW, Phase.VOTE):
                if not self._review():
                    return False
                continue
            if self.human in state.to_move:
                if self._speak():
                    console.print(Text(self._prompt_text(), "bold cyan"))
                line = self._next_line()
            else:  # the word is locked: typing waits for the next round
                time.sleep(TICK)
                line = ""
            if line is None:
                return False
            if line:
                self._human_line(line)
            if state.round == number:
                self._bots_act(number)
            if state.round == number:
                self._clock()
        self._summary()
        return True

    def _think(self, seat: Seat) -> float:
        agent = seat.agent
        seconds = agent.think_seconds() if isinstance(agent, Thinking) else 1.0
        return seconds * self.think_scale

    def _start_timer(self) -> None:
        timer = self.state.timer
        self.deadline = None if timer is None else time.monotonic() + timer[1]
        self.announced = set()
        if self.deadline is not None and self.state.phase == Phase.HOURGLASS:
            # a bot still writing when the sand runs low writes down what it has
            for seat, ready in self.bot_ready.items():
                self.bot_ready[seat] = min(ready, self.deadline - 2 * self.think_scale)

    def _prompt_text(self) -> str:
        state = self.state
        if state.solo:
            return said("prompt_solo", self.lang, seconds=state.timer[1] if state.timer else 30)
        if state.holder == self.human:
            return said("prompt_holder", self.lang)
        return said("prompt", self.lang)

    def _next_line(self) -> str | None:
        try:
            line = self.lines.get(timeout=TICK)
        except queue.Empty:
            return ""
        if line is None:
            return None
        line = line.strip()
        if line.lower() in ("q", "quit", "exit"):
            return None
        return line or ""

    def _human_line(self, line: str) -> None:
        state, seat = self.state, self.human
        command = line.lower()
        if command in ("?", "hint", "h"):
            self._hint()
            return
        if command in ("b", "board"):
            console.print(render_board(state, self.names, self.lang))
            return
        if command == "help":
            console.print(said("help", self.lang), style="dim")
            return
        if seat not in state.to_move:
            console.print(said("locked_wait", self.lang), style="dim")
            return
        if command == "done":
            if self._allowed(state.finish_action(seat)):
                self._finish(seat)
            return
        if not self._allowed(Submit(line)):
            return
        try:
            self.apply(seat, Submit(line))
        except IllegalAction as error:
            console.print(f"✗ {reason_text(error.reason, self.lang)}", style="red", markup=False)
            return
        points = state.word_score(seat, line).points
        warning = state.warnings[seat]
        shown = said("word_points", self.lang, word=line.upper(), points=points)
        console.print(shown, style="green", markup=False)
        if warning:
            console.print(f"  ⚠ {reason_text(warning, self.lang)}", style="yellow", markup=False)
        if state.holder != seat and self.guide is None:
            # the don't-flip holder may still change the word; a guided game flips on
            # the coach's word ("done"), to say what the hourglass does
            self._finish(seat)

    # -- a guided game (``cardtable learn``) ----------------------------------------------
    def _speak(self) -> bool:
        """The guide's lines for the person's next move, once per move (True: it spoke)."""
        if self.guide is None or len(self.state.log) == self.spoken:
            return False
        self.spoken = len(self.state.log)
        for text in self.guide.before(self.state, self.human, self):
            console.print(text)
        return True

    def _allowed(self, action: Action) -> bool:
        """The guide's refusal of the person's move, printed (False: not played)."""
        why = None if self.guide is None else self.guide.refuse(self.state, self.human, action)
        if why is not None:
            console.print(f"✗ {why}", style="red", markup=False)
        return why is None

    def describe(self, state: State, seat: int, action: Action) -> Text:
        """A move in the reader's language (what the guide points at)."""
        if isinstance(action, Submit):
            return Text(said("word_points", self.lang, word=action.word.upper(),
                             points=self.state.word_score(seat, action.word).points))  # fmt: skip
        if isinstance(action, Challenge):
            return Text(message("word.challenge", self.lang, name=self.names[action.seat]))
        if isinstance(action, Accept):
            return Text(message("word.accept", self.lang))
        if isinstance(action, Flip):
            return Text(message("word.flip", self.lang))
        return Text(message("word.lock", self.lang))

    def typed_form(self, state: State, seat: int, action: Action) -> str | None:
        """What the person types for ``action``: the word, a word's number, Enter, or
        ``done`` to flip the hourglass."""
        if isinstance(action, Submit):
            return action.word.upper()
        if isinstance(action, Challenge):
            return str(action.seat + 1)
        if isinstance(action, Accept):
            return "Enter"
        return "done"  # flip the hourglass, or lock the word

    def _finish(self, seat: int) -> None:
        """A finished word flips the hourglass while nobody has (the rulebook's must)."""
        action = self.state.finish_action(seat)
        self.apply(seat, action)
        if isinstance(action, Flip):
            seconds = self.state.options.hourglass_seconds
            console.print(Text(said("you_flipped", self.lang, seconds=seconds), "bold"))
            self._start_timer()
        elif not self.state.solo:
            console.print(said("locked", self.lang), style="dim")

    def _hint(self) -> None:
        state = self.state
        best = solve(
            state.area,
            state.dictionary,
            top=5,
            better=state.options.better_card,
            allowed=lambda w: state.word_problem(self.human, w) is None,
        )
        shown = ", ".join(f"{s.word.upper()} {s.points}" for s in best)
        console.print(said("hint", self.lang, words=shown), style="cyan", markup=False)

    def _bots_act(self, number: int) -> None:
        state = self.state
        now = time.monotonic()
        for seat in sorted(state.to_move):
            if state.round != number:
                return
            if seat == self.human or seat not in self.bot_ready:
                continue
            if now < self.bot_ready[seat]:
                continue
            agent = self.seats[seat].agent
            assert agent is not None
            if _waits(agent, state):
                continue
            before = state.phase
            while seat in state.to_move and state.phase == before:
                action = agent.choose(state, seat)
                self.apply(seat, action)
                if isinstance(action, Flip):
                    console.print(
                        Text(
                            said(
                                "flipped",
                                self.lang,
                                name=self.names[seat],
                                seconds=state.options.hourglass_seconds,
                            ),
                            "bold yellow",
                        )
                    )
                    self._start_timer()
                elif isinstance(action, Lock):
                    console.print(said("done", self.lang, name=self.names[seat]), style="dim")

    def _clock(self) -> None:
        state = self.state
        if self.deadline is None or state.phase not in (Phase.WRITING, Phase.HOURGLASS):
            return
        left = self.deadline - time.monotonic()
        for mark in (20, 10, 5):
            running = state.phase == Phase.HOURGLASS or state.solo
            if left <= mark and mark not in self.announced and running:
                self.announced.add(mark)
                if left > 0:
                    console.print(said("seconds_left", self.lang, seconds=mark), style="yellow")
        grace = state.options.grace_seconds if state.phase == Phase.HOURGLASS else 0
        if left + grace > 0:
            return
        kind = state.timer[0] if state.timer else ""
        self.apply(CLOCK, TimeUp())
        if state.solo:
            console.print(said("solo_sand_out", self.lang), style="yellow")
            self.deadline = None
        elif kind == "cap":
            console.print(said("cap", self.lang))
            self._start_timer()
        else:
            console.print(Text(said("time", self.lang), "bold red"))
            self.deadline = None

    def _review(self) -> bool:
        state = self.state
        if state.phase == Phase.REVIEW and self.human in state.to_move:
            self._speak()
            targets = state.challengeable(self.human)
            for target in targets:
                word = (state.entries[target] or "").upper()
                warning = state.warnings[target]
                why = (
                    reason_text(warning, self.lang)
                    if warning
                    else said("checked_if_challenged", self.lang)
                )
                console.print(f"  {target + 1}. {self.names[target]}: {word} — {why}", markup=False)
            console.print(said("challenge_prompt", self.lang))
            line = self.lines.get()
            if line is None or line.strip().lower() in ("q", "quit"):
                return False
            choice = line.strip()
            picked: Action = Accept()
            if choice.isdigit() and int(choice) - 1 in targets:
                picked = Challenge(int(choice) - 1)
            if self._allowed(picked):
                self.apply(self.human, picked)
            else:
                self.spoken = -1  # the coach says it again
            return True
        if state.phase == Phase.VOTE and self.human in state.to_move:
            why = reason_text(state.vote.why, self.lang) if state.vote is not None else ""
            console.print(said("vote", self.lang, why=why), markup=False)
            line = self.lines.get()
            if line is None:
                return False
            self.apply(self.human, Vote(line.strip().lower().startswith(YES)))
            return True
        for seat in sorted(state.to_move):
            agent = self.seats[seat].agent
            if agent is not None:
                action = agent.choose(state, seat)
                if isinstance(action, Challenge):
                    word = (state.entries[action.seat] or "").upper()
                    author = self.names[action.seat]
                    console.print(
                        Text(
                            said(
                                "challenges",
                                self.lang,
                                name=self.names[seat],
                                word=word,
                                author=author,
                            )
                        )
                    )
                self.apply(seat, action)
                return True
        return True

    def _summary(self) -> None:
        result = self.state.results[len(self.state.played) - 1]
        title = said("round", self.lang, number=result.number)
        console.print(
            score_table(result, self.names, title, said("round_total", self.lang), self.lang)
        )


def play_words(
    state: State,
    seats: Sequence[Seat],
    names: Sequence[str],
    think_scale: float = 1.0,
    save: Path | None = None,
    lang: str = "en",
    guide: Guide | None = None,
) -> None:
    """Run a game of 7 słów with one person at this terminal (``guide``: the coach of a
    guided first game)."""
    assert isinstance(state, SiedemSlowState)
    humans = [s for s in seats if s.is_human]
    if len(humans) != 1:
        raise IllegalAction(said("one_human", lang))
    console.print(said("help", lang), style="dim")
    table = WordTable(
        state, seats, names, think_scale=think_scale, save=save, lang=lang, guide=guide
    )
    try:
        finished = table.run()
    except KeyboardInterrupt:
        finished = False
    if not finished:
        console.print(message("term.stopped", lang), style="yellow")
    if save is not None:
        console.print(message("term.saved", lang, path=save), markup=False)


def replay_words(record: GameRecord, names: Sequence[str], lang: str = "en") -> None:
    """Show a saved game round by round: the area, every word and the scores."""
    head = message(
        "term.replay_head", lang, game=record.game, moves=len(record.log), seed=record.seed
    )
    console.print(head, style="bold")
    shown = 0
    previous: SiedemSlowState | None = None
    for state in record.states():
        assert isinstance(state, SiedemSlowState)
        if previous is None or previous.round != state.round or state.is_over:
            while shown < len(state.results):
                if previous is not None:
                    console.print(render_board(previous, names, lang))
                result = state.results[shown]
                end = result.outcome == "strike-out"
                title = said("end", lang) if end else said("round", lang, number=result.number)
                console.print(score_table(result, names, title, said("points", lang), lang))
                shown += 1
        previous = state
    if previous is not None and previous.is_over:
        show_final(previous, names, lang)


def _waits(agent: object, state: State) -> bool:
    """A lesson's opponent waits while the learner still has a move to make."""
    waits = getattr(agent, "waits", None)
    return bool(waits(state)) if callable(waits) else False


def learn_words(
    state: State, seats: Sequence[Seat], names: Sequence[str], lang: str, guide: Guide
) -> None:
    """The guided first game (``cardtable learn siedem-slow``): the real-time loop with the
    coach's lines before each of the person's moves and its refusals."""
    play_words(state, seats, names, save=None, lang=lang, guide=guide)


FRONT_END = TerminalFrontEnd(play=play_words, replay=replay_words, learn=learn_words)
