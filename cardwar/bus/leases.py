"""Which process owns a game: a lease with a fencing token (README, "Several
processes: one owner per game").

At any moment one process owns a game: it runs the game's timers and saves
with its token (:meth:`cardwar.tables.records.GameStore.save`, checked in the
store against ``games.owner_token``). :class:`LocalLeases` is one process's:
it owns every game and its writes carry no token. :class:`RedisLeases` is
:class:`~cardwar.bus.redis.RedisBus`'s:

* the owner holds ``<prefix>owner:<game id>`` = ``<process id>:<token>``,
  set ``NX`` with a ``PX`` of :data:`OWNER_TTL` (15 s); the token is
  ``INCR <prefix>owner-token:<game id>``, so it only grows (never below the
  ``floor`` the caller read from the store: a Redis that lost its data
  counts on from there);
* every :data:`RENEW_EVERY` seconds (5 s, a third of the lease, as the bus's
  liveness keys) the owner extends all its leases in one pipeline, each with
  a compare-and-extend script (only while the key still names it). One found
  gone (Redis restarted) is taken again at once, with a new token; one found
  taken by another process is let go;
* the owner counts its lease only until :data:`OWNER_TTL` after the request
  that last set or extended it (less :data:`MARGIN`), whatever Redis says
  later: a process paused longer than that stops acting as the owner by
  itself, and if it writes anyway the store's fence refuses its old token;
* a game that ends, a process that stops (:meth:`RedisLeases.close`, after
  its last save) and a lease left unused for :data:`IDLE_RELEASE` seconds
  are let go with a compare-and-delete script; a dead process's run out.

A process that does not own a game asks again at most every
:data:`LOOK_AGAIN` seconds (:meth:`RedisLeases.acquire`); the table service's
watcher (:mod:`cardwar.tables.cluster`) asks for the games whose timers wait
for a lease as often.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from redis.exceptions import RedisError

log = logging.getLogger("cardwar.bus")

#: Seconds a lease outlives the request that last set or extended it (its owner died).
OWNER_TTL = 15.0
#: Seconds between two renewals of the leases this process holds.
RENEW_EVERY = OWNER_TTL / 3
#: Seconds before a game owned by another process is asked about again.
LOOK_AGAIN = 2.0
#: Seconds taken off a lease's end here (the request's way to Redis, clocks that
#: drift), at most a tenth of the lease.
MARGIN = 1.0
#: Seconds a lease nobody here used (no save, no timer) is kept before it is let go.
IDLE_RELEASE = 600.0
#: Seconds a game's token counter outlives its last lease taken (then the
#: store's ``owner_token``, passed as the floor, keeps the tokens growing).
TOKEN_KEEP = 86400.0

#: KEYS: the lease, the token counter; ARGV: process id, lease ms, floor, counter ms.
#: Returns the token held (this process's already, or just taken), 0 when another holds it.
_ACQUIRE = """
local held = redis.call('GET', KEYS[1])
if held then
  local origin, token = string.match(held, '^(.*):(%d+)$')
  if origin == ARGV[1] then
    redis.call('PEXPIRE', KEYS[1], ARGV[2])
    return tonumber(token)
  end
  return 0
end
if tonumber(redis.call('GET', KEYS[2]) or '0') < tonumber(ARGV[3]) then
  redis.call('SET', KEYS[2], ARGV[3])
end
local token = redis.call('INCR', KEYS[2])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. token, 'NX', 'PX', ARGV[2])
return token
"""

#: KEYS: the lease; ARGV: its value here, lease ms. 1 when extended, 0 when not ours.
_EXTEND = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

#: KEYS: the lease; ARGV: its value here. 1 when deleted, 0 when not ours.
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class Leases(Protocol):
    """Who owns which game (see the module docstring)."""

    def owns(self, game_id: str) -> bool:
        """True while this process holds ``game_id``'s lease (no I/O: the hot path)."""
        ...

    def token(self, game_id: str) -> int | None:
        """The fencing token to save ``game_id`` with: its lease's while held, else
        None (a write as no owner, checked by ``seq`` alone)."""
        ...

    async def acquire(self, game_id: str, floor: int = 0) -> bool:
        """Take ``game_id``'s lease if it is free (True also when held here
        already); ``floor``: the stored ``owner_token``, which the new token
        exceeds. Never raises (a Redis error: False)."""
        ...

    async def acquire_many(self, floors: Mapping[str, int]) -> set[str]:
        """Try to take each game's lease (game id -> floor) at once; the games held
        here now. Never raises."""
        ...

    def lost(self, game_id: str) -> None:
        """The store refused this process's token for ``game_id``: another owns it."""
        ...

    async def release(self, game_id: str) -> None:
        """Let ``game_id``'s lease go (the game ended). Never raises."""
        ...

    async def close(self) -> None:
        """Stop renewing and let every lease held here go."""
        ...


class LocalLeases:
    """One process: it owns every game, and its writes need no token."""

    def owns(self, game_id: str) -> bool:
        """Always True."""
        return True

    def token(self, game_id: str) -> int | None:
        """Always None: nobody else writes."""
        return None

    async def acquire(self, game_id: str, floor: int = 0) -> bool:
        """Always True."""
        return True

    async def acquire_many(self, floors: Mapping[str, int]) -> set[str]:
        """Every game asked about."""
        return set(floors)

    def lost(self, game_id: str) -> None:
        """Nothing to lose."""

    async def release(self, game_id: str) -> None:
        """Nothing to let go."""

    async def close(self) -> None:
        """Nothing to let go."""


@dataclass(slots=True)
class _Held:
    token: int
    #: monotonic seconds: the lease is counted until then
    until: float
    #: monotonic seconds of the last use (:meth:`RedisLeases.token`, :meth:`RedisLeases.owns`)
    used: float


class RedisLeases:
    """:class:`Leases` in Redis, shared by every process on it (the module docstring).

    Args:
        redis: a redis-py asyncio client (the bus's: :func:`cardwar.bus.redis.client`).
        prefix: the site's key prefix (``<prefix>owner:<game id>``).
        origin: this process's id (the bus's).
        ttl: seconds a lease lasts (:data:`OWNER_TTL`); renewed every third of it.
        clock: monotonic seconds (a test may pass one it moves by hand).
    """

    def __init__(self, redis: Any, prefix: str, origin: str, ttl: float = OWNER_TTL,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._redis = redis
        self._acquire = redis.register_script(_ACQUIRE)
        self._extend = redis.register_script(_EXTEND)
        self._release = redis.register_script(_RELEASE)
        self.prefix, self.origin, self.ttl = prefix, origin, ttl
        self._counted = ttl - min(MARGIN, ttl / 10)  # seconds a lease is counted here
        self._now = clock
        self._held: dict[str, _Held] = {}
        #: game -> monotonic seconds before which it is not asked about again
        self._elsewhere: dict[str, float] = {}
        self._renewer: asyncio.Task[None] | None = None
        self._failing = False
        self._closed = False

    def key(self, game_id: str) -> str:
        """The Redis key of ``game_id``'s lease."""
        return f"{self.prefix}owner:{game_id}"

    def _value(self, held: _Held) -> str:
        return f"{self.origin}:{held.token}"

    def _trouble(self, exc: BaseException) -> None:
        if not self._failing:
            log.warning("redis leases unavailable", extra={"error": repr(exc)})
        self._failing = True

    def owns(self, game_id: str) -> bool:
        """See :meth:`Leases.owns` (until the lease's end counted here)."""
        held = self._held.get(game_id)
        if held is None:
            return False
        now = self._now()
        if now >= held.until:
            return False
        held.used = now
        return True

    def token(self, game_id: str) -> int | None:
        """See :meth:`Leases.token`."""
        return self._held[game_id].token if self.owns(game_id) else None

    def held(self) -> list[str]:
        """The games whose lease this process holds now."""
        return [g for g in self._held if self.owns(g)]

    async def acquire(self, game_id: str, floor: int = 0) -> bool:
        """See :meth:`Leases.acquire` (Redis is asked at most once per
        :data:`LOOK_AGAIN` while another process holds the lease)."""
        if self.owns(game_id):
            return True
        if self._now() < self._elsewhere.get(game_id, 0.0):
            return False
        return game_id in await self.acquire_many({game_id: floor})

    async def acquire_many(self, floors: Mapping[str, int]) -> set[str]:
        """See :meth:`Leases.acquire_many` (one pipeline, whatever was asked lately)."""
        games = sorted(floors)
        if not games or self._closed:
            return set()
        sent = self._now()
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for game_id in games:
                    await self._acquire(
                        keys=[self.key(game_id), f"{self.prefix}owner-token:{game_id}"],
                        args=[self.origin, round(self.ttl * 1000), int(floors[game_id]),
                              round(TOKEN_KEEP * 1000)], client=pipe)
                tokens = await pipe.execute()
        except (RedisError, OSError) as exc:
            self._trouble(exc)
            return {g for g in games if self.owns(g)}
        self._failing = False
        won: set[str] = set()
        for game_id, token in zip(games, tokens, strict=True):
            if int(token):
                self._held[game_id] = _Held(int(token), sent + self._counted, sent)
                self._elsewhere.pop(game_id, None)
                won.add(game_id)
            else:
                self._held.pop(game_id, None)
                self._elsewhere[game_id] = sent + LOOK_AGAIN
        if self._held and (self._renewer is None or self._renewer.done()):
            self._renewer = asyncio.create_task(self._renew_all(), name="redis-leases-renew")
        return won

    def lost(self, game_id: str) -> None:
        """See :meth:`Leases.lost` (not asked about again for :data:`LOOK_AGAIN` s)."""
        self._held.pop(game_id, None)
        self._elsewhere[game_id] = self._now() + LOOK_AGAIN

    async def release(self, game_id: str) -> None:
        """See :meth:`Leases.release` (a compare-and-delete: never another's lease)."""
        held = self._held.pop(game_id, None)
        self._elsewhere.pop(game_id, None)
        if held is not None:
            await self._let_go([(game_id, held)])

    async def _let_go(self, leases: Iterable[tuple[str, _Held]]) -> None:
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for game_id, held in leases:
                    await self._release(keys=[self.key(game_id)], args=[self._value(held)],
                                        client=pipe)
                await pipe.execute()
        except (RedisError, OSError) as exc:  # they run out by themselves
            self._trouble(exc)

    async def renew(self) -> None:
        """Extend every lease held here (one pipeline): one gone from Redis is
        taken again (a new token), one another process holds is let go, one
        unused for :data:`IDLE_RELEASE` seconds is released."""
        now = self._now()
        idle = [(g, h) for g, h in self._held.items() if now - h.used > IDLE_RELEASE]
        for game_id, _ in idle:
            del self._held[game_id]
        if idle:
            await self._let_go(idle)
        games = list(self._held.items())
        if not games:
            return
        sent = self._now()
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for game_id, held in games:
                    await self._extend(keys=[self.key(game_id)],
                                       args=[self._value(held), round(self.ttl * 1000)],
                                       client=pipe)
                extended = await pipe.execute()
        except (RedisError, OSError) as exc:  # counted until they run out here
            self._trouble(exc)
            return
        self._failing = False
        gone: dict[str, int] = {}
        for (game_id, held), ok in zip(games, extended, strict=True):
            if self._held.get(game_id) is not held:
                continue  # released or taken again meanwhile
            if int(ok):
                held.until = sent + self._counted
            else:
                del self._held[game_id]
                gone[game_id] = held.token
        if gone:  # a lease another process took stays refused; a vanished one is ours again
            await self.acquire_many(gone)

    async def _renew_all(self) -> None:
        while self._held and not self._closed:
            await asyncio.sleep(self.ttl / 3)
            try:
                await self.renew()
            except Exception:
                log.exception("renewing the leases failed")

    async def close(self) -> None:
        """See :meth:`Leases.close` (call it after the last save)."""
        self._closed = True
        if self._renewer is not None:
            self._renewer.cancel()
            with contextlib.suppress(BaseException):
                await self._renewer
        held, self._held = list(self._held.items()), {}
        if held:
            await self._let_go(held)
