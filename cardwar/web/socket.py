"""One WebSocket connection to a game: handshake checks, catch-up, heartbeats, messages.

Handshake: ``Origin`` must be this site (:func:`cardwar.web.seats.same_origin`),
the game must exist (else close code 1008 in both cases, so a guessed id
learns nothing). The seat comes from the game's own seat cookie only.

Catch-up: ``/ws/g/{id}?since=N`` says the last event number the page saw.
When the store still has every event after ``N`` (at most
:data:`MAX_REPLAY`), they are sent again, each through
:func:`cardwar.tables.view_message` for this viewer, followed by the
presence of every seat and the spectator count; otherwise (or without
``since``) the page gets a full ``state`` snapshot. Either way the live
events follow without a gap or a repeat.

Heartbeats: the server sends ``{"type": "ping"}`` every
``settings.heartbeat`` seconds; a connection that sends nothing for three
heartbeats is closed (code 4000). Pages answer with ``pong``. A seat's
heartbeats are numbered (``"id": N``, echoed in the ``pong``): their round
trips (:class:`~cardwar.tables.slap_timing.RoundTrips`, ``Connection.trips``)
give the latency slaps are judged with (RULES.md 11.6); a spectator's are not.

Slap games (RULES.md 11.6): a seated page of Egyptian Ratscrew or Slapjack
gets :data:`BURST` numbered pings :data:`BURST_GAP` s apart on connecting
(its latency known within about a second); the first time each card (a
``move`` event's ``cards_played``, a snapshot's) goes to any page of a seat,
the app's :class:`~cardwar.web.frames.SocketParts` stamps it for that seat;
a ``slap`` is timed when it arrives (:func:`~cardwar.tables.slap_timing.time_slap`:
arrival, send stamp, this connection's latency) and handed to the judge with
its figures; ``put`` puts the seat's card down (a flip by the player).

Bad input: see :mod:`cardwar.web.protocol`; an invalid message gets an
``error`` frame with a translation key and changes nothing. A message the
server could not apply (the database did not answer) gets an ``unavailable``
error frame; a flip for a battle the page is behind on gets the stored events
it missed. Flips are
rate-limited per connection (:data:`FLIP_RATE`), all messages too
(:data:`MESSAGE_RATE`); reactions per seat or spectator connection
(:mod:`cardwar.tables.reactions`). A socket over a limit gets a
``rate_limited`` frame, at most ``settings.flood_warnings`` of them in
:data:`FLOOD_PERIOD` seconds; past them it is closed with 1008.

Close codes: 1008 refused handshake (or too many sockets, or flooding),
4000 silent connection, 4001 the seat was handed to the computer, left, or its
secret replaced (the page reloads).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from aiolimiter import AsyncLimiter
from fastapi import WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected

from cardwar.bus import Message, Subscription
from cardwar.obs import limited
from cardwar.tables import ErrorCode, Table, TableError, TableService, event_view, hash_secret
from cardwar.tables.pace import fast_forward, set_pace
from cardwar.tables.slap_kind import PLAY as SLAPS
from cardwar.tables.slap_timing import RoundTrips, time_slap

from .frames import SocketParts, dumps
from .protocol import (
    MAX_MESSAGE,
    Auto,
    Flip,
    HandOver,
    Leave,
    Ping,
    Pong,
    ProtocolError,
    Put,
    React,
    SetPace,
    Skip,
    SlapPile,
    Start,
    parse_message,
)

log = logging.getLogger("cardwar.web.socket")

__all__ = ["MAX_MESSAGE", "MESSAGE_RATE", "Connection", "event_builder", "hit", "serve"]

#: Most stored events sent again on a reconnection; beyond it, a full state.
MAX_REPLAY = 200
#: Flips one connection may send: (count, per seconds), a leaky bucket.
FLIP_RATE = (8, 1.0)
#: Messages of any kind one connection may send: (count, per seconds).
MESSAGE_RATE = (60, 10.0)
#: Seconds over which ``settings.flood_warnings`` warnings close a socket (1008).
FLOOD_PERIOD = 60.0
DEFAULT_HEARTBEAT = 20.0
#: The heartbeat and the answer to a page's ``ping``: the same text every time.
PING = dumps({"type": "ping", "seq": None})
PONG = dumps({"type": "pong", "seq": None})
#: Events the pump looks the table up for: to follow or check this socket's seat,
#: and ``over`` (its seed only once the table is over). A step's event needs none.
_NEEDS_TABLE = frozenset({"relinked", "handed", "left", "started", "over"})
#: A slap game's seated page gets this many numbered pings at once on connecting,
#: :data:`BURST_GAP` seconds apart, so its latency is known within about a second.
BURST = 5
BURST_GAP = 0.2


async def hit(limiter: AsyncLimiter) -> bool:
    """Take one message's room in ``limiter``; False (nothing taken) when it is full.

    A bucket per connection: no shared storage to scan and expire. With room
    left, ``acquire`` returns at once (it never waits here).
    """
    if not limiter.has_capacity():
        return False
    await limiter.acquire()
    return True


def event_builder(service: TableService) -> Callable[[str, Table | None, Message],
                                                     dict[str, Any]]:
    """``build(game_id, table, event)``: ``event``'s message, the same for every
    viewer (:func:`cardwar.tables.event_view` with the spectator count, all an
    event needs; ``table`` is needed only for an ``over`` event, None otherwise).

    A ``presence`` message says whether the seat is connected to any process
    now, not only to the one that published it (a player's other device, or
    a process saying again who is connected to it after Redis came back)."""

    def build(game_id: str, table: Table | None, event: Message) -> dict[str, Any]:
        if event.get("type") == "presence":  # what every process knows, not what one said
            event = {**event, "online": event.get("seat") in service.online(game_id)}
        ended = table is not None and table.status == "over"
        # only a watchers message shows the count: a step's event asks nothing more
        watchers = service.watchers(game_id) if event.get("type") == "watchers" else 0
        return event_view(event, ended=ended, watchers=watchers)

    return build


def _since(ws: WebSocket) -> int | None:
    raw = ws.query_params.get("since")
    if raw is None or not raw.isdigit() or len(raw) > 12:
        return None
    return int(raw)


class Connection:
    """One open socket of one viewer (a seat, or None for a spectator)."""

    def __init__(self, ws: WebSocket, service: TableService, table: Table,
                 seat: int | None, secret: str | None, heartbeat: float,
                 sockets: SocketParts | None = None) -> None:
        self.ws = ws
        self.service = service
        self.sockets = sockets if sockets is not None else SocketParts(event_builder(service))
        self.game_id = table.id
        self.seat = seat
        self.secret = secret
        #: the secret as the table stores it (hashed once, not at every message)
        self._secret_hash = hash_secret(secret) if secret else None
        self.heartbeat = heartbeat
        #: when the page last sent something (``time.monotonic()``)
        self.heard = time.monotonic()
        self._messages = AsyncLimiter(*MESSAGE_RATE)
        # spectators never flip: no bucket for them (an idle socket stays small)
        self._flips = AsyncLimiter(*FLIP_RATE) if seat is not None else None
        self._warnings = AsyncLimiter(max(1, service.settings.flood_warnings), FLOOD_PERIOD)
        #: a seat's heartbeat round trips (its latency, RULES.md 11.6); None: a spectator
        self.trips = RoundTrips() if seat is not None else None
        #: a slap game's socket stamps when each card went to its seat (RULES.md 11.6)
        self.slaps = table.variant.play == SLAPS
        #: True once the server closed this socket (the read loop stops)
        self.closed = False
        #: the game's subscription, once serving
        self.sub: Subscription | None = None
        self._send_lock = asyncio.Lock()

    async def send(self, table: Table, event: Message | None = None) -> None:
        """Send the message for this viewer (always built by ``view_message``)."""
        message = self.service.message(table, self.seat, event)
        await self.send_text(dumps(message))
        self.stamp(message)

    def stamp(self, message: Message) -> None:
        """A slap game's message just went to a seat's page: the card on top of the
        pile it shows (a ``move`` event's ``cards_played``, a snapshot's) is stamped
        as sent now, unless it was sent to that seat before (the first send counts)."""
        if not self.slaps or self.seat is None:
            return
        if message.get("type") == "move":
            pile = message.get("cards_played")
        elif message.get("type") == "state":
            pile = (message.get("game") or {}).get("cards_played")
        else:
            return
        if isinstance(pile, int) and pile > 0:
            self.sockets.stamps(self.game_id, self.seat).sent(pile, time.monotonic())

    async def send_text(self, text: str) -> None:
        """Send one text frame (in order with every other send of this connection)."""
        async with self._send_lock:
            await self.ws.send_text(text)

    async def error(self, table: Table | None, code: str) -> None:
        """Send an ``error`` frame with the translation key ``code`` (the same for
        every viewer: ``table`` is not needed)."""
        await self.send_text(dumps({"type": "error", "seq": None, "code": code}))

    async def too_fast(self) -> None:
        """Warn with a ``rate_limited`` frame; past ``settings.flood_warnings``
        warnings in :data:`FLOOD_PERIOD` seconds, close the socket (1008) instead."""
        if await hit(self._warnings):
            await self.error(None, "rate_limited")
            return
        limited("flood")
        log.info("closing a flooding socket of game %s", self.game_id)
        self.closed = True
        await self.ws.close(code=1008)

    async def catch_up(self, table: Table, since: int | None) -> int:
        """Send what the page lacks (events since ``since`` or a full state).

        Returns:
            The last event number sent (live events after it follow).
        """
        if since is not None and since <= table.seq and table.seq - since <= MAX_REPLAY:
            stored = await self.service.catch_up(self.game_id, since)
            if (stored and stored[0]["seq"] == since + 1) or not stored:
                last = since
                for e in stored:
                    await self.send(table, e)
                    last = int(e["seq"])
                online = self.service.online(self.game_id)
                gone = self.service.gone(self.game_id)
                for rec in table.record.seats:
                    if rec.kind == "human":
                        await self.send(table, {"type": "presence", "seq": None,
                                                "seat": rec.seat, "online": rec.seat in online})
                        await self.send(table, {"type": "gone", "seq": None,
                                                "seat": rec.seat, "gone": rec.seat in gone})
                await self.send(table, {"type": "watchers", "seq": None,
                                        "count": self.service.watchers(self.game_id)})
                return last
        # no change in flight: the snapshot's seq is a stored one (never reused)
        table = await self.service.settled(self.game_id) or table
        # the game may have started (and the seed drawn the seats) since the
        # handshake: the snapshot shows the seat the page's player sits at now
        self._reseat(table)
        snapshot = self.service.message(table, self.seat)
        await self.send_text(dumps(snapshot))
        self.stamp(snapshot)
        return int(snapshot["seq"])

    async def _behind(self, battle: int) -> None:
        """A flip for ``battle`` did not count: if the page is behind the game
        (events it missed, e.g. while the bus was down), its subscription
        sends it the stored events it lacks, in order."""
        table = await self.service.get(self.game_id)
        if table is not None and battle <= table.steps and self.sub is not None:
            self.sub.resync()

    def _still_mine(self, table: Table) -> bool:
        if self.seat is None:
            return True
        return table.seat_of(self._secret_hash) == self.seat

    def _reseat(self, table: Table, moved: list[int] | None = None) -> None:
        """Follow our seat when the game starts and the seed draws the seating, or
        when the players after one who left the lobby move up a seat (``moved``:
        that ``left`` event's ``seating``)."""
        if self.seat is None or not self._secret_hash:
            return
        now = table.seat_of(self._secret_hash)
        if now is not None:
            self.seat = now
        elif moved is not None and 0 <= self.seat < len(moved):
            # we left: counted where our freed seat went until the socket closes
            self.seat = moved.index(self.seat)

    async def pump(self, sub: Any, after: int) -> None:
        """Send every published event above ``after`` to this socket.

        The frame of an event is encoded once for every connection
        (:class:`~cardwar.web.frames.Frames`), without the table; the table
        is looked up only for an event of :data:`_NEEDS_TABLE` (the seat
        followed or checked after ``started``, ``left``, ``relinked``,
        ``handed``; an ``over`` event's seed), never for a step's.

        A failure to send (the store cannot give the table back, a frame cannot
        be built) is logged and closes the socket with 1011: the page connects
        again and catches up (``?since=``) instead of hearing only heartbeats.
        A game removed meanwhile (an expired lobby) closes it with 1008.
        """
        try:
            await self._pump(sub, after)
        except (WebSocketDisconnect, WebSocketDisconnected):
            self.closed = True  # the page left: the read loop ends too
        except Exception:
            log.exception("could not send an event of game %s: closing its socket (1011)",
                          self.game_id)
            await self._close(1011)

    async def _close(self, code: int) -> None:
        """Close the socket with ``code`` (the read loop then ends)."""
        self.closed = True
        with contextlib.suppress(Exception):  # closing already
            await self.ws.close(code=code)

    async def _pump(self, sub: Any, after: int) -> None:
        frames = self.sockets.frames
        async for event in sub:
            seq = event.get("seq")
            if seq is not None and seq <= after:
                continue
            kind = event.get("type")
            text = frames.cached(event)
            if kind in _NEEDS_TABLE:
                table = await self.service.get(self.game_id)
                if table is None:  # removed (an expired lobby): nothing more to send
                    await self._close(1008)
                    return
                if kind == "started":  # the seed drew the seats: follow our player
                    self._reseat(table)
                elif kind == "left" and isinstance(event.get("seating"), list):
                    self._reseat(table, list(event["seating"]))  # the lobby moved up
                if text is None:
                    text = frames.text(self.game_id, table, event)
                await self.send_text(text)
                if kind in ("relinked", "handed", "left") and not self._still_mine(table):
                    await self.ws.close(code=4001)
                    return
            else:
                await self.send_text(text or frames.text(self.game_id, None, event))
                if kind == "move":
                    self.stamp(event)

    async def ping(self) -> None:
        """Send the heartbeat's ``ping`` (called by the process's heartbeat clock); a
        seat's is numbered, stamped just before it goes (after any frame ahead of it)."""
        with contextlib.suppress(Exception):  # a closing socket: its own task ends it
            if self.trips is None:
                await self.send_text(PING)
                return
            async with self._send_lock:
                number = self.trips.ping(time.monotonic())
                await self.ws.send_text(dumps({"type": "ping", "seq": None, "id": number}))

    async def burst(self) -> None:
        """A slap game's seated page: :data:`BURST` numbered pings :data:`BURST_GAP`
        seconds apart (its latency known at once, RULES.md 11.6)."""
        for n in range(BURST):
            if self.closed:
                return
            await self.ping()
            if n < BURST - 1:
                await asyncio.sleep(BURST_GAP)

    async def silent(self) -> None:
        """Close the connection: silent for three heartbeats (code 4000)."""
        with contextlib.suppress(Exception):
            await self.ws.close(code=4000)

    async def handle(self, raw: str | bytes | None) -> None:
        """Apply one message from the page; answer errors with an ``error`` frame.

        When the store (or the bus) fails, nothing was changed: the page gets
        an ``unavailable`` error frame (it may send the move again) and the
        socket stays open.
        """
        try:
            await self._handle(raw)
        except (WebSocketDisconnect, WebSocketDisconnected):
            self.closed = True  # the page left while its answer was on the way
        except Exception:
            log.warning("could not apply a message in game %s", self.game_id, exc_info=True)
            await self.send_text(dumps({"type": "error", "seq": None,
                                        "code": ErrorCode.UNAVAILABLE.value}))

    def _seat_on(self, table: Table) -> int:
        """This socket's seat on ``table`` (followed as :meth:`_reseat` does).

        Raises:
            TableError: ``not_seated``: a spectator, or the seat is no longer ours.
        """
        self._reseat(table)
        if self.seat is None or not self._still_mine(table):
            raise TableError(ErrorCode.NOT_SEATED)
        return self.seat

    async def _flip(self, msg: Flip) -> None:
        """A flip: the seat is checked on the table the service applies it to
        (:meth:`_seat_on`), so a flip looks its table up once, in the service."""
        if self.seat is None:
            await self.error(None, ErrorCode.NOT_SEATED.value)
            return
        if self._flips is not None and not await hit(self._flips):
            await self.too_fast()
            return
        try:
            counted = await self.service.flip(self.game_id, self._seat_on, "player", msg.battle)
        except TableError as exc:
            await self.error(None, exc.code)
            return
        if not counted and msg.battle is not None:
            await self._behind(msg.battle)

    async def _slap_game(self, msg: Put | SlapPile) -> None:
        """A slap game's ``put`` or ``slap``: rate-limited like flips; a slap is timed
        here (:func:`~cardwar.tables.slap_timing.time_slap`: when its card was sent
        to this seat, when the slap arrived, this connection's latency)."""
        if self.seat is None:
            await self.error(None, ErrorCode.NOT_SEATED.value)
            return
        if self._flips is not None and not await hit(self._flips):
            await self.too_fast()
            return
        arrived = self.heard
        try:
            if isinstance(msg, Put):
                await self.service.put(self.game_id, self._seat_on, msg.card)
            else:
                timing = None
                if self.trips is not None:
                    timing = time_slap(msg.pile, arrived,
                                       self.sockets.stamps(self.game_id, self.seat), self.trips)
                await self.service.slap(self.game_id, self._seat_on, msg.pile, timing)
        except TableError as exc:
            await self.error(None, exc.code)

    async def _handle(self, raw: str | bytes | None) -> None:
        # the socket's limits, parsing and heartbeats need no table: a flood or
        # a heartbeat costs no lookup (issue 23)
        if not await hit(self._messages):
            await self.too_fast()
            return
        try:
            msg = parse_message(raw)
        except ProtocolError:
            await self.error(None, "bad_message")
            return
        if isinstance(msg, Pong):
            if msg.id is not None and self.trips is not None:
                self.trips.pong(msg.id, self.heard)  # heard: when the frame came in
            return
        if isinstance(msg, Ping):
            await self.send_text(PONG)
            return
        if isinstance(msg, Flip):
            await self._flip(msg)
            return
        if isinstance(msg, Put | SlapPile):
            await self._slap_game(msg)
            return
        table = await self.service.get(self.game_id)
        if table is None:  # removed meanwhile (an expired lobby): say so, never silence
            await self.error(None, ErrorCode.NO_GAME.value)
            return
        if isinstance(msg, React) and self.seat is None:  # spectators react too
            try:
                await self.service.react(table, None, msg.key, connection=id(self))
            except TableError as exc:
                await self.error(table, exc.code)
            return
        self._reseat(table)
        if self.seat is None or not self._still_mine(table):
            await self.error(table, "not_seated")
            return
        try:
            if isinstance(msg, Auto):
                await self.service.set_auto(self.game_id, self.seat, msg.on)
            elif isinstance(msg, SetPace):
                await set_pace(self.service, self.game_id, self.seat, msg.pace)
            elif isinstance(msg, Skip):
                await fast_forward(self.service, self.game_id, self.seat)
            elif isinstance(msg, Leave):
                await self.service.leave(self.game_id, self.seat)
            elif isinstance(msg, Start):
                await self.service.start(self.game_id, self.seat)
            elif isinstance(msg, HandOver):
                await self.service.hand_over(self.game_id, self.seat, msg.seat)
            elif isinstance(msg, React):
                await self.service.react(table, self.seat, msg.key)
        except TableError as exc:
            await self.error(table, exc.code)


async def serve(ws: WebSocket, service: TableService, table: Table, seat: int | None,
                secret: str | None, heartbeat: float = DEFAULT_HEARTBEAT,
                sockets: SocketParts | None = None) -> None:
    """Run one accepted-to-be connection until it closes (protocol in the module docstring).

    ``sockets``: the app's shared frames and heartbeat clocks (one per app,
    made by its lifespan); None gives the connection parts of its own.

    The connection runs in a task of its own: every time it waits (for a
    message, a lock, a commit) only its own short stack is resumed, not the
    whole chain of ASGI middleware around this call.
    """
    conn = Connection(ws, service, table, seat, secret, heartbeat, sockets)
    await ws.accept()
    await asyncio.create_task(_run(conn, table, seat), name=f"ws-{table.id}")


async def _run(conn: Connection, table: Table, seat: int | None) -> None:
    ws, service = conn.ws, conn.service
    clock = conn.sockets.heartbeats(conn.heartbeat)
    async with service.subscribe(table.id) as sub:
        conn.sub = sub
        pump: asyncio.Task[None] | None = None
        burst: asyncio.Task[None] | None = None
        # the seat of now (the game may have started since the handshake), counted
        # first, so the page's own snapshot shows it online (and back if gone)
        table = await service.get(table.id) or table
        conn._reseat(table)
        await service.connect(table.id, conn.seat)
        try:
            last = await conn.catch_up(table, _since(ws))
            sub.start_after(last)
            pump = asyncio.create_task(conn.pump(sub, last))
            clock.add(conn)
            if conn.slaps and conn.seat is not None:
                burst = asyncio.create_task(conn.burst())
            while True:
                message = await ws.receive()
                conn.heard = time.monotonic()
                if message["type"] == "websocket.disconnect":
                    break
                raw = message.get("text")
                if raw is None:
                    raw = message.get("bytes")
                await conn.handle(raw)
                if conn.closed:
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        except Exception:  # never let one connection take the server down
            log.exception("websocket error in game %s", table.id)
        finally:
            clock.discard(conn)
            if burst is not None:
                burst.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await burst
            if pump is not None:
                pump.cancel()  # it logs its own failures (and closes the socket)
                with contextlib.suppress(asyncio.CancelledError):
                    await pump
            await service.disconnect(table.id, conn.seat)
