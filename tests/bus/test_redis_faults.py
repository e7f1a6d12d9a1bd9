"""Two table services on a private ``redis-server`` that restarts or freezes
(issue 24, items 2 and 5; issue 25, item 4).

* A Redis restart forgets every liveness key: nobody is taken for dead on a
  key missing once, each process says it is alive again as soon as Redis is
  back, and says again who is connected to it.
* A Redis frozen (SIGSTOP) for longer than the health check: the bus notices
  the dead link within seconds, connects again once Redis answers, and the
  events published meanwhile reach the other process's pages from the store.

The server is this test's own (a free port, no persistence), never the
shared one; the games live in a SQLite file both services share.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import time
from collections.abc import AsyncIterator

import pytest
from scale.test_faults import PrivateRedis

from cardwar.bus import redis as redis_bus
from cardwar.bus.redis import RedisBus
from cardwar.bus.redis import client as redis_client
from cardwar.settings import Settings
from cardwar.store import Store
from cardwar.tables import TableService

pytestmark = [pytest.mark.anyio,
              pytest.mark.skipif(shutil.which("redis-server") is None,
                                 reason="no redis-server")]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def redis(tmp_path) -> AsyncIterator[PrivateRedis]:
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    if server.proc is not None and server.proc.poll() is None:
        os.kill(server.proc.pid, signal.SIGCONT)  # in case a test left it frozen
    server.stop()


async def _services(tmp_path, url: str, ttl: float) -> tuple[TableService, TableService]:
    settings = Settings(database=f"sqlite:///{tmp_path / 'games.db'}", flip_timeout=60.0,
                        computer_delay=60.0, gone_after=600.0)
    store = Store(settings.database)
    await store.migrate()
    return tuple(TableService(store, RedisBus(url, prefix="t:", reconnect_delay=0.1,
                                              liveness_ttl=ttl), settings)
                 for _ in range(2))  # type: ignore[return-value]


async def _close(*services: TableService) -> None:
    for s in services:
        await s.close()
        await s.bus.close()
    await services[0].store.close()


async def _eventually(check, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "not within the time"
        await asyncio.sleep(0.05)


async def test_a_redis_restart_takes_nobody_for_dead(tmp_path, redis):
    # a long liveness ttl: the key can only come back by being said again at once
    a, b = await _services(tmp_path, redis.url, ttl=60.0)
    try:
        table, _ = await a.create("war", 2, nickname="Ann")
        await a.join(table.id, "Bob")
        gid = table.id
        async with a.bus.subscribe(gid), b.bus.subscribe(gid) as page:
            await a.connect(gid, 0)  # Ann's page is on a
            await _eventually(lambda: b.online(gid) == {0})
            key = a.bus._alive_key(a.bus.origin)  # type: ignore[attr-defined]
            redis.stop()
            redis.start()  # a new Redis: every key forgotten
            assert await b.presence.forget_dead_processes() == set()  # missing once
            await _eventually(lambda: not a.bus.lost and not b.bus.lost)
            # a says it is alive again as soon as Redis is back (not a minute later)
            deadline = time.monotonic() + 5.0
            while not await a.bus._redis.exists(key):  # type: ignore[attr-defined]
                assert time.monotonic() < deadline, "the liveness key did not come back"
                await asyncio.sleep(0.05)
            assert await b.presence.forget_dead_processes() == set()
            assert b.online(gid) == {0}
            seen = []
            while not page.queue.empty():
                seen.append(page.queue.get_nowait())
            said = [m for m in seen if m.get("type") == "presence" and m.get("seat") == 0]
            assert said, seen
            assert all(m["online"] for m in said), seen  # and said again
    finally:
        await _close(a, b)


async def _seen_until(sub, kind: str, battle: int, seconds: float = 15.0) -> list[dict]:
    got: list[dict] = []
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        assert left > 0, f"no {kind} {battle}; got {got}"
        try:
            m = dict(await asyncio.wait_for(sub.next(), left))
        except TimeoutError:
            continue
        got.append(m)
        if m["type"] == kind and m.get("battle") == battle:
            return got


async def test_a_frozen_redis_is_noticed_and_no_flip_is_lost(tmp_path, redis):
    a, b = await _services(tmp_path, redis.url, ttl=60.0)
    try:
        table, _ = await a.create("war", 2, nickname="Ann")
        await a.join(table.id, "Bob")
        gid = table.id
        async with a.bus.subscribe(gid) as here, b.bus.subscribe(gid) as there:
            await a.start(gid, 0)
            started = await a.get(gid)
            assert started is not None
            here.start_after(started.seq)
            there.start_after(started.seq)
            await b.get(gid)
            assert redis.proc is not None
            os.kill(redis.proc.pid, signal.SIGSTOP)  # the links stay open; nothing answers
            frozen = time.monotonic()
            await _eventually(lambda: a.bus.lost and b.bus.lost, seconds=10.0)
            noticed = time.monotonic() - frozen
            for seat in (0, 1):  # played while Redis is frozen: saved, not published
                await a.flip(gid, seat, "player", 1)
            seen = await _seen_until(there, "battle", 1)  # b's page reads the store
            os.kill(redis.proc.pid, signal.SIGCONT)
            await _eventually(lambda: not a.bus.lost and not b.bus.lost, seconds=15.0)
            for seat in (0, 1):
                await a.flip(gid, seat, "player", 2)
            seen += await _seen_until(there, "battle", 2)
            seqs = [m["seq"] for m in seen if m.get("seq") is not None]
            assert seqs == list(range(started.seq + 1, started.seq + 1 + len(seqs)))
            assert [m["battle"] for m in seen if m["type"] == "battle"] == [1, 2]
            assert noticed < 8.0  # within seconds, not never
    finally:
        await _close(a, b)


@pytest.mark.parametrize("anyio_backend", ["asyncio", ("asyncio", {"use_uvloop": True})],
                         ids=["asyncio", "uvloop"])  # cardwar serve runs on uvloop
@pytest.mark.parametrize("listening", [True, False], ids=["listener-up", "first-game"])
async def test_a_game_followed_while_redis_is_down_is_heard_once_it_is_back(tmp_path, redis,
                                                                           listening):
    # listener-up: b follows another game, its listener lost Redis (the soak's case);
    # first-game: b follows nothing yet, its first SUBSCRIBE ever fails
    a, b = await _services(tmp_path, redis.url, ttl=60.0)
    try:
        table, _ = await a.create("war", 2, nickname="Ann")
        await a.join(table.id, "Bob")
        other, _ = await a.create("war", 2, nickname="Cid")
        gid = table.id
        async with contextlib.AsyncExitStack() as stack:
            await stack.enter_async_context(a.bus.subscribe(gid))
            if listening:
                await stack.enter_async_context(b.bus.subscribe(other.id))
                await _eventually(lambda: b.bus._pubsub.subscribed)  # type: ignore[attr-defined]
            redis.stop()
            if listening:
                await _eventually(lambda: b.bus.lost)
            # b's page opens while Redis is down: the subscribe fails, the page stays
            async with b.bus.subscribe(gid) as page:
                assert not b.bus.following(gid)  # not subscribed: no cache to trust
                redis.start()
                await _eventually(lambda: not a.bus.lost and not b.bus.lost, seconds=15.0)
                await _eventually(lambda: b.bus.following(gid), seconds=15.0)
                await a.connect(gid, 0)  # Ann's page is on a: b hears it
                await _eventually(lambda: b.online(gid) == {0})
                await a.start(gid, 0)  # and b's page hears the game's events
                started = await a.get(gid)
                assert started is not None
                seen: list[dict] = []
                deadline = time.monotonic() + 10.0
                while not any(m.get("type") == "started" for m in seen):
                    left = deadline - time.monotonic()
                    assert left > 0, f"no started; got {seen}"
                    try:
                        seen.append(dict(await asyncio.wait_for(page.next(), left)))
                    except TimeoutError:
                        continue
    finally:
        await _close(a, b)


async def test_presence_said_while_redis_refuses_publishing_is_sent_once_it_takes_it(
        tmp_path, redis):
    a, b = await _services(tmp_path, redis.url, ttl=60.0)
    admin = redis_client(redis.url)
    try:
        table, _ = await a.create("war", 2, nickname="Ann")
        await a.join(table.id, "Bob")
        gid = table.id
        async with a.bus.subscribe(gid), b.bus.subscribe(gid):
            await _eventually(lambda: a.bus._pubsub.subscribed  # type: ignore[attr-defined]
                              and b.bus._pubsub.subscribed)  # type: ignore[attr-defined]
            # the listeners stay connected; every PUBLISH is refused (NOPERM)
            await admin.acl_setuser("default", enabled=True, nopass=True,
                                    categories=["+@all"], commands=["-publish"], keys=["*"],
                                    channels=["*"])
            await a.connect(gid, 0)  # Ann's page opens on a: its presence is refused
            await _eventually(lambda: a.bus._publish_failing)  # type: ignore[attr-defined]
            assert b.online(gid) == set()
            await admin.acl_setuser("default", enabled=True, nopass=True,
                                    categories=["+@all"], keys=["*"], channels=["*"])
            await _eventually(lambda: b.online(gid) == {0})  # sent once Redis takes it
    finally:
        await admin.aclose()
        await _close(a, b)


async def test_presence_dropped_from_a_full_outbox_is_said_again(tmp_path, redis, monkeypatch):
    monkeypatch.setattr(redis_bus, "OUTBOX_CAP", 5)
    a, b = await _services(tmp_path, redis.url, ttl=60.0)
    admin = redis_client(redis.url)
    try:
        table, _ = await a.create("war", 2, nickname="Ann")
        await a.join(table.id, "Bob")
        other, _ = await a.create("war", 2, nickname="Cid")
        gid = table.id
        async with a.bus.subscribe(gid), a.bus.subscribe(other.id), b.bus.subscribe(gid):
            await _eventually(lambda: a.bus._pubsub.subscribed  # type: ignore[attr-defined]
                              and b.bus._pubsub.subscribed)  # type: ignore[attr-defined]
            await admin.acl_setuser("default", enabled=True, nopass=True,
                                    categories=["+@all"], commands=["-publish"], keys=["*"],
                                    channels=["*"])
            await a.connect(gid, 0)  # refused, then pushed out of the outbox by newer ones
            await _eventually(lambda: a.bus._publish_failing)  # type: ignore[attr-defined]
            for n in range(20):
                await a.bus.publish(other.id, {"type": "note", "n": n})
            assert len(a.bus._outbox) <= 5  # type: ignore[attr-defined]
            await admin.acl_setuser("default", enabled=True, nopass=True,
                                    categories=["+@all"], keys=["*"], channels=["*"])
            await _eventually(lambda: b.online(gid) == {0})  # said again
    finally:
        await admin.aclose()
        await _close(a, b)
