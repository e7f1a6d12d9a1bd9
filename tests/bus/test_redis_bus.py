"""The Redis bus between two "processes" (two RedisBus objects), on a real Redis.

Skipped without Redis at 127.0.0.1:6379 (the reason is shown); fails instead
when ``CARDWAR_REQUIRE_SERVICES=1`` (CI). Each run uses its own channel prefix.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import secrets

import pytest
from waiting import eventually

from cardwar.bus import Hooks

REDIS_URL = os.environ.get("CARDWAR_TEST_REDIS", "redis://127.0.0.1:6379/0")


def _redis_missing() -> str | None:
    import redis

    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except Exception as exc:  # noqa: BLE001
        return f"Redis at {REDIS_URL} does not answer: {exc!r}"
    return None


MISSING = _redis_missing()
if MISSING and os.environ.get("CARDWAR_REQUIRE_SERVICES") != "1":
    pytestmark = [pytest.mark.scale, pytest.mark.skip(reason=f"scale test skipped: {MISSING}")]
else:
    pytestmark = [pytest.mark.scale]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def prefix() -> str:
    if MISSING:
        pytest.fail(f"CARDWAR_REQUIRE_SERVICES=1 but {MISSING}")
    return f"cwtest-{secrets.token_hex(6)}:"


class Events:
    """A stand-in for the store's events table."""

    def __init__(self) -> None:
        self.rows: list[dict] = []

    def add(self, seq: int) -> dict:
        event = {"type": "flipped", "seq": seq, "seat": 0, "battle": 1, "by": "player"}
        self.rows.append(event)
        return event

    async def catch_up(self, game_id: str, seq: int) -> list[dict]:
        return [e for e in self.rows if e["seq"] > seq]


async def _seqs(sub, n: int) -> list:
    return [(await asyncio.wait_for(sub.next(), 5))["seq"] for _ in range(n)]


async def _kill_listener(bus) -> None:
    """Close the bus's pub/sub connection on the server side (CLIENT KILL by its name)."""
    import redis.asyncio as aioredis

    admin = aioredis.from_url(REDIS_URL)
    for client in await admin.client_list():
        if client.get("name") == f"cw-bus-{bus.origin}":
            await admin.client_kill_filter(_id=client["id"])
    await admin.aclose()


@pytest.mark.anyio
async def test_events_cross_processes_in_order_and_survive_a_dropped_subscription(prefix):
    from cardwar.bus.redis import RedisBus

    store = Events()
    a, b = RedisBus(REDIS_URL, prefix), RedisBus(REDIS_URL, prefix)
    remote: list[int] = []

    async def on_remote(game_id: str, message: dict, origin: str) -> None:
        assert origin == a.origin
        remote.append(message["seq"])

    b.attach(Hooks(catch_up=store.catch_up, on_remote=on_remote))
    a.attach(Hooks(catch_up=store.catch_up))
    async with a.subscribe("g1") as sub_a, b.subscribe("g1") as sub_b:
        sub_a.start_after(0)
        sub_b.start_after(0)
        await asyncio.sleep(0.2)  # b listens
        for seq in (1, 2, 3):
            await a.publish("g1", store.add(seq))
        assert await _seqs(sub_b, 3) == [1, 2, 3]
        assert await _seqs(sub_a, 3) == [1, 2, 3]  # a's own, delivered directly
        # b's service hook sees them too (publishing does not wait for Redis,
        # so sub_b may have read them from the store before they arrived)
        for _ in range(100):
            if len(remote) >= 3:
                break
            await asyncio.sleep(0.05)
        assert remote == [1, 2, 3]

        await _kill_listener(b)  # b's subscription drops...
        for seq in (4, 5):  # ...while these are published (lost by pub/sub)
            await a.publish("g1", store.add(seq))
        assert await _seqs(sub_b, 2) == [4, 5]  # resynced from the store
        for seq in (6, 7):
            await a.publish("g1", store.add(seq))
        assert await _seqs(sub_b, 2) == [6, 7]
        presence = {"type": "presence", "seq": None, "seat": 1, "online": True}
        await a.publish("g1", presence)
        assert await asyncio.wait_for(sub_b.next(), 5) == presence
    assert not b.following("g1")
    await a.close()
    await b.close()


@pytest.mark.anyio
async def test_games_subscribed_at_once_keep_one_liveness_key_task(prefix):
    # the chaos soak's logs: the first sockets of a process subscribe at the same
    # moment, and each started a keep-alive task and a poller (8 at once); close
    # cancelled one, and the others set the liveness key again after it was deleted
    from cardwar.bus.redis import RedisBus

    bus = RedisBus(REDIS_URL, prefix)

    async def follow(game: str, ready: asyncio.Event, done: asyncio.Event) -> None:
        async with bus.subscribe(game):
            ready.set()
            await done.wait()

    done = asyncio.Event()
    ready = [asyncio.Event() for _ in range(8)]
    tasks = [asyncio.create_task(follow(f"g{i}", r, done)) for i, r in enumerate(ready)]
    for r in ready:
        await asyncio.wait_for(r.wait(), 10)
    names = [t.get_name() for t in asyncio.all_tasks()]
    assert names.count("redis-bus-alive") == 1
    assert names.count("redis-bus-poll-while-lost") == 1
    done.set()
    await asyncio.gather(*tasks)
    await bus.close()
    assert not [t for t in asyncio.all_tasks() if t.get_name() == "redis-bus-alive"]
    assert await bus.alive({bus.origin}) == set()  # deleted, and not set again


@pytest.mark.anyio
async def test_only_games_with_subscribers_are_listened_to(prefix):
    from cardwar.bus.redis import RedisBus

    a, b = RedisBus(REDIS_URL, prefix), RedisBus(REDIS_URL, prefix)
    async with b.subscribe("g2") as sub:
        await asyncio.sleep(0.2)
        await a.publish("g3", {"type": "flipped", "seq": 1})
        await a.publish("g2", {"type": "flipped", "seq": 1})
        assert await _seqs(sub, 1) == [1]
        assert b.following("g2")
        assert not b.following("g3")
    await a.close()
    await b.close()


@pytest.mark.anyio
async def test_a_lost_listener_with_nothing_subscribed_waits_instead_of_spinning(
        prefix, caplog):
    from cardwar.bus.redis import RedisBus

    bus = RedisBus(REDIS_URL, prefix, reconnect_delay=0.1)
    async with bus.subscribe("g1"):
        await asyncio.sleep(0.1)
    # nobody follows a game here any more; then the listener's connection drops
    await _kill_listener(bus)
    caplog.set_level("WARNING", logger="cardwar.bus")
    started = asyncio.get_running_loop().time()
    for _ in range(10):  # the event loop keeps running: ten short sleeps take ~0.5 s
        await asyncio.sleep(0.05)
    assert asyncio.get_running_loop().time() - started < 2.0
    lost = [r for r in caplog.records if r.getMessage() == "redis listener lost"]
    assert len(lost) <= 1
    async with bus.subscribe("g2") as sub:  # and it still works afterwards
        sub.start_after(0)
        other = RedisBus(REDIS_URL, prefix)
        for _ in range(50):
            await other.publish("g2", {"type": "presence", "seq": None, "seat": 0,
                                       "online": True})
            try:
                got = await asyncio.wait_for(sub.next(), 0.1)
                break
            except TimeoutError:
                continue
        assert got["type"] == "presence"
        await other.close()
    await asyncio.wait_for(bus.close(), 5)


@pytest.mark.anyio
async def test_an_unreachable_redis_is_retried_calmly(caplog):
    from cardwar.bus.redis import RedisBus

    caplog.set_level("WARNING", logger="cardwar.bus")
    bus = RedisBus("redis://127.0.0.1:1/0", "cw-unreachable:", reconnect_delay=0.05)
    async with bus.subscribe("g1"):
        for _ in range(10):
            await bus.publish("g1", {"type": "presence", "seq": None, "seat": 0,
                                     "online": True})
            await asyncio.sleep(0.05)
        # the publisher and the listener say so from their own tasks: on a loaded
        # machine their first try may come after the loop above (bounded: 10 s)
        for _ in range(200):
            if caplog.records:
                break
            await asyncio.sleep(0.05)
    await asyncio.wait_for(bus.close(), 5)
    warnings = [r.getMessage() for r in caplog.records]
    # (a logger disabled by a test before, as import-linter's run once did
    # (tests/test_imports.py), says nothing at all)
    disabled = logging.getLogger("cardwar.bus").disabled
    assert warnings, f"no warning in 10 s; the bus's logger: disabled={disabled}"
    assert len(warnings) <= 6, warnings  # a few lines per outage, not thousands


@pytest.mark.anyio
async def test_limits_count_once_for_every_process_in_redis(prefix):
    # issue 24, item 5: two processes on one Redis allow a limit once, not twice
    from cardwar.bus.redis import RedisBus

    a, b = RedisBus(REDIS_URL, prefix), RedisBus(REDIS_URL, prefix)
    try:
        waits = [await (a, b)[i % 2].limiter.hit("join:10.0.0.1", 3, 60.0) for i in range(5)]
        assert waits[:3] == [0.0, 0.0, 0.0]
        assert 19.0 < waits[3] <= 20.0
        assert 19.0 < waits[4] <= 20.0  # one more in 20 s
        assert await a.limiter.hit("join:10.0.0.2", 3, 60.0) == 0.0  # another address
    finally:
        await a.close()
        await b.close()


@pytest.mark.anyio
async def test_subscribing_after_a_quiet_spell_with_nothing_subscribed_works(prefix, monkeypatch):
    """The last game unsubscribed, the link quiet past its health check, then a
    new game: its subscribe must not race the listener for the socket (redis-py
    would PING and read on the connection the listener is reading, and raise
    'read() called while another coroutine is already waiting')."""
    import cardwar.bus.redis as bus_redis

    monkeypatch.setattr(bus_redis, "HEALTH_CHECK", 0.2)
    a, b = bus_redis.RedisBus(REDIS_URL, prefix), bus_redis.RedisBus(REDIS_URL, prefix)
    async with b.subscribe("q1"):
        await asyncio.sleep(0.1)
    for n in range(3):  # each time: nothing subscribed, quiet past the health check
        await asyncio.sleep(0.5)
        async with b.subscribe(f"q{n + 2}") as sub:
            sub.start_after(0)
            assert b.following(f"q{n + 2}")
            await asyncio.sleep(0.2)  # b listens (Redis confirms the subscription)
            await a.publish(f"q{n + 2}", {"type": "flipped", "seq": 1})
            assert await _seqs(sub, 1) == [1]
    assert not b.lost
    await a.close()
    await b.close()


@pytest.mark.anyio
async def test_back_after_a_loss_presence_is_said_without_waiting_for_the_liveness_key(
        prefix, monkeypatch):
    # the chaos soak (6 December, a Redis restart at a load average of 20): the
    # listener was back 1.8 s before the hellos went out, the SET of the liveness
    # key waiting for redis-py's retries on a connection the restart killed; pages
    # shown a player offline waited that long more for the answers
    from cardwar.bus.redis import RedisBus

    bus = RedisBus(REDIS_URL, prefix)
    refreshing, release = asyncio.Event(), asyncio.Event()

    async def slow_refresh() -> None:
        refreshing.set()
        await release.wait()

    said = asyncio.Event()

    async def on_back() -> None:
        said.set()

    async def hold() -> None:  # nothing is sent: the outbox is looked at
        return None

    monkeypatch.setattr(bus, "_refresh_alive", slow_refresh)
    monkeypatch.setattr(bus, "_send_all", hold)
    bus.attach(Hooks(on_back=on_back))
    bus._subs["g1"] = set()
    back = asyncio.create_task(bus._say_again())
    await asyncio.wait_for(said.wait(), 5)  # presence said ...
    assert [c for c, *_ in bus._outbox] == [f"{prefix}g:g1"]  # ... and the hello queued
    assert '"c":"hello"' in bus._outbox[0][1].replace(" ", "")
    await asyncio.wait_for(refreshing.wait(), 5)  # the key is set again too
    release.set()
    await back
    bus._subs.clear()
    await bus.close()



async def _held_back(bus, store) -> None:
    """Once ``bus``'s subscription to g1 is confirmed, publish event 1 and wait until
    it reached only that subscription: g1's next stored events stay in the process."""
    await eventually(lambda: "g1" in bus._confirmed)
    await bus.publish("g1", store.add(1))
    await eventually(lambda: not bus.publishing("g1"))


@pytest.mark.anyio
async def test_events_nobody_else_listens_to_stay_here_until_another_process_follows(prefix):
    # one owner per game (issue 23): an event that only comes back to its own
    # publisher is not sent; a process that starts to follow gets every event
    from cardwar.bus.redis import RedisBus

    store = Events()
    a, b = RedisBus(REDIS_URL, prefix), RedisBus(REDIS_URL, prefix)
    a.attach(Hooks(catch_up=store.catch_up))
    b.attach(Hooks(catch_up=store.catch_up))
    async with a.subscribe("g1") as sub_a:
        sub_a.start_after(0)
        await _held_back(a, store)
        sent = a.sent
        for seq in (2, 3):
            await a.publish("g1", store.add(seq))
        await a.publish("g1", {"type": "idle", "seq": None, "battle": 2, "left": 10.0})
        await asyncio.sleep(0.1)
        assert a.sent == sent  # not sent to Redis, nor the idle clock...
        assert await _seqs(sub_a, 3) == [1, 2, 3]  # ...and delivered here all the same
        assert (await asyncio.wait_for(sub_a.next(), 5))["type"] == "idle"

        async with b.subscribe("g1") as sub_b:
            sub_b.start_after(1)  # a snapshot at seq 1, as a page would have
            assert await _seqs(sub_b, 2) == [2, 3]
            await eventually(lambda: a.publishing("g1"))  # b's hello was heard
            await a.publish("g1", store.add(4))
            assert await _seqs(sub_b, 1) == [4]
            assert a.publishing("g1")  # 4 reached b too
            presence = {"type": "presence", "seq": None, "seat": 1, "online": True}
            await a.publish("g1", presence)  # never held back
            assert await asyncio.wait_for(sub_b.next(), 5) == presence
        # b gone: the next event reaches only a, which stops sending again
        await a.publish("g1", store.add(5))
        await eventually(lambda: not a.publishing("g1"))
    assert a.publishing("g1")  # nobody follows it here any more: a writer sends
    await a.close()
    await b.close()


@pytest.mark.anyio
async def test_the_last_event_held_back_goes_out_when_another_process_is_heard(prefix):
    # a newcomer that read the game from the store before the owner heard its
    # hello gets the owner's last event at once (and fills any gap from the store)
    import redis.asyncio as aioredis

    from cardwar.bus.redis import RedisBus

    store = Events()
    a, b = RedisBus(REDIS_URL, prefix), RedisBus(REDIS_URL, prefix)
    a.attach(Hooks(catch_up=store.catch_up))
    async with a.subscribe("g1"):
        await _held_back(a, store)
        raw = aioredis.from_url(REDIS_URL)
        listener = raw.pubsub()
        await listener.subscribe(a.channel("g1"))  # a does not know of it yet
        await listener.get_message(timeout=1)  # the subscribe confirmation
        for seq in (2, 3):
            await a.publish("g1", store.add(seq))  # held back
        assert await listener.get_message(ignore_subscribe_messages=True, timeout=0.3) is None
        await b.ask("g1")  # another process says hello on the channel
        got = None
        for _ in range(50):
            got = await listener.get_message(ignore_subscribe_messages=True, timeout=0.1)
            if got is not None and b.origin not in got["data"].decode():
                break
        assert got is not None
        assert json.loads(got["data"])["m"]["seq"] == 3
        assert a.publishing("g1")
        await listener.aclose()
        await raw.aclose()
    await a.close()
    await b.close()
