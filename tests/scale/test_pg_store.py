"""The store on real PostgreSQL: the same Alembic migrations, optimistic writes under races."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from cardwar.store import GameRecord, SeatRecord, StaleWriteError, Store, StoredEvent

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _record(game_id: str = "g1") -> GameRecord:
    return GameRecord(
        id=game_id, variant="peace", players=2, face_down=5, seed="ab" * 32, hands=None,
        commitment="c" * 64, seq=1, status="playing",
        seats=[SeatRecord(0, "human", "Ann", "h" * 64), SeatRecord(1, "human", "Bob")],
    )


async def test_migrations_run_on_postgresql_in_their_own_schema(pg_url):
    stores = [Store(pg_url) for _ in range(3)]
    await asyncio.gather(*(s.migrate() for s in stores))  # processes starting at once
    store = stores[0]
    async with store.engine.connect() as conn:
        version = (await conn.execute(text("select version_num from alembic_version"))).all()
        tables = {r[0] for r in await conn.execute(text(
            "select table_name from information_schema.tables where table_schema = :s"),
            {"s": store.schema})}
    assert len(version) == 1
    assert {"games", "seats", "events", "alembic_version"} <= tables
    for s in stores:
        await s.close()


async def test_racing_saves_of_one_seq_let_exactly_one_win(pg_url):
    store = Store(pg_url)
    await store.migrate()
    await store.create(_record(), [StoredEvent(1, "joined", {"seat": 0})])
    assert await store.count_playing() == 1

    async def attempt(i: int) -> bool:
        rec = await store.load("g1")
        rec.steps, rec.seq = 1, 2
        try:
            await store.save(rec, [StoredEvent(2, "battle", {"by": i})], 1)
        except StaleWriteError:
            return False
        return True

    results = await asyncio.gather(*(attempt(i) for i in range(8)))
    assert sum(results) == 1
    assert [e.seq for e in await store.events_since("g1", 0)] == [1, 2]
    await store.close()


async def test_a_batch_of_games_on_postgresql(pg_url):
    from tests.store.test_group_commit import check_batch

    store = Store(pg_url)
    await store.migrate()
    await check_batch(store)
    await store.close()


async def test_migration_0003_renames_battles_to_steps_keeping_them(pg_url):
    from tests.store.renamed import steps_survive_the_rename

    store = Store(pg_url)
    await steps_survive_the_rename(store, _record())
    await store.close()


async def test_saves_keep_one_connection_and_get_a_new_one_when_it_is_lost(pg_url):
    # the group commit writes on a connection it keeps (no pool checkout per batch);
    # one the server closed is replaced and the save goes through, written once
    store = Store(pg_url)
    await store.migrate()
    await store.create(_record(), [StoredEvent(1, "joined", {"seat": 0})])
    rec = await store.load("g1")

    async def save(seq: int) -> None:
        rec.steps, rec.seq = seq - 1, seq
        await store.save(rec, [StoredEvent(seq, "battle", {"n": seq})], seq - 1)

    await save(2)
    first = store._saver_pg
    await save(3)
    assert store._saver_pg is first  # the same connection for every batch
    async with store.engine.connect() as conn:  # the server drops it (a restart would)
        await conn.execute(text("select pg_terminate_backend(:pid)"),
                           {"pid": first.get_server_pid()})
        await conn.commit()
    await save(4)
    assert store._saver_pg is not first
    assert [e.seq for e in await store.events_since("g1", 0)] == [1, 2, 3, 4]
    await store.close()
    assert store._saver_pg is None
