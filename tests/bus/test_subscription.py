"""Subscriptions deliver stored events once each, in order, filling gaps from the store."""

from __future__ import annotations

import asyncio

import pytest

from cardwar.bus import LocalBus, Subscription

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _events(*seqs: int) -> list[dict]:
    return [{"type": "flipped", "seq": s} for s in seqs]


class FakeStore:
    def __init__(self, upto: int) -> None:
        self.events = _events(*range(1, upto + 1))
        self.calls: list[int] = []

    async def catch_up(self, game_id: str, seq: int) -> list[dict]:
        self.calls.append(seq)
        return [e for e in self.events if e["seq"] > seq]


async def _take(sub: Subscription, n: int) -> list:
    return [await asyncio.wait_for(sub.next(), 2) for _ in range(n)]


async def test_gaps_are_filled_from_the_store_and_repeats_dropped():
    store = FakeStore(8)
    sub = Subscription("g", catch_up=store.catch_up)
    sub.start_after(2)
    for e in _events(3, 3, 7, 4, 8):  # 5, 6 lost; 3 repeated; 4 late
        sub.put(e)
    got = [m["seq"] for m in await _take(sub, 6)]
    assert got == [3, 4, 5, 6, 7, 8]
    presence = {"type": "presence", "seq": None, "seat": 1, "online": True}
    sub.put(presence)
    assert await sub.next() == presence


async def test_start_after_checks_the_store_once():
    store = FakeStore(4)
    sub = Subscription("g", catch_up=store.catch_up)
    sub.start_after(1)  # events 2..4 were published before the subscription listened
    assert [m["seq"] for m in await _take(sub, 3)] == [2, 3, 4]
    assert store.calls == [1]


async def test_resync_after_a_dropped_connection_finds_what_was_missed():
    store = FakeStore(3)
    sub = Subscription("g", catch_up=store.catch_up)
    sub.start_after(0)
    sub.put(_events(1)[0])
    assert [m["seq"] for m in await _take(sub, 3)] == [1, 2, 3]
    store.events += _events(4, 5)  # published while the transport was down
    sub.resync()
    assert [m["seq"] for m in await _take(sub, 2)] == [4, 5]


async def test_overflow_is_repaired_from_the_store():
    store = FakeStore(6)
    sub = Subscription("g", maxsize=2, catch_up=store.catch_up)
    sub.last = 0
    for e in _events(1, 2, 3, 4, 5, 6):
        sub.put(e)
    assert sub.overflowed
    assert [m["seq"] for m in await _take(sub, 6)] == [1, 2, 3, 4, 5, 6]


async def test_local_bus_without_a_store_passes_events_through():
    bus = LocalBus()
    async with bus.subscribe("g") as sub:
        sub.start_after(0)
        for e in _events(1, 2, 4):
            await bus.publish("g", e)
        assert [m["seq"] for m in await _take(sub, 3)] == [1, 2, 4]
