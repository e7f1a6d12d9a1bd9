"""Rate limits counted where every process sees them (issue 24, item 5).

A limit is ``count`` per ``period`` seconds for a key (an address and what
it does, a seat of a game): a leaky bucket that holds ``count`` and lets one
more through every ``period / count`` seconds. :class:`LocalLimiter` counts
in this process (one process: :class:`~cardwar.bus.LocalBus`);
:class:`RedisLimiter` counts in Redis, so N processes allow the limit once,
not N times: the generic cell rate algorithm (the bucket as the moment it
is empty again, one key per bucket, expiring with it), one round trip per
hit, on Redis's own clock. While Redis cannot be asked, it counts in this
process instead: a limit never refuses play because Redis is away.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from aiolimiter import AsyncLimiter
from cachetools import TTLCache
from redis.exceptions import RedisError

#: What a Redis command raises while Redis is away: redis-py's errors, the socket's,
#: and RuntimeError from a transport that uvloop already closed.
REDIS_DOWN: tuple[type[Exception], ...] = (RedisError, OSError, RuntimeError)

log = logging.getLogger("cardwar.bus")

#: Most buckets :class:`LocalLimiter` keeps (the least recently used go first).
MAX_BUCKETS = 100_000

#: GCRA in one step. KEYS[1]: the bucket; ARGV: the interval between two hits and
#: the period, in microseconds. Returns 0 (counted) or the microseconds to wait.
_GCRA = """
local now = redis.call('TIME')
now = tonumber(now[1]) * 1000000 + tonumber(now[2])
local interval, period = tonumber(ARGV[1]), tonumber(ARGV[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local wait = tat + interval - period - now
if wait > 0 then return wait end
redis.call('SET', KEYS[1], tat + interval, 'PX', math.ceil((tat + interval - now) / 1000))
return 0
"""


class Limiter(Protocol):
    """Counts hits against limits (see the module docstring)."""

    async def hit(self, key: str, count: int, period: float) -> float:
        """Count one hit of ``key`` against ``count`` per ``period`` seconds.

        Returns:
            0.0 when it was counted; else the seconds until one more would be
            (nothing is counted).
        """
        ...


class LocalLimiter:
    """A :class:`Limiter` in this process's memory (bounded, idle buckets expire)."""

    def __init__(self, maxsize: int = MAX_BUCKETS) -> None:
        self._buckets: TTLCache[tuple[str, int, float], AsyncLimiter] = TTLCache(
            maxsize=maxsize, ttl=3600.0)

    async def hit(self, key: str, count: int, period: float) -> float:
        """See :meth:`Limiter.hit`."""
        name = (key, count, period)
        bucket = self._buckets.get(name)
        if bucket is None:
            bucket = AsyncLimiter(max(1, count), period)
        self._buckets[name] = bucket  # (re)set: kept an hour after its last use
        if not bucket.has_capacity():
            return period / max(1, count)
        await bucket.acquire()  # room left: returns at once
        return 0.0

    def __len__(self) -> int:
        return len(self._buckets)


class RedisLimiter:
    """A :class:`Limiter` in Redis, shared by every process on it.

    Args:
        redis: a redis-py asyncio client.
        prefix: the site's key prefix (``<prefix>limit:<key>``).
    """

    def __init__(self, redis: Any, prefix: str) -> None:
        self._script = redis.register_script(_GCRA)
        self.prefix = prefix
        self._local = LocalLimiter()
        self._failing = False

    async def hit(self, key: str, count: int, period: float) -> float:
        """See :meth:`Limiter.hit` (counted here while Redis does not answer)."""
        count = max(1, count)
        interval = round(period * 1_000_000 / count)
        try:
            wait = await self._script(keys=[f"{self.prefix}limit:{key}"],
                                      args=[interval, round(period * 1_000_000)])
        except REDIS_DOWN as exc:
            if not self._failing:
                log.warning("redis limits unavailable: counting in this process",
                            extra={"error": repr(exc)})
            self._failing = True
            return await self._local.hit(key, count, period)
        if self._failing:
            log.info("redis limits back")
        self._failing = False
        return int(wait) / 1_000_000
