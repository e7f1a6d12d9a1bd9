"""The store on a real SQLite file: migrations from empty, save/load, optimistic writes."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime, timedelta

import pytest

from cardwar.store import GameRecord, SeatRecord, StaleWriteError, Store, StoredEvent

pytestmark = pytest.mark.anyio


def _record(game_id: str = "g1") -> GameRecord:
    return GameRecord(
        id=game_id, variant="peace", players=2, face_down=5, seed="ab" * 32, hands=None,
        commitment="c" * 64, seq=1,
        seats=[SeatRecord(0, "human", "Ann", "h" * 64), SeatRecord(1)],
    )


async def test_migrations_create_the_file_and_tables(tmp_path):
    path = tmp_path / "sub" / "dir" / "games.db"
    store = Store(f"sqlite+aiosqlite:///{path}")
    await store.migrate()
    await store.migrate()  # idempotent
    await store.close()
    assert path.exists()
    names = {r[0] for r in sqlite3.connect(path).execute(
        "select name from sqlite_master where type='table'")}
    assert {"games", "seats", "events", "alembic_version"} <= names
    version = sqlite3.connect(path).execute("select version_num from alembic_version").fetchone()
    assert version == ("0003",)


async def test_create_load_save_and_events(tmp_path):
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")
    await store.migrate()
    rec = _record()
    await store.create(rec, [StoredEvent(1, "joined", {"seat": 0, "nickname": "Ann"})])
    assert await store.load("nope") is None
    loaded = await store.load("g1")
    assert loaded is not None
    assert loaded.seats[0].nickname == "Ann"
    assert loaded.seats[1].kind == "open"
    loaded.seats[1].kind = "computer"
    loaded.status, loaded.steps, loaded.flipped, loaded.seq = "playing", 3, [1], 3
    await store.save(loaded, [StoredEvent(2, "started", {}), StoredEvent(3, "flipped", {})], 1)
    again = await store.load("g1")
    assert again is not None
    assert (again.status, again.steps, again.flipped, again.seq) == ("playing", 3, [1], 3)
    assert again.seats[1].kind == "computer"
    assert [e.seq for e in await store.events_since("g1", 1)] == [2, 3]
    with pytest.raises(StaleWriteError):
        await store.save(again, [StoredEvent(4, "x", {})], 1)
    assert [e.seq for e in await store.events_since("g1", 0)] == [1, 2, 3]
    await store.close()


async def test_public_games_in_the_lobby_are_listed_without_secrets(tmp_path):
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")
    await store.migrate()
    old = _record("old")
    old.created_at -= timedelta(hours=1)
    for rec, public in ((_record("hidden"), False), (old, True), (_record("open"), True),
                        (_record("started"), True)):
        rec.public, rec.locale = public, "pl"
        await store.create(rec, [])
    started = await store.load("started")
    assert started is not None
    assert started.public
    assert started.locale == "pl"
    started.status = "playing"
    await store.save(started, [], started.seq)
    listed = await store.list_open(datetime.now(UTC) - timedelta(minutes=30), 10)
    assert [r.id for r in listed] == ["open"]
    assert listed[0].locale == "pl"
    assert listed[0].created_at.tzinfo is not None
    assert [s.secret_hash for s in listed[0].seats] == [None, None]
    everything = await store.list_open(datetime.now(UTC) - timedelta(days=1), 10)
    assert [r.id for r in everything] == ["old", "open"]
    assert [r.id for r in await store.list_open(datetime(2000, 1, 1, tzinfo=UTC), 1)] == ["old"]
    await store.close()


async def test_full_tables_and_a_burst_of_new_ones_never_hide_a_table_with_a_free_seat(tmp_path):
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")
    await store.migrate()
    since = datetime.now(UTC) - timedelta(minutes=30)
    waiting = _record("waiting")
    waiting.created_at -= timedelta(minutes=10)
    full = [_record(f"full{i}") for i in range(3)]
    burst = [_record(f"new{i}") for i in range(3)]
    for i, rec in enumerate([waiting, *full, *burst]):
        rec.public = True
        rec.created_at += timedelta(seconds=i)
        if rec in full:
            rec.seats[1] = SeatRecord(1, "human", "Bob", "b" * 64)
        await store.create(rec, [])
    assert [r.id for r in await store.list_open(since, 3)] == ["waiting", "new0", "new1"]
    await store.close()


async def test_migration_0003_renames_battles_to_steps_keeping_them(tmp_path):
    from .renamed import steps_survive_the_rename

    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'games.db'}")
    await steps_survive_the_rename(store, _record())
    await store.close()
