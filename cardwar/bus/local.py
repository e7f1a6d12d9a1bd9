"""The bus interface and its in-process implementation.

Messages are JSON-ready dicts: a stored event ``{"type", "seq", ...}`` or an
ephemeral one with ``"seq": None`` (presence). Publishing never blocks: a
subscriber that falls more than ``maxsize`` messages behind is marked
``overflowed`` and should resync.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Protocol


class Subscription:
    """Messages for one game, in publishing order; iterate with ``async for``.

    Attributes:
        game_id: the game subscribed to.
        overflowed: True once a message was dropped because the queue was full.
    """

    def __init__(self, game_id: str, maxsize: int = 1000) -> None:
        self.game_id = game_id
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize)
        self.overflowed = False

    def put(self, message: dict[str, Any]) -> None:
        """Queue ``message`` without waiting (drops it and sets ``overflowed`` if full)."""
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True

    async def get(self) -> dict[str, Any]:
        """Wait for the next message."""
        return await self.queue.get()

    def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[dict[str, Any]]:
        while True:
            yield await self.queue.get()


class Bus(Protocol):
    """Publish a game's events to every subscriber of that game."""

    async def publish(self, game_id: str, message: dict[str, Any]) -> None:
        """Deliver ``message`` to every current subscriber of ``game_id``."""
        ...

    def subscribe(self, game_id: str) -> Any:
        """Return an async context manager yielding a :class:`Subscription`."""
        ...

    async def close(self) -> None:
        """Release connections."""
        ...


class LocalBus:
    """The in-process :class:`Bus`: one set of subscriptions per game."""

    def __init__(self) -> None:
        self._subs: dict[str, set[Subscription]] = {}

    async def publish(self, game_id: str, message: dict[str, Any]) -> None:
        """Deliver ``message`` to every current subscriber of ``game_id``."""
        for sub in list(self._subs.get(game_id, ())):
            sub.put(message)

    @asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[Subscription]:
        """Subscribe to ``game_id`` for the duration of the ``async with`` block."""
        sub = Subscription(game_id)
        self._subs.setdefault(game_id, set()).add(sub)
        try:
            yield sub
        finally:
            subs = self._subs.get(game_id)
            if subs is not None:
                subs.discard(sub)
                if not subs:
                    del self._subs[game_id]

    def subscribers(self, game_id: str) -> int:
        """How many subscriptions ``game_id`` has now."""
        return len(self._subs.get(game_id, ()))

    async def close(self) -> None:
        """Drop every subscription."""
        self._subs.clear()
