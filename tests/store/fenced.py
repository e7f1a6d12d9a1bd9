"""The owner-token fence of :meth:`Store.save` (migration 0004), on any store:
tests/store/test_store.py runs it on SQLite, tests/scale/test_pg_store.py on PostgreSQL."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from cardwar.store import GameRecord, StaleWriteError, Store, StoredEvent
from cardwar.tables import FencedWriteError


async def _stored_token(store: Store, game_id: str) -> int:
    async with store.engine.connect() as conn:
        return int((await conn.execute(text("select owner_token from games where id = :i"),
                                       {"i": game_id})).scalar_one())


async def _flip(store: Store, game_id: str, by: str, token: int | None) -> None:
    """Load ``game_id`` (so its ``seq`` check holds) and save one more event as ``by``."""
    record = await store.load(game_id)
    assert record is not None
    before = record.seq
    record.seq, record.steps = before + 1, record.steps + 1
    await store.save(record, [StoredEvent(before + 1, "battle", {"by": by})], before,
                     seats=False, owner_token=token)


async def old_owner_is_fenced(store: Store, record: GameRecord) -> None:
    """An old owner (token 1) whose lease ran out cannot write over the new
    owner's (token 2) flips, even with a current ``seq``; a write as no owner
    (None) and the new owner's own writes go through, and the token only grows."""
    await store.migrate()
    await store.create(record, [StoredEvent(1, "joined", {"seat": 0})])
    assert await _stored_token(store, record.id) == 0
    await _flip(store, record.id, "old", 1)
    await _flip(store, record.id, "new", 2)
    assert await _stored_token(store, record.id) == 2
    with pytest.raises(FencedWriteError):
        await _flip(store, record.id, "old", 1)
    assert issubclass(FencedWriteError, StaleWriteError)  # handled like a lost seq check
    await _flip(store, record.id, "elsewhere", None)  # not the owner's: seq alone
    await _flip(store, record.id, "new", 2)
    kept = [(e.seq, e.data.get("by")) for e in await store.events_since(record.id, 1)]
    assert kept == [(2, "old"), (3, "new"), (4, "elsewhere"), (5, "new")]
    loaded = await store.load(record.id)
    assert loaded is not None
    assert (loaded.seq, loaded.owner_token) == (5, 2)
    # a stale seq with a good token is still a plain stale write, not a fence
    loaded.seq = 6
    with pytest.raises(StaleWriteError) as stale:
        await store.save(loaded, [StoredEvent(6, "battle", {})], 4, owner_token=3)
    assert not isinstance(stale.value, FencedWriteError)
    assert await _stored_token(store, record.id) == 2
