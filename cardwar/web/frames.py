"""What sockets send, made cheap: each event encoded once, one heartbeat clock per process.

The events of a game go to every connection watching it. The message a
page gets for an event is the same for every viewer, seat or spectator
(:func:`cardwar.tables.view_message` keeps secrets out of events
themselves; only the ``state`` snapshot differs by viewer), so
:class:`Frames` builds and encodes it once per event and every connection
sends the same text. Events are told apart by
identity: the bus hands the same message object to every subscriber of a
process, and the cache keeps a reference to each event it holds, so an id
is never mistaken for another's. An event that fell out of the cache (a
connection far behind) is simply encoded again.

:class:`Heartbeats` replaces a sleeping task per connection with one task
per process: every ``heartbeat`` seconds each connection is sent a
``ping`` (or closed when silent for three heartbeats), the connections
spread over the period in slices so that the pings of 20,000 idle
spectators never arrive all at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import time
from collections import OrderedDict
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, Protocol

import orjson

from cardwar.bus import Message
from cardwar.tables.slap_timing import SendStamps

__all__ = ["Frames", "Heartbeats", "SocketParts", "dumps"]

#: Most (event, viewer) frames kept.
FRAMES_KEPT = 2048
#: Seats whose send stamps are kept (per process).
STAMPS_KEPT = 4096
#: Slices each heartbeat period is cut into.
SLICES = 20
#: Messages whose text must be built at send time (the spectator count, and who is
#: connected to any process, are read then).
_LIVE = frozenset({"watchers", "presence"})


def dumps(message: Message) -> str:
    """``message`` as compact JSON text (orjson; non-string keys written as strings, like
    :func:`json.dumps`). Raises TypeError for a value JSON cannot hold."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class Frames:
    """The text frame of each recent event (see the module docstring).

    Args:
        build: ``build(game_id, table, event)`` -> the message dict every
            viewer gets (``table``: None for an event that needs none).
        kept: most frames kept (oldest dropped first).
    """

    def __init__(self, build: Callable[[str, Any, Message], Message],
                 kept: int = FRAMES_KEPT) -> None:
        self._build = build
        self._kept = kept
        self._frames: OrderedDict[int, tuple[Message, str]] = OrderedDict()

    def cached(self, event: Message) -> str | None:
        """``event``'s text when it was encoded already (None: call :meth:`text`)."""
        hit = self._frames.get(id(event))
        return hit[1] if hit is not None and hit[0] is event else None

    def text(self, game_id: str, table: Any, event: Message) -> str:
        """The JSON text every viewer is sent for ``event`` of game ``game_id``
        (``table``: its table, or None when the event needs none)."""
        if event.get("type") in _LIVE:
            return dumps(self._build(game_id, table, event))
        key = id(event)
        hit = self._frames.get(key)
        if hit is not None and hit[0] is event:
            return hit[1]
        text = dumps(self._build(game_id, table, event))
        self._frames[key] = (event, text)
        if len(self._frames) > self._kept:
            self._frames.popitem(last=False)
        return text


class Beating(Protocol):
    """A connection the heartbeat clock looks after."""

    #: when the page last sent something (``time.monotonic()``)
    heard: float

    def ping(self) -> Coroutine[Any, Any, None]:
        """Send a ``ping``."""
        ...

    def silent(self) -> Coroutine[Any, Any, None]:
        """Close the connection: nothing heard for three heartbeats."""
        ...


class Heartbeats:
    """One clock for every connection of a process (see the module docstring).

    Args:
        period: seconds between two pings of a connection.
    """

    def __init__(self, period: float) -> None:
        self.period = period
        self._members: dict[Beating, None] = {}
        self._task: asyncio.Task[None] | None = None
        self._sends: set[asyncio.Task[None]] = set()

    def add(self, conn: Beating) -> None:
        """Start pinging ``conn`` (starts the clock in the running loop if needed)."""
        self._members[conn] = None
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="heartbeats")

    def discard(self, conn: Beating) -> None:
        """Stop pinging ``conn``."""
        self._members.pop(conn, None)

    def __len__(self) -> int:
        return len(self._members)

    def __iter__(self) -> Iterator[Beating]:
        """The connections pinged now."""
        return iter(list(self._members))

    async def _run(self) -> None:
        step = self.period / SLICES
        turn = 0
        due: list[Beating] = []
        while self._members or due:
            await asyncio.sleep(step)
            if turn == 0:  # a new period: everyone connected now, in slices
                due = list(self._members)
            share = math.ceil(len(due) / (SLICES - turn)) if turn < SLICES else len(due)
            now = time.monotonic()
            for conn in due[:share]:
                if conn not in self._members:
                    continue
                job = conn.silent() if now - conn.heard > 3 * self.period else conn.ping()
                task = asyncio.create_task(job)  # a slow reader never holds up the clock
                self._sends.add(task)
                task.add_done_callback(self._sends.discard)
            del due[:share]
            turn = (turn + 1) % SLICES

    async def close(self) -> None:
        """Stop the clock and wait for the pings on their way."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        for task in list(self._sends):
            task.cancel()
            with contextlib.suppress(BaseException):
                await task


class SocketParts:
    """The sockets' shared parts in one app: its :class:`Frames`, heartbeat clocks,
    and the send stamps of the slap games' cards per seat (RULES.md 11.6: when each
    card was first sent to any page of that seat, on this process's clock).

    Args:
        build: how an event's message is built (see :class:`Frames`).
    """

    def __init__(self, build: Callable[[str, Any, Message], Message]) -> None:
        self.frames = Frames(build)
        self._clocks: dict[float, Heartbeats] = {}
        self._stamps: OrderedDict[tuple[str, int], SendStamps] = OrderedDict()

    def stamps(self, game_id: str, seat: int) -> SendStamps:
        """The send stamps of ``seat`` of ``game_id`` (one for all its sockets here;
        the least recently used of more than :data:`STAMPS_KEPT` seats are let go)."""
        key = (game_id, seat)
        stamps = self._stamps.get(key)
        if stamps is None:
            stamps = self._stamps[key] = SendStamps()
            while len(self._stamps) > STAMPS_KEPT:
                self._stamps.popitem(last=False)
        else:
            self._stamps.move_to_end(key)
        return stamps

    def heartbeats(self, period: float) -> Heartbeats:
        """The clock of connections pinged every ``period`` seconds."""
        clock = self._clocks.get(period)
        if clock is None:
            clock = self._clocks[period] = Heartbeats(period)
        return clock

    async def close(self) -> None:
        """Stop every heartbeat clock."""
        for clock in self._clocks.values():
            await clock.close()
