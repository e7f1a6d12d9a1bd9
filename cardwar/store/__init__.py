"""Persistence of online games behind a small interface (SQLAlchemy 2, async).

:class:`Store` keeps games, their seats and their numbered events. SQLite is
the default (a file under ``./var``); ``postgresql+asyncpg://`` works too.
Migrations (Alembic, in ``cardwar/store/migrations``) run at startup.
"""

from .models import EventRow, GameRow, SeatRow
from .store import GameRecord, SeatRecord, StaleWriteError, Store, StoredEvent

__all__ = [
    "EventRow",
    "GameRecord",
    "GameRow",
    "SeatRecord",
    "SeatRow",
    "StaleWriteError",
    "Store",
    "StoredEvent",
]
