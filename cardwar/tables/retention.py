"""How long games are kept: lobbies that never start expire, finished games may too.

Every ``settings.sweep_interval`` seconds one :class:`Retention` per process
removes, with their seats and events, the games still in the lobby
``settings.lobby_ttl`` seconds after they were created, and, when
``settings.finished_ttl`` is above 0, the finished games not changed for
that long (their replay and download go with them). Several processes
sweeping at once is harmless: a game is removed once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta

from cardwar.settings import Settings

from .cache import TableCache
from .records import GameStore

log = logging.getLogger("cardwar.tables")

#: Most games one sweep removes at a time (a sweep goes on until none is left).
SWEEP_BATCH = 500


class Retention:
    """Removes expired games from the store (and this process's cache).

    Args:
        store: the games.
        cache: this process's cached tables (a removed game leaves it too).
        settings: ``lobby_ttl``, ``finished_ttl``, ``sweep_interval``.
    """

    def __init__(self, store: GameStore, cache: TableCache, settings: Settings) -> None:
        self.store = store
        self.cache = cache
        self.settings = settings
        self._task: asyncio.Task[None] | None = None

    async def sweep(self, now: datetime | None = None) -> int:
        """Remove the games expired at ``now`` (default: the current time).

        Returns:
            How many games were removed.
        """
        now = now or datetime.now(UTC)
        lobby_before = now - timedelta(seconds=self.settings.lobby_ttl)
        over_before = (now - timedelta(seconds=self.settings.finished_ttl)
                       if self.settings.finished_ttl > 0 else None)
        removed = 0
        while ids := await self.store.expired(lobby_before, over_before, SWEEP_BATCH):
            removed += await self.store.remove(ids)
            for game_id in ids:
                self.cache.drop(game_id)
            if len(ids) < SWEEP_BATCH:
                break
        if removed:
            log.info("removed %d expired games", removed, extra={"removed": removed})
        return removed

    def start(self) -> None:
        """Sweep now and every ``settings.sweep_interval`` seconds, in the background."""

        async def run() -> None:
            while True:
                try:
                    await self.sweep()
                except Exception:
                    log.warning("removing expired games failed", exc_info=True)
                await asyncio.sleep(self.settings.sweep_interval)

        if self._task is None:
            self._task = asyncio.create_task(run(), name="retention")

    async def close(self) -> None:
        """Stop sweeping."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None
