"""The bus interface (:class:`Bus`), its :class:`Subscription` and :class:`Hooks`,
shared by every implementation (:mod:`.local`, :mod:`.redis`).

Messages are JSON-ready dicts: a stored event ``{"type", "seq", ...}`` or an
ephemeral one with ``"seq": None`` (presence). Publishing never blocks: a
subscriber that falls more than ``maxsize`` messages behind is marked
``overflowed`` and should resync.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from .limits import Limiter
from .slots import Slots

#: A message on the bus: a stored event or an ephemeral message, JSON-ready.
Message = Mapping[str, Any]

#: Queued to a subscription to make it check the store for missed events.
_RESYNC: Message = {"type": "_resync", "seq": None}

#: ``catch_up(game_id, seq)``: the stored events of ``game_id`` above ``seq``, in order.
CatchUp = Callable[[str, int], Awaitable[list[Message]]]
#: ``on_remote(game_id, message, origin)``: a message another process published,
#: seen before this process's subscribers see it.
OnRemote = Callable[[str, Message, str], Awaitable[None]]


@dataclass(frozen=True)
class Hooks:
    """What a bus that shares games with other processes tells its owner.

    Attributes:
        catch_up: reads stored events above a seq (subscriptions fill gaps).
        on_remote: sees every message from another process first.
        on_reset: called with a game id after (re)subscribing to it, or None
            after the listener reconnected: events may have been missed.
        on_unfollow: called with a game id when its last subscriber left.
        on_hello: called with a game id (and the ``moved`` of :meth:`Bus.ask`, or
            None) when another process asks who is connected, or starts
            following it (answer with this process's presence there).
        on_back: called when the bus is back after a loss (Redis restarted or
            the link was cut): what was published meanwhile may be lost, so the
            owner says again who is connected here.
    """

    catch_up: CatchUp | None = None
    on_remote: OnRemote | None = None
    on_reset: Callable[[str | None], None] | None = None
    on_unfollow: Callable[[str], None] | None = None
    on_hello: Callable[[str, int | None], Awaitable[None]] | None = None
    on_back: Callable[[], Awaitable[None]] | None = None


class Subscription:
    """Messages for one game, in order; iterate with ``async for`` (or :meth:`next`).

    Stored events (``seq`` not None) come out once each, in ``seq`` order:
    repeats are dropped, and with a ``catch_up`` function a gap (an event
    lost by the transport, or an overflow) is filled from the store before
    the event after it. Ephemeral messages (``seq`` None) pass straight through.

    Args:
        game_id: the game subscribed to.
        maxsize: queue length before messages are dropped (then resynced).
        catch_up: reads missed events from the store; None: no gap filling.

    Attributes:
        game_id: the game subscribed to.
        overflowed: True once a message was dropped because the queue was full.
        last: the ``seq`` of the last stored event delivered (or skipped by
            :meth:`start_after`), None before the first.
    """

    def __init__(self, game_id: str, maxsize: int = 1000,
                 catch_up: CatchUp | None = None) -> None:
        self.game_id = game_id
        self.queue: asyncio.Queue[Message] = asyncio.Queue(maxsize)
        self.overflowed = False
        self.last: int | None = None
        self._catch_up = catch_up
        self._pending: deque[Message] = deque()
        self._check_store = False

    def put(self, message: Message) -> None:
        """Queue ``message`` without waiting (drops it and sets ``overflowed`` if full)."""
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.overflowed = True
            self._check_store = True

    def start_after(self, seq: int) -> None:
        """Deliver only stored events above ``seq`` (what a snapshot at ``seq`` lacks).

        With a ``catch_up`` function the store is checked once for events
        published before this subscription started listening.
        """
        if self.last is None or seq > self.last:
            self.last = seq
        if self._catch_up is not None:
            self._check_store = True
            self.put(_RESYNC)

    def resync(self) -> None:
        """Check the store for missed events (the transport reconnected)."""
        if self._catch_up is not None:
            self._check_store = True
            self.put(_RESYNC)

    async def _fill(self) -> None:
        if self._catch_up is None or self.last is None:
            return
        missed = await self._catch_up(self.game_id, self.last)
        self._pending.extend(e for e in missed if e["seq"] > self.last)

    async def next(self) -> Message:
        """Wait for the next message (in order, gaps filled: see the class docstring)."""
        while True:
            if self._pending:
                message = self._pending.popleft()
                from_store = True
            else:
                if self._check_store and self.queue.empty():
                    self._check_store = False
                    await self._fill()
                    continue
                message = await self.queue.get()
                from_store = False
                if message is _RESYNC:
                    continue
            seq = message.get("seq")
            if seq is None:
                return message
            if self.last is not None:
                if seq <= self.last:
                    continue
                if seq > self.last + 1 and not from_store and self._catch_up is not None:
                    await self._fill()
                    if self._pending and self._pending[0]["seq"] < seq:
                        self._pending.append(message)
                        continue
            self.last = seq
            return message

    async def get(self) -> Message:
        """Wait for the next message (same as :meth:`next`)."""
        return await self.next()

    def __aiter__(self) -> AsyncIterator[Message]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Message]:
        while True:
            yield await self.next()


class Bus(Protocol):
    """Publish a game's events to every subscriber of that game, in this
    process and (when :attr:`distributed`) in the others.

    Attributes:
        distributed: True when other processes publish too, so a cached
            table may go stale (see :meth:`following`).
        liveness_ttl: seconds after which a process that stopped refreshing
            its liveness is taken for dead (:meth:`alive`).
    """

    @property
    def distributed(self) -> bool: ...

    @property
    def liveness_ttl(self) -> float: ...

    @property
    def limiter(self) -> Limiter:
        """Where rate limits are counted (shared by every process when distributed)."""
        ...

    @property
    def slots(self) -> Slots:
        """Where sockets held open per address are counted (shared likewise)."""
        ...

    async def publish(self, game_id: str, message: Message) -> None:
        """Deliver ``message`` to every current subscriber of ``game_id``."""
        ...

    def subscribe(self, game_id: str) -> AbstractAsyncContextManager[Subscription]:
        """Subscribe to ``game_id`` for the duration of an ``async with`` block."""
        ...

    def subscribers(self, game_id: str) -> int:
        """How many subscriptions ``game_id`` has in this process."""
        ...

    def following(self, game_id: str) -> bool:
        """True while this process hears every message of ``game_id``."""
        ...

    def attach(self, hooks: Hooks) -> None:
        """Connect the bus to its owner (the table service): see :class:`Hooks`."""
        ...

    async def alive(self, origins: set[str]) -> set[str]:
        """Which of the process ids ``origins`` are still alive."""
        ...

    async def ask(self, game_id: str, moved: int | None = None) -> None:
        """Ask the other processes following ``game_id`` to say again who is
        connected to them there (a ``hello``: ``on_hello`` in each of them),
        after this process made the seating move of event ``moved``."""
        ...

    def resync_all(self) -> None:
        """Every cached table stale (``on_reset(None)``) and every subscription
        reads the store for the events it missed: messages of a process that
        died before it published them are never heard."""
        ...

    async def close(self) -> None:
        """Release connections."""
        ...


#: A bus's subscriptions in this process, by game id.
Subscriptions = dict[str, set[Subscription]]


def add_subscription(subs: Subscriptions, sub: Subscription) -> bool:
    """Add ``sub`` to ``subs``; True when it is its game's first one."""
    first = sub.game_id not in subs
    subs.setdefault(sub.game_id, set()).add(sub)
    return first


def drop_subscription(subs: Subscriptions, sub: Subscription) -> bool:
    """Remove ``sub`` from ``subs``; True when it was its game's last one."""
    game_subs = subs.get(sub.game_id)
    if game_subs is None:
        return False
    game_subs.discard(sub)
    if game_subs:
        return False
    del subs[sub.game_id]
    return True


