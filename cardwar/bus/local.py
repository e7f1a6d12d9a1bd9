"""The in-process :class:`~cardwar.bus.base.Bus`: one process, nothing lost.

(The interface, subscriptions and hooks are :mod:`cardwar.bus.base`'s.)
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from .base import Hooks, Message, Subscription, Subscriptions, add_subscription, drop_subscription
from .limits import Limiter, LocalLimiter
from .slots import LocalSlots, Slots

__all__ = ["LocalBus"]


class LocalBus:
    """The in-process :class:`Bus`: one set of subscriptions per game.

    Nothing is lost on the way and nobody else publishes, so nothing needs
    catching up: :meth:`attach` has nothing to keep, and every process id
    :meth:`alive` is asked about is this one's (alive).
    """

    #: False: every publisher and subscriber lives in this process.
    distributed = False
    #: Never used: no other process to outlive.
    liveness_ttl = 15.0

    def __init__(self) -> None:
        self._subs: Subscriptions = {}
        #: rate limits, counted in this process (the only one)
        self.limiter: Limiter = LocalLimiter()
        #: sockets per address, counted in this process (the only one)
        self.slots: Slots = LocalSlots()

    def attach(self, hooks: Hooks) -> None:
        """Nothing to connect: no message comes from elsewhere."""

    def following(self, game_id: str) -> bool:
        """True while ``game_id`` has a subscriber here (every message is heard)."""
        return game_id in self._subs

    async def alive(self, origins: set[str]) -> set[str]:
        """Every one of ``origins`` (there are no other processes to lose)."""
        return set(origins)

    async def ask(self, game_id: str, moved: int | None = None) -> None:
        """Nobody else to ask."""

    def resync_all(self) -> None:
        """Nothing is missed in one process."""

    async def publish(self, game_id: str, message: Message) -> None:
        """Deliver ``message`` to every current subscriber of ``game_id``."""
        for sub in list(self._subs.get(game_id, ())):
            sub.put(message)

    @asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[Subscription]:
        """Subscribe to ``game_id`` for the duration of the ``async with`` block."""
        sub = Subscription(game_id)
        add_subscription(self._subs, sub)
        try:
            yield sub
        finally:
            drop_subscription(self._subs, sub)

    def subscribers(self, game_id: str) -> int:
        """How many subscriptions ``game_id`` has now."""
        return len(self._subs.get(game_id, ()))

    async def close(self) -> None:
        """Drop every subscription."""
        self._subs.clear()
