"""Writing a batch of saves (the hot path of play), on PostgreSQL and on SQLite.

A :class:`PendingSave` is one game's change: its progress, maybe its seats,
and its new events. A batch of them is written in one transaction, each
game's row updated only if its ``seq`` is still the one the change started
from (an optimistic version check). A save that loses the check writes
nothing and reports :class:`StaleWriteError`; the rest of the batch commits.

* :func:`write_postgres` - a whole batch in one statement (one round trip,
  its own transaction) on the asyncpg connection, whatever its size: lock
  the games' rows in id order (two processes' batches never deadlock),
  update them from ``unnest(..)`` arrays returning the ids whose version
  check held, then update those games' seats and insert their events.
  Awaiting one statement per save instead made a batch as slow as the
  busy event loop, once per save.
* :func:`write_sqlite` - the same rows through the plain ``sqlite3`` driver
  (called in the store's writer thread): its C code runs without holding
  the GIL, so the event loop keeps going while a batch is written. Values
  are stored exactly as SQLAlchemy stores them (JSON text, SQLAlchemy's
  SQLite ``DATETIME`` string), so the ORM reads them back unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import orjson

from cardwar.tables.records import StaleWriteError

from .models import EventRow, GameRow, SeatRow

_GAMES, _SEATS, _EVENTS = GameRow.__tablename__, SeatRow.__tablename__, EventRow.__tablename__
_SQLITE_SAVE_GAME = (f"UPDATE {_GAMES} SET status = ?, steps = ?, flipped = ?, seq = ?, "
                     "updated_at = ? WHERE id = ? AND seq = ?")
_SQLITE_SAVE_SEAT = (f"UPDATE {_SEATS} SET kind = ?, nickname = ?, secret_hash = ?, "
                     "auto_flip = ? WHERE game_id = ? AND seat = ?")
_SQLITE_EVENT = (f"INSERT INTO {_EVENTS} (game_id, seq, type, data, created_at) "
                 "VALUES (?, ?, ?, ?, ?)")
#: SQLAlchemy's storage format for a SQLite DATETIME.
_SQLITE_TIME = "%Y-%m-%d %H:%M:%S.%f"


def _json(value: Any) -> str:
    """``value`` as JSON text (orjson: a battle's row in a microsecond, not ten)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


@dataclass(frozen=True, slots=True)
class PendingSave:
    """One game's save, its values copied when it was asked for.

    ``seats``: ``(seat, kind, nickname, secret_hash, auto_flip)`` for every
    seat, or empty when no seat changed. ``events``: ``(seq, type, data)``.
    """

    game_id: str
    expected_seq: int
    status: str
    steps: int
    flipped: list[int]
    seq: int
    now: datetime
    seats: list[tuple[int, str, str | None, str | None, bool]]
    events: list[tuple[int, str, dict[str, Any]]]


def _stale(save: PendingSave) -> StaleWriteError:
    return StaleWriteError(f"game {save.game_id} changed since seq {save.expected_seq}")


_PG_SAVE = f"""
WITH v AS MATERIALIZED (
  SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::int[], $5::text[], $6::int[])
         AS v(id, expected, status, steps, flipped, seq)),
locked AS MATERIALIZED (
  SELECT g.id FROM {_GAMES} g WHERE g.id IN (SELECT id FROM v) ORDER BY g.id FOR UPDATE),
saved AS (
  UPDATE {_GAMES} g
     SET status = v.status, steps = v.steps, flipped = v.flipped::json, seq = v.seq,
         updated_at = now()
    FROM v
   WHERE g.id = v.id AND g.seq = v.expected AND g.id IN (SELECT id FROM locked)
  RETURNING g.id),
seated AS (
  UPDATE {_SEATS} s
     SET kind = x.kind, nickname = x.nickname, secret_hash = x.secret_hash,
         auto_flip = x.auto_flip
    FROM unnest($7::text[], $8::int[], $9::text[], $10::text[], $11::text[], $12::bool[])
         AS x(game_id, seat, kind, nickname, secret_hash, auto_flip)
   WHERE s.game_id = x.game_id AND s.seat = x.seat AND x.game_id IN (SELECT id FROM saved)),
added AS (
  INSERT INTO {_EVENTS} (game_id, seq, type, data, created_at)
  SELECT e.game_id, e.seq, e.type, e.data::json, now()
    FROM unnest($13::text[], $14::int[], $15::text[], $16::text[]) AS e(game_id, seq, type, data)
   WHERE e.game_id IN (SELECT id FROM saved))
SELECT id FROM saved"""


def _columns(rows: list[tuple[Any, ...]], width: int) -> list[list[Any]]:
    """``rows`` as ``width`` column lists (empty lists when there are no rows)."""
    return [list(column) for column in zip(*rows, strict=True)] if rows else [[]] * width


async def write_postgres(pg: Any, batch: list[PendingSave]) -> list[BaseException | None]:
    """Write ``batch`` with one statement on the asyncpg connection ``pg`` (autocommit).

    Times are the database's ``now()`` (the statement's transaction start).

    Returns per save None or its StaleWriteError (see the module docstring).
    """
    games = [(s.game_id, s.expected_seq, s.status, s.steps, _json(s.flipped), s.seq)
             for s in batch]
    seats = [(s.game_id, seat, kind, nick, secret_hash, auto)
             for s in batch for seat, kind, nick, secret_hash, auto in s.seats]
    events = [(s.game_id, seq, kind, _json(data))
              for s in batch for seq, kind, data in s.events]
    rows = await pg.fetch(_PG_SAVE, *_columns(games, 6), *_columns(seats, 6),
                          *_columns(events, 4))
    saved = {row[0] for row in rows}
    return [None if s.game_id in saved else _stale(s) for s in batch]


def write_sqlite(conn: Any, batch: list[PendingSave]) -> list[BaseException | None]:
    """Write ``batch`` on the ``sqlite3`` connection ``conn`` (the caller commits).

    Returns per save None or its StaleWriteError.
    """
    outcomes: list[BaseException | None] = []
    rows: list[tuple[str, int, str, str, str]] = []
    cursor = conn.cursor()
    try:
        for save in batch:
            now = save.now.strftime(_SQLITE_TIME)
            cursor.execute(_SQLITE_SAVE_GAME, (
                save.status, save.steps, _json(save.flipped), save.seq, now,
                save.game_id, save.expected_seq))
            if cursor.rowcount != 1:
                outcomes.append(_stale(save))
                continue
            outcomes.append(None)
            if save.seats:
                cursor.executemany(_SQLITE_SAVE_SEAT, [
                    (kind, nick, secret_hash, auto, save.game_id, seat)
                    for seat, kind, nick, secret_hash, auto in save.seats])
            rows += [(save.game_id, seq, kind, _json(data), now)
                     for seq, kind, data in save.events]
        if rows:
            cursor.executemany(_SQLITE_EVENT, rows)
    finally:
        cursor.close()
    return outcomes
