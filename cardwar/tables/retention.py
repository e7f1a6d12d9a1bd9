"""How long games are kept: lobbies that never start expire, finished games may too.

Every ``settings.sweep_interval`` seconds one :class:`Retention` per process
removes the seats and events of the games still in the lobby
``settings.lobby_ttl`` seconds after their last activity (created, joined,
left, a page opened or closed there; a lobby with a page open is touched
every third of the TTL, so it never expires under its players), and, when
``settings.finished_ttl`` is above 0, of the finished games not changed for
that long (their replay and download go with them). Each leaves a tombstone,
so that its link says "this game has expired" (410) rather than "no such
game"; tombstones go after :data:`TOMBSTONE_DAYS`. Several processes
sweeping at once is harmless: a game is removed once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from cardwar.settings import Settings

from .cache import TableCache
from .records import GameStore

log = logging.getLogger("cardwar.tables")

#: Most games one sweep removes at a time (a sweep goes on until none is left).
SWEEP_BATCH = 500
#: Days an expired game's tombstone is kept (its link says it expired meanwhile).
TOMBSTONE_DAYS = 30


class Retention:
    """Removes expired games from the store (and this process's cache).

    Args:
        store: the games.
        cache: this process's cached tables (a removed game leaves it too).
        settings: ``lobby_ttl``, ``finished_ttl``, ``sweep_interval``.
        open_lobbies: the lobbies with a page open in this process (touched, so
            that they do not expire while someone waits in them).
    """

    def __init__(self, store: GameStore, cache: TableCache, settings: Settings,
                 open_lobbies: Callable[[], list[str]] = list) -> None:
        self.store = store
        self.cache = cache
        self.settings = settings
        self.open_lobbies = open_lobbies
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
            removed += await self.store.retire(ids)
            for game_id in ids:
                self.cache.drop(game_id)
            if len(ids) < SWEEP_BATCH:
                break
        forgotten = now - timedelta(days=TOMBSTONE_DAYS)
        while ids := await self.store.tombstones(forgotten, SWEEP_BATCH):
            await self.store.remove(ids)
            if len(ids) < SWEEP_BATCH:
                break
        if removed:
            log.info("removed %d expired games", removed, extra={"removed": removed})
        return removed

    def start(self) -> None:
        """Sweep now and every ``settings.sweep_interval`` seconds, in the background;
        touch the open lobbies every third of ``settings.lobby_ttl`` (or at each
        sweep, if that is sooner)."""
        step = min(self.settings.sweep_interval, self.settings.lobby_ttl / 3)

        async def run() -> None:
            swept = -1e18
            while True:
                loop = asyncio.get_running_loop()
                try:
                    await self.store.touch(self.open_lobbies())
                    if loop.time() - swept >= self.settings.sweep_interval:
                        swept = loop.time()
                        await self.sweep()
                except Exception:
                    log.warning("removing expired games failed", exc_info=True)
                await asyncio.sleep(step)

        if self._task is None:
            self._task = asyncio.create_task(run(), name="retention")

    async def close(self) -> None:
        """Stop sweeping."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
            self._task = None
