"""Frames for a table's spectators, sent in the background.

A move's frames reach its players at once; its spectators (a thousand on one table) are
served after, by one task a table, a chunk at a time, so the players' next messages get in
between the chunks. Every spectator gets the same text, encoded once. A state frame not
yet sent when a newer one comes is replaced by it (a state says everything the older one
and any presence frame before it said), so a crowd that cannot keep up gets the newest
state, not a backlog.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from cardtable.server.protocol import Text

log = logging.getLogger("cardtable.server")

#: spectators sent to before the loop lets other work in
CHUNK = 16


class Receiver(Protocol):
    async def send_text(self, text: Text) -> None: ...


@dataclass
class Delivery:
    text: Text
    to: list[Receiver]
    is_state: bool  # a whole state: it supersedes what is queued before it
    sent: set[int] = field(default_factory=set)  # ids of receivers already served


class Fanout:
    """One table's spectator frames, in order, sent by a task of its own.

    >>> async def demo() -> list[str]:
    ...     got: list[str] = []
    ...     class Spectator:
    ...         async def send_text(self, text: str) -> None:
    ...             got.append(text)
    ...     fanout, crowd = Fanout(), [Spectator() for _ in range(3)]
    ...     fanout.offer("presence", crowd, is_state=False)
    ...     fanout.offer("state 1", crowd, is_state=True)  # before any was sent
    ...     fanout.offer("state 2", crowd, is_state=True)
    ...     await fanout.idle()
    ...     return got
    >>> asyncio.run(demo())
    ['state 2', 'state 2', 'state 2']
    """

    def __init__(self) -> None:
        self.queue: deque[Delivery] = deque()
        self.task: asyncio.Task[None] | None = None
        self.done = asyncio.Event()
        self.done.set()

    def offer(self, text: Text, to: Iterable[Receiver], is_state: bool) -> None:
        delivery = Delivery(text, list(to), is_state)
        if is_state:  # everyone waiting for an older frame gets this one instead
            waiting = {id(r): r for d in self.queue for r in d.to if id(r) not in d.sent}
            for receiver in delivery.to:
                waiting.pop(id(receiver), None)
            delivery.to.extend(waiting.values())
            self.queue.clear()
        self.queue.append(delivery)
        self.done.clear()
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._send())

    async def idle(self) -> None:
        """Until every frame offered so far has been sent."""
        await self.done.wait()

    async def _send(self) -> None:
        await asyncio.sleep(0)  # the players' sends, made just after the offer, go first
        while self.queue:
            delivery = self.queue[0]
            for start in range(0, len(delivery.to), CHUNK):
                if self.queue[0] is not delivery:  # superseded meanwhile
                    break
                chunk = delivery.to[start : start + CHUNK]
                results = await asyncio.gather(
                    *(r.send_text(delivery.text) for r in chunk), return_exceptions=True
                )
                delivery.sent.update(id(r) for r in chunk)
                for result in results:
                    if isinstance(result, Exception):
                        log.debug("send to a spectator failed: %r", result)
                await asyncio.sleep(0)  # the players' messages come first
            if self.queue and self.queue[0] is delivery:
                self.queue.popleft()
        self.done.set()

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        self.queue.clear()
        self.done.set()
