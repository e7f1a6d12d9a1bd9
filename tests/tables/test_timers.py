"""Timers of the table service: armed, cancelled per game, fired once, closed."""

from __future__ import annotations

import asyncio

import pytest

from cardwar.tables.timers import Timers

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_due_timers_run_their_job_once_and_cancelled_ones_never():
    timers = Timers()
    ran: list[str] = []

    async def job(name: str) -> None:
        ran.append(name)

    timers.arm("g1", 0.01, lambda: job("g1-a"))
    timers.arm("g1", 0.01, lambda: job("g1-b"))
    timers.arm("g2", 0.01, lambda: job("g2"))
    assert (timers.count("g1"), timers.count("g2")) == (2, 1)
    timers.cancel("g1")  # the next battle came first
    assert timers.count("g1") == 0
    await asyncio.sleep(0.05)
    assert ran == ["g2"]
    assert timers.count("g2") == 0
    await timers.close()


async def test_close_cancels_armed_timers_and_running_jobs():
    timers = Timers()
    started, finished = asyncio.Event(), []

    async def slow() -> None:
        started.set()
        await asyncio.sleep(10)
        finished.append(True)

    timers.arm("g", 0.0, slow)
    timers.arm("g2", 5.0, slow)
    await asyncio.wait_for(started.wait(), 1)
    await asyncio.wait_for(timers.close(), 3)  # FINISH_ON_CLOSE, then cancelled
    assert finished == []
    assert timers.count("g2") == 0
    timers.arm("g3", 0.0, slow)  # closed: nothing more is armed
    assert timers.count("g3") == 0


async def test_close_lets_a_job_already_running_finish_first():
    # a flip in flight when the service stops is saved, not cut off half way
    timers = Timers()
    started, finished = asyncio.Event(), []

    async def flip() -> None:
        started.set()
        await asyncio.sleep(0.1)  # a read and a save
        finished.append(True)

    timers.arm("g", 0.0, flip)
    await asyncio.wait_for(started.wait(), 1)
    await asyncio.wait_for(timers.close(), 2)
    assert finished == [True]
