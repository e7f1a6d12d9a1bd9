"""Sockets per address counted in Redis (issue 24, item 5): two processes on
one Redis allow ``sockets_per_address`` once, not twice; a closed socket
gives its slot back, and a dead process's slots expire."""

from __future__ import annotations

import asyncio
import secrets

import pytest
from starlette.requests import HTTPConnection

from cardwar.bus.redis import RedisBus, client
from cardwar.bus.slots import RedisSlots
from cardwar.settings import Settings
from cardwar.web.guard import Guard

from .conftest import REDIS_URL

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _conn(address: str) -> HTTPConnection:
    return HTTPConnection({"type": "websocket", "client": (address, 4242), "headers": [],
                           "path": "/ws/tables"})


async def test_two_processes_share_the_sockets_per_address() -> None:
    prefix = f"cwtest-slots-{secrets.token_hex(4)}:"
    buses = [RedisBus(REDIS_URL, prefix) for _ in range(2)]
    guards = []
    for bus in buses:
        g = Guard(Settings(sockets_per_address=3))
        g.slots = bus.slots
        guards.append(g)
    a, b = guards
    try:
        ann = _conn("203.0.113.7")
        held = [await a.open_socket(ann, None), await a.open_socket(ann, None),
                await b.open_socket(ann, None)]
        assert None not in held
        # the address has its three, whichever process it asks
        assert await b.open_socket(ann, None) is None
        assert await a.open_socket(ann, None) is None
        # another address is not concerned
        assert await b.open_socket(_conn("198.51.100.1"), None) is not None
        # a socket closed on one process gives its slot back to the other
        first = held[0]
        assert first is not None
        await a.close_socket(ann, None, first)
        assert await b.open_socket(ann, None) is not None
        assert await a.open_socket(ann, None) is None
    finally:
        for bus in buses:
            await bus.close()


async def test_a_dead_process_slots_expire_and_live_ones_are_refreshed() -> None:
    prefix = f"cwtest-slots-{secrets.token_hex(4)}:"
    redis = client(REDIS_URL)
    dead = RedisSlots(redis, prefix, "dead", ttl=1.0)
    live = RedisSlots(redis, prefix, "live", ttl=1.0)
    try:
        assert await dead.take("sockets:x", 2) is not None
        kept = await live.take("sockets:x", 2)
        assert kept is not None
        assert await live.take("sockets:x", 2) is None
        await dead.close(give_back=False)  # dies: stops refreshing, gives nothing back
        name = f"{prefix}slots:sockets:x"
        before = await redis.zscore(name, kept)
        # the scores are Redis's clock in ms: let it move on, or a refresh in the
        # same millisecond as the take leaves the score equal (CI saw it)
        await asyncio.sleep(0.01)
        await live.refresh()
        after = await redis.zscore(name, kept)
        assert before is not None
        assert after is not None
        assert after > before
        # the dead process's slot expires: the address has its room back
        for _ in range(250):
            await live.refresh()  # the live one's slot never does
            again = await live.take("sockets:x", 2)
            if again is not None:
                break
            await asyncio.sleep(0.02)
        else:
            raise AssertionError("the dead process's slot never expired")
        assert set(await redis.zrange(name, 0, -1)) == {kept.encode(), again.encode()}
    finally:
        await live.close()
        await dead.close()
        await redis.delete(f"{prefix}slots:sockets:x")
        await redis.aclose()
