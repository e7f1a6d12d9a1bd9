"""Game leases in a real Redis (:mod:`cardwar.bus.leases`): one owner per game,
tokens that only grow, renewal by compare-and-extend, release by
compare-and-delete, and a lease counted here only until its end.

Skipped without Redis at 127.0.0.1:6379 (like tests/bus/test_redis_bus.py).
"""

from __future__ import annotations

import secrets

import pytest

from cardwar.bus.leases import LOOK_AGAIN, LocalLeases, RedisLeases
from cardwar.bus.redis import client

from .test_redis_bus import REDIS_URL, pytestmark  # noqa: F401 - skipped without Redis

anyio = pytest.mark.anyio


class Clock:
    """Monotonic seconds moved by hand (the lease's end counted here)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def two():
    """Two processes' leases on one Redis and a fresh prefix, each with its own clock."""
    redis = client(REDIS_URL)
    prefix = f"cwtest-{secrets.token_hex(6)}:"
    clocks = (Clock(), Clock())
    leases = (RedisLeases(redis, prefix, "proc-a", clock=clocks[0]),
              RedisLeases(redis, prefix, "proc-b", clock=clocks[1]))
    yield redis, prefix, leases, clocks
    for lease in leases:
        await lease.close()
    keys = [k async for k in redis.scan_iter(match=f"{prefix}*")]
    if keys:
        await redis.delete(*keys)
    await redis.aclose()


@anyio
async def test_one_owner_at_a_time_and_the_token_only_grows(two):
    redis, prefix, (a, b), (_, clock_b) = two
    assert await a.acquire("g1")
    assert a.owns("g1")
    assert a.token("g1") == 1
    assert await redis.get(f"{prefix}owner:g1") == b"proc-a:1"
    assert 14000 < await redis.pttl(f"{prefix}owner:g1") <= 15000
    assert not await b.acquire("g1")
    assert not b.owns("g1")
    assert b.token("g1") is None
    assert await a.acquire("g1")  # already ours: same token
    assert a.token("g1") == 1
    # a stopping process lets its leases go (compare-and-delete): the next one takes it
    await a.close()
    assert await redis.get(f"{prefix}owner:g1") is None
    assert not await b.acquire("g1")  # asked LOOK_AGAIN s ago: not asked again yet
    clock_b.now += LOOK_AGAIN
    assert await b.acquire("g1")
    assert b.token("g1") == 2
    # the token never falls below the stored owner_token (a Redis that lost its data)
    assert await b.acquire_many({"g2": 41}) == {"g2"}
    assert b.token("g2") == 42


@anyio
async def test_renewal_extends_retakes_a_vanished_lease_and_gives_up_a_taken_one(two):
    redis, prefix, (a, _), (clock_a, _) = two
    assert await a.acquire_many({"g1": 0, "g2": 0, "g3": 0}) == {"g1", "g2", "g3"}
    await redis.pexpire(f"{prefix}owner:g1", 3000)
    await redis.delete(f"{prefix}owner:g2")  # Redis restarted and forgot it
    await redis.set(f"{prefix}owner:g3", "proc-b:9")  # another process took it
    clock_a.now += 10.0  # 10 s later, before the lease's end here (15 s less a margin)
    await a.renew()
    assert 14000 < await redis.pttl(f"{prefix}owner:g1") <= 15000
    assert a.token("g1") == 1
    assert a.token("g2") == 2  # taken again, with a new token
    assert await redis.get(f"{prefix}owner:g2") == b"proc-a:2"
    assert not a.owns("g3")
    assert await redis.get(f"{prefix}owner:g3") == b"proc-b:9"  # never another's touched
    # a release is a compare-and-delete too
    await a.release("g1")
    assert not a.owns("g1")
    assert await redis.get(f"{prefix}owner:g1") is None


@anyio
async def test_a_lease_is_counted_only_until_its_end_whatever_redis_says(two):
    redis, prefix, (a, b), (clock_a, _) = two
    assert await a.acquire("g1")
    clock_a.now += 14.0  # paused: no renewal for 14 s, its lease is over here
    assert not a.owns("g1")
    assert a.token("g1") is None
    await redis.delete(f"{prefix}owner:g1")  # ... and in Redis (it ran out)
    assert await b.acquire("g1")
    assert b.token("g1") == 2
    assert not await a.acquire("g1")  # the old owner wakes up: held by b
    # the store refused an old token: the lease is dropped here at once
    assert await redis.get(f"{prefix}owner:g1") == b"proc-b:2"
    b.lost("g1")
    assert not b.owns("g1")


@anyio
async def test_one_process_owns_every_game_without_a_token():
    leases = LocalLeases()
    assert leases.owns("g")
    assert leases.token("g") is None
    assert await leases.acquire("g")
    assert await leases.acquire_many({"g": 0, "h": 3}) == {"g", "h"}
