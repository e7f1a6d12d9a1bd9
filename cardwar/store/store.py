"""The :class:`Store`: load and save games, seats and numbered events.

It implements :class:`cardwar.tables.records.GameStore`; the shapes it keeps
(:class:`GameRecord`, :class:`SeatRecord`, :class:`StoredEvent`) live there,
so the table service never imports SQLAlchemy.

Writes are optimistic: :meth:`Store.save` only succeeds when the stored
``seq`` is still the one the caller loaded, so two processes can never both
play the same battle (issue 6 builds on this).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import asyncpg  # type: ignore[import-untyped]
from alembic import command
from alembic.config import Config
from sqlalchemy import (
    Connection,
    delete,
    event,
    func,
    select,
    text,
    update,
)
from sqlalchemy import exc as sa_exc
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    async_sessionmaker,
    create_async_engine,
)

from cardwar.tables.records import GameRecord, SeatRecord, StaleWriteError, StoredEvent

from .batch import GroupCommit
from .models import EventRow, GameRow, SeatRow
from .sqlite import SqliteWriter, sqlite_pragmas
from .writes import PendingSave, write_postgres

__all__ = ["GameRecord", "SeatRecord", "StaleWriteError", "Store", "StoredEvent", "drop_schema"]

log = logging.getLogger("cardwar.store")

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


#: Tries of a database operation whose connection was lost (e.g. PostgreSQL
#: restarted): the pool's dead connections are dropped and it is tried again.
RECONNECT_TRIES = 6
#: Seconds before the first retry (doubled each time: a restart takes a moment;
#: 7.75 s in all, more than a ``pg_ctl restart`` takes).
RECONNECT_DELAY = 0.25

T = TypeVar("T")

#: The status of a game kept only as a tombstone (:meth:`Store.retire`).
EXPIRED = "expired"


#: What asyncpg raises when the connection, not the statement, failed: lost
#: (``ConnectionDoesNotExistError`` and the other connection errors, class 08),
#: the server going down or starting up (``AdminShutdownError``,
#: ``CrashShutdownError``, ``CannotConnectNowError``) or a connection left
#: half-way through an operation by a restart (``InterfaceError`` / ``InternalClientError``
#: "another operation is in progress").
LOST_CONNECTION: tuple[type[BaseException], ...] = (
    ConnectionError, OSError, asyncpg.exceptions.PostgresConnectionError,
    asyncpg.exceptions.InterfaceError, asyncpg.exceptions.InternalClientError,
    asyncpg.exceptions.CannotConnectNowError, asyncpg.exceptions.AdminShutdownError,
    asyncpg.exceptions.CrashShutdownError)


def disconnected(exc: BaseException, _depth: int = 0) -> bool:
    """True when ``exc`` says the database connection was lost or refused
    (a restarted server), not that the statement was wrong.

    SQLAlchemy hands asyncpg's errors on translated (a ``DBAPIError`` whose
    ``orig`` is its adapter's error, raised from asyncpg's), and the group
    commit raises them straight from the driver: the chain of ``orig`` and
    ``__cause__`` is followed to the driver's error (:data:`LOST_CONNECTION`).
    """
    if isinstance(exc, DBAPIError) and (exc.connection_invalidated or isinstance(
            exc, (sa_exc.InterfaceError, sa_exc.OperationalError))):
        return True
    if isinstance(exc, LOST_CONNECTION):
        return True
    if _depth >= 5:
        return False
    inner = [getattr(exc, "orig", None), exc.__cause__]
    return any(e is not None and e is not exc and disconnected(e, _depth + 1) for e in inner)


#: The async driver of each database the store supports.
ASYNC_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg"}


def async_url(url: str) -> URL:
    """Parse the database ``url``, giving it the async driver the store uses:
    ``postgresql://...`` (or ``postgresql+psycopg2://...``) becomes
    ``postgresql+asyncpg://...``, ``sqlite:///...`` becomes ``sqlite+aiosqlite:///...``.

    Raises:
        ValueError: not a database URL, not SQLite nor PostgreSQL, or an
            in-memory SQLite database (each connection would see its own).
    """
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise ValueError(f"not a database URL: {url!r}") from None
    driver = ASYNC_DRIVERS.get(parsed.get_backend_name())
    if driver is None:
        raise ValueError(f"unsupported database {parsed.get_backend_name()!r} "
                         "(use sqlite:///PATH or postgresql://USER@HOST/DB)")
    if parsed.get_backend_name() == "sqlite" and parsed.database in (None, "", ":memory:"):
        raise ValueError("give the SQLite file, e.g. sqlite:///./var/cardwar.db "
                         "(games in memory would be lost)")
    return parsed.set(drivername=driver)


def _sqlite_dir(url: str) -> None:
    parsed = async_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database:
        Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)


class Store:
    """Games in a SQL database.

    Args:
        url: a SQLAlchemy URL, e.g. ``sqlite:///./var/cardwar.db`` or
            ``postgresql://user@host/db``; the async driver is set by
            :func:`async_url` (``aiosqlite``, ``asyncpg``). A SQLite file's folder is
            created if missing. On PostgreSQL, ``?search_path=NAME`` keeps the
            tables in schema ``NAME`` (created by :meth:`migrate` if missing),
            e.g. to share one database between sites or test runs.
        pool_size: connections kept open on PostgreSQL (plus as many overflow).

    Raises:
        ValueError: not a SQLite or PostgreSQL URL (see :func:`async_url`).
    """

    def __init__(self, url: str, pool_size: int = 10) -> None:
        _sqlite_dir(url)
        self.url = url
        parsed = async_url(url)
        self.schema: str | None = None
        kwargs: dict[str, Any] = {}
        if parsed.get_backend_name() == "postgresql":
            self.schema = parsed.query.get("search_path")  # type: ignore[assignment]
            parsed = parsed.difference_update_query(["search_path"])
            # no pre-ping (a round trip per checkout); recycle idle connections instead
            kwargs = {"pool_size": pool_size, "max_overflow": pool_size,
                      "pool_recycle": 1800}
            if self.schema:
                if not self.schema.replace("_", "").isalnum():
                    raise ValueError(f"bad search_path {self.schema!r}")
                kwargs["connect_args"] = {"server_settings": {"search_path": self.schema}}
        elif parsed.get_backend_name() == "sqlite":
            # a fixed pool: overflow connections (one thread each) were opened and
            # closed again and again under load
            kwargs = {"pool_size": 5, "max_overflow": 0}
        self.engine: AsyncEngine = create_async_engine(parsed, **kwargs)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine.sync_engine, "connect", sqlite_pragmas)
        self._sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        # SQLite has one writer at a time: writers queue here rather than
        # sleep in SQLite's busy handler (which made latency spike under load).
        self._write_lock: asyncio.Lock | contextlib.AbstractAsyncContextManager[None] = (
            asyncio.Lock() if self.engine.dialect.name == "sqlite"
            else contextlib.nullcontext())
        # Saves are group-committed; a SQLite file's batches go to its writer thread.
        self._sqlite: SqliteWriter | None = None
        if parsed.get_backend_name() == "sqlite":
            self._sqlite = SqliteWriter(parsed.set(drivername="sqlite"))
        self._saves: GroupCommit[PendingSave] = GroupCommit(self._write_batch, self._write_lock)
        #: PostgreSQL: the connection the saves are written on, kept out of the pool
        #: (the group commit writes one batch at a time; a checkout and return per
        #: batch cost about 0.1 ms of CPU, a tenth of a flip), and its asyncpg one
        self._saver: AsyncConnection | None = None
        self._saver_pg: Any = None

    @property
    def checkpoints(self) -> int:
        """Background WAL checkpoints run so far (a SQLite file; always 0 otherwise)."""
        return self._sqlite.checkpoints if self._sqlite is not None else 0

    async def migrate(self) -> None:
        """Bring the schema up to the newest Alembic revision (idempotent)."""

        def upgrade(connection: Connection) -> None:
            cfg = Config()
            cfg.set_main_option("script_location", str(MIGRATIONS))
            cfg.attributes["connection"] = connection
            command.upgrade(cfg, "head")

        async with self.engine.begin() as conn:
            if self.engine.dialect.name == "postgresql":
                # several processes starting at once: one migrates, the others wait
                await conn.execute(text("SELECT pg_advisory_xact_lock(7283460912)"))
            if self.schema:
                await conn.execute(text(f'CREATE SCHEMA IF NOT EXISTS "{self.schema}"'))
            await conn.run_sync(upgrade)

    async def close(self) -> None:
        """Finish the queued saves and release the connection pools."""
        await self._saves.close()
        if self._saver is not None:
            conn, self._saver, self._saver_pg = self._saver, None, None
            with contextlib.suppress(Exception):
                await conn.close()
        if self._sqlite is not None:
            await self._sqlite.close()
        await self.engine.dispose()

    async def _reconnecting(self, operation: Callable[[], Awaitable[T]]) -> T:
        """Run ``operation()``; when the database connection was lost, drop the
        pool's connections and try again (:data:`RECONNECT_TRIES` in all)."""
        delay = RECONNECT_DELAY
        for attempt in range(1, RECONNECT_TRIES + 1):
            try:
                return await operation()
            except Exception as exc:
                if attempt == RECONNECT_TRIES or not disconnected(exc):
                    raise
                log.warning("database connection lost; trying again",
                            extra={"attempt": attempt, "error": repr(exc)})
                await self.engine.dispose(close=False)  # every pooled connection is dead
                await asyncio.sleep(delay)
                delay *= 2
        raise AssertionError("unreachable")

    async def _write_batch(self, batch: list[PendingSave]) -> list[BaseException | None]:
        """Write the saves of ``batch`` in one transaction, games in id order
        (so two processes' batches lock rows in the same order: no deadlock)."""
        order = sorted(range(len(batch)), key=lambda i: batch[i].game_id)
        ordered = [batch[i] for i in order]
        if self._sqlite is not None:
            outcomes = await self._sqlite.write(ordered)
        else:
            async def write() -> list[BaseException | None]:
                pg = await self._save_connection()
                try:
                    return await write_postgres(pg, ordered)  # no transaction: one statement
                except BaseException:
                    await self._drop_save_connection()  # lost, or left mid-statement
                    raise

            # a lost connection: one statement, so either all of it or nothing was
            # written; written, the retry loses its version checks (StaleWriteError)
            outcomes = await self._reconnecting(write)
        result: list[BaseException | None] = [None] * len(batch)
        for i, outcome in zip(order, outcomes, strict=True):
            result[i] = outcome
        return result

    async def _save_connection(self) -> Any:
        """The asyncpg connection saves are written on (see ``_saver``), opened
        on first use and again after :meth:`_drop_save_connection`."""
        if self._saver_pg is None:
            conn = await self.engine.connect()
            try:
                raw = await conn.get_raw_connection()
            except BaseException:
                with contextlib.suppress(Exception):
                    await conn.close()
                raise
            self._saver, self._saver_pg = conn, raw.driver_connection
        return self._saver_pg

    async def _drop_save_connection(self) -> None:
        """Forget the save connection (a lost one, or one a cancelled save left
        mid-statement); the next save opens another."""
        conn, self._saver, self._saver_pg = self._saver, None, None
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.invalidate()

    async def create(self, game: GameRecord, events: list[StoredEvent]) -> None:
        """Insert a new game with its seats and first events.

        A lost connection is tried again on a new one (the insert is one
        transaction: it was written whole or not at all).

        Raises:
            sqlalchemy.exc.IntegrityError: a game with this id exists.
        """
        await self._reconnecting(lambda: self._create(game, events))

    async def _create(self, game: GameRecord, events: list[StoredEvent]) -> None:
        now = datetime.now(UTC)
        async with self._write_lock, self._sessions.begin() as session:
            session.add(GameRow(
                id=game.id, variant=game.variant, players=game.players,
                face_down=game.face_down, seed=game.seed, hands=game.hands,
                commitment=game.commitment, status=game.status, steps=game.steps,
                flipped=list(game.flipped), seq=game.seq, created_at=game.created_at,
                updated_at=now, public=game.public, locale=game.locale,
            ))
            await session.flush()
            for s in game.seats:
                session.add(SeatRow(game_id=game.id, seat=s.seat, kind=s.kind,
                                    nickname=s.nickname, secret_hash=s.secret_hash,
                                    auto_flip=s.auto_flip))
            for e in events:
                session.add(EventRow(game_id=game.id, seq=e.seq, type=e.type, data=e.data,
                                     created_at=now))

    async def load(self, game_id: str) -> GameRecord | None:
        """Return the game ``game_id`` with its seats, or None if there is none."""
        return await self._reconnecting(lambda: self._load(game_id))

    async def _load(self, game_id: str) -> GameRecord | None:
        async with self._sessions() as session:
            row = await session.get(GameRow, game_id)
            if row is None or row.status == EXPIRED:
                return None
            seats = (await session.scalars(
                select(SeatRow).where(SeatRow.game_id == game_id).order_by(SeatRow.seat)
            )).all()
            return _record(row, seats)

    async def list_open(self, since: datetime, limit: int) -> list[GameRecord]:
        """Public games in the lobby with a free seat, created at ``since`` or
        later, the longest waiting first (so a burst of new tables never pushes
        the older ones off the page), at most ``limit``, with their seats
        (secret hashes left out)."""
        async with self._sessions() as session:
            rows = (await session.scalars(
                select(GameRow)
                .where(GameRow.public.is_(True), GameRow.status == "lobby",
                       GameRow.created_at >= since,
                       select(SeatRow.seat).where(SeatRow.game_id == GameRow.id,
                                                  SeatRow.kind == "open").exists())
                .order_by(GameRow.created_at, GameRow.id).limit(limit)
            )).all()
            if not rows:
                return []
            seats = (await session.scalars(
                select(SeatRow).where(SeatRow.game_id.in_([r.id for r in rows]))
                .order_by(SeatRow.game_id, SeatRow.seat)
            )).all()
        by_game: dict[str, list[SeatRow]] = {}
        for s in seats:
            by_game.setdefault(s.game_id, []).append(s)
        return [_record(r, by_game.get(r.id, []), secrets=False) for r in rows]

    async def save(self, game: GameRecord, events: list[StoredEvent], expected_seq: int,
                   *, seats: bool = True) -> None:
        """Write ``game`` (progress and seats) and append ``events`` atomically.

        The hot path of play (one call per flip): saves arriving together are
        written in one transaction (group commit, :mod:`cardwar.store.batch`)
        with prepared Core statements rather than ORM units of work; this
        returns once the save is committed.

        Args:
            game: the game after the change; ``game.seq`` is the new last seq.
            events: the new events, numbered ``expected_seq + 1 ..``.
            expected_seq: the ``seq`` the caller loaded.
            seats: False when no seat changed (flips and battles): skips their update.

        Raises:
            StaleWriteError: the stored ``seq`` is no longer ``expected_seq``.
        """
        await self._saves.submit(PendingSave(
            game.id, expected_seq, game.status, game.steps, list(game.flipped), game.seq,
            datetime.now(UTC),
            [(s.seat, s.kind, s.nickname, s.secret_hash, s.auto_flip) for s in game.seats]
            if seats else [],
            [(e.seq, e.type, e.data) for e in events]))

    async def remove(self, game_ids: list[str]) -> int:
        """Delete the games ``game_ids`` with their seats and events.

        Returns:
            How many games were deleted.
        """
        if not game_ids:
            return 0
        async with self._write_lock, self._sessions.begin() as session:
            for row in (EventRow, SeatRow):
                await session.execute(delete(row).where(row.game_id.in_(game_ids)))
            done = await session.execute(delete(GameRow).where(GameRow.id.in_(game_ids)))
            return int(getattr(done, "rowcount", 0) or 0)

    async def retire(self, game_ids: list[str]) -> int:
        """Delete the seats and events of ``game_ids`` and keep each game's row as a
        tombstone (status ``expired``, seed and hands forgotten): its link says it
        expired, not that it never existed.

        Returns:
            How many games were retired.
        """
        if not game_ids:
            return 0
        async with self._write_lock, self._sessions.begin() as session:
            for row in (EventRow, SeatRow):
                await session.execute(delete(row).where(row.game_id.in_(game_ids)))
            done = await session.execute(
                update(GameRow).where(GameRow.id.in_(game_ids), GameRow.status != EXPIRED)
                .values(status=EXPIRED, seed=None, hands=None, updated_at=datetime.now(UTC)))
            return int(getattr(done, "rowcount", 0) or 0)

    async def tombstones(self, before: datetime, limit: int) -> list[str]:
        """Up to ``limit`` ids of games retired (:meth:`retire`) before ``before``."""
        async with self._sessions() as session:
            return list((await session.scalars(
                select(GameRow.id).where(GameRow.status == EXPIRED,
                                         GameRow.updated_at < before).limit(limit))).all())

    async def was_expired(self, game_id: str) -> bool:
        """True when ``game_id`` was retired (:meth:`retire`)."""
        async def query() -> bool:
            async with self._sessions() as session:
                return bool(await session.scalar(select(GameRow.id).where(
                    GameRow.id == game_id, GameRow.status == EXPIRED)))
        return await self._reconnecting(query)

    async def touch(self, game_ids: list[str]) -> None:
        """Set ``updated_at`` of the games of ``game_ids`` still in the lobby to now
        (a page opened or closed there): their lobby expiry counts from now."""
        if not game_ids:
            return
        async with self._write_lock, self._sessions.begin() as session:
            await session.execute(
                update(GameRow).where(GameRow.id.in_(game_ids), GameRow.status == "lobby")
                .values(updated_at=datetime.now(UTC)))

    async def expired(self, lobby_before: datetime, over_before: datetime | None,
                      limit: int) -> list[str]:
        """Up to ``limit`` ids of games still in the lobby last active (created,
        changed or touched) before ``lobby_before``, and of finished games last
        changed before ``over_before`` (None: finished games are kept)."""
        expired = (GameRow.status == "lobby") & (GameRow.updated_at < lobby_before)
        if over_before is not None:
            expired = expired | ((GameRow.status == "over") & (GameRow.updated_at < over_before))
        async with self._sessions() as session:
            return list((await session.scalars(
                select(GameRow.id).where(expired).limit(limit))).all())

    async def count_playing(self) -> int:
        """How many games are being played now (started, not over), site-wide."""
        async with self._sessions() as session:
            n = await session.scalar(
                select(func.count()).select_from(GameRow).where(GameRow.status == "playing"))
            return int(n or 0)

    async def events_since(self, game_id: str, seq: int) -> list[StoredEvent]:
        """Return the events of ``game_id`` numbered above ``seq``, in order."""
        return await self._reconnecting(lambda: self._events_since(game_id, seq))

    async def _events_since(self, game_id: str, seq: int) -> list[StoredEvent]:
        async with self._sessions() as session:
            rows = (await session.scalars(
                select(EventRow)
                .where(EventRow.game_id == game_id, EventRow.seq > seq)
                .order_by(EventRow.seq)
            )).all()
            return [StoredEvent(r.seq, r.type, dict(r.data)) for r in rows]


def _record(row: GameRow, seats: Sequence[SeatRow], secrets: bool = True) -> GameRecord:
    """The :class:`GameRecord` of ``row`` and its ``seats`` (``secrets``: with the
    seats' secret hashes)."""
    return GameRecord(
        id=row.id, variant=row.variant, players=row.players, face_down=row.face_down,
        seed=row.seed, hands=row.hands, commitment=row.commitment, status=row.status,
        steps=row.steps, flipped=list(row.flipped or []), seq=row.seq,
        created_at=_aware(row.created_at), public=bool(row.public),
        locale=row.locale or "en", updated_at=_aware(row.updated_at),
        seats=[SeatRecord(seat=s.seat, kind=s.kind, nickname=s.nickname,
                          secret_hash=s.secret_hash if secrets else None,
                          auto_flip=s.auto_flip)
               for s in seats],
    )


def _aware(moment: datetime) -> datetime:
    """``moment`` with a time zone (SQLite gives back naive UTC times)."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


async def drop_schema(url: str, schema: str) -> None:
    """Drop PostgreSQL ``schema`` (a ``?search_path=`` of :class:`Store`) and all in it.

    For test and benchmark runs that keep their tables in a schema of their own.
    """
    engine = create_async_engine(url)
    async with engine.begin() as conn:
        await conn.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
    await engine.dispose()
