"""Open tables and reactions across two server processes (two table services,
one SQLite store, the in-memory bus double of tests/tables/memory_bus.py)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from cardwar.bus import Subscription
from cardwar.settings import Settings
from cardwar.store import Store
from cardwar.tables import TableError, TableService
from cardwar.tables.listing import CHANNEL, open_table

from .memory_bus import MemoryHub

pytestmark = pytest.mark.anyio


async def _pair(tmp_path, **kw) -> tuple[TableService, TableService]:
    settings = Settings(database=f"sqlite:///{tmp_path / 'games.db'}", flip_timeout=60.0,
                        computer_delay=60.0, gone_after=600.0, **kw)
    store = Store(settings.database)
    await store.migrate()
    hub = MemoryHub()
    return (TableService(store, hub.bus("a"), settings),
            TableService(store, hub.bus("b"), settings))


async def _close(a: TableService, b: TableService) -> None:
    await a.close()
    await b.close()
    await a.store.close()


async def _next(sub: Subscription) -> dict:
    return dict(await asyncio.wait_for(sub.next(), 5))


async def test_a_public_table_is_listed_everywhere_until_it_fills(tmp_path):
    a, b = await _pair(tmp_path)
    async with b.bus.subscribe(CHANNEL) as on_b:
        hidden, _ = await a.create("war", 2, nickname="Ann")       # unlisted: never seen
        table, _ = await a.create("peace", 3, nickname="Ann", public=True, locale="it",
                                  computers=(2,))
        listed = await _next(on_b)
        assert listed["type"] == "listed"
        item = listed["table"]
        assert item["id"] == table.id
        assert item["variant"] == "peace"
        assert (item["players"], item["seated"], item["free"], item["locale"]) == (3, 2, 1, "it")
        assert 0 <= item["waiting"] < 5
        assert item["expires"] > 1700
        assert "Ann" not in str(listed)  # no nickname is listed
        # both processes list it from the store; the unlisted game never
        for service in (a, b):
            assert [t["id"] for t in await service.open_tables.current()] == [table.id]
        await b.join(table.id, "Bob")  # the last free seat, taken on the other process
        assert await _next(on_b) == {"type": "unlisted", "seq": None, "id": table.id}
        assert await a.open_tables.current() == []
        assert hidden.id not in str(await b.open_tables.current())
    await _close(a, b)


async def test_a_listed_table_leaves_when_it_starts_and_plays_quietly(tmp_path):
    a, b = await _pair(tmp_path)
    table, _ = await a.create("war", 4, nickname="Ann", public=True)
    async with a.bus.subscribe(CHANNEL) as on_a:
        await b.join(table.id, "Bob")
        changed = await _next(on_a)
        assert changed["type"] == "listed"
        assert changed["table"]["free"] == 2
        await b.start(table.id, 0)
        assert await _next(on_a) == {"type": "unlisted", "seq": None, "id": table.id}
        await b.flip(table.id, 0)  # a game being played publishes nothing here
        await a.flip(table.id, 1)
        with pytest.raises(TimeoutError):
            await asyncio.wait_for(on_a.next(), 0.3)
    assert await b.open_tables.current() == []
    await _close(a, b)


async def test_a_table_waiting_too_long_leaves_the_list(tmp_path):
    a, b = await _pair(tmp_path, open_table_ttl=600.0)
    table, _ = await a.create("peace", 2, nickname="Ann", public=True)
    later = datetime.now(UTC) + timedelta(seconds=601)
    assert await a.open_tables.current(later) == []
    item = (await a.open_tables.current())[0]
    assert 599 < item["expires"] <= 600
    assert open_table(table.record, later, 600.0) is None
    await _close(a, b)


async def test_reactions_reach_the_other_process_and_are_limited_per_seat(tmp_path):
    a, b = await _pair(tmp_path)
    table, _ = await a.create("peace", 2, nickname="Ann")
    await a.join(table.id, "Bob")
    async with a.bus.subscribe(table.id), b.bus.subscribe(table.id) as on_b:
        await a.reactions.react(await a.get(table.id), 1, "gg")
        assert await _next(on_b) == {"type": "reaction", "seq": None, "seat": 1, "key": "gg"}
        await b.reactions.react(await b.get(table.id), None, "clap", connection=1)
        count = a.reactions.rate[0]
        for _ in range(count - 1):
            await a.reactions.react(await a.get(table.id), 1, "wow")
        with pytest.raises(TableError) as refused:
            await a.reactions.react(await a.get(table.id), 1, "wow")
        assert refused.value.code == "too_many_reactions"
        other, _ = await a.create("war", 2, nickname="Cy", computers=(1,))
        with pytest.raises(TableError) as computer:  # only a human's seat reacts
            await a.reactions.react(other, 1, "gg")
        assert computer.value.code == "not_seated"
    await _close(a, b)
