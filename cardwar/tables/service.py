"""The :class:`TableService`: tables kept in the store, events sent on the bus.

Every change runs under the game's lock: load (or use the cached table),
apply, save (optimistically, by ``seq``), publish, then arm timers:

* a computer seat flips ``settings.computer_delay`` seconds into a battle,
* a human with auto-flip on flips after ``computer_delay`` as well,
* any other human still to flip is flipped for after ``settings.flip_timeout``.

Timers carry the battle they were armed for, so a late one does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import Counter
from typing import Any

from cardwar.bus import Bus
from cardwar.engine import get_variant, new_seed
from cardwar.settings import Settings
from cardwar.store import Store, StoredEvent

from .secrets import hash_secret, new_game_id, new_secret
from .stacked import stacked_hands
from .table import Table, TableError
from .views import view_message


class TableService:
    """Online tables for one server process.

    Args:
        store: where games live (migrated already).
        bus: where events are published.
        settings: timers (``flip_timeout``, ``computer_delay``) and
            ``testing_stacked_deck``.
    """

    def __init__(self, store: Store, bus: Bus, settings: Settings) -> None:
        self.store = store
        self.bus = bus
        self.settings = settings
        self._tables: dict[str, Table] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._timers: dict[str, set[asyncio.Task[None]]] = {}
        self._online: dict[str, Counter[int]] = {}
        self._closed = False

    # -- loading ----------------------------------------------------------
    def _lock(self, game_id: str) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def get(self, game_id: str) -> Table | None:
        """Return the table ``game_id`` (from memory or the store), or None.

        A table loaded from the store in the middle of a game gets its timers
        armed again, so a restarted server carries on by itself.
        """
        table = self._tables.get(game_id)
        if table is not None:
            return table
        async with self._lock(game_id):
            table = self._tables.get(game_id)
            if table is None:
                record = await self.store.load(game_id)
                if record is None:
                    return None
                table = Table(record)
                self._tables[game_id] = table
                if table.status == "playing":
                    self._arm_round(table)
            return table

    async def _require(self, game_id: str) -> Table:
        table = await self.get(game_id)
        if table is None:
            raise TableError("no_game")
        return table

    # -- changes ----------------------------------------------------------
    async def create(
        self,
        variant: str,
        players: int,
        *,
        face_down: int | None = None,
        computers: tuple[int, ...] = (),
        nickname: str,
    ) -> tuple[Table, str]:
        """Create a game with the creator in seat 0; return (table, creator's secret).

        The deal is a fresh seed (or the stacked deck when
        ``settings.testing_stacked_deck`` is true).

        Raises:
            OptionError: players or face_down not allowed by the variant.
            ValueError: bad computer seats.
        """
        secret = new_secret()
        v = get_variant(variant)
        if self.settings.testing_stacked_deck:
            deal: dict[str, Any] = {"hands": stacked_hands(v, players)}
        else:
            deal = {"seed": new_seed()}
        table = Table.new(new_game_id(), v.name, players, face_down=face_down,
                          computers=computers, creator=nickname,
                          creator_hash=hash_secret(secret), **deal)
        events = table.take_outbox()
        await self.store.create(table.record, [_stored(e) for e in events])
        self._tables[table.id] = table
        return table, secret

    async def _change(self, game_id: str, action: Any) -> Any:
        async with self._lock(game_id):
            table = self._tables.get(game_id)
            if table is None:
                record = await self.store.load(game_id)
                if record is None:
                    raise TableError("no_game")
                table = self._tables[game_id] = Table(record)
            before = table.seq
            try:
                value = action(table)
                events = table.take_outbox()
                if events:
                    await self.store.save(table.record, [_stored(e) for e in events], before)
            except TableError:
                table.take_outbox()
                raise
            except BaseException:
                self._tables.pop(game_id, None)  # reload from the store next time
                raise
            for event in events:
                await self.bus.publish(game_id, event)
            kinds = {e["type"] for e in events}
            if table.status == "playing" and kinds & {"started", "battle"}:
                self._arm_round(table)
            return value

    async def join(self, game_id: str, nickname: str) -> tuple[int, str]:
        """Seat ``nickname`` (already clean) in the first open seat.

        Returns:
            (seat, the new seat's secret).

        Raises:
            TableError: ``no_game``, ``not_lobby``, ``no_seat``.
        """
        secret = new_secret()
        seat = await self._change(game_id, lambda t: t.join(nickname, hash_secret(secret)))
        return seat, secret

    async def start(self, game_id: str, seat: int | None) -> None:
        """Start the game for its creator (seat 0), filling open seats with computers.

        Raises:
            TableError: ``no_game``, ``not_creator``, ``not_lobby``.
        """
        await self._change(game_id, lambda t: t.start(seat))

    async def flip(
        self, game_id: str, seat: int, by: str = "player", battle: int | None = None
    ) -> bool:
        """Flip for ``seat`` (see :meth:`Table.flip`); True if it counted.

        Raises:
            TableError: ``no_game``, ``not_playing``, ``out``.
        """
        return bool(await self._change(game_id, lambda t: t.flip(seat, by, battle)))

    async def set_auto(self, game_id: str, seat: int, on: bool) -> None:
        """Switch auto-flip for ``seat``; switching it on mid-battle flips soon.

        Raises:
            TableError: ``no_game``, ``not_seated``.
        """
        table: Table = await self._change(game_id, lambda t: (t.set_auto(seat, on), t)[1])
        if on and seat in table.to_flip():
            self._arm(table, seat, "auto", self.settings.computer_delay)

    # -- timers -----------------------------------------------------------
    def _arm_round(self, table: Table) -> None:
        current = asyncio.current_task()
        for task in list(self._timers.get(table.id, ())):
            if task is not current:
                task.cancel()
        for seat in table.to_flip():
            rec = table.record.seats[seat]
            if rec.kind == "computer":
                self._arm(table, seat, "computer", self.settings.computer_delay)
            elif rec.auto_flip:
                self._arm(table, seat, "auto", self.settings.computer_delay)
            else:
                self._arm(table, seat, "timer", self.settings.flip_timeout)

    def _arm(self, table: Table, seat: int, by: str, delay: float) -> None:
        if self._closed:
            return
        battle = table.game.battles + 1
        task = asyncio.create_task(self._fire(table.id, seat, by, battle, delay))
        timers = self._timers.setdefault(table.id, set())
        timers.add(task)
        task.add_done_callback(timers.discard)

    async def _fire(self, game_id: str, seat: int, by: str, battle: int, delay: float) -> None:
        await asyncio.sleep(delay)
        with contextlib.suppress(TableError):
            await self.flip(game_id, seat, by, battle)

    def timers(self, game_id: str) -> int:
        """How many timers are armed for ``game_id`` (for tests)."""
        return len(self._timers.get(game_id, ()))

    # -- presence and messages --------------------------------------------
    def online(self, game_id: str) -> set[int]:
        """Seats of ``game_id`` with at least one open connection."""
        return {s for s, n in self._online.get(game_id, Counter()).items() if n > 0}

    async def connect(self, game_id: str, seat: int | None) -> None:
        """Count a connection of ``seat``; the first one publishes ``presence``."""
        if seat is None:
            return
        counter = self._online.setdefault(game_id, Counter())
        counter[seat] += 1
        if counter[seat] == 1:
            await self.bus.publish(game_id, {"type": "presence", "seq": None,
                                             "seat": seat, "online": True})

    async def disconnect(self, game_id: str, seat: int | None) -> None:
        """Uncount a connection of ``seat``; the last one publishes ``presence``."""
        if seat is None:
            return
        counter = self._online.setdefault(game_id, Counter())
        counter[seat] -= 1
        if counter[seat] <= 0:
            del counter[seat]
            await self.bus.publish(game_id, {"type": "presence", "seq": None,
                                             "seat": seat, "online": False})

    def message(
        self, table: Table, viewer: int | None, event: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The message for ``viewer``: a state snapshot, or ``event`` (see :func:`view_message`)."""
        return view_message(table, viewer, event, self.online(table.id))

    async def close(self) -> None:
        """Cancel every timer (tables stay in the store)."""
        self._closed = True
        tasks = [t for ts in self._timers.values() for t in ts]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        self._timers.clear()


def _stored(event: dict[str, Any]) -> StoredEvent:
    data = {k: v for k, v in event.items() if k not in ("type", "seq")}
    return StoredEvent(event["seq"], event["type"], data)
