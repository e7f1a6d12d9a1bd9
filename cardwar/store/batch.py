"""Group commit: many games' saves written in one transaction.

Under load most of a save's cost is the transaction around it, not the rows
it writes. :class:`GroupCommit` queues the saves that arrive while a batch is
being written and writes them all in the next one, so a busy server commits
a few times per tick of the event loop instead of once per flip, and a quiet
one still writes each save at once (a batch of one, no added delay).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

T = TypeVar("T")

#: Most saves written in one transaction.
MAX_BATCH = 400


class GroupCommit(Generic[T]):
    """Queue items; write them in batches with ``write``, one batch at a time.

    Args:
        write: writes a batch (a list of items) in one transaction and returns,
            for each item in order, None when it was written or the exception
            the item's :meth:`submit` raises (e.g. a lost version check). If
            ``write`` itself raises, every item of the batch gets that error.
        lock: held while a batch is written (e.g. SQLite's one-writer lock,
            shared with other writes of the store).
        max_batch: most items per batch.
    """

    def __init__(
        self,
        write: Callable[[list[T]], Awaitable[list[BaseException | None]]],
        lock: contextlib.AbstractAsyncContextManager[object] | None = None,
        max_batch: int = MAX_BATCH,
    ) -> None:
        self._write = write
        self._lock = lock if lock is not None else contextlib.nullcontext()
        self._max = max_batch
        self._pending: list[tuple[T, asyncio.Future[None]]] = []
        self._runner: asyncio.Task[None] | None = None

    async def submit(self, item: T) -> None:
        """Write ``item`` in the next batch; return once it is committed.

        Raises:
            Whatever ``write`` reports for this item, or raised for its batch.
        """
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((item, future))
        if self._runner is None or self._runner.done():
            self._runner = asyncio.create_task(self._run(), name="group-commit")
        await future

    async def _run(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[:self._max], self._pending[self._max:]
            try:
                async with self._lock:
                    outcomes = await self._write([item for item, _ in batch])
            except asyncio.CancelledError:
                for _, future in batch + self._pending:
                    future.cancel()
                raise
            except Exception as exc:  # noqa: BLE001 - handed to every waiter
                for _, future in batch:
                    if not future.done():
                        future.set_exception(exc)
                continue
            for (_, future), outcome in zip(batch, outcomes, strict=True):
                if future.done():
                    continue
                if outcome is None:
                    future.set_result(None)
                else:
                    future.set_exception(outcome)

    async def close(self) -> None:
        """Wait for the batches already queued to be written."""
        if self._runner is not None:
            with contextlib.suppress(BaseException):
                await self._runner
