"""Server settings, from command-line flags or ``CARDWAR_*`` environment variables."""

from __future__ import annotations

from pydantic import NonNegativeFloat, PositiveFloat
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything a running site can be told.

    Every field can be set from the environment as ``CARDWAR_<FIELD>``,
    e.g. ``CARDWAR_DATABASE=postgresql+asyncpg://...``.

    Attributes:
        database: SQLAlchemy URL of the game store (default: SQLite file under ./var).
        redis: Redis URL for live events across processes, or None (one process).
        redis_prefix: prefix of the Redis channel names (sites sharing one Redis).
        flip_timeout: seconds before a player who has not flipped is flipped for.
        gone_after: seconds before a disconnected player is played for.
        heartbeat: seconds between WebSocket pings (a silent socket is closed after 3).
        computer_delay: seconds a computer seat waits before it flips.
        presence_ttl: with several processes, seconds after which the players and
            spectators of a process that stopped without saying so (killed, its
            machine gone) are shown offline.
        open_table_ttl: seconds a public table waits on the open tables page before it
            leaves the list (unless it fills or starts first).
        commit: the short commit shown in the footer when git is not available.
        testing_stacked_deck: test-only: deal a short stacked deck (never in production).
    """

    model_config = SettingsConfigDict(env_prefix="CARDWAR_", extra="ignore")

    database: str = "sqlite+aiosqlite:///./var/cardwar.db"
    redis: str | None = None
    redis_prefix: str = "cardwar:"
    flip_timeout: PositiveFloat = 10.0
    gone_after: PositiveFloat = 120.0
    heartbeat: PositiveFloat = 20.0
    computer_delay: NonNegativeFloat = 0.8
    presence_ttl: PositiveFloat = 15.0
    open_table_ttl: PositiveFloat = 1800.0
    commit: str | None = None
    testing_stacked_deck: bool = False
