"""The check of migration 0003 (``battles`` renamed ``steps``), on any store:
tests/store/test_store.py runs it on SQLite, tests/scale/test_pg_store.py on PostgreSQL."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from sqlalchemy import text
from sqlalchemy.engine import Connection

from cardwar.store import GameRecord, Store, StoredEvent
from cardwar.store.store import MIGRATIONS


async def _alembic(store: Store, step: str, revision: str) -> None:
    def run(connection: Connection) -> None:
        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        cfg.attributes["connection"] = connection
        getattr(command, step)(cfg, revision)

    async with store.engine.begin() as conn:
        await conn.run_sync(run)


async def steps_survive_the_rename(store: Store, record: GameRecord) -> None:
    """A game's progress kept through 0003's downgrade (the column is ``battles``
    again) and its upgrade (``steps``)."""
    await store.migrate()
    record.status, record.steps = "playing", 4
    await store.create(record, [StoredEvent(1, "joined", {"seat": 0})])
    await _alembic(store, "downgrade", "0002")
    async with store.engine.connect() as conn:
        old = (await conn.execute(text("select battles from games where id = :i"),
                                  {"i": record.id})).scalar_one()
    assert old == 4
    await _alembic(store, "upgrade", "head")
    again = await store.load(record.id)
    assert again is not None
    assert again.steps == 4
