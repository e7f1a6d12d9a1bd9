"""Reactions: preset emoji and phrases a table sees for a moment (not chat).

A page sends the key of one of :data:`~cardwar.tables.events.REACTIONS`; the
table's pages get a ``reaction`` message (:class:`~cardwar.tables.events.Reaction`,
ephemeral: never stored, never replayed) on the bus, so every server process
delivers it, and each page words it in its own reader's language. There is
no free text, so nothing to moderate.

Each seat may react :data:`REACTION_RATE` times (a leaky bucket, shared by
the seat's connections to every process: counted by the bus's limiter, in
Redis with several processes), each spectator connection as often; more is
refused with ``too_many_reactions``. What is not a reaction (an unknown key,
a long text, more fields) is refused by the protocol before it gets here,
so it never counts.
"""

from __future__ import annotations

from collections.abc import Hashable

from cardwar.bus import Bus

from .errors import ErrorCode, TableError
from .events import Reaction, ReactionKey
from .table import Table

#: Reactions one seat (or one spectator connection) may send: (count, per seconds).
REACTION_RATE = (3, 6.0)


class Reactions:
    """The reactions of every game this process serves.

    Args:
        bus: where ``reaction`` messages are published.
        rate: ``(count, per seconds)`` a sender may react.
    """

    def __init__(self, bus: Bus, rate: tuple[int, float] = REACTION_RATE) -> None:
        self.bus = bus
        self.rate = rate

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
        # a seat's budget is the seat's on every process; a spectator's, its connection's
        sender = f"react:{game_id}:{seat}" if seat is not None else \
            f"react:{game_id}:watcher:{getattr(self.bus, 'origin', '')}:{hash(connection)}"
        if await self.bus.limiter.hit(sender, *self.rate):
            raise TableError(ErrorCode.TOO_MANY_REACTIONS)
        await self.bus.publish(game_id, Reaction(type="reaction", seq=None, seat=seat, key=key))
