"""Reactions: preset emoji and phrases a table sees for a moment (not chat).

A page sends the key of one of :data:`~cardwar.tables.events.REACTIONS`; the
table's pages get a ``reaction`` message (:class:`~cardwar.tables.events.Reaction`,
ephemeral: never stored, never replayed) on the bus, so every server process
delivers it, and each page words it in its own reader's language. There is
no free text, so nothing to moderate.

Each seat may react :data:`REACTION_RATE` times (a leaky bucket, shared by
the seat's connections to this process), each spectator connection as
often; more is refused with ``too_many_reactions``.
"""

from __future__ import annotations

from collections.abc import Hashable

from aiolimiter import AsyncLimiter

from cardwar.bus import Bus

from .errors import ErrorCode, TableError
from .events import Reaction, ReactionKey
from .table import Table

#: Reactions one seat (or one spectator connection) may send: (count, per seconds).
REACTION_RATE = (3, 6.0)
#: Buckets kept before the idle ones (full again: nothing to remember) are dropped.
MAX_BUCKETS = 4096


class Reactions:
    """The reactions of every game this process serves.

    Args:
        bus: where ``reaction`` messages are published.
        rate: ``(count, per seconds)`` a sender may react.
    """

    def __init__(self, bus: Bus, rate: tuple[int, float] = REACTION_RATE) -> None:
        self.bus = bus
        self.rate = rate
        self._buckets: dict[Hashable, AsyncLimiter] = {}

    def _bucket(self, sender: Hashable) -> AsyncLimiter:
        bucket = self._buckets.get(sender)
        if bucket is None:
            if len(self._buckets) >= MAX_BUCKETS:
                self._forget_idle()
            bucket = self._buckets[sender] = AsyncLimiter(*self.rate)
        return bucket

    def _forget_idle(self) -> None:
        """Drop the buckets that have leaked empty (a new one would be the same)."""
        count = self.rate[0]
        for sender in [s for s, b in self._buckets.items() if b.has_capacity(count)]:
            del self._buckets[sender]

    async def react(self, table: Table, seat: int | None, key: ReactionKey,
                    connection: Hashable = None) -> None:
        """Publish ``seat``'s reaction ``key`` to every page of ``table``'s game.

        Args:
            table: the game's table.
            seat: the sender's seat (a human's), or None for a spectator.
            key: one of :data:`~cardwar.tables.events.REACTIONS` (validated
                by the caller's protocol).
            connection: identifies a spectator's connection (its own bucket).

        Raises:
            TableError: ``not_seated`` (``seat`` is not a human's),
                ``too_many_reactions`` beyond :data:`REACTION_RATE`.
        """
        game_id = table.id
        if seat is not None and table.record.seats[seat].kind != "human":
            raise TableError(ErrorCode.NOT_SEATED)
        sender: Hashable = (game_id, seat) if seat is not None else (game_id, None, connection)
        bucket = self._bucket(sender)
        if not bucket.has_capacity():
            raise TableError(ErrorCode.TOO_MANY_REACTIONS)
        await bucket.acquire()  # room left: returns at once
        await self.bus.publish(game_id, Reaction(type="reaction", seq=None, seat=seat, key=key))

    def __len__(self) -> int:
        return len(self._buckets)
