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
from cardtable.core.terminal import Seat, TerminalFrontEnd, console, score_table, show_final
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

TICK = 0.1
HELP = (
    "Type a word and Enter to lock it (it flips the hourglass when you may). "
    "? shows the best words (a hint), b the board, done locks without a word, q quits."
)


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


def render_board(state: SiedemSlowState, names: Sequence[str]) -> RenderableType:
    scores = "  ".join(f"{names[s]} {state.totals[s]}" for s in range(state.n))
    info = [Text(f"Round {state.round} of {state.options.rounds} · {scores}", "bold")]
    if state.holder is not None:
        info.append(Text(f"Don't-flip card: {names[state.holder]} may not flip", "magenta"))
    if state.main is not None:
        info.append(Text(f"Main player (no hourglass): {names[state.main]}", "magenta"))
    if state.solo:
        solo = state.view(0)["solo"]
        info.append(
            Text(
                f"SOLO card: hourglass on field {solo['field']} "
                f"(fields {' / '.join(solo['fields'])}) · target {solo['target']}",
                "magenta",
            )
        )
    title = f"7 słów — {state.options.deck} deck, {len(state.dictionary):,} words"
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
    ) -> None:
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
            self.state.record().save(self.save)

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
                "End of game: lowest words struck out",
                "Struck out",
            )
        )
        if not self.state.solo:
            show_final(self.state, self.names)
            return True
        total = self.state.totals[0]
        target = self.state.view(0)["solo"]["target"]
        if self.state.solo_won:
            console.print(
                Text(f"{total} points: you beat the SOLO target of {target}!", "bold green")
            )
        else:
            console.print(Text(f"{total} points: short of the SOLO target of {target}.", "yellow"))
        return True

    def _play_round(self) -> bool:
        state = self.state
        number = state.round
        console.print(render_board(state, self.names))
        now = time.monotonic()
        self.bot_ready = {s.number: now + self._think(s) for s in self.seats if not s.is_human}
        self._start_timer()
        console.print(Text(self._prompt_text(), "bold cyan"))
        while state.round == number and not state.is_over:
            if state.phase in (Phase.REVIEW, Phase.VOTE):
                if not self._review():
                    return False
                continue
            if self.human in state.to_move:
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
            return f"The sand runs: {state.timer[1] if state.timer else 30} s. Your word:"
        if state.holder == self.human:
            return "Your word (you hold the don't-flip card: Enter notes it, done locks it):"
        return "Your word (Enter locks it and flips the hourglass):"

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
            console.print(render_board(state, self.names))
            return
        if command == "help":
            console.print(HELP, style="dim")
            return
        if seat not in state.to_move:
            console.print("Your word is locked; wait for the others.", style="dim")
            return
        if command == "done":
            self._finish(seat)
            return
        try:
            self.apply(seat, Submit(line))
        except IllegalAction as error:
            console.print(f"✗ {error}", style="red")
            return
        points = state.word_score(seat, line).points
        warning = state.warnings[seat]
        console.print(f"✓ {line.upper()}: {points} points", style="green")
        if warning:
            console.print(f"  ⚠ {warning}", style="yellow")
        if state.holder != seat:  # the don't-flip holder may still change the word
            self._finish(seat)

    def _finish(self, seat: int) -> None:
        """A finished word flips the hourglass while nobody has (the rulebook's must)."""
        action = self.state.finish_action(seat)
        self.apply(seat, action)
        if isinstance(action, Flip):
            console.print(Text("You flipped the hourglass: 30 seconds for the others.", "bold"))
            self._start_timer()
        elif not self.state.solo:
            console.print("Locked: waiting for the others.", style="dim")

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
        console.print(f"Hint — the best words here: {shown}", style="cyan")

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
            before = state.phase
            while seat in state.to_move and state.phase == before:
                action = agent.choose(state, seat)
                self.apply(seat, action)
                if isinstance(action, Flip):
                    console.print(
                        Text(
                            f"{self.names[seat]} flipped the hourglass! "
                            f"{state.options.hourglass_seconds} seconds left.",
                            "bold yellow",
                        )
                    )
                    self._start_timer()
                elif isinstance(action, Lock):
                    console.print(f"{self.names[seat]} is done.", style="dim")

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
                    console.print(f"⏳ {mark} s left", style="yellow")
        grace = state.options.grace_seconds if state.phase == Phase.HOURGLASS else 0
        if left + grace > 0:
            return
        kind = state.timer[0] if state.timer else ""
        self.apply(CLOCK, TimeUp())
        if state.solo:
            console.print("The sand ran out: no bonus this round, take your time.", style="yellow")
            self.deadline = None
        elif kind == "cap":
            console.print("Nobody flipped: 30 seconds for everybody, no fastest player.")
            self._start_timer()
        else:
            console.print(Text("Time! Every word is locked.", "bold red"))
            self.deadline = None

    def _review(self) -> bool:
        state = self.state
        if state.phase == Phase.REVIEW and self.human in state.to_move:
            targets = state.challengeable(self.human)
            for target in targets:
                word = (state.entries[target] or "").upper()
                why = state.warnings[target] or "checked only if challenged"
                console.print(f"  {target + 1}. {self.names[target]}: {word} — {why}")
            console.print("Challenge a word by its number, or Enter to accept them:")
            line = self.lines.get()
            if line is None or line.strip().lower() in ("q", "quit"):
                return False
            choice = line.strip()
            if choice.isdigit() and int(choice) - 1 in targets:
                self.apply(self.human, Challenge(int(choice) - 1))
            else:
                self.apply(self.human, Accept())
            return True
        if state.phase == Phase.VOTE and self.human in state.to_move:
            why = state.vote.why if state.vote is not None else ""
            console.print(f"Vote: {why}. Same family? (y/n)")
            line = self.lines.get()
            if line is None:
                return False
            self.apply(self.human, Vote(line.strip().lower().startswith("y")))
            return True
        for seat in sorted(state.to_move):
            agent = self.seats[seat].agent
            if agent is not None:
                action = agent.choose(state, seat)
                if isinstance(action, Challenge):
                    word = (state.entries[action.seat] or "").upper()
                    console.print(
                        Text(f"{self.names[seat]} challenges {word} ({self.names[action.seat]}).")
                    )
                self.apply(seat, action)
                return True
        return True

    def _summary(self) -> None:
        result = self.state.results[len(self.state.played) - 1]
        title = f"Round {result.number}"
        console.print(score_table(result, self.names, title, "Round"))


def play_words(
    state: State,
    seats: Sequence[Seat],
    names: Sequence[str],
    think_scale: float = 1.0,
    save: Path | None = None,
) -> None:
    """Run a game of 7 słów with one person at this terminal."""
    assert isinstance(state, SiedemSlowState)
    humans = [s for s in seats if s.is_human]
    if len(humans) != 1:
        raise IllegalAction(
            "7 słów in the terminal takes exactly one human seat (the others are bots); "
            "play with friends in the browser"
        )
    console.print(HELP, style="dim")
    table = WordTable(state, seats, names, think_scale=think_scale, save=save)
    try:
        finished = table.run()
    except KeyboardInterrupt:
        finished = False
    if not finished:
        console.print("Game stopped.", style="yellow")
    if save is not None:
        console.print(f"Saved to {save}; replay it with: cardtable replay {save}")


def replay_words(record: GameRecord, names: Sequence[str]) -> None:
    """Show a saved game round by round: the area, every word and the scores."""
    console.print(f"{record.game}: {len(record.log)} moves, seed {record.seed}", style="bold")
    shown = 0
    previous: SiedemSlowState | None = None
    for state in record.states():
        assert isinstance(state, SiedemSlowState)
        if previous is None or previous.round != state.round or state.is_over:
            while shown < len(state.results):
                if previous is not None:
                    console.print(render_board(previous, names))
                result = state.results[shown]
                title = f"Round {result.number}" if result.outcome != "strike-out" else "End"
                console.print(score_table(result, names, title, "Points"))
                shown += 1
        previous = state
    if previous is not None and previous.is_over:
        show_final(previous, names)


FRONT_END = TerminalFrontEnd(play=play_words, replay=replay_words)
