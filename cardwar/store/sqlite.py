"""A SQLite file's writes: one writer thread that also runs the WAL checkpoints.

SQLite has one writer at a time. The store's saves are group-committed
(:mod:`cardwar.store.batch`) and each batch runs in :class:`SqliteWriter`'s
thread through the plain ``sqlite3`` driver (:func:`~cardwar.store.writes.write_sqlite`).

Checkpoints (copying the write-ahead log back into the database file, with
an fsync) are not left to the commit that happens to cross SQLite's
1,000-page mark: under load that commit took a few hundred milliseconds and
every flip queued behind it waited. Connections here turn automatic
checkpoints off; every :data:`CHECKPOINT_EVERY` seconds, when something was
written, the writer thread runs a ``PASSIVE`` checkpoint between two batches
(30-45 ms at 1,000 battles a second). Between batches nothing else writes,
so the checkpoint gets to the end of the log and the next write starts the
log over: it stays about one second of writes long instead of growing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy import create_engine, event
from sqlalchemy.engine import URL

from .writes import PendingSave, write_sqlite

log = logging.getLogger("cardwar.store")

#: Seconds between background checkpoints (when something was written).
CHECKPOINT_EVERY = 1.0


def sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL (readers never wait for the writer), enforced foreign keys, a busy timeout,
    no automatic checkpoints (see the module docstring).

    ``synchronous=NORMAL`` is SQLite's advice for WAL: a commit survives the
    process crashing; only a power cut may lose the last few commits.
    """
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()


class SqliteWriter:
    """Writes batches of saves to the SQLite file ``url`` (a sync ``sqlite://`` URL).

    Start it with :meth:`start` inside the event loop; :meth:`close` checkpoints
    once more and stops both threads.
    """

    def __init__(self, url: URL) -> None:
        self.engine = create_engine(url, pool_size=1, max_overflow=0)
        event.listen(self.engine, "connect", sqlite_pragmas)
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="cardwar-sqlite-writer")
        self._written = 0
        #: background checkpoints run so far
        self.checkpoints = 0
        self._task: asyncio.Task[None] | None = None

    def _run_batch(self, batch: list[PendingSave]) -> list[BaseException | None]:
        conn = self.engine.raw_connection()
        try:
            outcomes = write_sqlite(conn, batch)
            conn.commit()
            return outcomes
        except BaseException:
            conn.rollback()
            raise
        finally:
            conn.close()

    async def write(self, batch: list[PendingSave]) -> list[BaseException | None]:
        """Write ``batch`` in one transaction (in the writer thread).

        Returns:
            Per save None, or its :class:`~cardwar.store.writes.StaleWriteError`.
        """
        if self._task is None:
            self._task = asyncio.create_task(self._checkpoints(), name="sqlite-checkpoints")
        outcomes = await asyncio.get_running_loop().run_in_executor(
            self._writer, self._run_batch, batch)
        self._written += 1
        return outcomes

    def checkpoint(self) -> None:
        """Run one ``PASSIVE`` checkpoint now (blocking; call it in the writer thread)."""
        conn = self.engine.raw_connection()
        try:
            conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
        finally:
            conn.close()

    async def _checkpoints(self) -> None:
        seen = 0
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(CHECKPOINT_EVERY)
            if self._written != seen:
                seen = self._written
                try:
                    await loop.run_in_executor(self._writer, self.checkpoint)
                except Exception:
                    log.warning("sqlite checkpoint failed", exc_info=True)
                    continue
                self.checkpoints += 1

    async def close(self) -> None:
        """Stop checkpointing, checkpoint once more, release the connections."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        loop = asyncio.get_running_loop()
        with contextlib.suppress(Exception):
            await loop.run_in_executor(self._writer, self.checkpoint)
        await loop.run_in_executor(self._writer, self.engine.dispose)
        self._writer.shutdown(wait=True)
