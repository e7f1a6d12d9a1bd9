"""SQLAlchemy 2 tables: games, seats, events.

A game row holds what fixes the deal (variant, players, face_down, seed or
stacked hands) and how far it got (``steps``, ``flipped`` for the step in
progress); the engine state is rebuilt by replaying ``steps`` steps (battles,
or cards put down in Beggar-my-neighbour; the column was ``battles`` before
migration 0003).
``seq`` is the last event number, also used as an optimistic version;
``public`` lists a game in the lobby on the open tables page, ``locale`` is
its creator's language.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """Declarative base of the store's tables."""


class GameRow(Base):
    """One online game (table ``games``)."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    variant: Mapped[str] = mapped_column(String(16))
    players: Mapped[int] = mapped_column(Integer)
    face_down: Mapped[int] = mapped_column(Integer)
    seed: Mapped[str | None] = mapped_column(String(128), nullable=True)
    hands: Mapped[str | None] = mapped_column(Text, nullable=True)
    commitment: Mapped[str] = mapped_column(String(64))
    status: Mapped[str] = mapped_column(String(16))
    steps: Mapped[int] = mapped_column(Integer, default=0)
    flipped: Mapped[list[int]] = mapped_column(JSON, default=list)
    seq: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    locale: Mapped[str] = mapped_column(String(8), default="en")

    __table_args__ = (Index("ix_games_open", "public", "status", "created_at"),)


class SeatRow(Base):
    """One seat of a game (table ``seats``).

    ``kind`` is open, reserved (a rematch seat kept for a former player),
    human or computer.
    """

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    nickname: Mapped[str | None] = mapped_column(String(64), nullable=True)
    secret_hash: Mapped[str | None] = mapped_column(String(64), nullable=True, index=True)
    auto_flip: Mapped[bool] = mapped_column(Boolean, default=False)


class EventRow(Base):
    """One numbered event of a game (table ``events``), for resync since seq N."""

    __tablename__ = "events"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    type: Mapped[str] = mapped_column(String(32))
    data: Mapped[dict[str, object]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
