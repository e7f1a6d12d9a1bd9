"""Every shape of a lost database connection is retried (issue 24, item 4).

At PostgreSQL restarts asyncpg raises, besides the usual
``ConnectionDoesNotExistError``: ``InternalClientError: cannot switch to state
12; another operation (2) is in progress`` (a connection left half-way through
an operation, raised straight from the driver by the group commit), and
``CannotConnectNowError`` ("the database system is starting up" / "not yet
accepting connections"), which SQLAlchemy hands on as a plain ``DBAPIError``
whose ``orig`` is its adapter's error, caused by asyncpg's. Each is a lost
connection (:func:`cardwar.store.store.disconnected`), tried again on a new
one; a wrong statement is not.
"""

from __future__ import annotations

import asyncio

import asyncpg  # type: ignore[import-untyped]
import pytest
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects.postgresql.asyncpg import AsyncAdapt_asyncpg_dbapi

from cardwar.store import Store
from cardwar.store.store import disconnected

DBAPI = AsyncAdapt_asyncpg_dbapi(asyncpg)


def through_sqlalchemy(error: Exception) -> sa_exc.DBAPIError:
    """``error`` as SQLAlchemy's asyncpg dialect raises it to us: translated to its
    DBAPI error class (``raise translated from error``), wrapped in a ``DBAPIError``."""
    for cls in type(error).__mro__:
        if cls in DBAPI._asyncpg_error_translate:
            translated = DBAPI._asyncpg_error_translate[cls](f"{type(error)}: {error}")
            break
    else:
        translated = DBAPI.Error(str(error))
    translated.__cause__ = error
    wrapped = sa_exc.DBAPIError.instance("SELECT 1", None, translated, DBAPI.Error)
    assert isinstance(wrapped, sa_exc.DBAPIError)
    return wrapped


ANOTHER_OPERATION = asyncpg.exceptions.InternalClientError(
    "cannot switch to state 12; another operation (2) is in progress")
STARTING_UP = asyncpg.exceptions.CannotConnectNowError("the database system is starting up")


@pytest.mark.parametrize("error", [
    ANOTHER_OPERATION,
    through_sqlalchemy(ANOTHER_OPERATION),
    through_sqlalchemy(STARTING_UP),
    through_sqlalchemy(asyncpg.exceptions.CannotConnectNowError(
        "the database system is not yet accepting connections")),
    asyncpg.exceptions.InterfaceError(
        "cannot perform operation: another operation is in progress"),
    through_sqlalchemy(asyncpg.exceptions.ConnectionFailureError("connection failure")),
], ids=["another operation", "another operation via sqlalchemy", "starting up",
        "not yet accepting", "interface: another operation", "connection failure"])
def test_a_lost_connection_in_any_shape_is_disconnected(error):
    assert disconnected(error)


@pytest.mark.parametrize("error", [
    through_sqlalchemy(asyncpg.exceptions.UniqueViolationError("duplicate key")),
    through_sqlalchemy(asyncpg.exceptions.UndefinedTableError("no table")),
    ValueError("a bug"),
], ids=["unique violation", "undefined table", "a bug"])
def test_a_wrong_statement_is_not_a_lost_connection(error):
    assert not disconnected(error)


def test_a_lost_connection_is_tried_again(tmp_path):
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    tries: list[int] = []

    async def operation() -> int:
        tries.append(1)
        if len(tries) == 1:
            raise ANOTHER_OPERATION
        return 42

    async def run() -> int:
        try:
            return await store._reconnecting(operation)
        finally:
            await store.close()

    assert asyncio.run(run()) == 42
    assert len(tries) == 2
