"""start_eagerly: a send that need not wait costs no task; one that waits still finishes,
still hears its cancellation, and a slow one stops nobody else's."""

from __future__ import annotations

import asyncio

import pytest

from cardtable.server.eager import start_eagerly


def test_a_coroutine_that_never_waits_runs_at_once_and_makes_no_task() -> None:
    ran: list[str] = []

    async def send() -> None:
        ran.append("sent")

    async def main() -> None:
        tasks_before = len(asyncio.all_tasks())
        assert start_eagerly(send()) is None
        assert ran == ["sent"]  # before the caller gave the loop a turn
        assert len(asyncio.all_tasks()) == tasks_before

    asyncio.run(main())


def test_an_error_of_the_first_step_is_raised_to_the_caller() -> None:
    async def gone() -> None:
        raise ConnectionResetError("client left")

    async def main() -> None:
        with pytest.raises(ConnectionResetError):
            start_eagerly(gone())

    asyncio.run(main())


def test_a_coroutine_that_waits_is_finished_by_a_task_with_what_it_is_sent() -> None:
    steps: list[object] = []

    async def main() -> None:
        gate: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def slow() -> int:
            steps.append("started")
            value = await gate
            steps.append(value)
            await asyncio.sleep(0)  # a bare yield to the loop in between
            return value * 2

        rest = start_eagerly(slow())
        assert rest is not None and steps == ["started"]
        gate.set_result(21)
        assert await rest == 42
        assert steps == ["started", 21]

    asyncio.run(main())


def test_cancelling_the_task_cancels_the_coroutine_where_it_waits() -> None:
    cleaned: list[bool] = []

    async def main() -> None:
        never: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        async def stuck() -> None:
            try:
                await never
            finally:
                cleaned.append(True)

        rest = start_eagerly(stuck())
        assert rest is not None
        await asyncio.sleep(0)  # the task took over the wait
        rest.cancel()
        with pytest.raises(asyncio.CancelledError):
            await rest
        assert cleaned == [True] and never.cancelled()

    asyncio.run(main())


def test_a_task_cancelled_before_its_first_step_still_cleans_the_coroutine_up() -> None:
    cleaned: list[bool] = []

    async def main() -> None:
        gate = asyncio.Event()

        async def stuck() -> None:
            try:
                await gate.wait()
            finally:
                cleaned.append(True)

        rest = start_eagerly(stuck())
        assert rest is not None
        rest.cancel()  # at once: the task never ran a step
        with pytest.raises(asyncio.CancelledError):
            await rest
        assert cleaned == [True]
        assert not gate._waiters  # type: ignore[attr-defined]  # the wait was withdrawn

    asyncio.run(main())


def test_a_send_that_has_to_wait_does_not_hold_up_the_next_one() -> None:
    async def main() -> None:
        full: asyncio.Event = asyncio.Event()  # a client whose connection is full
        received: list[str] = []

        async def send(name: str, wait: asyncio.Event | None) -> None:
            if wait is not None:
                await wait.wait()
            received.append(name)

        slow = start_eagerly(send("slow", full))
        assert start_eagerly(send("quick", None)) is None
        assert received == ["quick"]
        full.set()
        assert slow is not None
        await slow
        assert received == ["quick", "slow"]

    asyncio.run(main())
