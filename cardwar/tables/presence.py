"""Who is online, away or watching, counted over every server process.

Each process counts the connections it serves: a seat is *online* while it
has one somewhere, spectators are summed. A seat whose player has been away
for ``settings.gone_after`` seconds is *gone*: the computer flips for it
until they come back. Each process publishes what changes here
(``presence``, ``watchers``, ``gone``) and keeps what the others publish, by
process id. A process that starts following a game says ``hello`` on the
bus and the others answer with their presence there (:meth:`Presence.hello`).

A process that dies cannot say its players left: the bus keeps a liveness
key per process, and :meth:`Presence.forget_dead_processes` (run every third
of ``bus.liveness_ttl``) shows the players of a dead one offline. A key
missing once is not enough (a restarted Redis has forgotten every key until
each process says it is alive again): a process is dead when its key is
missing at two checks in a row. Whatever was published while the bus was
down may be lost, so when it is back each process says again who is
connected to it (:meth:`Presence.recovered`): a page shown someone offline
by mistake is corrected.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter
from collections.abc import Awaitable, Callable, Hashable

from cardwar.bus import Bus, Message
from cardwar.settings import Settings

from .clocks import Clocks
from .events import Gone, Online, Watchers
from .table import Table

log = logging.getLogger("cardwar.tables")
#: What presence says and hears, and why (DEBUG: ``CARDWAR_DEBUG_LOGS=cardwar.presence``).
trace = logging.getLogger("cardwar.presence")


class Presence:
    """Connections, spectators and gone players of every game this process follows.

    Args:
        bus: where changes are published.
        clocks: the timers (a gone seat is flipped for).
        settings: ``computer_delay``.
        table: ``await table(game_id)``: the game's table, or None.
        cached: ``cached(game_id)``: the game's cached table, or None.
        leave: ``await leave(game_id, seat)``: the seat's player leaves the table
            (a creator away for ``gone_after`` seconds leaves the lobby).
    """

    def __init__(self, bus: Bus, clocks: Clocks, settings: Settings,
                 table: Callable[[str], Awaitable[Table | None]],
                 cached: Callable[[str], Table | None],
                 leave: Callable[[str, int], Awaitable[object]] | None = None) -> None:
        self.bus = bus
        self.clocks = clocks
        self.settings = settings
        self._table = table
        self._cached = cached
        self._leave = leave
        self._online: dict[str, Counter[int]] = {}
        # game -> connection -> the seat it is counted at (numbered as _online)
        self._counted: dict[str, dict[Hashable, int]] = {}
        self._watchers: Counter[str] = Counter()
        self._gone: dict[str, set[int]] = {}
        # seats and spectators connected to other processes: game -> process id -> ...
        self._remote_online: dict[str, dict[str, set[int]]] = {}
        self._remote_watchers: dict[str, dict[str, int]] = {}
        self._checks: asyncio.Task[None] | None = None
        # processes whose liveness key was missing at the last check (dead at the next)
        self._suspects: set[str] = set()
        # game -> the seq of the last seating move numbered here (see reseat)
        self._reseated: dict[str, int] = {}
        # what reseat has to say again, once the move it followed is delivered here
        self._saying: set[asyncio.Task[None]] = set()

    # -- queries --------------------------------------------------------------
    def online(self, game_id: str) -> set[int]:
        """Seats of ``game_id`` with at least one open connection (to any process)."""
        here = {s for s, n in self._online.get(game_id, Counter()).items() if n > 0}
        for seats in self._remote_online.get(game_id, {}).values():
            here |= seats
        return here

    def watchers(self, game_id: str) -> int:
        """How many spectator connections ``game_id`` has (on every process)."""
        return max(0, self._watchers.get(game_id, 0)) + sum(
            self._remote_watchers.get(game_id, {}).values())

    def gone(self, game_id: str) -> set[int]:
        """Seats of ``game_id`` played for because their player is away."""
        return set(self._gone.get(game_id, ()))

    def is_gone(self, game_id: str, seat: int) -> bool:
        """True when ``seat``'s player is away and played for."""
        return seat in self._gone.get(game_id, ())

    # -- this process's connections ------------------------------------------------
    async def connect(self, game_id: str, seat: int | None, key: Hashable = None) -> None:
        """Count a connection of ``seat``; the first one publishes ``presence``.

        A spectator (``seat`` None) changes the ``watchers`` count; a player
        who was gone takes their seat back (``gone`` false). ``key``: the
        connection (see :meth:`recount`; its disconnect uncounts the seat it is
        counted at, whatever seat it names).
        """
        if seat is None:
            self._watchers[game_id] += 1
            await self._publish_watchers(game_id)
            return
        if key is not None:
            self._counted.setdefault(game_id, {})[key] = seat
        counter = self._online.setdefault(game_id, Counter())
        counter[seat] += 1
        if counter[seat] == 1:
            await self._came(game_id, seat)

    async def _came(self, game_id: str, seat: int) -> None:
        """``seat``'s first connection here: say so; a gone player is back."""
        await self._publish_presence(game_id, seat, True, "came")
        if self.is_gone(game_id, seat):
            self._gone[game_id].discard(seat)
            if not self._gone[game_id]:
                del self._gone[game_id]
            await self._publish_gone(game_id, seat, False)
            table = self._cached(game_id)
            if table is not None and seat in table.to_flip():
                self.clocks.arm_round(table)  # their own flip timer again

    async def disconnect(self, game_id: str, seat: int | None, key: Hashable = None) -> None:
        """Uncount a connection of ``seat`` (the seat connection ``key`` is
        counted at, if known); the last one publishes ``presence``."""
        if seat is None:
            self._watchers[game_id] -= 1
            if self._watchers[game_id] <= 0:
                del self._watchers[game_id]
            await self._publish_watchers(game_id)
            return
        counted = self._counted.get(game_id)
        if key is not None and counted is not None and key in counted:
            seat = counted.pop(key)
            if not counted:
                del self._counted[game_id]
        counter = self._online.setdefault(game_id, Counter())
        counter[seat] -= 1
        if counter[seat] <= 0:
            del counter[seat]
            if not counter:
                del self._online[game_id]
            await self._publish_presence(game_id, seat, False, "left")
            self.arm_gone(game_id, seat)

    async def recount(self, game_id: str, key: Hashable, seat: int) -> bool:
        """The connection ``key`` sits at ``seat`` (its socket's own word, at each
        heartbeat): if it is counted at another seat, count it at ``seat``
        instead (``presence`` published for both, as a disconnect and a connect
        would).

        Seating moves renumber the counts (:meth:`reseat`) and each socket follows
        its seat on its own; should the two ever disagree (a socket counted with
        a table from before a move this process had already numbered), the
        player would be shown offline at their seat for the whole game.

        Returns:
            True if the connection was counted at another seat.
        """
        counted = self._counted.get(game_id, {}).get(key)
        if counted is None or counted == seat:
            return False
        log.warning("a connection counted at another seat than its own: counted again",
                    extra={"game": game_id, "counted": counted, "seat": seat})
        # moved at once (nothing else runs in between), then said
        self._counted[game_id][key] = seat
        counter = self._online.setdefault(game_id, Counter())
        counter[counted] -= 1
        left = counter[counted] <= 0
        if left:
            del counter[counted]
        counter[seat] += 1
        first = counter[seat] == 1
        if left:
            await self._publish_presence(game_id, counted, False, "recounted")
            self.arm_gone(game_id, counted)
        if first:
            await self._came(game_id, seat)
        return True

    # -- gone players ---------------------------------------------------------------
    def arm_gone(self, game_id: str, seat: int) -> None:
        """In ``settings.gone_after`` seconds, play for ``seat`` if still away."""
        self.clocks.arm_gone(game_id, lambda: self.mark_gone(game_id, seat))

    async def mark_gone(self, game_id: str, seat: int) -> bool:
        """Play for ``seat`` from now on if its player is away (no connection).

        Returns:
            True if the seat is now gone (and ``gone`` was published).
        """
        table = await self._table(game_id)
        if (table is not None and table.status == "lobby" and seat == table.creator
                and seat not in self.online(game_id) and self._leave is not None):
            # a creator who went away leaves the lobby: the next human may start
            await self._leave(game_id, seat)
            return False
        if (table is None or table.status != "playing" or seat in self.online(game_id)
                or table.record.seats[seat].kind != "human" or self.is_gone(game_id, seat)):
            return False
        self._gone.setdefault(game_id, set()).add(seat)
        await self._publish_gone(game_id, seat, True)
        if seat in table.to_flip() and not table.record.seats[seat].auto_flip:
            self.clocks.arm(table, seat, "gone", self.clocks.wait(table))
        return True

    async def mark_away(self, table: Table, seat: int) -> bool:
        """Play for ``seat`` from now on although its page is connected: its idle
        clock ran out battle after battle (a frozen or forgotten tab). Flipping by
        hand takes it back (:meth:`back`).

        Returns:
            True if the seat is now away (and ``gone`` was published).
        """
        if (table.status != "playing" or table.record.seats[seat].kind != "human"
                or self.is_gone(table.id, seat)):
            return False
        self._gone.setdefault(table.id, set()).add(seat)
        await self._publish_gone(table.id, seat, True)
        if seat in table.to_flip():
            self.clocks.arm(table, seat, "gone", self.clocks.wait(table))
        return True

    async def back(self, game_id: str, seat: int) -> None:
        """``seat``'s player flipped by hand: no longer away (``gone`` false).

        Also when the flip did not count because the computer had already
        flipped for the seat in the coming battle: the player is here. Their
        idle count starts again, and a flip the seat is still to make in the
        coming battle waits for them again instead of the computer's timer.
        """
        if not self.is_gone(game_id, seat):
            return
        self._gone[game_id].discard(seat)
        if not self._gone[game_id]:
            del self._gone[game_id]
        self.clocks.note_back(game_id, seat)
        await self._publish_gone(game_id, seat, False)
        table = self._cached(game_id)
        if table is not None and table.status == "playing" and seat in table.to_flip():
            self.clocks.arm_round(table)  # no computer flip for them any more

    def reseat(self, game_id: str, order: list[int], seq: int | None = None) -> None:
        """The game started and the seed drew the seating, or players moved up a
        seat in the lobby after one left (``order[s]``: the seat whose player now
        sits at ``s``): number what is known here by the new seats.

        ``seq``: the number of the event that moved them. However the event
        reaches this process (published here, heard on the bus, read from the
        store after the bus missed it), its move is made once.

        A presence message carries a seat number, not the seating it was said
        in: one another process said before it made this move (a page opened
        there as the game started here) is heard here after it, and read in
        the new seating (a connected player counted at the wrong seat, shown
        offline for the whole game). So once a move has changed some seat, this
        process says again who is connected to it (:meth:`said_again`), in the
        new seating: after whatever it said before, so every process's last
        word from it is right.

        The other way round, a presence another process said after it made the
        move, heard here before this process made it, is renumbered here as if
        it were said before (the chaos soak: a player shown offline by the
        other process's pages from the start of the game). So this process
        also asks the others (:meth:`Bus.ask`) to say again who is connected
        to them once it made the move: their answers come after it, in the new
        seating (or, from a process yet to make the move, followed by what it
        says again once it made it)."""
        if seq is not None:
            if seq <= self._reseated.get(game_id, 0):
                return
            self._reseated[game_id] = seq
        trace.debug("reseat", extra={"game": game_id, "order": order, "seq": seq})
        if self.bus.distributed and any(p != s for s, p in enumerate(order)):
            # not now: the pages here are to see the move (started, left) first
            task = asyncio.create_task(self._say_again(game_id, seq),
                                       name=f"presence-{game_id}")
            self._saying.add(task)
            task.add_done_callback(self._saying.discard)
        where = {p: s for s, p in enumerate(order)}
        counter = self._online.get(game_id)
        if counter is not None:
            self._online[game_id] = Counter({where.get(p, p): n for p, n in counter.items()})
        counted = self._counted.get(game_id)
        if counted is not None:
            self._counted[game_id] = {k: where.get(p, p) for k, p in counted.items()}
        if game_id in self._gone:
            self._gone[game_id] = {where.get(p, p) for p in self._gone[game_id]}
        for origin, seats in self._remote_online.get(game_id, {}).items():
            self._remote_online[game_id][origin] = {where.get(p, p) for p in seats}

    def forget(self, game_id: str) -> None:
        """``game_id`` ended: nobody is played for while away any more."""
        self._gone.pop(game_id, None)
        self._reseated.pop(game_id, None)

    def local_games(self) -> list[str]:
        """The games with a page (a seat's or a spectator's) open in this process."""
        return sorted(self._online.keys() | self._watchers.keys())

    def games(self) -> int:
        """How many games this process keeps anything about (connections, gone
        seats, what other processes said)."""
        return len(self._online.keys() | self._watchers.keys() | self._gone.keys()
                   | self._remote_online.keys() | self._remote_watchers.keys())

    def handed_over(self, game_id: str, seat: int) -> None:
        """``seat`` is the computer's now: no longer a gone player's."""
        self._gone.get(game_id, set()).discard(seat)

    # -- other processes ------------------------------------------------------------
    def heard(self, game_id: str, message: Message, origin: str) -> bool:
        """Keep what another process (``origin``) published about who is there.

        Returns:
            True when ``message`` was a presence message (nothing else to do).
        """
        kind = message.get("type")
        if kind == "presence" and origin:
            seats = self._remote_online.setdefault(game_id, {}).setdefault(origin, set())
            (seats.add if message.get("online") else seats.discard)(int(message["seat"]))
            if trace.isEnabledFor(logging.DEBUG):
                trace.debug("heard presence", extra={
                    "game": game_id, "origin": origin, "seat": message.get("seat"),
                    "online": message.get("online"), "now": sorted(self.online(game_id))})
        elif kind == "watchers" and origin:
            self._remote_watchers.setdefault(game_id, {})[origin] = int(message.get("count") or 0)
        elif kind == "gone":  # the process that saw the player leave (or come back) says so
            gone = self._gone.setdefault(game_id, set())
            (gone.add if message.get("gone") else gone.discard)(int(message["seat"]))
            if not gone:
                del self._gone[game_id]
        else:
            return False
        return True

    async def hello(self, game_id: str, moved: int | None = None) -> None:
        """Another process now follows ``game_id``: tell it who is connected here,
        how many spectators, and which seats are played for while away.

        ``moved``: it asks again after it made the seating move of event
        ``moved`` (:meth:`reseat`): say the whole truth (the human seats not
        connected here too: one it counted here by mistake is put right), in the
        new seating; not before this process made that move itself (its table
        is behind it): it says it all again once it has."""
        if moved is not None:
            table = self._cached(game_id)
            if table is not None and table.seq < moved:
                trace.debug("asked before the move", extra={"game": game_id, "moved": moved})
                return
            await self._say(game_id, "asked")
            return
        for seat in sorted(s for s, n in self._online.get(game_id, Counter()).items() if n > 0):
            await self._publish_presence(game_id, seat, True, "hello")
        if self._watchers.get(game_id, 0) > 0:
            await self._publish_watchers(game_id)
        for seat in sorted(self._gone.get(game_id, ())):
            await self._publish_gone(game_id, seat, True)

    async def recovered(self) -> None:
        """The bus is back after a loss: say again, for every game followed here,
        which of its human seats are connected here and which not (a message
        lost meanwhile, or another process that took ours for dead, is
        corrected), the spectators here and the gone seats."""
        games = self._online.keys() | self._watchers.keys() | self._remote_online.keys()
        trace.debug("recovered: saying presence again", extra={"games": len(games)})
        for game_id in sorted(games | self._gone.keys()):
            await self._say(game_id)

    async def _say(self, game_id: str, why: str = "say") -> None:
        """Publish, for ``game_id``, which human seats are connected here and which
        not, the spectators here and the gone seats."""
        here = {s for s, n in self._online.get(game_id, Counter()).items() if n > 0}
        table = self._cached(game_id)
        humans = {r.seat for r in table.record.seats if r.kind == "human"} \
            if table is not None else set()
        for seat in sorted(humans | here):
            await self._publish_presence(game_id, seat, seat in here, why)
        if game_id in self._watchers:
            await self._publish_watchers(game_id)
        for seat in sorted(self._gone.get(game_id, ())):
            await self._publish_gone(game_id, seat, True)

    async def _say_again(self, game_id: str, moved: int | None) -> None:
        """After the seating move of event ``moved``: say who is connected here,
        and ask the others to say it of theirs (see :meth:`reseat`)."""
        try:
            await self._say(game_id)
            await self.bus.ask(game_id, moved)
        except Exception:
            log.warning("saying presence again after a seating move failed", exc_info=True)

    async def said_again(self) -> None:
        """Wait until what this process has to say again after seating moves
        (:meth:`reseat`) is said."""
        while self._saying:
            await asyncio.gather(*self._saying, return_exceptions=True)

    def unfollowed(self, game_id: str) -> None:
        """Nobody here follows ``game_id`` now: what others said of it goes stale."""
        self._remote_online.pop(game_id, None)
        self._remote_watchers.pop(game_id, None)

    async def forget_dead_processes(self) -> set[str]:
        """Forget the seats and spectators of processes that stopped without saying so.

        A process is dead when it was not alive (:meth:`Bus.alive`) at this
        check and the one before: a liveness key missing once may be a Redis
        that restarted and forgot it. Their seats not connected anywhere else
        go offline (``presence`` published, the gone clock armed) and spectator
        counts drop. Every game followed here reads the store for the events
        it missed (:meth:`Bus.resync_all`): a killed process may have stored
        some it never published.

        Returns:
            The ids of the processes found dead.
        """
        origins = {o for per in self._remote_online.values() for o in per}
        origins |= {o for per in self._remote_watchers.values() for o in per}
        if not origins:
            self._suspects.clear()
            return set()
        missing = origins - await self.bus.alive(origins)
        dead = missing & self._suspects
        self._suspects = missing - dead
        if dead:
            # what a dead process stored and had not published yet is never heard
            # (a join, in a lobby nothing else moves): every game followed here
            # reads the store for what it missed
            self.bus.resync_all()
        if missing:
            trace.debug("liveness check", extra={"missing": sorted(missing),
                                                 "dead": sorted(dead)})
        for game_id, per_origin in list(self._remote_online.items()):
            lost: set[int] = set()
            for origin in dead & per_origin.keys():
                lost |= per_origin.pop(origin)
            for seat in sorted(lost - self.online(game_id)):
                await self._publish_presence(game_id, seat, False, "dead")
                self.arm_gone(game_id, seat)
        for game_id, counts in list(self._remote_watchers.items()):
            if dead & counts.keys():
                for origin in dead:
                    counts.pop(origin, None)
                await self._publish_watchers(game_id)
        return dead

    def start_checks(self, interval: float | None = None) -> None:
        """With several processes: every ``interval`` seconds (default a third of
        the bus's ``liveness_ttl``) run :meth:`forget_dead_processes`."""
        if not self.bus.distributed or self._checks is not None:
            return
        every = interval or self.bus.liveness_ttl / 3

        async def loop() -> None:
            while True:
                await asyncio.sleep(every)
                try:
                    await self.forget_dead_processes()
                except Exception:
                    log.warning("presence check failed", exc_info=True)

        self._checks = asyncio.create_task(loop(), name="presence-checks")

    async def close(self) -> None:
        """Stop the checks (and what was still to be said again)."""
        for task in list(self._saying):
            task.cancel()
        await asyncio.gather(*self._saying, return_exceptions=True)
        if self._checks is not None:
            self._checks.cancel()
            with contextlib.suppress(BaseException):
                await self._checks

    # -- publishing -------------------------------------------------------------------
    async def _publish_presence(self, game_id: str, seat: int, online: bool,
                                why: str = "") -> None:
        if trace.isEnabledFor(logging.DEBUG):
            trace.debug("say presence", extra={"game": game_id, "seat": seat, "online": online,
                                               "why": why, "now": sorted(self.online(game_id))})
        await self.bus.publish(game_id, Online(type="presence", seq=None, seat=seat,
                                                        online=online))

    async def _publish_gone(self, game_id: str, seat: int, gone: bool) -> None:
        await self.bus.publish(game_id, Gone(type="gone", seq=None, seat=seat, gone=gone))

    async def _publish_watchers(self, game_id: str) -> None:
        """Publish this process's spectator count (pages are sent the site-wide sum)."""
        count = max(0, self._watchers.get(game_id, 0))
        await self.bus.publish(game_id, Watchers(type="watchers", seq=None, count=count))
