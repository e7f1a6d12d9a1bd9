"""The tables one server process keeps in memory: one home for the cache.

A cached :class:`~cardwar.tables.Table` is a copy of the stored game. Each
game has a lock (every change to it runs under it) and may be marked
*stale*: with several processes, another one changed the game, or events
may have been missed; a stale table is brought up to the store before it
is trusted again (:mod:`cardwar.tables.cluster`).

The cache is unbounded for now; bounding it (a size and an idle time)
is a change of this module only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

from .table import Table


class TableCache:
    """Tables by game id, a lock per game, and the set of stale games."""

    def __init__(self) -> None:
        self._tables: dict[str, Table] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._stale: set[str] = set()

    def get(self, game_id: str) -> Table | None:
        """The cached table of ``game_id`` (stale or not), or None."""
        return self._tables.get(game_id)

    def put(self, table: Table) -> Table:
        """Keep ``table`` (replacing any other copy of its game); return it."""
        self._tables[table.id] = table
        return table

    def drop(self, game_id: str) -> None:
        """Forget ``game_id``'s table: the next use loads it from the store."""
        self._tables.pop(game_id, None)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._tables

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._tables))

    def lock(self, game_id: str) -> asyncio.Lock:
        """The lock every change of ``game_id`` runs under."""
        return self._locks.setdefault(game_id, asyncio.Lock())

    def busy(self, game_id: str) -> bool:
        """True while a change of ``game_id`` holds its lock."""
        lock = self._locks.get(game_id)
        return lock is not None and lock.locked()

    # -- staleness ----------------------------------------------------------
    def is_stale(self, game_id: str) -> bool:
        """True when ``game_id``'s table must be brought up to the store first."""
        return game_id in self._stale

    def mark_stale(self, game_id: str | None = None) -> None:
        """Mark ``game_id`` stale if it is cached (None: every cached game)."""
        if game_id is None:
            self._stale.update(self._tables)
        elif game_id in self._tables:
            self._stale.add(game_id)

    def mark_fresh(self, game_id: str) -> None:
        """``game_id``'s table is being brought up to the store."""
        self._stale.discard(game_id)
