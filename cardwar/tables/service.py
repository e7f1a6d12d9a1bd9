"""The :class:`TableService`: tables kept in the store, events sent on the bus.

Every change runs under the game's lock: load (or use the cached table),
apply, save (optimistically, by ``seq``), publish, then arm timers:

* a computer seat flips ``settings.computer_delay`` seconds into a battle,
* a human with auto-flip on flips after ``computer_delay`` as well,
* any other human still to flip is flipped for after ``settings.flip_timeout``,
  counted only once someone is waiting: the idle clock of a battle starts at
  its first flip by a player (or auto-flip), or by a computer or a gone seat
  while the humans are active (one of them flipped in this battle or the one
  before). So a game in which every human is idle does not play itself. The
  start is published as an ``idle`` message (``battle``, ``left`` seconds).

Timers carry the battle they were armed for, so a late one does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from typing import Any

from cardwar.bus import Bus
from cardwar.engine import get_variant, new_seed
from cardwar.obs import battle_played, set_games_in_progress, stale_write
from cardwar.settings import Settings
from cardwar.store import StaleWriteError, Store, StoredEvent

from .follow import advance
from .secrets import hash_secret, new_game_id, new_secret
from .stacked import stacked_hands
from .table import Table, TableError
from .timers import Timers
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
        self._timers = Timers()
        self._online: dict[str, Counter[int]] = {}
        self._watchers: Counter[str] = Counter()  # spectator connections per game (issue 5)
        self._gone: dict[str, set[int]] = {}  # seats played for while away (issue 5)
        # idle clocks: game -> (battle, monotonic deadline); the last battle a human flipped in
        self._idle: dict[str, tuple[int, float]] = {}
        self._human_flip: dict[str, int] = {}
        self._closed = False
        # Several processes (issue 6): games whose cached table may be stale.
        self._dirty: set[str] = set()
        self._distributed = bool(getattr(bus, "distributed", False))
        self._gauge_task: asyncio.Task[None] | None = None
        self._presence_task: asyncio.Task[None] | None = None
        attach = getattr(bus, "attach", None)
        if attach is not None:
            attach(catch_up=self.catch_up, on_remote=self._on_remote,
                   on_reset=self._on_reset, on_unfollow=self._on_unfollow,
                   on_hello=self._on_hello)
        # seats connected to other processes: game -> process id -> seats
        self._remote_online: dict[str, dict[str, set[int]]] = {}
        # spectators connected to other processes: game -> process id -> count
        self._remote_watchers: dict[str, dict[str, int]] = {}

    # -- loading ----------------------------------------------------------
    def _lock(self, game_id: str) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def get(self, game_id: str) -> Table | None:
        """Return the table ``game_id`` (from memory or the store), or None.

        A table loaded from the store in the middle of a game gets its timers
        armed again, so a restarted server carries on by itself.
        """
        table = self._tables.get(game_id)
        if table is not None and self._trusted(game_id):
            return table
        async with self._lock(game_id):
            table = self._tables.get(game_id)
            if table is not None and not self._trusted(game_id):
                table = await self._reload(game_id, table)
            if table is None:
                record = await self.store.load(game_id)
                if record is None:
                    return None
                table = Table(record)
                self._tables[game_id] = table
                if table.status == "playing":
                    self._arm_round(table)
                    for rec in table.record.seats:  # nobody is here yet after a restart
                        if rec.kind == "human":
                            self._arm_gone(table.id, rec.seat)
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

    async def _change(self, game_id: str, action: Any, waited: bool = True) -> Any:
        """Apply ``action(table)`` under the game's lock, then save and publish.

        The save is a version check on ``seq``: when another process changed
        the game first (:class:`StaleWriteError`), the cached table catches up
        with the stored events it missed and ``action`` is applied again, so a
        battle is never played twice nor lost. With several processes the
        action is tried on a clone of the cached table, kept once saved: a
        lost check leaves the cache as it was, a few events behind, instead
        of having to be rebuilt by replaying the whole game. ``waited``:
        someone waits for the result (metrics).
        """
        entered = time.perf_counter()
        async with self._lock(game_id):
            for attempt in range(1, STALE_RETRIES + 1):
                table = self._tables.get(game_id)
                fresh = table is None or not self._trusted(game_id)
                if table is None:
                    self._dirty.discard(game_id)
                    record = await self.store.load(game_id)
                    if record is None:
                        raise TableError("no_game")
                    table = self._tables[game_id] = Table(record)
                elif fresh:
                    table = await self._reload(game_id, table)  # catch up, or load again
                    if table is None:
                        raise TableError("no_game")
                work = table.clone() if self._distributed else table
                before = work.seq
                try:
                    value = action(work)
                    events = work.take_outbox()
                    if events:
                        await self.store.save(
                            work.record, [_stored(e) for e in events], before,
                            seats=not all(e["type"] in _SEATLESS for e in events))
                except TableError:
                    work.take_outbox()
                    if fresh or not self._distributed:
                        raise
                    # maybe refused by a stale cache: catch up and retry (or reload
                    # and retry); refuse when the cache was current after all
                    if await self._catch_up(table) == 0:
                        raise
                    continue
                except StaleWriteError:
                    stale_write()  # another process got there first: catch up, retry
                    if attempt == STALE_RETRIES:
                        self._tables.pop(game_id, None)
                        raise
                    if not self._distributed or not await self._catch_up(table):
                        self._dirty.add(game_id)  # nothing to catch up with: reload
                    continue
                except BaseException:
                    self._tables.pop(game_id, None)  # reload from the store next time
                    raise
                break
            table = self._tables[game_id] = work
            for event in events:
                await self.bus.publish(game_id, event)
            self._observe(table, events, time.perf_counter() - entered if waited else None)
            kinds = {e["type"] for e in events}
            if table.status == "playing" and kinds & {"started", "battle"}:
                self._arm_round(table)
            elif table.status == "playing" and "flipped" in kinds:
                for event in events:
                    if event["type"] == "flipped" and self._start_idle(table, event):
                        await self.bus.publish(game_id, self.idle_message(table))
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
        """Start the game for its creator, filling open and reserved seats with computers.

        Raises:
            TableError: ``no_game``, ``not_creator``, ``not_lobby``.
        """
        table: Table = await self._change(game_id, lambda t: (t.start(seat), t)[1])
        for rec in table.record.seats:
            if rec.kind == "human" and rec.seat not in self.online(game_id):
                self._arm_gone(game_id, rec.seat)

    async def flip(
        self, game_id: str, seat: int, by: str = "player", battle: int | None = None
    ) -> bool:
        """Flip for ``seat`` (see :meth:`Table.flip`); True if it counted.

        Raises:
            TableError: ``no_game``, ``not_playing``, ``out``.
        """
        return bool(await self._change(game_id, lambda t: t.flip(seat, by, battle),
                                       waited=by == "player"))

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
        self._timers.cancel(table.id)
        if self.idle_left(table) is None and any(
                table.record.seats[s].kind == "human" for s in table.record.flipped):
            # loaded mid-battle (restart, another process): a human is waiting; the
            # others' pages may still be reconnecting (RECONNECT_GRACE) after a restart
            self._idle[table.id] = (table.game.battles + 1, time.monotonic()
                                    + self.settings.flip_timeout + RECONNECT_GRACE)
        for seat in table.to_flip():
            rec = table.record.seats[seat]
            if rec.kind == "computer":
                self._arm(table, seat, "computer", self.settings.computer_delay)
            elif rec.auto_flip:
                self._arm(table, seat, "auto", self.settings.computer_delay)
            elif seat in self._gone.get(table.id, ()):
                self._arm(table, seat, "gone", self.settings.computer_delay)
            elif (left := self.idle_left(table)) is not None:
                self._arm(table, seat, "timer", left)
            # else: nobody is waiting yet, no idle clock (see the module docstring)

    def _start_idle(self, table: Table, event: dict[str, Any]) -> bool:
        """Note the ``flipped`` ``event``; start the battle's idle clock if it
        makes someone wait. True when a clock was started (and timers armed)."""
        battle = int(event.get("battle") or table.game.battles + 1)
        by = event.get("by")
        if by in ("player", "auto"):
            self._human_flip[table.id] = battle
        if battle != table.game.battles + 1 or self.idle_left(table) is not None:
            return False
        active = self._human_flip.get(table.id, 0) >= battle - 1
        if not (by in ("player", "auto") or (by in ("computer", "gone") and active)):
            return False
        self._idle[table.id] = (battle, time.monotonic() + self.settings.flip_timeout)
        for seat in table.to_flip():
            rec = table.record.seats[seat]
            if (rec.kind == "human" and not rec.auto_flip
                    and seat not in self._gone.get(table.id, ())):
                self._arm(table, seat, "timer", self.settings.flip_timeout)
        return True

    def idle_left(self, table: Table) -> float | None:
        """Seconds left on the idle clock of the coming battle, or None if not started."""
        clock = self._idle.get(table.id)
        if clock is None or clock[0] != table.game.battles + 1 or table.status != "playing":
            return None
        return max(0.0, clock[1] - time.monotonic())

    def idle_message(self, table: Table) -> dict[str, Any]:
        """The ``idle`` message: the coming battle's idle clock started (``left`` seconds)."""
        left = self.idle_left(table)
        return {"type": "idle", "seq": None, "battle": table.game.battles + 1,
                "left": None if left is None else round(left, 1)}

    def _arm(self, table: Table, seat: int, by: str, delay: float) -> None:
        game_id, battle = table.id, table.game.battles + 1
        self._timers.arm(game_id, delay, lambda: self._fire(game_id, seat, by, battle))

    async def _fire(self, game_id: str, seat: int, by: str, battle: int) -> None:
        with contextlib.suppress(TableError):
            await self.flip(game_id, seat, by, battle)

    def timers(self, game_id: str) -> int:
        """How many timers are armed for ``game_id`` (for tests)."""
        return self._timers.count(game_id)

    # -- presence and messages --------------------------------------------
    def online(self, game_id: str) -> set[int]:
        """Seats of ``game_id`` with at least one open connection (to any process)."""
        here = {s for s, n in self._online.get(game_id, Counter()).items() if n > 0}
        for seats in self._remote_online.get(game_id, {}).values():
            here |= seats
        return here

    async def connect(self, game_id: str, seat: int | None) -> None:
        """Count a connection of ``seat``; the first one publishes ``presence``.

        A spectator (``seat`` None) changes the ``watchers`` count; a player
        who was gone takes their seat back (``gone`` false).
        """
        if seat is None:
            self._watchers[game_id] += 1
            await self._publish_watchers(game_id)
            return
        counter = self._online.setdefault(game_id, Counter())
        counter[seat] += 1
        if counter[seat] == 1:
            await self.bus.publish(game_id, {"type": "presence", "seq": None,
                                             "seat": seat, "online": True})
            gone = self._gone.get(game_id, set())
            if seat in gone:
                gone.discard(seat)
                await self.bus.publish(game_id, {"type": "gone", "seq": None,
                                                 "seat": seat, "gone": False})
                table = self._tables.get(game_id)
                if table is not None and seat in table.to_flip():
                    self._arm_round(table)  # their own flip timer again

    async def disconnect(self, game_id: str, seat: int | None) -> None:
        """Uncount a connection of ``seat``; the last one publishes ``presence``."""
        if seat is None:
            self._watchers[game_id] -= 1
            if self._watchers[game_id] <= 0:
                del self._watchers[game_id]
            await self._publish_watchers(game_id)
            return
        counter = self._online.setdefault(game_id, Counter())
        counter[seat] -= 1
        if counter[seat] <= 0:
            del counter[seat]
            await self.bus.publish(game_id, {"type": "presence", "seq": None,
                                             "seat": seat, "online": False})
            self._arm_gone(game_id, seat)

    def message(
        self, table: Table, viewer: int | None, event: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The message for ``viewer``: a state snapshot, or ``event`` (see :func:`view_message`)."""
        return view_message(table, viewer, event, self.online(table.id),
                            self.gone(table.id), self.watchers(table.id),
                            idle=self.idle_left(table))

    # -- spectators, gone players, handing over, new links (issue 5) -------
    def watchers(self, game_id: str) -> int:
        """How many spectator connections ``game_id`` has (on every process)."""
        return max(0, self._watchers.get(game_id, 0)) + sum(
            self._remote_watchers.get(game_id, {}).values())

    def gone(self, game_id: str) -> set[int]:
        """Seats of ``game_id`` played for because their player is away."""
        return set(self._gone.get(game_id, ()))

    async def _publish_watchers(self, game_id: str) -> None:
        """Publish this process's spectator count (pages are sent the site-wide sum)."""
        await self.bus.publish(game_id, {"type": "watchers", "seq": None,
                                         "count": max(0, self._watchers.get(game_id, 0))})

    def _arm_gone(self, game_id: str, seat: int) -> None:
        """In ``settings.gone_after`` seconds, play for ``seat`` if still away."""
        # a key of its own: not cancelled by the next battle
        self._timers.arm(f"{game_id}#gone", self.settings.gone_after,
                         lambda: self.mark_gone(game_id, seat))

    async def mark_gone(self, game_id: str, seat: int) -> bool:
        """Play for ``seat`` from now on if its player is away (no connection).

        Returns:
            True if the seat is now gone (and ``gone`` was published).
        """
        table = await self.get(game_id)
        if (table is None or table.status != "playing" or seat in self.online(game_id)
                or table.record.seats[seat].kind != "human"
                or seat in self._gone.get(game_id, ())):
            return False
        self._gone.setdefault(game_id, set()).add(seat)
        await self.bus.publish(game_id, {"type": "gone", "seq": None, "seat": seat,
                                         "gone": True})
        if seat in table.to_flip() and not table.record.seats[seat].auto_flip:
            self._arm(table, seat, "gone", self.settings.computer_delay)
        return True

    async def hand_over(self, game_id: str, by: int | None, seat: int) -> None:
        """The creator lets the computer play the seat of a gone player.

        Raises:
            TableError: ``no_game``, ``not_creator``, ``not_playing``,
                ``not_gone`` (the seat's player is not gone).
        """
        if seat not in self._gone.get(game_id, ()):
            raise TableError("not_gone")
        table: Table = await self._change(game_id, lambda t: (t.hand_over(by, seat), t)[1])
        self._gone.get(game_id, set()).discard(seat)
        if seat in table.to_flip():
            self._arm(table, seat, "computer", self.settings.computer_delay)

    async def relink(self, game_id: str, seat: int) -> str:
        """Give ``seat`` a new secret (its old links and cookies stop working).

        Returns:
            The new secret.

        Raises:
            TableError: ``no_game``, ``not_seated``.
        """
        secret = new_secret()
        await self._change(game_id, lambda t: t.relink(seat, hash_secret(secret)))
        return secret

    # -- several processes (issue 6) --------------------------------------
    async def _reload(self, game_id: str, previous: Table) -> Table | None:
        """Bring a stale cached table up to the store (hold the lock).

        First by applying the stored events it missed (a query, no replay);
        when one cannot be applied, by loading the game again and replaying
        it. Timers are re-armed when the game moved on.
        """
        self._dirty.discard(game_id)  # a remote event during the query marks it again
        if await self._catch_up(previous) is not None:
            return previous
        self._dirty.discard(game_id)
        record = await self.store.load(game_id)
        if record is None:
            self._tables.pop(game_id, None)
            return None
        table = self._tables[game_id] = Table(record)
        if table.status == "playing" and (
            not self._timers.count(game_id) or previous.game.battles != table.game.battles
            or previous.status != table.status
        ):
            self._arm_round(table)
        return table

    async def _catch_up(self, table: Table) -> int | None:
        """Bring the cached ``table`` up to the store by applying the events it
        missed (hold the lock); re-arm its timers if it moved on.

        Returns:
            How many events were applied (0: it was current), or None when one
            could not be (``table`` is then marked for a reload).
        """
        missed = await self.catch_up(table.id, table.seq)
        for event in missed:
            if not advance(table, event):
                self._dirty.add(table.id)
                return None
        if missed and table.status == "playing":
            self._arm_round(table)
        return len(missed)

    async def catch_up(self, game_id: str, seq: int) -> list[dict[str, Any]]:
        """The stored events of ``game_id`` above ``seq`` as bus messages, in order."""
        return [{"type": e.type, "seq": e.seq, **e.data}
                for e in await self.store.events_since(game_id, seq)]

    async def _on_remote(self, game_id: str, event: dict[str, Any], origin: str = "") -> None:
        """Another process published ``event``: bring the cached table up to it.

        Called by the bus before this process's subscribers see the event, so
        messages are rendered from a table at least that new. Timers of the
        new battle are armed here too: every process following a game arms
        them, and the locked, version-checked flip makes all but one a no-op.
        """
        seq = event.get("seq")
        kind = event.get("type")
        if kind == "presence" and origin:
            seats = self._remote_online.setdefault(game_id, {}).setdefault(origin, set())
            (seats.add if event.get("online") else seats.discard)(int(event["seat"]))
            return
        if kind == "watchers" and origin:
            self._remote_watchers.setdefault(game_id, {})[origin] = int(event.get("count") or 0)
            return
        if kind == "gone":  # the process that saw the player leave (or come back) says so
            gone = self._gone.setdefault(game_id, set())
            (gone.add if event.get("gone") else gone.discard)(int(event["seat"]))
            return
        table = self._tables.get(game_id)
        if seq is None or table is None or game_id in self._dirty or seq <= table.seq:
            return
        if not self._lock(game_id).locked() and advance(table, event):
            if event["type"] in ("started", "battle") and table.status == "playing":
                self._arm_round(table)
            elif event["type"] == "flipped" and table.status == "playing":
                self._start_idle(table, event)  # its process publishes the idle message
            self._observe_status(event)
            return
        # A local change is in flight (its save will fail and retry) or the event
        # cannot be applied: reload on the next use. Never wait here: the bus
        # reader serves every game of this process.
        self._dirty.add(game_id)

    def _trusted(self, game_id: str) -> bool:
        """True when the cached table of ``game_id`` is known to be current.

        With one process always (unless a change failed); with several only
        while this process follows the game on the bus and missed nothing.
        """
        if game_id in self._dirty:
            return False
        return not self._distributed or bool(self.bus.following(game_id))  # type: ignore[attr-defined]

    async def _on_hello(self, game_id: str) -> None:
        """Another process now follows ``game_id``: tell it who is connected here,
        how many spectators, and which seats are played for while away."""
        for seat in sorted({s for s, n in self._online.get(game_id, Counter()).items()
                            if n > 0}):
            await self.bus.publish(game_id, {"type": "presence", "seq": None,
                                             "seat": seat, "online": True})
        if self._watchers.get(game_id, 0) > 0:
            await self._publish_watchers(game_id)
        for seat in sorted(self._gone.get(game_id, ())):
            await self.bus.publish(game_id, {"type": "gone", "seq": None, "seat": seat,
                                             "gone": True})

    def _on_reset(self, game_id: str | None) -> None:
        """The bus may have missed events (of ``game_id``, or of every game)."""
        if game_id is None:
            self._dirty.update(self._tables)
        elif game_id in self._tables:
            self._dirty.add(game_id)

    def _on_unfollow(self, game_id: str) -> None:
        """Nobody here follows ``game_id`` now: its cached table may go stale."""
        self._remote_online.pop(game_id, None)  # no longer kept up to date
        self._remote_watchers.pop(game_id, None)
        if self._distributed and game_id in self._tables:
            self._dirty.add(game_id)

    # -- metrics ------------------------------------------------------------
    def _observe(self, table: Table, events: list[dict[str, Any]],
                 latency: float | None) -> None:
        """Count battles this process played; refresh the games gauge on start/end."""
        for event in events:
            if event["type"] == "battle":
                battle_played(table.variant.name, latency)
            self._observe_status(event)

    def _observe_status(self, event: dict[str, Any]) -> None:
        if event["type"] in ("started", "over") and not self._closed:
            self._timers.spawn(self.refresh_games_in_progress())

    async def refresh_games_in_progress(self) -> int:
        """Count the site's games being played (from the store) and report it."""
        try:
            n = await self.store.count_playing()
        except Exception:  # noqa: BLE001 - a metric must never break play
            log.warning("counting games in progress failed", exc_info=True)
            return -1
        set_games_in_progress(n)
        return n

    def start_gauges(self, interval: float = 15.0) -> None:
        """Refresh the games-in-progress gauge now and every ``interval`` seconds."""

        async def loop() -> None:
            while not self._closed:
                await self.refresh_games_in_progress()
                await asyncio.sleep(interval)

        if self._gauge_task is None:
            self._gauge_task = asyncio.create_task(loop(), name="games-in-progress")

    def start_presence_checks(self, interval: float | None = None) -> None:
        """With several processes: every ``interval`` seconds (default a third of
        the bus's ``liveness_ttl``) run :meth:`forget_dead_processes`."""
        alive = getattr(self.bus, "alive", None)
        if alive is None or self._presence_task is not None:
            return
        every = interval or float(getattr(self.bus, "liveness_ttl", 15.0)) / 3

        async def loop() -> None:
            while not self._closed:
                await asyncio.sleep(every)
                try:
                    await self.forget_dead_processes()
                except Exception:  # noqa: BLE001 - try again next time
                    log.warning("presence check failed", exc_info=True)

        self._presence_task = asyncio.create_task(loop(), name="presence-checks")

    async def forget_dead_processes(self) -> set[str]:
        """Forget the seats and spectators of processes that stopped without saying so.

        Their seats not connected anywhere else go offline (``presence``
        published, the gone clock armed) and spectator counts drop.

        Returns:
            The ids of the processes found dead.
        """
        origins = {o for per in self._remote_online.values() for o in per}
        origins |= {o for per in self._remote_watchers.values() for o in per}
        if not origins:
            return set()
        dead = origins - await self.bus.alive(origins)  # type: ignore[attr-defined]
        for game_id, per_origin in list(self._remote_online.items()):
            lost: set[int] = set()
            for origin in dead & per_origin.keys():
                lost |= per_origin.pop(origin)
            for seat in sorted(lost - self.online(game_id)):
                await self.bus.publish(game_id, {"type": "presence", "seq": None,
                                                 "seat": seat, "online": False})
                self._arm_gone(game_id, seat)
        for game_id, counts in list(self._remote_watchers.items()):
            if dead & counts.keys():
                for origin in dead:
                    counts.pop(origin, None)
                await self._publish_watchers(game_id)
        return dead

    async def close(self) -> None:
        """Cancel every timer (tables stay in the store)."""
        self._closed = True
        for task in (self._gauge_task, self._presence_task):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        await self._timers.close()


STALE_RETRIES = 8
#: Seconds added to the idle clock of a battle found half-flipped when a table
#: is loaded (after a restart): a page retries its connection at most 15 s apart.
RECONNECT_GRACE = 15.0
#: Events that never change a seat: saving them skips the seats' update.
_SEATLESS = frozenset({"flipped", "battle", "over"})
log = logging.getLogger("cardwar.tables")


def _stored(event: dict[str, Any]) -> StoredEvent:
    data = {k: v for k, v in event.items() if k not in ("type", "seq")}
    return StoredEvent(event["seq"], event["type"], data)
