"""The :class:`TableService`: tables kept in the store, events sent on the bus.

(About 450 lines: the public face of the tables package — create, join,
flip, connect — each a few lines over :meth:`apply`; clocks, presence,
cluster sync, the cache, choices and rematch live in their own modules.)

Every change runs through :meth:`TableService.apply`, under the game's
lock: use the cached table (:mod:`.cache`; brought up to the store first
when stale, :mod:`.cluster`), apply, save (optimistically, by ``seq``),
publish, then arm the timers (:mod:`.clocks`). Who is connected is
:mod:`.presence`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Hashable, Mapping
from contextlib import AbstractAsyncContextManager
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from cardwar.bus import Bus, Message, Subscription
from cardwar.engine import get_variant, new_seed
from cardwar.obs.metrics import set_games_in_progress, set_tables_in_memory, stale_write
from cardwar.settings import Settings

from .cache import TableCache
from .clocks import Clocks
from .cluster import Cluster
from .errors import ErrorCode, TableError
from .events import Event, FlipBy, Idle, ReactionKey, seats_changed
from .listing import OpenTables
from .presence import Presence
from .reactions import Reactions
from .records import GameStore, StaleWriteError, StoredEvent
from .secrets import hash_secret, new_game_id, new_secret
from .slap_kind import SlapKind, load_record, slap
from .slap_timers import SlapTimers
from .slap_timing import SlapTiming
from .stacked import stacked_hands
from .table import Table
from .triggers import Triggers
from .views import view_message

T = TypeVar("T")

#: Tries of a change that keeps losing its version check to other processes.
STALE_RETRIES = 8
#: Seconds between two counts of the games in progress set off by games starting or ending.
RECOUNT_EVERY = 1.0
log = logging.getLogger("cardwar.tables")


def stored(event: Event) -> StoredEvent:
    """``event`` as the store keeps it."""
    data = {k: v for k, v in event.items() if k not in ("type", "seq")}
    return StoredEvent(event["seq"], event["type"], data)


class TableService:
    """Online tables for one server process.

    Args:
        store: where games live (migrated already).
        bus: where events are published.
        settings: timers (``flip_timeout``, ``computer_delay``, ``peace_show``,
            ``idle_away``, ``gone_after``)
            and ``testing_stacked_deck``.
        clock: monotonic seconds for the timers' waits (a test passes one it
            moves by hand; the timers themselves run on the event loop).

    Attributes:
        cache, clocks, presence, cluster, reactions: its parts (see the module
            docstring).
    """

    def __init__(self, store: GameStore, bus: Bus, settings: Settings,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store = store
        self.bus = bus
        self.settings = settings
        self.cache = TableCache(settings.tables_in_memory, settings.table_idle, clock)
        self.clocks = Clocks(settings, self.flip, self._is_gone, clock)
        self.presence = Presence(bus, self.clocks, settings, self.get, self.cache.get,
                                 self.leave)
        self.open_tables = OpenTables(store, bus, settings)
        #: what applied events trigger, here and from other processes (:mod:`.triggers`)
        #: the slap games' timers: their judges' deadlines, computer slaps (:mod:`.slap_timers`)
        self.slaps = SlapTimers(self.clocks.timers, self.apply, clock)
        self.triggers = Triggers(bus, self.clocks, self.presence, self.open_tables,
                                 self._observe_status, self.slaps)
        self.cluster = Cluster(store, bus, self.cache, self.clocks, self.triggers)
        self.reactions = Reactions(bus)
        self._gauges: asyncio.Task[None] | None = None
        #: lobby -> its last activity seen by this process (a change, a page opened or closed)
        self._active: dict[str, datetime] = {}
        self._closed = False
        self._recounting = self._recount_again = False

    def _is_gone(self, game_id: str, seat: int) -> bool:
        return self.presence.is_gone(game_id, seat)

    # -- reading -----------------------------------------------------------
    async def get(self, game_id: str) -> Table | None:
        """Return the table ``game_id`` (from memory or the store), or None.

        A table loaded from the store in the middle of a game gets its timers
        armed again, so a restarted server carries on by itself.
        """
        table = self.cache.current(game_id)
        if table is not None and self.cluster.following(game_id):
            return table
        async with self.cache.lock(game_id):
            table = self.cache.get(game_id)
            if table is not None and not self.cluster.trusted(game_id):
                table = await self.cluster.refresh(game_id, table)
            if table is None:
                record = await load_record(self.store, game_id)
                if record is None:
                    return None
                table = self.cache.put(Table(record))
                if table.status == "playing":
                    self.clocks.arm_round(table)
                    for rec in table.record.seats:  # nobody is here yet after a restart
                        if rec.kind == "human":
                            self.presence.arm_gone(table.id, rec.seat)
            return table

    async def settled(self, game_id: str) -> Table | None:
        """The table ``game_id`` once no change of it is in flight (a change
        being saved is waited for): what a page's snapshot is made from, so
        its ``seq`` is always a stored one."""
        async with self.cache.lock(game_id):
            pass
        return await self.get(game_id)  # no change can start in between: no await

    # -- changing ------------------------------------------------------------
    async def create(
        self,
        variant: str,
        players: int,
        *,
        face_down: int | None = None,
        computers: tuple[int, ...] = (),
        nickname: str,
        creator_seat: int = 0,
        reserved: dict[int, str] | None = None,
        public: bool = False,
        locale: str = "en",
        options: Mapping[str, Any] | None = None,
    ) -> tuple[Table, str]:
        """Create a game with the creator in ``creator_seat``; return (table,
        creator's secret). ``reserved``: seats kept for a rematch's players;
        ``public``: listed on the open tables page; ``locale``: the creator's
        language; ``options``: a slap game's table options
        (:func:`~.slap_kind.table_options`; see :meth:`Table.new`).

        The deal is a fresh seed (or the stacked deck when
        ``settings.testing_stacked_deck`` is true).

        Raises:
            OptionError: unknown variant, players or face_down not allowed by it.
            ValueError: bad computer or reserved seats.
        """
        secret = new_secret()
        v = get_variant(variant)
        if self.settings.testing_stacked_deck:
            deal: dict[str, Any] = {"hands": stacked_hands(v, players)}
        else:
            deal = {"seed": self.settings.testing_seed or new_seed()}
        table = Table.new(new_game_id(), v.name, players, face_down=face_down,
                          computers=computers, creator=nickname,
                          creator_hash=hash_secret(secret), creator_seat=creator_seat,
                          reserved=reserved, public=public, locale=locale,
                          options=options, **deal)
        events = table.take_outbox()
        await self.store.create(table.record, [stored(e) for e in events])
        self.cache.put(table)
        await self.open_tables.changed(table)
        return table, secret

    async def apply(self, game_id: str, action: Callable[[Table], T],
                    waited: bool = True) -> tuple[Table, T]:
        """Apply ``action(table)`` under the game's lock, then save and publish.

        The save is a version check on ``seq``: when another process changed
        the game first (:class:`StaleWriteError`), the cached table catches up
        with the stored events it missed and ``action`` is applied again, so a
        battle is never played twice nor lost. With several processes the
        action is tried on a clone of the cached table, kept once saved: a
        lost check leaves the cache as it was, a few events behind, instead
        of having to be rebuilt by replaying the whole game. A failed save
        drops the cached table (it is read back from the store); a page's
        snapshot waits for the change in flight (:meth:`settled`), so no page
        is shown an event number that was not stored.

        Args:
            game_id: the game.
            action: changes the table (emitting events) or raises TableError;
                applied to a table as current as the store.
            waited: someone waits for the result (the flip-to-result metric).

        Returns:
            (the table after the change, what ``action`` returned).

        Raises:
            TableError: ``no_game``, or what ``action`` raised.
            StaleWriteError: lost the version check :data:`STALE_RETRIES` times.
        """
        entered = time.perf_counter()
        distributed = self.bus.distributed
        async with self.cache.lock(game_id):
            refusal: TableError | None = None
            for attempt in range(1, STALE_RETRIES + 1):
                table = self.cache.get(game_id)
                fresh = table is None or not self.cluster.trusted(game_id)
                # what another process changed arms timers here only if this
                # one follows the game (Cluster.catch_up_table)
                arm = self.cluster.following(game_id)
                if table is None:
                    self.cache.mark_fresh(game_id)
                    record = await load_record(self.store, game_id)
                    if record is None:
                        raise TableError(ErrorCode.NO_GAME)
                    table = self.cache.put(Table(record))
                elif fresh:
                    table = await self.cluster.refresh(game_id, table, arm=arm)
                    if table is None:
                        raise TableError(ErrorCode.NO_GAME)
                work = table.clone() if distributed else table
                before = work.seq
                try:
                    value = action(work)
                    events = work.take_outbox()
                    if events:
                        await self.store.save(work.record, [stored(e) for e in events],
                                              before, seats=seats_changed(events))
                except TableError as exc:
                    work.take_outbox()
                    if fresh or not distributed:
                        raise
                    refusal = exc
                    # maybe refused by a stale cache: catch up and retry (or reload
                    # and retry); refuse when the cache was current after all
                    if await self.cluster.catch_up_table(table, arm=arm) == 0:
                        raise
                    continue
                except StaleWriteError:
                    stale_write()  # another process got there first: catch up, retry
                    if attempt == STALE_RETRIES:
                        self.cache.drop(game_id)
                        raise
                    if not distributed or not await self.cluster.catch_up_table(table, arm=arm):
                        self.cache.mark_stale(game_id)  # nothing to catch up with: reload
                    continue
                except BaseException:
                    self.cache.drop(game_id)  # reload from the store next time
                    raise
                break
            else:  # refused at every try by a cache that kept catching up: refused
                self.cache.mark_stale(game_id)
                assert refusal is not None  # the only way to the last try's end
                raise refusal
            table = self.cache.put(work)
            if table.status == "lobby" and events:
                self._active[game_id] = datetime.now(UTC)
            else:
                self._active.pop(game_id, None)
            await self.triggers.after(table, events, here=True,
                                      latency=time.perf_counter() - entered if waited else None)
            return table, value

    async def join(self, game_id: str, nickname: str) -> tuple[int, str]:
        """Seat ``nickname`` (already clean) in the first open seat.

        Returns:
            (seat, the new seat's secret).

        Raises:
            TableError: ``no_game``, ``not_lobby``, ``no_seat``, ``name_taken``.
        """
        secret = new_secret()
        _, seat = await self.apply(game_id, lambda t: t.join(nickname, hash_secret(secret)))
        return seat, secret

    async def start(self, game_id: str, seat: int | None) -> None:
        """Start the game for its creator, filling open and reserved seats with computers.

        Raises:
            TableError: ``no_game`` (also a lobby expired and not removed yet),
                ``not_creator``, ``not_lobby``.
        """
        current = await self.get(game_id)
        if current is None or await self.lobby_expired(current):
            raise TableError(ErrorCode.NO_GAME)
        table, _ = await self.apply(game_id, lambda t: t.start(seat))
        for rec in table.record.seats:
            if rec.kind == "human" and rec.seat not in self.online(game_id):
                self.presence.arm_gone(game_id, rec.seat)

    async def start_if_alone(self, table: Table) -> bool:
        """Start ``table`` at once when its creator is the only human and every
        other seat is a computer's (a game against the computer needs no lobby;
        a rematch of one neither); True when it started.

        Raises:
            TableError: ``no_game``.
        """
        seats = table.record.seats
        creator = table.creator
        if table.status != "lobby" or creator is None or any(
                s.kind != "computer" for s in seats if s.seat != creator):
            return False
        await self.start(table.id, creator)
        return True

    async def flip(self, game_id: str, seat: int | Callable[[Table], int],
                   by: FlipBy = "player", battle: int | None = None) -> bool:
        """Flip for ``seat`` (see :meth:`Table.flip`); True if it counted.

        ``seat`` may be ``seat(table) -> int``, called on the table the flip is
        applied to (under its lock; it raises TableError to refuse): a socket
        checks its seat there, so one flip looks its table up once.

        A flip by the player that does not count (the computer already flipped
        for their away seat in the coming battle) still takes the seat back
        (:meth:`Presence.back`); nothing is played twice.

        Raises:
            TableError: ``no_game``, ``not_playing``, ``out``, or what ``seat`` raised.
        """
        def act(t: Table) -> tuple[int, bool]:
            s = seat(t) if callable(seat) else seat
            return s, t.flip(s, by, battle)

        table, (flipper, counted) = await self.apply(game_id, act, waited=by == "player")
        if not counted and by == "player" and table.status == "playing":
            await self.presence.back(game_id, flipper)
        return counted

    async def set_auto(self, game_id: str, seat: int, on: bool) -> None:
        """Switch auto-flip for ``seat``; switching it on mid-battle flips soon,
        switching it off cancels the flip it had armed (the idle clock, if it
        runs, flips for the seat instead).

        Raises:
            TableError: ``no_game``, ``not_seated``.
        """
        await self.apply(game_id, lambda t: t.set_auto(seat, on))  # re-arms (:mod:`.triggers`)

    async def put(self, game_id: str, seat: int | Callable[[Table], int],
                  card: int | None = None) -> bool:
        """In a slap game, the seat to move puts down its card (a flip by the player,
        :meth:`flip`); ``card``: the number the page expects it to have (another card
        put down meanwhile: ignored). A pile waiting to be taken: ignored too.
        True when the card went down.

        Raises:
            TableError: ``no_game``, ``not_playing``, ``not_your_turn``, or what
                ``seat`` raised.
        """
        def act(t: Table) -> tuple[int, bool]:
            s = seat(t) if callable(seat) else seat
            kind = t.kind
            if t.status == "playing" and isinstance(kind, SlapKind) and (
                    kind.game.window is not None
                    or (card is not None and card != kind.game.cards_played + 1)):
                return s, False
            return s, t.flip(s, "player")

        table, (putter, counted) = await self.apply(game_id, act)
        if not counted and table.status == "playing":
            await self.presence.back(game_id, putter)
        return counted

    async def slap(self, game_id: str, seat: int | Callable[[Table], int], pile: int,
                   timing: SlapTiming | None = None) -> bool:
        """``seat`` slapped pile ``pile`` of a slap game (:func:`~.slap_kind.slap`;
        any seated player, to move or not); ``timing``: its figures, measured by
        the socket (None: timed by the judge). A player away is back. True when
        the judge decided something at once, False when the slap is held.

        Raises:
            TableError: ``no_game``, ``not_playing``, ``bad_message``, or what
                ``seat`` raised.
        """
        def act(t: Table) -> tuple[int, bool]:
            s = seat(t) if callable(seat) else seat
            return s, slap(t, s, pile, timing)

        _, (slapper, decided) = await self.apply(game_id, act)
        if self.presence.is_gone(game_id, slapper):
            await self.presence.back(game_id, slapper)
        return decided

    async def hand_over(self, game_id: str, by: int | None, seat: int) -> None:
        """The creator lets the computer play the seat of a gone player.

        Raises:
            TableError: ``no_game``, ``not_creator``, ``not_playing``,
                ``not_gone`` (the seat's player is not gone).
        """
        if not self.presence.is_gone(game_id, seat):
            raise TableError(ErrorCode.NOT_GONE)
        await self.apply(game_id, lambda t: t.hand_over(by, seat))  # re-arms (:mod:`.triggers`)

    async def leave(self, game_id: str, seat: int) -> None:
        """``seat``'s player leaves: the computer plays the seat, or in the lobby it is
        open again (:meth:`Table.leave`; presence and timers: :mod:`.triggers`).

        Raises:
            TableError: ``no_game``, ``not_seated``, ``not_playing``.
        """
        await self.apply(game_id, lambda t: t.leave(seat))

    async def relink(self, game_id: str, seat: int) -> str:
        """Give ``seat`` a new secret (its old links and cookies stop working).

        Returns:
            The new secret.

        Raises:
            TableError: ``no_game``, ``not_seated``.
        """
        secret = new_secret()
        await self.apply(game_id, lambda t: t.relink(seat, hash_secret(secret)))
        return secret

    # -- what pages are sent -----------------------------------------------------
    def message(self, table: Table, viewer: int | None,
                event: Message | None = None) -> dict[str, Any]:
        """The message for ``viewer``: a state snapshot, or ``event`` (see :func:`view_message`)."""
        return view_message(table, viewer, event, self.online(table.id),
                            self.gone(table.id), self.watchers(table.id),
                            idle=self.clocks.idle_left(table))

    def online(self, game_id: str) -> set[int]:
        """Seats of ``game_id`` connected to any process (:meth:`Presence.online`)."""
        return self.presence.online(game_id)

    def gone(self, game_id: str) -> set[int]:
        """Seats of ``game_id`` played for while away (:meth:`Presence.gone`)."""
        return self.presence.gone(game_id)

    def watchers(self, game_id: str) -> int:
        """Spectators of ``game_id`` on every process (:meth:`Presence.watchers`)."""
        return self.presence.watchers(game_id)

    def idle_left(self, table: Table) -> float | None:
        """Seconds left on ``table``'s idle clock (:meth:`Clocks.idle_left`)."""
        return self.clocks.idle_left(table)

    def peace_shown(self, pace: str) -> float:
        """Seconds a peace stays on the table at ``pace`` (:meth:`Clocks.peace_shown`)."""
        return self.clocks.peace_shown(pace)

    async def react(self, table: Table, seat: int | None, key: ReactionKey,
                    connection: Hashable = None) -> None:
        """Publish a reaction (:meth:`Reactions.react`).

        Raises:
            TableError: ``not_seated``, ``too_many_reactions``.
        """
        await self.reactions.react(table, seat, key, connection)

    def subscribe(self, game_id: str) -> AbstractAsyncContextManager[Subscription]:
        """Follow ``game_id``'s messages on the bus (:meth:`Bus.subscribe`)."""
        return self.bus.subscribe(game_id)

    def idle_message(self, table: Table) -> Idle:
        """The ``idle`` message of ``table`` (:meth:`Clocks.idle_message`)."""
        return self.clocks.idle_message(table)

    async def connect(self, game_id: str, seat: int | None, key: Hashable = None) -> None:
        """A page connected (:meth:`Presence.connect`; ``key``: its connection);
        in the lobby, activity."""
        await self.presence.connect(game_id, seat, key)
        self._touch(game_id)

    async def disconnect(self, game_id: str, seat: int | None, key: Hashable = None) -> None:
        """A page went away (:meth:`Presence.disconnect`); in the lobby, activity."""
        await self.presence.disconnect(game_id, seat, key)
        self._touch(game_id)

    async def recount(self, game_id: str, key: Hashable, seat: int) -> bool:
        """The connection ``key`` sits at ``seat`` now (:meth:`Presence.recount`)."""
        return await self.presence.recount(game_id, key, seat)

    # -- lobbies that expire -------------------------------------------------------
    def _touch(self, game_id: str) -> None:
        """Note activity in ``game_id`` if it is a lobby: here at once, in the store
        in the background (a page never waits for it)."""
        table = self.cache.get(game_id)
        if table is None or table.status != "lobby" or self._closed:
            return
        self._active[game_id] = datetime.now(UTC)

        async def touch() -> None:
            try:
                await self.store.touch([game_id])
            except Exception:
                log.warning("could not note activity in lobby %s", game_id, exc_info=True)

        self.clocks.timers.spawn(touch())

    async def lobby_expired(self, table: Table) -> bool:
        """True when ``table`` is a lobby whose last activity (here, in the store:
        on any process) is more than ``settings.lobby_ttl`` seconds ago: it is no
        longer served, even before the sweep removes it. A lobby with a page
        open is never expired."""
        if table.status != "lobby" or self.online(table.id) or self.watchers(table.id):
            return False
        ttl = timedelta(seconds=self.settings.lobby_ttl)
        now = datetime.now(UTC)
        last = max(self._active.get(table.id, table.record.created_at),
                   table.record.updated_at or table.record.created_at)
        if now - last < ttl:
            return False
        stored = await self.store.load(table.id)  # another process may have seen activity
        if stored is not None and stored.updated_at is not None and now - stored.updated_at < ttl:
            self._active[table.id] = stored.updated_at
            return False
        return True

    def open_lobbies(self) -> list[str]:
        """The games with a page open in this process: those still in the lobby
        are kept from expiring (:meth:`GameStore.touch` touches only lobbies)."""
        return [g for g in self.presence.local_games()
                if (t := self.cache.get(g)) is None or t.status == "lobby"]

    async def catch_up(self, game_id: str, seq: int) -> list[Message]:
        """The stored events of ``game_id`` above ``seq`` (:meth:`Cluster.catch_up`)."""
        return await self.cluster.catch_up(game_id, seq)

    # -- metrics and the life of the service ---------------------------------------
    def _observe_status(self, game_id: str, event: Mapping[str, object]) -> None:
        """A game started or ended: refresh the games-in-progress gauge; an
        ended game's clocks and gone seats are let go.

        The count reads the whole games table, so games starting and ending
        together are counted at most once every :data:`RECOUNT_EVERY`
        seconds: the first at once, the others together after it.
        """
        if event["type"] == "over":
            self.clocks.forget(game_id)
            self.presence.forget(game_id)
        if event["type"] not in ("started", "over") or self._closed:
            return
        if self._recounting:
            self._recount_again = True
            return
        self._recounting = True
        self.clocks.timers.spawn(self._recount())

    async def _recount(self) -> None:
        try:
            while True:
                self._recount_again = False
                await self.refresh_games_in_progress()
                await asyncio.sleep(RECOUNT_EVERY)
                if not self._recount_again:
                    return
        finally:
            self._recounting = False

    async def refresh_games_in_progress(self) -> int:
        """Count the site's games being played (from the store) and report it;
        -1 when the store could not be asked."""
        try:
            n = await self.store.count_playing()
        except Exception:
            log.warning("counting games in progress failed", exc_info=True)
            return -1
        set_games_in_progress(n)
        return n

    def start_background(self, gauge_interval: float = 15.0,
                         presence_interval: float | None = None) -> None:
        """Start the periodic jobs: the games-in-progress and tables-in-memory
        gauges every ``gauge_interval`` seconds and, with several processes, the presence
        checks (:meth:`Presence.start_checks`)."""

        async def gauges() -> None:
            while True:
                await self.refresh_games_in_progress()
                set_tables_in_memory(self.cache.by_status())
                await asyncio.sleep(gauge_interval)

        if self._gauges is None:
            self._gauges = asyncio.create_task(gauges(), name="games-in-progress")
        self.presence.start_checks(presence_interval)

    async def close(self) -> None:
        """Cancel every timer and periodic job (tables stay in the store)."""
        self._closed = True
        if self._gauges is not None:
            self._gauges.cancel()
            with contextlib.suppress(BaseException):
                await self._gauges
        await self.clocks.close()  # first: a flip that finishes may still say presence
        await self.presence.close()
