"""Timers of the table service: flips for idle, computer and gone seats.

A timer is a ``loop.call_later`` handle, not a sleeping task: most timers
(every idle clock, in every process following the game) are cancelled by the
next battle long before they are due, and a handle costs a fraction of a
task to arm and to cancel. A timer that comes due runs its coroutine as a
task, kept until it finishes.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Coroutine
from typing import Any

Job = Callable[[], Coroutine[Any, Any, Any]]

#: Seconds :meth:`Timers.close` lets the jobs already running finish before it
#: cancels them: a flip in flight is saved (and its reads give their database
#: connections back) instead of being cut off half way.
FINISH_ON_CLOSE = 0.5


class Timers:
    """Timers grouped by key (a game id, or a game's key for its gone players)."""

    def __init__(self) -> None:
        self._armed: dict[str, set[asyncio.TimerHandle]] = {}
        self._running: set[asyncio.Task[Any]] = set()
        self.closed = False

    def arm(self, key: str, delay: float, job: Job) -> None:
        """Run ``job()`` as a task in ``delay`` seconds, unless ``key`` is cancelled first."""
        if self.closed:
            return
        armed = self._armed.setdefault(key, set())

        def fire() -> None:
            armed.discard(handle)
            if not armed:
                self._armed.pop(key, None)
            self.spawn(job())

        handle = asyncio.get_running_loop().call_later(max(0.0, delay), fire)
        armed.add(handle)

    def cancel(self, key: str) -> None:
        """Cancel the timers of ``key`` not yet due (jobs already running go on)."""
        for handle in self._armed.pop(key, ()):
            handle.cancel()

    def count(self, key: str) -> int:
        """How many timers of ``key`` are armed and not yet due."""
        return len(self._armed.get(key, ()))

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` as a task kept until it finishes (cancelled by :meth:`close`)."""
        if self.closed:
            coro.close()
            return
        task = asyncio.create_task(coro)
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def close(self) -> None:
        """Cancel every timer; let the running jobs finish for up to
        :data:`FINISH_ON_CLOSE` seconds, then cancel them and wait for them to stop."""
        self.closed = True
        for key in list(self._armed):
            self.cancel(key)
        tasks = list(self._running)
        if tasks:
            await asyncio.wait(tasks, timeout=FINISH_ON_CLOSE)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
