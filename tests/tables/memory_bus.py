"""An in-memory :class:`~cardwar.bus.Bus` for several "processes" in one test.

It stands where :class:`~cardwar.bus.redis.RedisBus` stands (the protocol
seam) and behaves the same way for the table service: a process delivers
its own messages to its subscribers at once and hands them to the other
processes, which see each one in ``on_remote`` before their subscribers do;
a first subscription says ``hello`` to the others and resets the game; the
last one leaving calls ``on_unfollow``. Unlike Redis, a test decides what
gets lost on the way (:attr:`MemoryHub.lose`), so gaps, stale caches and
lost version checks happen on purpose, without external services.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from cardwar.bus import Hooks, LocalLimiter, Message, Subscription


class MemoryHub:
    """What several :class:`MemoryBus` processes share.

    Attributes:
        lose: ``lose(origin, to, message)``: True drops the message on its
            way from process ``origin`` to process ``to``.
        dead: process ids taken for dead (:meth:`MemoryBus.alive`).
    """

    def __init__(self) -> None:
        self.buses: list[MemoryBus] = []
        self.lose: Callable[[str, str, Message], bool] = lambda origin, to, m: False
        self.dead: set[str] = set()
        self.limiter = LocalLimiter()

    def bus(self, origin: str) -> MemoryBus:
        """A new process's bus, called ``origin``."""
        bus = MemoryBus(self, origin)
        self.buses.append(bus)
        return bus


class MemoryBus:
    """One process's bus on a :class:`MemoryHub` (see the module docstring)."""

    distributed = True
    liveness_ttl = 15.0

    def __init__(self, hub: MemoryHub, origin: str) -> None:
        self.hub = hub
        self.origin = origin
        self.limiter = hub.limiter  # one count for every process, as in Redis
        self._subs: dict[str, set[Subscription]] = {}
        self.hooks = Hooks()

    def attach(self, hooks: Hooks) -> None:
        """Keep the owner's callbacks (as RedisBus does)."""
        self.hooks = hooks

    async def publish(self, game_id: str, message: Message) -> None:
        """Deliver here at once, then to every other process following ``game_id``."""
        for sub in list(self._subs.get(game_id, ())):
            sub.put(message)
        for other in self.hub.buses:
            if other is not self and not self.hub.lose(self.origin, other.origin, message):
                await other.receive(game_id, dict(message), self.origin)

    async def receive(self, game_id: str, message: Message, origin: str) -> None:
        """A message from another process (ignored unless ``game_id`` is followed here)."""
        if game_id not in self._subs:
            return
        if self.hooks.on_remote is not None:
            await self.hooks.on_remote(game_id, message, origin)
        for sub in list(self._subs.get(game_id, ())):
            sub.put(message)

    async def hello(self, game_id: str, moved: int | None = None) -> None:
        """Another process started following ``game_id`` (or asks again, ``moved``)."""
        if game_id in self._subs and self.hooks.on_hello is not None:
            await self.hooks.on_hello(game_id, moved)

    @asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[Subscription]:
        """Subscribe to ``game_id`` for the duration of the ``async with`` block."""
        sub = Subscription(game_id, catch_up=self.hooks.catch_up)
        first = game_id not in self._subs
        self._subs.setdefault(game_id, set()).add(sub)
        if first:
            if self.hooks.on_reset is not None:
                self.hooks.on_reset(game_id)
            for other in self.hub.buses:
                if other is not self:
                    await other.hello(game_id)
        try:
            yield sub
        finally:
            subs = self._subs[game_id]
            subs.discard(sub)
            if not subs:
                del self._subs[game_id]
                if self.hooks.on_unfollow is not None:
                    self.hooks.on_unfollow(game_id)

    def subscribers(self, game_id: str) -> int:
        """How many subscriptions ``game_id`` has in this process."""
        return len(self._subs.get(game_id, ()))

    def following(self, game_id: str) -> bool:
        """True while this process has a subscriber for ``game_id``."""
        return game_id in self._subs

    async def alive(self, origins: set[str]) -> set[str]:
        """The ``origins`` not in :attr:`MemoryHub.dead`."""
        return origins - self.hub.dead

    async def ask(self, game_id: str, moved: int | None = None) -> None:
        """A ``hello`` to every other process (as RedisBus's, subject to :attr:`MemoryHub.lose`)."""
        for other in self.hub.buses:
            if other is not self and not self.hub.lose(self.origin, other.origin,
                                                       {"type": "hello", "seq": None}):
                await other.hello(game_id, moved)

    def resync_all(self) -> None:
        """Every cached table stale, every subscription reads the store (as RedisBus's)."""
        if self.hooks.on_reset is not None:
            self.hooks.on_reset(None)
        for subs in self._subs.values():
            for sub in subs:
                sub.resync()

    async def close(self) -> None:
        """Drop every subscription."""
        self._subs.clear()
