"""Starting a coroutine at once, and a task only for one that has to wait.

Every move sends each seat its frame. A send almost always finishes without waiting (the
transport takes the bytes), but ``asyncio.gather`` makes a task of each one anyway, and a
task costs its creation, a turn of the event loop and a callback: about as much CPU as
the send itself. :func:`start_eagerly` runs the send's first step in the caller, as
Python 3.12's eager tasks do, and makes a task only of a send that suspended (a client
whose connection is full stops nobody else's frame).
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Generator
from typing import Any, TypeVar

T = TypeVar("T")


class _Rest:
    """The rest of a coroutine that suspended in its first step, as an awaitable a task
    drives: what the coroutine yielded (the future it waits on) goes up to the task, and
    what the task sends or throws back goes down to the coroutine."""

    __slots__ = ("coroutine", "first", "started")

    def __init__(self, coroutine: Coroutine[Any, Any, Any], first: Any) -> None:
        self.coroutine, self.first = coroutine, first
        self.started = False

    def close_unless_started(self, _task: object = None) -> None:
        """A task cancelled before its first step never ran this: the coroutine is closed
        where it waits, so its cleanup runs now (a task's own coroutine would be told)."""
        if not self.started:
            self.coroutine.close()

    def __await__(self) -> Generator[Any, Any, Any]:
        self.started = True
        coroutine, waiting_on = self.coroutine, self.first
        while True:
            try:
                answer = yield waiting_on
            except BaseException as error:  # a cancellation goes down to it too
                try:
                    waiting_on = coroutine.throw(error)
                except StopIteration as done:
                    return done.value
            else:
                try:
                    waiting_on = coroutine.send(answer)
                except StopIteration as done:
                    return done.value


async def _finish(rest: _Rest) -> Any:
    return await rest


def start_eagerly(coroutine: Coroutine[Any, Any, T]) -> asyncio.Task[T] | None:
    """Run ``coroutine`` until it finishes or first waits: None when it finished (an error
    it raised is raised here), else a task that runs the rest of it."""
    try:
        first = coroutine.send(None)
    except StopIteration:
        return None
    rest = _Rest(coroutine, first)
    task = asyncio.ensure_future(_finish(rest))
    task.add_done_callback(rest.close_unless_started)
    return task
