"""The Redis :class:`~cardwar.bus.Bus`: live events across server processes.

Each process publishes a game's events to the Redis channel
``<prefix>g:<game id>`` and listens, on one pub/sub connection, to the
channels of the games it has subscribers for. A process delivers its own
events to its own subscribers directly (no round trip) and ignores their
echo from Redis (every payload names the process it came from).

Redis pub/sub loses what is published while a listener reconnects, so
delivery is repaired from the store: events are numbered, a
:class:`~cardwar.bus.Subscription` fills any gap in ``seq`` with the
``catch_up`` function the table service attaches, and after any reconnect
(an error, or a fresh subscribe confirmation from the server) every
subscription of the affected games checks the store for what it missed.

Presence is per process: a process starting to follow a game publishes a
``hello`` on its channel, and the others answer with a ``presence`` message
for each seat connected to them; the table service merges what it hears.
A process that dies cannot say its players left, so each process keeps a
liveness key ``<prefix>proc:<process id>`` alive (it expires
``liveness_ttl`` seconds after the last refresh) and :meth:`RedisBus.alive`
tells the table service which processes it heard from still run.

Publishing never waits for Redis: messages go into an outbox that one task
sends, in order, as pipelines of ``PUBLISH`` commands (everything queued
while the previous pipeline was on its way goes in the next one). So a busy
process makes a few round trips per tick of its event loop, not one per
event, and never needs more than one connection for it. A pipeline Redis
refuses (down, restarting, out of memory) is kept and sent again, with
backoff, before anything queued after it; the outbox holds at most
:data:`OUTBOX_CAP` messages (then the oldest go, and presence is said again
once Redis takes messages again).

A game's stored events are published only while another process listens.
With nginx's hash (one owner per game) nobody else follows most games, and
each event would only come back to its own publisher as an echo to drop:
about a tenth of a flip's CPU and one more wake-up of the process (issue 23).
Each ``PUBLISH`` answers how many listeners it reached; when one of a game's
events reached only this process (its own subscription, confirmed), the game
is *alone* here and its next stored events are not sent. The first message
heard from another process on the game's channel (its ``hello`` as it starts
to follow, or an event it wrote) ends that: the last stored event not sent
goes out again at once, so a newcomer that read the game from the store
before it fills the gap from the store (:class:`~cardwar.bus.Subscription`),
and every later event is published. A newcomer's subscription confirmation
also resyncs it from the store (below), so whatever it missed before its
``hello`` was heard is read there. The idle clock said at each battle
(:data:`HELD_BACK`) is held back too, and not sent again: a page that comes
later never had the clock of the battle in play either. Presence and the
other messages without a ``seq`` are always published (they are rare); a
lost listener or a new subscription confirmation forgets which games were
alone.

Payload on the wire: ``{"o": <process id>, "m": <message>}`` as JSON, or
``{"o": <process id>, "c": "hello"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError

from .base import (
    Hooks,
    Message,
    Subscription,
    Subscriptions,
    add_subscription,
    drop_subscription,
)
from .limits import REDIS_DOWN, Limiter, RedisLimiter
from .slots import RedisSlots

log = logging.getLogger("cardwar.bus")
trace = logging.getLogger("cardwar.presence")

#: Seconds the listener waits while nothing is subscribed.
IDLE_POLL = 0.05

#: Types of messages without a ``seq`` held back, as stored events are, while no
#: other process listens to the game (see the module docstring): the idle
#: clock, said at every battle, which a page that comes later never had either.
HELD_BACK = frozenset({"idle"})

#: Most messages sent in one pipeline.
SEND_BATCH = 500

#: Most messages kept while Redis refuses them (sent, in order, once it takes them
#: again); past it the oldest are dropped and this process says its presence
#: again once Redis is back (events are in the store: the others fill the gap).
OUTBOX_CAP = 20_000

#: Seconds between reads of the store for missed events while Redis is unreachable.
POLL_WHILE_LOST = 1.0

#: Seconds a connection may stay silent before redis-py checks it with a PING
#: (``health_check_interval``); the listener's link is taken for dead when that
#: PING is not answered within :data:`SOCKET_TIMEOUT` more (a frozen or
#: half-open server: nothing ever fails by itself).
HEALTH_CHECK = 1.5
#: Seconds to wait for Redis to connect or to answer a command.
SOCKET_TIMEOUT = 2.0
#: Tries of a command on a new connection (redis-py's :class:`Retry`) before its
#: error is ours, and the longest wait between two.
RETRIES, MAX_BACKOFF = 3, 2.0


def client(url: str, **options: Any) -> aioredis.Redis:
    """A redis-py client that notices a dead link within seconds and connects
    again by itself: :data:`HEALTH_CHECK`, :data:`SOCKET_TIMEOUT`, TCP keepalive,
    and :data:`RETRIES` tries with exponential backoff on connection errors and
    timeouts (``options``: more ``from_url`` arguments)."""
    retry = Retry(ExponentialBackoff(cap=MAX_BACKOFF, base=0.05), RETRIES)
    return aioredis.from_url(url, retry=retry, health_check_interval=HEALTH_CHECK,
                             socket_timeout=SOCKET_TIMEOUT,
                             socket_connect_timeout=SOCKET_TIMEOUT,
                             socket_keepalive=True, **options)


def _quiet(task: asyncio.Task[None]) -> None:
    """Done callback of a task whose failure only means Redis is away (tried again
    at the next reconnect)."""
    if not task.cancelled() and task.exception() is not None:
        log.debug("redis unsubscribe failed", extra={"error": repr(task.exception())})


class RedisBus:
    """A :class:`~cardwar.bus.Bus` over Redis pub/sub (see the module docstring).

    Args:
        url: ``redis://host:port/db``.
        prefix: prepended to every channel name (separate sites, or test runs,
            sharing one Redis).
        reconnect_delay: seconds before the listener's first new attempt while Redis is
            unreachable (doubled each time, up to :data:`MAX_BACKOFF`).
        liveness_ttl: seconds this process's liveness key outlives its last
            refresh (refreshed every third of it).

    Attributes:
        origin: this process's id on the wire.
    """

    #: True: other processes publish and subscribe too (caches may go stale).
    distributed = True

    def __init__(self, url: str, prefix: str = "cardwar:", reconnect_delay: float = 0.2,
                 liveness_ttl: float = 15.0) -> None:
        self.url = url
        self.liveness_ttl = liveness_ttl
        self._keep_alive_task: asyncio.Task[None] | None = None
        self._poller: asyncio.Task[None] | None = None
        self.prefix = prefix
        self.origin = uuid.uuid4().hex[:16]
        self.reconnect_delay = reconnect_delay
        self._redis = client(url)
        self._listen_client = client(url, client_name=f"cw-bus-{self.origin}")
        self._backoff = ExponentialBackoff(cap=MAX_BACKOFF, base=reconnect_delay)
        #: rate limits, counted in Redis: N processes allow each limit once
        self.limiter: Limiter = RedisLimiter(self._redis, prefix)
        #: sockets per address, counted in Redis: N processes allow the limit once
        self.slots = RedisSlots(self._redis, prefix, self.origin)
        self._pubsub: Any = None
        self._reader: asyncio.Task[None] | None = None
        self._subs: Subscriptions = {}
        self._sub_lock = asyncio.Lock()
        self._hooks = Hooks()
        self._closed = False
        self.reconnects = 0
        #: (channel, payload, game id when it may be held back (a stored event or
        #: the idle clock), that game's ``_voices`` when it was queued)
        self._outbox: list[tuple[str, str, str | None, int]] = []
        #: per game followed here: messages heard from other processes on its channel
        self._voices: dict[str, int] = {}
        #: games whose last published event reached only this process (not published)
        self._alone: set[str] = set()
        #: messages Redis took so far (the benchmarks and tests read it)
        self.sent = 0
        #: per game alone here: its last stored event not published (sent when
        #: another process is heard on its channel)
        self._unsent: dict[str, Message] = {}
        self._publish_failing = False
        #: True once messages were dropped from a full outbox (presence to say again)
        self._overflowed = False
        self._sender: asyncio.Task[None] | None = None
        #: True while the listener is cut off from Redis (events are being missed)
        self.lost = False
        #: process id -> when a message of it was last heard (``loop.time()``)
        self._heard: dict[str, float] = {}
        self._back: asyncio.Task[None] | None = None
        #: games whose subscription Redis confirmed (a second confirmation: a reconnect)
        self._confirmed: set[str] = set()
        #: channels to subscribe whose SUBSCRIBE failed (Redis away): tried again
        #: once the listener is back and every :data:`POLL_WHILE_LOST` seconds
        self._unsubscribed: set[str] = set()

    def attach(self, hooks: Hooks) -> None:
        """Connect the bus to its owner (the table service): see :class:`~cardwar.bus.Hooks`."""
        self._hooks = hooks

    def channel(self, game_id: str) -> str:
        """The Redis channel of ``game_id``."""
        return f"{self.prefix}g:{game_id}"

    def publishing(self, game_id: str) -> bool:
        """False while ``game_id``'s stored events are not sent to Redis because no
        other process listens to its channel (see the module docstring)."""
        return not (game_id in self._alone and self.following(game_id))

    def following(self, game_id: str) -> bool:
        """True while this process has a subscriber for ``game_id`` and its
        listener is connected: while Redis is unreachable, events of the other
        processes are missed, so no cached table is to be trusted."""
        return (game_id in self._subs and not self.lost
                and self.channel(game_id) not in self._unsubscribed)

    # -- publishing --------------------------------------------------------
    async def publish(self, game_id: str, message: Message) -> None:
        """Deliver ``message`` here at once, and queue it for the other processes.

        A Redis error is logged, not raised: the event is stored, and other
        processes fill the gap from the store when the next one arrives.
        """
        for sub in list(self._subs.get(game_id, ())):
            sub.put(message)
        stored = message.get("seq") is not None
        held = stored or message.get("type") in HELD_BACK
        if held and not self.publishing(game_id):  # nobody else listens (module docstring)
            if stored:
                self._unsent[game_id] = message
            return
        if stored:
            self._unsent.pop(game_id, None)
        self._send(game_id, self._wire(message), game_id if held else None)

    def _wire(self, message: Message) -> str:
        """``message`` as this process publishes it (the payload in the module docstring)."""
        return json.dumps({"o": self.origin, "m": message}, separators=(",", ":"))

    def _send(self, game_id: str, payload: str, counted: str | None = None) -> None:
        """Queue ``payload`` for ``game_id``'s channel (see the module docstring);
        ``counted``: the game id when the number of listeners it reaches may
        make the game alone here."""
        self._outbox.append((self.channel(game_id), payload, counted,
                             self._voices.get(game_id, 0)))
        if len(self._outbox) > OUTBOX_CAP:
            del self._outbox[:len(self._outbox) - OUTBOX_CAP]
            if not self._overflowed:
                log.warning("redis outbox full: oldest messages dropped",
                            extra={"cap": OUTBOX_CAP})
            self._overflowed = True
        if (self._sender is None or self._sender.done()) and not self._closed:
            self._sender = asyncio.create_task(self._send_all(), name="redis-bus-sender")

    async def _send_all(self) -> None:
        """Send the outbox in pipelines, in order; a pipeline Redis refuses goes
        back to the front and is tried again after a backoff (until :meth:`close`)."""
        failures = 0
        while self._outbox and not self._closed:
            batch, self._outbox = self._outbox[:SEND_BATCH], self._outbox[SEND_BATCH:]
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for channel, payload, *_ in batch:
                        pipe.publish(channel, payload)
                    reached = await pipe.execute()
            except Exception as exc:  # noqa: BLE001 - Redis away or refusing: later
                if not self._publish_failing:  # once per outage
                    log.warning("redis publish failed", extra={"messages": len(batch),
                                                               "error": repr(exc)})
                self._publish_failing = True
                # first out again, before what was queued meanwhile; a full outbox
                # drops the oldest (see _send)
                self._outbox[:0] = batch
                if len(self._outbox) > OUTBOX_CAP:
                    del self._outbox[:len(self._outbox) - OUTBOX_CAP]
                    self._overflowed = True
                failures += 1
                await asyncio.sleep(self._backoff.compute(failures))
                continue
            failures = 0
            self.sent += len(batch)
            self._count_listeners(batch, reached)
            if self._publish_failing:
                log.info("redis publish back")
                self._publish_failing = False
            if self._overflowed and not self._outbox:
                self._overflowed = False  # what was dropped: presence said again
                if self._back is None or self._back.done():
                    self._back = asyncio.create_task(self._say_again(),
                                                     name="redis-bus-back")

    def _count_listeners(self, batch: list[tuple[str, str, str | None, int]],
                         reached: list[Any]) -> None:
        """Mark alone the games of ``batch`` whose stored event (or idle clock)
        reached only this process's confirmed subscription (``reached``: each
        ``PUBLISH``'s answer), unless another process was heard on the game's
        channel since it was queued (its ``hello`` may have overtaken the answer)."""
        for (_, _, game_id, voices), listeners in zip(batch, reached, strict=True):
            if game_id is None:
                continue
            if (listeners == 1 and voices == self._voices.get(game_id, 0)
                    and game_id in self._confirmed and self.following(game_id)):
                self._alone.add(game_id)
            else:
                self._alone.discard(game_id)

    def _not_alone(self, game_id: str) -> None:
        """Another process was heard on ``game_id``'s channel: publish its events
        again, starting with the last one not sent (see the module docstring)."""
        self._alone.discard(game_id)
        last = self._unsent.pop(game_id, None)
        if last is not None:
            self._send(game_id, self._wire(last))

    # -- subscribing -------------------------------------------------------
    @asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[Subscription]:
        """Subscribe to ``game_id`` for the duration of the ``async with`` block."""
        sub = Subscription(game_id, catch_up=self._hooks.catch_up)
        if add_subscription(self._subs, sub):
            await self._listen(game_id)
        try:
            yield sub
        finally:
            if drop_subscription(self._subs, sub):
                self._alone.discard(game_id)
                self._unsent.pop(game_id, None)
                self._voices.pop(game_id, None)
                if self._hooks.on_unfollow is not None:
                    self._hooks.on_unfollow(game_id)
                if not self._closed:
                    with contextlib.suppress(Exception):  # Redis away: see _unlisten
                        await self._unlisten(game_id)

    def subscribers(self, game_id: str) -> int:
        """How many subscriptions ``game_id`` has in this process."""
        return len(self._subs.get(game_id, ()))

    # -- liveness ------------------------------------------------------------
    def _alive_key(self, origin: str) -> str:
        return f"{self.prefix}proc:{origin}"

    async def _refresh_alive(self) -> None:
        try:
            await self._redis.set(self._alive_key(self.origin), "1",
                                  px=max(1, int(self.liveness_ttl * 1000)))
        except REDIS_DOWN as exc:
            log.warning("redis liveness refresh failed", extra={"error": repr(exc)})

    async def _keep_alive(self) -> None:
        while not self._closed:
            await asyncio.sleep(self.liveness_ttl / 3)
            if not self._closed:  # never alive again once closing
                await self._refresh_alive()

    async def alive(self, origins: set[str]) -> set[str]:
        """Which of the process ids ``origins`` still keep their liveness key, or
        were heard on the bus within ``liveness_ttl`` seconds.

        On a Redis error every one is taken for alive (nobody is shown
        offline because Redis hiccuped).
        """
        now = asyncio.get_running_loop().time()
        heard = {o for o in origins if now - self._heard.get(o, -1e9) < self.liveness_ttl}
        ordered = sorted(origins - heard)
        if not ordered:
            return heard
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                for origin in ordered:
                    pipe.exists(self._alive_key(origin))
                found = await pipe.execute()
        except REDIS_DOWN:
            return set(origins)
        return heard | {o for o, n in zip(ordered, found, strict=True) if n}

    async def ask(self, game_id: str, moved: int | None = None) -> None:
        """Ask the other processes following ``game_id`` to say again who is
        connected to them there (a ``hello`` on its channel, queued, saying the
        seating move ``moved`` made here)."""
        self._send(game_id, json.dumps({"o": self.origin, "c": "hello", "s": moved}))

    def resync_all(self) -> None:
        """Every cached table stale and every subscription reads the store for
        the events it missed (see :class:`~cardwar.bus.Bus`)."""
        self._resync_all()

    async def _poll_while_lost(self) -> None:
        """While the listener is lost, every :data:`POLL_WHILE_LOST` seconds each
        subscription reads the store for the events it missed (played on other
        processes, or here: nothing reaches a page through Redis while it is
        down), so no page waits in silence for the whole outage."""
        while not self._closed:
            await asyncio.sleep(POLL_WHILE_LOST)
            if self.lost:
                for subs in list(self._subs.values()):
                    for sub in subs:
                        sub.resync()
            elif self._unsubscribed:
                await self._subscribe_again()

    async def _listen(self, game_id: str) -> None:
        if self._keep_alive_task is None and not self._closed:
            # taken at once (before the first await): the first games' sockets
            # subscribe at the same moment, and each started its own pair of
            # tasks, of which retire cancelled one (the others set the key again
            # after close deleted it)
            trace.debug("bus origin", extra={"origin": self.origin})
            self._keep_alive_task = asyncio.create_task(self._keep_alive(),
                                                        name="redis-bus-alive")
            self._poller = asyncio.create_task(self._poll_while_lost(),
                                               name="redis-bus-poll-while-lost")
            await self._refresh_alive()  # alive before anyone hears of our players
        async with self._sub_lock:
            if self._pubsub is None:
                self._pubsub = self._listen_client.pubsub()
                # before the reader starts: see _own_channel
                await self._subscribe_channel(self._own_channel())
            await self._subscribe_channel(self.channel(game_id))
            if self._reader is None or self._reader.done():
                self._reader = asyncio.create_task(self._read(), name="redis-bus-reader")
        # ask the other processes who is connected there (they answer with presence)
        self._send(game_id, json.dumps({"o": self.origin, "c": "hello"}))

    async def _subscribe_channel(self, channel: str) -> bool:
        """SUBSCRIBE to ``channel`` (under ``_sub_lock``); True if it was sent.

        A SUBSCRIBE that fails (Redis away; on a link already closed, uvloop's
        transport raises RuntimeError) is not dropped: redis-py subscribes again
        on reconnect only to the channels whose SUBSCRIBE went through, so the
        channel waits in ``_unsubscribed`` until :meth:`_subscribe_again` sends it.
        """
        try:
            await self._pubsub.subscribe(channel)
        except asyncio.CancelledError:
            self._unsubscribed.add(channel)
            raise
        except Exception as exc:  # noqa: BLE001 - any transport error: try again later
            if channel not in self._unsubscribed:
                log.warning("redis subscribe failed", extra={"channel": channel,
                                                             "error": repr(exc)})
            self._unsubscribed.add(channel)
            return False
        self._unsubscribed.discard(channel)
        return True

    async def _subscribe_again(self) -> None:
        """Send the SUBSCRIBEs that failed (see :meth:`_subscribe_channel`) for the
        channels still wanted; their confirmations resync the games' subscriptions
        from the store, and each game's ``hello`` asks the others who is connected."""
        async with self._sub_lock:
            if self._pubsub is None:
                return
            wanted = {self._own_channel()} | {self.channel(g) for g in self._subs}
            self._unsubscribed &= wanted
            own = self._own_channel()  # first: see _own_channel
            for channel in sorted(self._unsubscribed, key=lambda c: (c != own, c)):
                if not await self._subscribe_channel(channel):
                    return  # still away: the next poll tries again
                if channel != own:
                    game_id = channel[len(self.prefix) + 2:]
                    self._send(game_id, json.dumps({"o": self.origin, "c": "hello"}))

    def _own_channel(self) -> str:
        """This process's own channel, subscribed for as long as the listener runs.

        The listener is never without a subscription, so redis-py never checks
        the link's health from a ``subscribe`` (it does only while nothing is
        subscribed): that check would PING and read on the socket the reader
        task is reading, and fail ('read() called while another coroutine is
        already waiting'). Health is checked by the reader's own reads instead.
        """
        return f"{self.prefix}p:{self.origin}"

    async def _unlisten(self, game_id: str) -> None:
        async with self._sub_lock:
            if self._pubsub is not None and game_id not in self._subs:
                self._confirmed.discard(game_id)
                self._unsubscribed.discard(self.channel(game_id))
                await self._pubsub.unsubscribe(self.channel(game_id))

    async def _read(self) -> None:
        """Read messages forever; after an error, wait and read again.

        redis-py connects again by itself (:func:`client`: its ``Retry``) and
        subscribes again to every channel (the confirmations resync each game,
        :meth:`_dispatch`); a link whose health check goes unanswered
        (:meth:`_check_link`) is dropped so that it does. From the first error
        until the listener is back, :meth:`following` is False and every cached
        table is stale (``on_reset(None)``): the table service reads the store
        instead of trusting what it missed.
        """
        failures = 0
        while not self._closed:
            if self._pubsub.connection is None:  # nothing subscribed through it yet
                await asyncio.sleep(IDLE_POLL)
                continue
            try:
                message = await self._pubsub.get_message(timeout=1.0)
                self._check_link()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - any transport error: connect again
                if self._closed:
                    return
                if not self.lost:  # once per outage, not once per attempt
                    log.warning("redis listener lost", extra={"error": repr(exc)})
                    self.lost = True
                    for game in self._alone | set(self._unsent):
                        self._not_alone(game)  # others' hellos may be missed meanwhile
                    self.reconnects += 1
                    if self._hooks.on_reset is not None:
                        self._hooks.on_reset(None)
                with contextlib.suppress(Exception):  # the next read connects anew
                    await self._pubsub.connection.disconnect()
                failures += 1
                await asyncio.sleep(self._backoff.compute(failures))  # never spin
                continue
            failures = 0
            if self.lost:
                log.info("redis listener back")
                self.lost = False
                if self._unsubscribed:
                    await self._subscribe_again()
                self._resync_all()
                self._back = asyncio.create_task(self._say_again(), name="redis-bus-back")
            if message is None:
                if not self._pubsub.subscribed:
                    await asyncio.sleep(IDLE_POLL)
                continue
            await self._dispatch(message)

    def _check_link(self) -> None:
        """Raise when the listener's health check went unanswered (see
        :data:`HEALTH_CHECK`): redis-py sends it, but a server that never answers
        is not an error by itself."""
        conn = self._pubsub.connection
        if conn is None or not conn.is_connected:
            return
        overdue = asyncio.get_running_loop().time() - conn.next_health_check
        if conn.next_health_check > 0 and overdue > HEALTH_CHECK + SOCKET_TIMEOUT:
            raise RedisConnectionError(f"no answer from Redis for {overdue:.1f} s")

    async def _say_again(self) -> None:
        """Back after a loss: ask the others who is connected to them (``hello``),
        say who is here (``on_back``): presence published meanwhile may be lost;
        then alive again (a restarted Redis forgot the key).

        The hellos and presence are queued first: the liveness key's SET may
        wait for redis-py's retries on a connection the restart killed (1.8 s
        in the chaos soak, at a load average of 20), and pages shown a player
        offline meanwhile wait for these answers, not for the key (the others
        take a process they hear from for alive)."""
        trace.debug("back: hello to every game", extra={"games": len(self._subs)})
        for game_id in list(self._subs):
            self._send(game_id, json.dumps({"o": self.origin, "c": "hello"}))
        if self._hooks.on_back is not None:
            try:
                await self._hooks.on_back()
            except Exception:
                log.exception("saying presence again failed")
        await self._refresh_alive()

    def _resync_all(self) -> None:
        if self._hooks.on_reset is not None:
            self._hooks.on_reset(None)
        for subs in self._subs.values():
            for sub in subs:
                sub.resync()

    async def _dispatch(self, message: dict[str, Any]) -> None:
        channel = message.get("channel")
        if isinstance(channel, bytes):
            channel = channel.decode()
        if not isinstance(channel, str) or not channel.startswith(self.prefix + "g:"):
            return
        game_id = channel[len(self.prefix) + 2:]
        kind = message.get("type")
        if kind == "subscribe":
            # a (re)subscription: whatever was published before it is missed
            if game_id not in self._subs:  # an UNSUBSCRIBE lost while Redis was away
                task = asyncio.create_task(self._unlisten(game_id), name="redis-bus-unlisten")
                task.add_done_callback(_quiet)
                return
            if self._hooks.on_reset is not None:
                self._hooks.on_reset(game_id)
            self._not_alone(game_id)  # others' hellos may have been missed
            for sub in list(self._subs.get(game_id, ())):
                sub.resync()
            trace.debug("subscribed", extra={"game": game_id,
                                             "again": game_id in self._confirmed})
            if game_id in self._confirmed and (self._back is None or self._back.done()):
                # subscribed again: redis-py connected anew (Redis restarted?)
                self._back = asyncio.create_task(self._say_again(), name="redis-bus-back")
            self._confirmed.add(game_id)
            return
        if kind != "message":
            return
        try:
            payload = json.loads(message["data"])
            origin = payload["o"]
            if origin == self.origin:
                return
            self._heard[origin] = asyncio.get_running_loop().time()
            if game_id in self._subs:
                self._voices[game_id] = self._voices.get(game_id, 0) + 1
            if game_id in self._alone or game_id in self._unsent:
                self._not_alone(game_id)
            if payload.get("c") == "hello":
                moved = payload.get("s")
                trace.debug("heard hello", extra={"game": game_id, "origin": origin,
                                                  "moved": moved})
                if self._hooks.on_hello is not None:
                    await self._hooks.on_hello(game_id,
                                               moved if isinstance(moved, int) else None)
                return
            body = payload["m"]
        except (ValueError, KeyError, TypeError):
            log.warning("bad bus payload", extra={"channel": channel})
            return
        except Exception:
            log.exception("hello handler failed", extra={"game": game_id})
            return
        if self._hooks.on_remote is not None:
            try:
                await self._hooks.on_remote(game_id, body, origin)
            except Exception:
                log.exception("remote event handler failed", extra={"game": game_id})
        for sub in list(self._subs.get(game_id, ())):
            sub.put(body)

    async def retire(self) -> None:
        """Stop keeping this process's liveness key and delete it: the other
        processes take it for dead at their next check (``close`` does this;
        a test may, to stand for a process that died)."""
        if self._poller is not None:
            self._poller.cancel()
            with contextlib.suppress(BaseException):
                await self._poller
            self._poller = None
        if self._keep_alive_task is not None:
            self._keep_alive_task.cancel()
            with contextlib.suppress(BaseException):
                await self._keep_alive_task
            self._keep_alive_task = None
            with contextlib.suppress(Exception):
                await self._redis.delete(self._alive_key(self.origin))

    async def close(self) -> None:
        """Send what is queued (5 s at most), stop listening and release the connections."""
        if self._sender is not None:
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(asyncio.shield(self._sender), 5.0)
        self._closed = True
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(BaseException):
                await self._sender
        await self.retire()
        await self.slots.close()
        for task in (self._reader, self._back):
            if task is not None:
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await self._pubsub.aclose()
        with contextlib.suppress(Exception):
            await self._listen_client.aclose()
        with contextlib.suppress(Exception):
            await self._redis.aclose()
        self._subs.clear()
