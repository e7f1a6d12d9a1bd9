"""Waiting in asyncio tests for something another task or process does.

Imported as ``from waiting import eventually`` (``tests/`` is on the path:
its conftest.py is at its root).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable


async def eventually(check: Callable[[], bool | Awaitable[bool]], seconds: float = 5.0,
                     step: float = 0.01) -> None:
    """Return once ``check()`` (a function or a coroutine function) is true,
    looking every ``step`` seconds.

    Raises:
        AssertionError: still false after ``seconds`` (of the event loop's clock).
    """
    deadline = time.monotonic() + seconds
    while True:
        done = check()
        if inspect.isawaitable(done):
            done = await done
        if done:
            return
        if time.monotonic() >= deadline:
            raise AssertionError(f"{getattr(check, '__name__', 'condition')} "
                                 f"not met within {seconds} s")
        await asyncio.sleep(step)
