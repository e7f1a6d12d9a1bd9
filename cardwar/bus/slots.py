"""Things held open at once (sockets per address) counted where every process
sees them (issue 24, item 5).

A slot is held from :meth:`Slots.take` to :meth:`Slots.give`: at most
``limit`` at once per key. :class:`LocalSlots` counts in this process (one
process: :class:`~cardwar.bus.LocalBus`). :class:`RedisSlots` counts in
Redis, so N processes allow ``limit`` once, not N times.

The design in Redis: one sorted set per key, ``<prefix>slots:<key>``; a
member per slot held (``<process id>:<number>``) whose score is the moment
it expires, in milliseconds of Redis's own clock (``TIME``). Taking a slot
is one script: drop the expired members, refuse when ``limit`` remain, else
add one expiring :data:`SLOT_TTL` seconds later. Giving it back removes the
member. Each process refreshes every slot it holds every third of
:data:`SLOT_TTL` (one pipeline; a plain ``ZADD``, so the slots come back
after Redis lost its data in a restart). A process that dies without giving
its slots back stops refreshing them, and they expire: the address has its
room back within :data:`SLOT_TTL` seconds. While Redis cannot be asked a
slot is counted in this process only (never refusing a socket because Redis
is away); such a slot is added to Redis by the next refresh that succeeds.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections import Counter
from typing import Any, Protocol

from .limits import REDIS_DOWN

log = logging.getLogger("cardwar.bus")

#: Seconds a slot outlives its last refresh in Redis (its process died).
SLOT_TTL = 30.0

#: KEYS[1]: the set; ARGV: limit, member, ttl in ms. Returns 1 (taken) or 0 (full).
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + ttl, ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
"""

#: KEYS[1]: the set; ARGV: ttl in ms, then the members to keep. Returns nothing.
_REFRESH = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local ttl = tonumber(ARGV[1])
for i = 2, #ARGV do redis.call('ZADD', KEYS[1], now + ttl, ARGV[i]) end
redis.call('PEXPIRE', KEYS[1], ttl)
return 0
"""


class Slots(Protocol):
    """Counts slots held at once per key (see the module docstring)."""

    async def take(self, key: str, limit: int) -> str | None:
        """Take one of ``key``'s ``limit`` slots.

        Returns:
            The slot's id (for :meth:`give`), or None when ``limit`` are held
            (nothing taken).
        """
        ...

    async def give(self, key: str, slot: str) -> None:
        """Give back ``slot`` of ``key`` (taken by :meth:`take`; never raises)."""
        ...


class LocalSlots:
    """:class:`Slots` in this process's memory."""

    def __init__(self) -> None:
        self._held: Counter[str] = Counter()
        self._ids = itertools.count(1)

    def held(self, key: str) -> int:
        """Slots of ``key`` held here now."""
        return self._held[key]

    async def take(self, key: str, limit: int) -> str | None:
        """See :meth:`Slots.take`."""
        if self._held[key] >= limit:
            return None
        self._held[key] += 1
        return str(next(self._ids))

    async def give(self, key: str, slot: str) -> None:
        """See :meth:`Slots.give`."""
        self._held[key] -= 1
        if self._held[key] <= 0:
            del self._held[key]


class RedisSlots:
    """:class:`Slots` in Redis, shared by every process on it.

    Args:
        redis: a redis-py asyncio client.
        prefix: the site's key prefix (``<prefix>slots:<key>``).
        origin: this process's id (the members' first part).
        ttl: seconds a slot outlives its last refresh (:data:`SLOT_TTL`).
    """

    def __init__(self, redis: Any, prefix: str, origin: str, ttl: float = SLOT_TTL) -> None:
        self._redis = redis
        self._take = redis.register_script(_TAKE)
        self._refresh = redis.register_script(_REFRESH)
        self.prefix, self.origin, self.ttl = prefix, origin, ttl
        self._ids = itertools.count(1)
        #: key -> the slots this process holds of it
        self._mine: dict[str, set[str]] = {}
        self._local = LocalSlots()
        self._failing = False
        self._refresher: asyncio.Task[None] | None = None
        self._closed = False

    def _name(self, key: str) -> str:
        return f"{self.prefix}slots:{key}"

    def _trouble(self, exc: BaseException) -> None:
        if not self._failing:
            log.warning("redis slots unavailable: counting in this process",
                        extra={"error": repr(exc)})
        self._failing = True

    async def take(self, key: str, limit: int) -> str | None:
        """See :meth:`Slots.take` (counted here while Redis does not answer)."""
        slot = f"{self.origin}:{next(self._ids)}"
        try:
            taken = await self._take(keys=[self._name(key)],
                                     args=[limit, slot, round(self.ttl * 1000)])
        except REDIS_DOWN as exc:
            self._trouble(exc)
            if len(self._mine.get(key, ())) >= limit:
                return None
        else:
            if self._failing:
                log.info("redis slots back")
            self._failing = False
            if not int(taken):
                return None
        self._mine.setdefault(key, set()).add(slot)
        if (self._refresher is None or self._refresher.done()) and not self._closed:
            self._refresher = asyncio.create_task(self._keep(), name="redis-slots-refresh")
        return slot

    async def give(self, key: str, slot: str) -> None:
        """See :meth:`Slots.give` (left to expire while Redis does not answer)."""
        mine = self._mine.get(key)
        if mine is not None:
            mine.discard(slot)
            if not mine:
                del self._mine[key]
        try:
            await self._redis.zrem(self._name(key), slot)
        except REDIS_DOWN as exc:
            self._trouble(exc)

    async def refresh(self) -> None:
        """Push back the expiry of every slot this process holds (one pipeline)."""
        if not self._mine:
            return
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for key, slots in list(self._mine.items()):
                    await self._refresh(keys=[self._name(key)],
                                        args=[round(self.ttl * 1000), *slots], client=pipe)
                await pipe.execute()
        except REDIS_DOWN as exc:
            self._trouble(exc)

    async def _keep(self) -> None:
        while self._mine and not self._closed:
            await asyncio.sleep(self.ttl / 3)
            await self.refresh()

    async def close(self, *, give_back: bool = True) -> None:
        """Stop refreshing; ``give_back``: remove this process's slots now (else
        they expire, as a dead process's do)."""
        self._closed = True
        if self._refresher is not None:
            self._refresher.cancel()
            with contextlib.suppress(BaseException):
                await self._refresher
        if give_back:
            for key, slots in list(self._mine.items()):
                with contextlib.suppress(*REDIS_DOWN):
                    await self._redis.zrem(self._name(key), *slots)
        self._mine.clear()
