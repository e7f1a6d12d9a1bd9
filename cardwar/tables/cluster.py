"""Several server processes: keeping cached tables in step with the others.

With one process (a :class:`~cardwar.bus.LocalBus`) a cached table is always
current. With several, another process may change a game: it stores the
events first, then publishes them. This process then

* applies each event it hears to its cached table (:meth:`Cluster.on_remote`,
  :func:`cardwar.tables.events.follow`), before its own pages see it;
* marks the table stale when an event cannot be applied, when the bus may
  have missed some (a reconnect) or when nobody here follows the game any
  more, and brings it up to the store before using it again
  (:meth:`Cluster.refresh`): first by applying the stored events it missed
  (a query, no replay), else by loading the game again.
"""

from __future__ import annotations

from cardwar.bus import Bus, Hooks, Message

from .cache import TableCache
from .clocks import Clocks
from .events import follow
from .records import GameStore
from .slap_kind import load_record
from .table import Table
from .triggers import Triggers, wire


class Cluster:
    """Keeps this process's cached tables in step with the other processes.

    Args:
        store: the games.
        bus: the bus (``distributed`` says whether there are other processes).
        cache: the cached tables.
        clocks: timers armed for a table loaded again.
        triggers: what the events applied here trigger (timers, presence, metrics).
    """

    def __init__(self, store: GameStore, bus: Bus, cache: TableCache, clocks: Clocks,
                 triggers: Triggers) -> None:
        self.store = store
        self.bus = bus
        self.cache = cache
        self.clocks = clocks
        self.triggers = triggers
        presence = self.presence = triggers.presence
        bus.attach(Hooks(catch_up=self.catch_up, on_remote=self.on_remote,
                         on_reset=cache.mark_stale, on_unfollow=self.on_unfollow,
                         on_hello=presence.hello, on_back=presence.recovered))

    def following(self, game_id: str) -> bool:
        """True when this process hears every change of ``game_id``: always with
        one process, with several while it follows the game on the bus."""
        return not self.bus.distributed or self.bus.following(game_id)

    def trusted(self, game_id: str) -> bool:
        """True when the cached table of ``game_id`` is known to be current.

        With one process always (unless a change failed); with several only
        while this process follows the game on the bus and missed nothing.
        """
        if self.cache.is_stale(game_id):
            return False
        return self.following(game_id)

    async def catch_up(self, game_id: str, seq: int) -> list[Message]:
        """The stored events of ``game_id`` above ``seq`` as bus messages, in order."""
        return [wire(e) for e in await self.store.events_since(game_id, seq)]

    async def refresh(self, game_id: str, previous: Table, *, arm: bool = True) -> Table | None:
        """Bring the stale cached table ``previous`` up to the store (hold the lock).

        First by applying the stored events it missed, else by loading the
        game again and replaying it. Timers are re-armed when the game moved
        on, if ``arm`` (see :meth:`catch_up_table`).

        Returns:
            The current table (cached), or None when the game is gone.
        """
        self.cache.mark_fresh(game_id)  # a remote event during the query marks it again
        if await self.catch_up_table(previous, arm=arm) is not None:
            return previous
        self.cache.mark_fresh(game_id)
        record = await load_record(self.store, game_id)
        if record is None:
            self.cache.drop(game_id)
            return None
        table = self.cache.put(Table(record))
        if previous.status == "lobby" and table.status != "lobby":
            # the start (and the seating) was missed: number who is here by table seats
            for event in await self.store.events_since(game_id, previous.seq):
                self.triggers.moved(game_id, wire(event))
        if arm and table.status == "playing" and (
            not self.clocks.count(game_id) or previous.steps != table.steps
            or previous.status != table.status
        ):
            self.clocks.arm_round(table)
        return table

    async def catch_up_table(self, table: Table, *, arm: bool = True) -> int | None:
        """Apply to the cached ``table`` the stored events it missed (hold the
        lock); re-arm its timers if it moved on and ``arm``.

        ``arm`` False: the catch-up of a change this process makes without
        following the game (a timer of a game it started for a page hashed
        elsewhere, a request): the events it missed were made, and their
        timers armed, by another process, which plays the game; this one
        does not arm them again (it would keep racing it, battle after
        battle). Its own change arms what it triggers, as any change does.

        Returns:
            How many events were applied (0: it was current), or None when one
            could not be (``table`` is then marked stale).
        """
        missed = await self.catch_up(table.id, table.seq)
        for event in missed:
            if not follow(table, event):
                self.cache.mark_stale(table.id)
                return None
            self.triggers.moved(table.id, event)
        if missed:
            await self.triggers.after(table, missed, here=False, arm=arm)
        return len(missed)

    async def on_remote(self, game_id: str, message: Message, origin: str = "") -> None:
        """Another process published ``message``: bring the cached table up to it.

        Called by the bus before this process's subscribers see it, so pages
        are sent messages rendered from a table at least that new. Timers of
        the new battle are armed here too (see :mod:`cardwar.tables.clocks`).
        """
        if self.presence.heard(game_id, message, origin):
            return
        self.triggers.moved(game_id, message)
        seq = message.get("seq")
        table = self.cache.get(game_id)
        if seq is None or table is None or self.cache.is_stale(game_id) or seq <= table.seq:
            return
        if not self.cache.busy(game_id) and follow(table, message):
            await self.triggers.after(table, [message], here=False)
            return
        # A local change is in flight (its save will fail and retry) or the event
        # cannot be applied: refresh on the next use. Never wait here: the bus
        # reader serves every game of this process.
        self.cache.mark_stale(game_id)

    def on_unfollow(self, game_id: str) -> None:
        """Nobody here follows ``game_id`` now: its cached table may go stale."""
        self.presence.unfollowed(game_id)
        if self.bus.distributed:
            self.cache.mark_stale(game_id)
