"""Several processes without external services: two table services, one SQLite
store, an in-memory bus double (tests/tables/memory_bus.py) that loses what a
test says. The same paths run against PostgreSQL and Redis in tests/scale."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable

import pytest

from cardwar.bus import Message, Subscription
from cardwar.obs.metrics import REGISTRY
from cardwar.settings import Settings
from cardwar.store import Store
from cardwar.tables import TableError, TableService
from cardwar.tables.pace import set_pace

from .memory_bus import MemoryHub

pytestmark = pytest.mark.anyio


async def _pair(tmp_path, hub: MemoryHub, **kw) -> tuple[TableService, TableService]:
    settings = Settings(database=f"sqlite:///{tmp_path / 'games.db'}", flip_timeout=60.0,
                        computer_delay=60.0, gone_after=600.0, **kw)
    store = Store(settings.database)
    await store.migrate()
    return (TableService(store, hub.bus("a"), settings),
            TableService(store, hub.bus("b"), settings))


async def _close(a: TableService, b: TableService) -> None:
    await a.close()
    await b.close()
    await a.store.close()


async def _game(a: TableService) -> str:
    table, _ = await a.create("war", 2, nickname="Ann")
    await a.join(table.id, "Bob")
    await a.start(table.id, 0)
    return table.id


def _to_b(hub: MemoryHub, lost: Callable[[Message], bool]) -> None:
    hub.lose = lambda origin, to, m: to == "b" and lost(m)


async def _seqs_until(sub: Subscription, last: int) -> list[int]:
    """The numbers of the stored events ``sub`` delivers, up to ``last``."""
    seen: list[int] = []
    while not seen or seen[-1] != last:
        message = await asyncio.wait_for(sub.next(), 5)
        if message["seq"] is not None:
            seen.append(message["seq"])
    return seen


def _stale_writes() -> float:
    return REGISTRY.get_sample_value("cardwar_stale_writes_total") or 0.0


async def test_a_follower_applies_remote_events_without_reloading(tmp_path):
    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub)
    gid = await _game(a)
    async with a.bus.subscribe(gid), b.bus.subscribe(gid):
        cached = await b.get(gid)
        for _ in range(5):
            await a.flip(gid, 0)
            await a.flip(gid, 1)
        # b's cached table followed every event: the same object, as far as a's
        assert b.cache.get(gid) is cached
        assert await b.get(gid) is cached
        mine = await a.get(gid)
        assert cached.seq == mine.seq
        assert cached.game.battles == 5
        assert cached.game.counts() == mine.game.counts()
        assert b.message(cached, 0)["game"] == a.message(mine, 0)["game"]
    await _close(a, b)


async def test_a_write_from_a_stale_cache_catches_up_and_retries(tmp_path):
    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub)
    gid = await _game(a)
    async with a.bus.subscribe(gid), b.bus.subscribe(gid) as sub_b:
        cached = await b.get(gid)
        sub_b.start_after(cached.seq)  # as a page does after its snapshot
        _to_b(hub, lambda m: m.get("seq") is not None)  # b hears none of a's events
        await a.flip(gid, 0)
        await a.flip(gid, 1)  # battle 1, which b's cache does not know
        await a.flip(gid, 0)
        assert cached.game.battles == 0
        assert b.cluster.trusted(gid)  # stale, and unaware
        cached_seq = cached.seq
        before = _stale_writes()
        assert await b.flip(gid, 1) is True  # lost the version check, caught up, retried
        assert _stale_writes() == before + 1
        table = await b.get(gid)
        assert table.game.battles == 2
        assert table.seq == (await a.store.load(gid)).seq
        # every event stored once, in order; b's page saw each once, gaps filled
        stored = await a.store.events_since(gid, 0)
        assert [e.seq for e in stored] == list(range(1, table.seq + 1))
        battles = [e.data["battle"] for e in stored if e.type == "battle"]
        assert battles == [1, 2]
        assert await _seqs_until(sub_b, table.seq) == list(range(cached_seq + 1, table.seq + 1))
    await _close(a, b)


async def test_a_page_fills_the_gaps_the_bus_left_from_the_store(tmp_path):
    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub)
    gid = await _game(a)
    async with a.bus.subscribe(gid), b.bus.subscribe(gid) as sub_b:
        table = await b.get(gid)
        sub_b.start_after(table.seq)
        # every other event is lost on its way to b
        _to_b(hub, lambda m: isinstance(m.get("seq"), int) and m["seq"] % 2 == 0)
        for _ in range(4):
            await a.flip(gid, 0)
            await a.flip(gid, 1)
        last = (await a.get(gid)).seq
        # once each, in order
        assert await _seqs_until(sub_b, last) == list(range(table.seq + 1, last + 1))
        # b's cache could not follow the gaps: it is brought up to the store on use
        current = await b.get(gid)
        assert current.seq == last
        assert current.game.battles == 4
    await _close(a, b)


async def test_a_refusal_from_a_stale_cache_is_checked_against_the_store(tmp_path):
    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub)
    table, _ = await a.create("war", 2, nickname="Ann")
    await a.join(table.id, "Bob")
    async with a.bus.subscribe(table.id), b.bus.subscribe(table.id):
        cached = await b.get(table.id)
        _to_b(hub, lambda m: m.get("seq") is not None)
        await a.start(table.id, 0)
        assert cached.status == "lobby"  # b missed the start...
        assert await b.flip(table.id, 1) is True  # ...so its refusal is checked: it plays
        assert (await b.get(table.id)).record.flipped == [1]
    await _close(a, b)


async def test_processes_share_presence_and_forget_a_dead_one(tmp_path):
    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub)
    gid = await _game(a)
    async with a.bus.subscribe(gid):
        await a.connect(gid, 0)
        await a.connect(gid, None)
        async with b.bus.subscribe(gid):  # hello: a tells b who is there
            assert b.online(gid) == {0}
            assert b.watchers(gid) == 1
            await b.connect(gid, 1)
            assert a.online(gid) == {0, 1}
            assert await b.presence.forget_dead_processes() == set()
            hub.dead.add("a")
            gone_clocks = b.clocks.timers.count(f"{gid}#gone")
            # missing once is not dead (a restarted Redis forgot every key)
            assert await b.presence.forget_dead_processes() == set()
            assert b.online(gid) == {0, 1}
            assert await b.presence.forget_dead_processes() == {"a"}  # missing twice
            assert b.online(gid) == {1}
            assert b.watchers(gid) == 0
            assert b.clocks.timers.count(f"{gid}#gone") == gone_clocks + 1
    await _close(a, b)


async def test_a_process_back_on_the_bus_says_again_who_is_connected(tmp_path):
    # issue 24, items 2 and 3: b took a for dead (its key missing twice while Redis
    # was away); once the bus is back, a says again who is connected to it, and
    # b's pages are told Ann is online
    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub)
    gid = await _game(a)
    async with a.bus.subscribe(gid):
        await a.connect(gid, 0)
        async with b.bus.subscribe(gid) as page:
            await b.connect(gid, 1)
            hub.dead.add("a")
            await b.presence.forget_dead_processes()
            assert await b.presence.forget_dead_processes() == {"a"}
            assert b.online(gid) == {1}
            hub.dead.discard("a")
            while not page.queue.empty():
                page.queue.get_nowait()
            assert a.bus.hooks.on_back is not None
            await a.bus.hooks.on_back()  # the bus is back: a says again
            assert b.online(gid) == {0, 1}
            said = [m for m in [page.queue.get_nowait() for _ in range(page.queue.qsize())]
                    if m.get("type") == "presence" and m.get("seat") == 0]
            assert said
            assert said[-1]["online"] is True
    await _close(a, b)


async def test_a_change_refused_at_every_try_is_refused_never_published(tmp_path):
    # issue 24, item 5: a refusal by a cache that keeps catching up (another process
    # moves the game at every try) ends in the refusal at the last try: the loop never
    # falls through to caching and publishing a change that was not saved
    from cardwar.tables import ErrorCode, TableError
    from cardwar.tables.service import STALE_RETRIES

    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub)
    try:
        gid = await _game(a)
        tries: list[int] = []

        async def always_behind(_table, *, arm: bool = True) -> int:
            return 1  # "caught up with one more event": try again

        def refused(_table):
            tries.append(1)
            raise TableError(ErrorCode.NOT_PLAYING)

        published: list[Message] = []
        async with b.bus.subscribe(gid) as sub:
            table = await b.get(gid)  # followed and current: trusted
            assert table is not None
            assert b.cluster.trusted(gid)
            seq = table.seq
            b.cluster.catch_up_table = always_behind  # type: ignore[method-assign]
            with pytest.raises(TableError) as refusal:
                await b.apply(gid, refused)
            assert refusal.value.code == "not_playing"
            assert len(tries) == STALE_RETRIES
            while not sub.queue.empty():
                published.append(sub.queue.get_nowait())
        assert [m for m in published if m.get("seq") is not None] == []
        assert (await b.store.load(gid)).seq == seq  # type: ignore[union-attr]
    finally:
        await _close(a, b)


async def test_a_seat_gets_its_reaction_budget_once_over_two_processes(tmp_path):
    # issue 24, items 5 and 8: the limits are counted where every process sees them
    # (the hub's one limiter stands for Redis): the seat's fourth reaction in six
    # seconds is refused whichever process it reaches
    from cardwar.tables import ErrorCode, TableError
    from cardwar.tables.reactions import REACTION_RATE

    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub)
    try:
        gid = await _game(a)
        for i in range(REACTION_RATE[0]):
            service = (a, b)[i % 2]
            table = await service.get(gid)
            assert table is not None
            await service.reactions.react(table, 0, "clap")
        for service in (a, b):
            table = await service.get(gid)
            assert table is not None
            with pytest.raises(TableError) as refused:
                await service.reactions.react(table, 0, "clap")
            assert refused.value.code == ErrorCode.TOO_MANY_REACTIONS.value
    finally:
        await _close(a, b)


async def _lobby_of_two(a: TableService) -> str:
    """A War lobby made through ``a``: Ann (seat 0) and Bob (seat 1), not started."""
    table, _ = await a.create("war", 2, nickname="Ann")
    await a.join(table.id, "Bob")
    return table.id


async def test_presence_follows_a_start_read_from_the_store(tmp_path):
    # issue 24, item 2 (found by the chaos soak): the start (seed "war": seating
    # [1, 0]) is lost on its way to b, which reads it from the store; Bob, connected
    # to b, must be counted at his table seat 0, not his lobby seat 1
    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub, testing_seed="war", testing_stacked_deck=False)
    try:
        gid = await _lobby_of_two(a)
        async with a.bus.subscribe(gid), b.bus.subscribe(gid):
            await b.get(gid)
            await b.connect(gid, 1)  # Bob, lobby seat 1
            _to_b(hub, lambda m: m.get("type") == "started")
            await a.start(gid, 0)
            assert b.online(gid) == {1}  # not heard yet
            b.cache.mark_stale(gid)  # a gap seen: read the store
            current = await b.get(gid)
            assert current is not None
            assert current.seating() == [1, 0]
            assert b.online(gid) == {0}
            assert a.online(gid) == {0}
            await b.disconnect(gid, 0)
            assert b.online(gid) == set()
    finally:
        await _close(a, b)


async def test_presence_said_in_the_lobby_and_heard_after_the_start_is_put_right(tmp_path):
    # CI (the short chaos soak: a connected player shown offline from the start): Bob's
    # page opens on b as Ann starts on a (seed "war": seating [1, 0]). b says "seat 1
    # online" in the lobby's numbering and a hears it after its own start moved the
    # players: a counted Ann's seat twice and Bob (table seat 0) nowhere, and its pages
    # showed him offline for the whole game. b says again who is connected to it once
    # it made the move, and a's last word from b is right.
    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub, testing_seed="war", testing_stacked_deck=False)
    try:
        gid = await _lobby_of_two(a)
        async with a.bus.subscribe(gid) as page, b.bus.subscribe(gid):
            await a.connect(gid, 0)  # Ann, on a
            await b.get(gid)
            held: list[Message] = []

            def hold(origin: str, to: str, m: Message) -> bool:
                if origin == "b" and m.get("type") == "presence" and not held:
                    held.append(m)
                    return True
                return False

            hub.lose = hold  # b's word is on its way to a (as on Redis) ...
            await b.connect(gid, 1)  # Bob's page, lobby seat 1
            assert held == [{"type": "presence", "seq": None, "seat": 1, "online": True}]
            await a.start(gid, 0)  # ... while the start moves the players
            assert (await a.get(gid)).seating() == [1, 0]  # type: ignore[union-attr]
            assert b.online(gid) == {0, 1}
            hub.lose = lambda origin, to, m: False
            while not page.queue.empty():
                page.queue.get_nowait()
            await a.bus.receive(gid, held[0], "b")  # heard after the start: read wrong
            assert a.online(gid) == {1}
            await b.presence.said_again()
            assert a.online(gid) == {0, 1}
            # and a's pages are told Bob (table seat 0) is connected
            told = [m for m in [page.queue.get_nowait() for _ in range(page.queue.qsize())]
                    if m.get("type") == "presence"]
            assert any(m["seat"] == 0 and m["online"] for m in told), told
    finally:
        await _close(a, b)


async def test_presence_said_after_the_start_and_heard_before_it_is_put_right(tmp_path):
    # the chaos soak of 6 December (seed long, two episodes 5 s into the run, no
    # fault): Ann's page on a, Bob's on b; Ann starts on a (seed "war": seating
    # [1, 0]) and a says "seat 1 online" (Ann) in the table's numbering; b hears it
    # before it makes the move itself, and its move renumbered it to seat 0: b
    # counted Bob's seat twice and Ann nowhere, and b's pages showed Ann offline for
    # the whole game. Once b made the move it asks the others to say again.
    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub, testing_seed="war", testing_stacked_deck=False)
    try:
        gid = await _lobby_of_two(a)
        async with a.bus.subscribe(gid), b.bus.subscribe(gid) as page:
            await a.connect(gid, 0)  # Ann, on a
            await b.get(gid)
            await b.connect(gid, 1)  # Bob's page, lobby seat 1
            assert a.online(gid) == b.online(gid) == {0, 1}
            held: list[Message] = []

            def hold(origin: str, to: str, m: Message) -> bool:
                if origin == "a" and m.get("type") == "started":
                    held.append(m)
                    return True
                return False

            hub.lose = hold  # the start is on its way to b (as on Redis) ...
            await a.start(gid, 0)
            assert (await a.get(gid)).seating() == [1, 0]  # type: ignore[union-attr]
            await a.presence.said_again()  # ... while a's word in the new seating is not
            hub.lose = lambda origin, to, m: False
            assert held
            assert held[0]["seating"] == [1, 0]
            await b.bus.receive(gid, held[0], "a")  # b makes the move now
            await b.presence.said_again()
            await a.presence.said_again()
            assert b.online(gid) == {0, 1}  # Ann (table seat 1) and Bob (table seat 0)
            assert a.online(gid) == {0, 1}
            # b's pages were told Ann is connected after the move
            told = [m for m in [page.queue.get_nowait() for _ in range(page.queue.qsize())]
                    if m.get("type") == "presence" and m.get("seat") == 1]
            assert told
            assert told[-1]["online"] is True
            await a.disconnect(gid, 1)  # Ann goes: both see it (nobody over-counted)
            assert a.online(gid) == b.online(gid) == {0}
    finally:
        await _close(a, b)


async def test_a_dead_process_s_unpublished_event_is_read_from_the_store(tmp_path):
    # the chaos soak of 6 December (seed long, the stuck game): Bob's join was
    # stored by b, which was killed before it published it; a, whose page showed
    # the lobby, never heard of Bob (nothing else moves in a lobby) and its
    # creator never started. Once a finds b dead, every game it follows reads the
    # store for what it missed.
    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub)
    try:
        table, _ = await a.create("war", 2, nickname="Ann")
        gid = table.id
        async with b.bus.subscribe(gid), a.bus.subscribe(gid) as page:
            page.start_after(table.seq)  # the page's snapshot; its first read checks the store
            said, _ = await asyncio.gather(page.next(), a.connect(gid, 0))
            assert said["type"] == "presence"
            assert page.queue.empty()
            await b.connect(gid, None)  # a spectator on b: a knows b
            assert a.watchers(gid) == 1
            assert (await a.get(gid)).seq == table.seq  # type: ignore[union-attr]
            hub.lose = lambda origin, to, m: origin == "b"  # b dies as it publishes
            await b.join(gid, "Bob")
            assert (await a.get(gid)).seq == table.seq  # type: ignore[union-attr]  # unheard
            hub.dead.add("b")
            assert await a.presence.forget_dead_processes() == set()
            assert await a.presence.forget_dead_processes() == {"b"}
            joined = await asyncio.wait_for(_next_stored(page), 5)
            assert joined["type"] == "joined"
            assert joined["seq"] == table.seq + 1
            current = await a.get(gid)
            assert current is not None
            assert current.seq == table.seq + 1
    finally:
        await _close(a, b)


async def _next_stored(sub: Subscription) -> Message:
    """The next stored event ``sub`` delivers (presence and the like skipped)."""
    while True:
        message = await sub.next()
        if message.get("seq") is not None:
            return message


async def test_a_connection_counted_at_another_seat_is_counted_at_its_own(tmp_path):
    # the chaos soak (after the Redis fixes): a connected player shown offline at
    # their seat by both processes. Bob's socket on b took its seat from the lobby's
    # table, and b numbered the start (seed "war": seating [1, 0]) before it counted
    # him: counted at seat 1 (Ann's now), nobody at Bob's seat 0. The socket's own
    # heartbeat says where it sits (recount), and both processes follow.
    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub, testing_seed="war", testing_stacked_deck=False)
    try:
        gid = await _lobby_of_two(a)
        async with a.bus.subscribe(gid), b.bus.subscribe(gid):
            lobby = await b.get(gid)
            assert lobby is not None
            await a.start(gid, 0)
            assert (await b.get(gid)).seating() == [1, 0]  # type: ignore[union-attr]
            bob = object()  # his connection
            await b.connect(gid, 1, bob)  # his lobby seat, numbered after the move
            assert a.online(gid) == b.online(gid) == {1}
            assert await b.recount(gid, bob, 1) is False  # nothing to do when it agrees
            assert await b.recount(gid, bob, 0) is True  # his heartbeat: he sits at 0
            assert a.online(gid) == b.online(gid) == {0}
            await b.disconnect(gid, 1, bob)  # a socket names its seat: the counted one goes
            assert a.online(gid) == b.online(gid) == set()
    finally:
        await _close(a, b)


@pytest.mark.parametrize("seed", range(4))
async def test_a_follower_arms_the_timers_the_process_that_played_arms(tmp_path, seed):
    """What events trigger is decided once (cardwar/tables/triggers.py): the process
    that made each change and the one that followed it arm the same timers for the
    coming step and run the same idle clock, whatever the change was."""
    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub)
    table, _ = await a.create("war", 3, nickname="Ann", computers=(2,))
    gid = table.id
    await a.join(gid, "Bob")
    rng = random.Random(seed)
    async with a.bus.subscribe(gid), b.bus.subscribe(gid):
        await b.get(gid)
        await a.start(gid, 0)
        for _ in range(40):
            what = rng.choice(["flip", "flip", "flip", "auto", "pace", "leave"])
            seat = rng.randrange(2)
            try:
                if what == "flip":
                    await a.flip(gid, seat)
                elif what == "auto":
                    await a.set_auto(gid, seat, rng.random() < 0.5)
                elif what == "pace":
                    await set_pace(a, gid, seat, rng.choice(["slow", "normal", "fast"]))
                elif rng.random() < 0.1:
                    await a.leave(gid, seat)
            except TableError:
                pass
            mine, theirs = await a.get(gid), b.cache.get(gid)
            assert theirs is not None, what
            assert theirs.seq == mine.seq, what
            assert b.clocks.count(gid) == a.clocks.count(gid), (what, mine.to_flip())
            assert (b.idle_left(theirs) is None) == (a.idle_left(mine) is None), what
            if mine.status != "playing":
                break
    await _close(a, b)


async def test_a_slap_game_followed_by_another_process_is_the_same_game(tmp_path):
    """Cards put down through one process and a slap through the other (its own judge
    decides it, on its own timer): both tables are the same game, move for move."""
    from cardwar.tables.slap_kind import table_options

    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub, testing_stacked_deck=True)
    table, _ = await a.create("ers", 2, nickname="Ann", options=table_options("ers", burn=2))
    await a.join(table.id, "Bob")
    await a.start(table.id, 0)
    gid = table.id
    async with a.bus.subscribe(gid) as sub_a, b.bus.subscribe(gid):
        followed = await b.get(gid)
        await a.put(gid, 0, 1)
        await a.put(gid, 1, 2)  # the double
        assert not await b.slap(gid, 0, 2)  # held by b's judge
        while True:  # b's window ends on b's timer; a follows the decision
            message = await asyncio.wait_for(sub_a.next(), 5)
            if message["type"] == "move" and message["slaps"] == 1:
                break
        await a.put(gid, 0)
        mine = await a.get(gid)
        followed = await b.get(gid)
        assert followed.kind.steps() == mine.kind.steps() == 4
        assert followed.game.counts() == mine.game.counts() == (4, 3)
        assert followed.kind.decided == mine.kind.decided  # type: ignore[attr-defined]
        assert b.message(followed, 0)["game"] == a.message(mine, 0)["game"]
        assert mine.kind.options()["burn"] == 2  # type: ignore[attr-defined]
    await _close(a, b)


async def test_a_process_that_does_not_follow_a_game_arms_nothing_for_what_others_played(
        tmp_path):
    """A game against the computer is started by the process that took the form
    (nginx: least_conn) while its page sits on another (the hash of its id). The
    first one's timer, firing once the other has played on, catches up with the
    store and arms nothing more: it would race the follower battle after battle
    (README, "Several processes: one owner per game"). The follower, and a
    process that loads the game for a page, arm the timers."""
    hub = MemoryHub()
    a, b = await _pair(tmp_path, hub)
    try:
        table, _ = await a.create("war", 2, nickname="Carl", computers=(1,))
        gid = table.id
        assert await a.start_if_alone(table)
        armed = a.clocks.armed
        assert a.clocks.count(gid) == 1  # the computer's flip of battle 1, armed by a
        async with b.bus.subscribe(gid):
            played = await b.get(gid)  # the page's process loads it: its timers
            assert played is not None
            assert b.clocks.count(gid) == 1
            computer = next(s.seat for s in played.record.seats if s.kind == "computer")
            human = 1 - computer
            for _ in range(3):
                await b.flip(gid, computer, "computer")
                await b.flip(gid, human)
            assert b.clocks.count(gid) == 1  # b armed battle 4's computer flip
            # a's timer of battle 1 fires (as Clocks._fire calls it): a catches up
            assert await a.flip(gid, computer, "computer", 1) is False
            assert a.cache.get(gid).steps == 3  # a caught up with the store...
            assert a.clocks.armed == armed  # ...and armed nothing for b's battles
            # a change a makes arms what it triggers, as every change does
            assert await a.flip(gid, computer, "computer", 4) is True
            assert await a.flip(gid, human) is True
            assert a.clocks.armed > armed
    finally:
        await _close(a, b)
