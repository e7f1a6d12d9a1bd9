"""The tables one server process keeps in memory: one home for the cache.

A cached :class:`~cardwar.tables.Table` is a copy of the stored game. Each
game has a lock (every change to it runs under it) and may be marked
*stale*: with several processes, another one changed the game, or events
may have been missed; a stale table is brought up to the store before it
is trusted again (:mod:`cardwar.tables.cluster`).

The cache is bounded (:class:`cachetools.TTLCache`): at most ``size``
tables, the least recently used going first, and a table nobody used for
``idle`` seconds goes too; a finished one (status ``over``) nobody used for
:data:`FINISHED_IDLE` seconds (or ``idle`` if shorter), so that a finished
game nobody follows leaves memory within a minute (the service's gauges
sweep the cache every 15 s). A table that went is loaded from the store on
its next use, as after a restart. Locks live only while someone holds or
waits for them (a weak dictionary), so they never pile up either.
"""

from __future__ import annotations

import asyncio
import time
import weakref
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from cachetools import TTLCache

from .table import Table

#: Defaults of :class:`TableCache` (the settings ``tables_in_memory``, ``table_idle``).
DEFAULT_SIZE = 2000
DEFAULT_IDLE = 600.0
#: A used table's idle time starts again at most once per this many seconds,
#: or a tenth of the idle time if shorter (re-inserting it at every use cost
#: a tenth of a flip's CPU under load).
TOUCH_EVERY = 1.0
#: Seconds a finished table nobody used stays (plus at most one sweep, 15 s).
FINISHED_IDLE = 45.0


@dataclass(slots=True)
class _Entry:
    table: Table
    stale: bool = False
    touched: float = 0.0


class TableCache:
    """Tables by game id (at most ``size`` in play or waiting and ``size`` finished,
    each kept ``idle`` seconds after its
    last use, a finished one :data:`FINISHED_IDLE`), a lock per game, and which
    games are stale. ``clock``: monotonic seconds (a test passes one it controls).

    Two :class:`cachetools.TTLCache`: the games not finished (the hot path of
    every message: one lookup, as cheap as before) and the finished ones, with
    the shorter idle time; a table moves to the second when it is put or used
    after its game ended.
    """

    def __init__(self, size: int = DEFAULT_SIZE, idle: float = DEFAULT_IDLE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._tables: TTLCache[str, _Entry] = TTLCache(maxsize=max(1, size), ttl=idle,
                                                       timer=clock)
        self._finished: TTLCache[str, _Entry] = TTLCache(
            maxsize=max(1, size), ttl=min(idle, FINISHED_IDLE), timer=clock)
        self._clock = clock
        self._touch_every = min(TOUCH_EVERY, idle / 10)
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = (
            weakref.WeakValueDictionary())

    def _find(self, game_id: str) -> tuple[_Entry | None, TTLCache[str, _Entry]]:
        """The entry of ``game_id`` (or None) and the cache it is in, without touching it."""
        entry = self._tables.get(game_id)
        if entry is not None:
            return entry, self._tables
        return self._finished.get(game_id), self._finished

    def _entry(self, game_id: str) -> _Entry | None:
        tables = self._tables
        try:
            entry = tables[game_id]  # one lookup (``get`` makes two)
        except KeyError:
            try:
                entry = (tables := self._finished)[game_id]
            except KeyError:
                return None
        now = self._clock()
        if now - entry.touched >= self._touch_every:
            entry.touched = now
            if tables is self._tables and entry.table.record.status == "over":
                del tables[game_id]  # ended since it was put (another process's event)
                tables = self._finished
            tables[game_id] = entry  # used: its idle time starts again
        return entry

    def get(self, game_id: str) -> Table | None:
        """The cached table of ``game_id`` (stale or not), or None."""
        entry = self._entry(game_id)
        return entry.table if entry is not None else None

    def current(self, game_id: str) -> Table | None:
        """The cached table of ``game_id`` unless it is stale, else None (one
        lookup: the hot path of every message and event)."""
        entry = self._entry(game_id)
        return entry.table if entry is not None and not entry.stale else None

    def put(self, table: Table) -> Table:
        """Keep ``table`` (replacing any other copy of its game); return it.

        A table replacing a stale copy keeps its mark: :meth:`mark_fresh` clears it.
        A kind of play that keeps time (a slap game's judge, ``kind.clock``) is
        given the cache's clock: the service's.
        """
        if hasattr(table.kind, "clock"):
            table.kind.clock = self._clock
        old, where = self._find(table.id)
        stale = old is not None and old.stale
        if old is not None:
            del where[table.id]
        into = self._finished if table.record.status == "over" else self._tables
        into[table.id] = _Entry(table, stale, self._clock())
        return table

    def drop(self, game_id: str) -> None:
        """Forget ``game_id``'s table: the next use loads it from the store."""
        self._tables.pop(game_id, None)
        self._finished.pop(game_id, None)

    def __contains__(self, game_id: object) -> bool:
        return game_id in self._tables or game_id in self._finished

    def __iter__(self) -> Iterator[str]:
        return iter([*self._tables, *self._finished])

    def __len__(self) -> int:
        """Tables in memory now (those past their idle time are let go first)."""
        self._tables.expire()
        self._finished.expire()
        return len(self._tables) + len(self._finished)

    def by_status(self) -> dict[str, int]:
        """Tables in memory now by their status: ``{"lobby": n, "playing": n,
        "over": n}`` (every status present, 0 when none)."""
        len(self)  # let expired ones go
        counts = Counter(e.table.record.status
                         for e in [*self._tables.values(), *self._finished.values()])
        return {status: counts.get(status, 0) for status in ("lobby", "playing", "over")}

    def lock(self, game_id: str) -> asyncio.Lock:
        """The lock every change of ``game_id`` runs under (keep the returned
        object while using it: a lock nobody holds is let go)."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = self._locks[game_id] = asyncio.Lock()
        return lock

    def busy(self, game_id: str) -> bool:
        """True while a change of ``game_id`` holds its lock."""
        lock = self._locks.get(game_id)
        return lock is not None and lock.locked()

    # -- staleness ----------------------------------------------------------
    def is_stale(self, game_id: str) -> bool:
        """True when ``game_id``'s table must be brought up to the store first."""
        entry, _ = self._find(game_id)
        return entry is not None and entry.stale

    def mark_stale(self, game_id: str | None = None) -> None:
        """Mark ``game_id`` stale if it is cached (None: every cached game)."""
        if game_id is None:
            for entry in [*self._tables.values(), *self._finished.values()]:
                entry.stale = True
            return
        one, _ = self._find(game_id)
        if one is not None:
            one.stale = True

    def mark_fresh(self, game_id: str) -> None:
        """``game_id``'s table is being brought up to the store."""
        entry, _ = self._find(game_id)
        if entry is not None:
            entry.stale = False
