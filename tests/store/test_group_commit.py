"""Group commit: saves of many games written together, each with its own version check.

``check_batch`` runs against any store; here on a real SQLite file, and from
``tests/scale/test_pg_store.py`` on real PostgreSQL.
"""

from __future__ import annotations

import asyncio

import pytest

from cardwar.store import GameRecord, SeatRecord, StaleWriteError, Store, StoredEvent
from cardwar.store.batch import GroupCommit

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _record(game_id: str) -> GameRecord:
    return GameRecord(
        id=game_id, variant="peace", players=2, face_down=5, seed="ab" * 32, hands=None,
        commitment="c" * 64, seq=1, status="playing",
        seats=[SeatRecord(0, "human", "Ann", "h" * 64), SeatRecord(1)],
    )


async def check_batch(store: Store) -> None:
    """Eight saves at once: six fresh, two stale; one changes a seat. Exactly the
    fresh ones are written, with their events and seats, the stale ones raise."""
    ids = [f"b{i}" for i in range(8)]
    for gid in ids:
        await store.create(_record(gid), [StoredEvent(1, "joined", {"seat": 0})])
    records = [await store.load(gid) for gid in ids]
    data = {"face_up": ["2C", "QH"], "peaces": [[["AS"]]], "name": "Zoë ✓", "n": None}

    async def save(i: int, rec: GameRecord | None) -> str:
        assert rec is not None
        rec.steps, rec.flipped, rec.seq = i + 1, [1], 3
        if i == 2:
            rec.seats[1].kind, rec.seats[1].nickname = "computer", None
        expected = 0 if i in (5, 7) else 1  # 5 and 7 lost their version check
        try:
            await store.save(rec, [StoredEvent(2, "flipped", {"seat": 1}),
                                   StoredEvent(3, "battle", {**data, "i": i})],
                             expected, seats=i == 2)
        except StaleWriteError:
            return "stale"
        return "saved"

    results = await asyncio.gather(*(save(i, r) for i, r in enumerate(records)))
    assert results == ["saved"] * 5 + ["stale", "saved", "stale"]
    for i, gid in enumerate(ids):
        again = await store.load(gid)
        events = await store.events_since(gid, 0)
        assert again is not None
        if results[i] == "stale":
            assert (again.seq, again.steps, again.flipped) == (1, 0, [])
            assert [e.seq for e in events] == [1]
        else:
            assert (again.seq, again.steps, again.flipped) == (3, i + 1, [1])
            assert [(e.seq, e.type) for e in events] == [(1, "joined"), (2, "flipped"),
                                                          (3, "battle")]
            assert events[2].data == {**data, "i": i}
        assert again.seats[1].kind == ("computer" if i == 2 else "open")
        assert again.seats[0].nickname == "Ann"


async def test_a_batch_of_games_on_sqlite(tmp_path):
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")
    await store.migrate()
    await check_batch(store)
    await store.close()


async def test_saves_arriving_together_share_one_write_in_order():
    batches: list[list[int]] = []

    async def write(items: list[int]) -> list[BaseException | None]:
        batches.append(items)
        await asyncio.sleep(0.01)
        return [None if x % 3 else StaleWriteError(str(x)) for x in items]

    commit: GroupCommit[int] = GroupCommit(write, max_batch=4)

    async def submit(x: int) -> str:
        try:
            await commit.submit(x)
        except StaleWriteError:
            return "stale"
        return "ok"

    first = asyncio.create_task(submit(1))
    await asyncio.sleep(0.001)  # 1 is being written: the next ones wait together
    results = await asyncio.gather(first, *(submit(x) for x in range(2, 8)))
    assert batches == [[1], [2, 3, 4, 5], [6, 7]]
    assert results == ["ok", "ok", "stale", "ok", "ok", "stale", "ok"]


async def test_a_failed_write_fails_its_batch_only():
    calls = 0

    async def write(items: list[int]) -> list[BaseException | None]:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise OSError("disk full")
        return [None] * len(items)

    commit: GroupCommit[int] = GroupCommit(write)
    with pytest.raises(OSError, match="disk full"):
        await commit.submit(1)
    await commit.submit(2)  # the next batch is written normally
    assert calls == 2


async def test_sqlite_log_is_checkpointed_in_the_background_and_stays_short(
        tmp_path, monkeypatch):
    from cardwar.store import sqlite as sqlite_module

    monkeypatch.setattr(sqlite_module, "CHECKPOINT_EVERY", 0.05)
    path = tmp_path / "g.db"
    store = Store(f"sqlite+aiosqlite:///{path}")
    await store.migrate()
    ids = [f"w{i}" for i in range(40)]
    records = []
    for gid in ids:
        await store.create(_record(gid), [StoredEvent(1, "joined", {"seat": 0})])
        records.append(await store.load(gid))
    wal = path.with_name(path.name + "-wal")
    sizes = []
    for n in range(2, 32):  # 30 rounds, each a flip event of every game
        async def save(rec: GameRecord, n: int = n) -> None:
            rec.seq = n
            await store.save(rec, [StoredEvent(n, "flipped", {"seat": 0, "battle": n})], n - 1)

        done = store.checkpoints
        await asyncio.gather(*(save(r) for r in records if r is not None))
        for _ in range(250):  # a checkpoint runs between rounds
            if store.checkpoints > done:
                break
            await asyncio.sleep(0.02)
        sizes.append(wal.stat().st_size)
    # the log restarts after each checkpoint: past its high-water mark of the
    # first rounds it does not grow, where without checkpoints every round adds to it
    assert sizes[-1] <= max(sizes[:15]), sizes
    await store.close()
    import sqlite3

    with sqlite3.connect(path) as db:  # everything is in the file, readable by anyone
        assert db.execute("select count(*) from events").fetchone() == (40 * 31,)
        assert db.execute("pragma wal_autocheckpoint").fetchone() == (1000,)  # a new connection
