"""Two TableServices (as two server processes would be) on one PostgreSQL and one Redis.

Concurrent flips for the same battle, stale caches, and timers armed in
every process: each battle is played exactly once and every flip counts once.
"""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest
from waiting import eventually

from cardwar.bus.redis import RedisBus
from cardwar.settings import Settings
from cardwar.store import Store
from cardwar.tables import TableService

from .conftest import REDIS_URL

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(autouse=True)
def long_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Deal every game from seed ``peace`` (Peace: 401 battles, War: 748).

    These tests count 25-30 battles; about 2% of random deals end sooner.
    """
    monkeypatch.setattr("cardwar.tables.service.new_seed", lambda: "peace")


async def _pair(pg_url: str, prefix: str, liveness_ttl: float = 15.0,
                **kw) -> tuple[TableService, TableService]:
    kw.setdefault("flip_timeout", 60.0)
    kw.setdefault("computer_delay", 0.01)
    services = []
    for _ in range(2):
        settings = Settings(database=pg_url, redis=REDIS_URL, redis_prefix=prefix, **kw)
        store = Store(settings.database)
        await store.migrate()
        services.append(TableService(store, RedisBus(REDIS_URL, prefix, liveness_ttl=liveness_ttl),
                                     settings))
    return services[0], services[1]


async def _game_of_two(a: TableService, b: TableService):
    """A started Peace game of Ann (seat 0) and Bob (seat 1), made through ``a``."""
    table, _ = await a.create("peace", 2, nickname="Ann")
    await a.join(table.id, "Bob")
    await a.start(table.id, 0)
    return table


async def _close(*services: TableService) -> None:
    for s in services:
        await s.close()
        await s.bus.close()
        await s.store.close()



def _check_history(events) -> Counter:
    """Every seq once, battles numbered 1.. once each, one flip per seat per battle."""
    assert [e.seq for e in events] == list(range(1, len(events) + 1))
    battles = [e.data["battle"] for e in events if e.type == "battle"]
    assert battles == list(range(1, len(battles) + 1))
    flips = Counter((e.data["battle"], e.data["seat"]) for e in events if e.type == "flipped")
    assert all(n == 1 for n in flips.values()), flips.most_common(3)
    return flips


async def test_concurrent_flips_from_two_processes_play_each_battle_once(pg_url, redis_prefix):
    a, b = await _pair(pg_url, redis_prefix)
    table, _ = await a.create("peace", 2, nickname="Ann")
    await b.join(table.id, "Bob")  # b's cache of the game, a's is now stale
    await a.start(table.id, 0)
    async with a.bus.subscribe(table.id) as sub_a, b.bus.subscribe(table.id) as sub_b:
        sub_a.start_after(0)
        sub_b.start_after(0)
        for n in range(1, 26):
            # both seats flip battle n at once, each through both processes: 4 racing flips
            results = await asyncio.gather(*(
                svc.flip(table.id, seat, "player", n) for seat in (0, 1) for svc in (a, b)))
            assert sum(results) == 2
        events = await a.store.events_since(table.id, 0)
        flips = _check_history(events)
        assert len(flips) == 50
        # both processes' subscribers saw every event once, in order
        last = events[-1].seq
        for sub in (sub_a, sub_b):
            seen = []
            while not seen or seen[-1]["seq"] != last:
                seen.append(await asyncio.wait_for(sub.next(), 5))
            seqs = [m["seq"] for m in seen if m["seq"] is not None]
            assert seqs == list(range(1, last + 1))
    ta, tb = await a.get(table.id), await b.get(table.id)
    assert ta.seq == tb.seq == last
    assert ta.game.battles == tb.game.battles == 25
    await _close(a, b)


async def test_timers_in_every_process_fire_exactly_once(pg_url, redis_prefix):
    # a computer game with auto-flip: both processes arm every timer
    a, b = await _pair(pg_url, redis_prefix, flip_timeout=0.05, computer_delay=0.04)
    before = {"a": a.clocks.armed, "b": b.clocks.armed}
    table, _ = await a.create("war", 2, computers=(1,), nickname="Ann")
    await a.start(table.id, 0)
    # an idle human is not flipped for forever (the idle clock needs someone active)
    await a.set_auto(table.id, 0, True)
    async with b.bus.subscribe(table.id), a.bus.subscribe(table.id):
        await b.get(table.id)  # b follows the game: it arms timers too

        async def played_enough() -> bool:
            t = await a.store.load(table.id)
            return t.steps >= 30 or t.status == "over"

        try:
            await eventually(played_enough, 30)
        except AssertionError:
            rec = await a.store.load(table.id)
            last = await a.store.events_since(table.id, rec.seq - 6)
            raise AssertionError(
                f"stalled at seq {rec.seq}, step {rec.steps}, flipped {rec.flipped}; "
                f"timers a {a.clocks.count(table.id)} b {b.clocks.count(table.id)}; "
                f"last events {[(e.seq, e.type, e.data.get('seat')) for e in last]}") from None
        # both processes arm timers (each for the battles it played or saw played;
        # how many each arms depends on scheduling, so only require both to take part)
        armed = {"a": a.clocks.armed - before["a"], "b": b.clocks.armed - before["b"]}
        assert armed["a"] >= 1, armed
        assert armed["b"] >= 1, armed
    await _close(a, b)
    events = await Store(pg_url).events_since(table.id, 0)
    flips = _check_history(events)
    by = Counter(e.data["by"] for e in events if e.type == "flipped")
    assert by["timer"] + by["auto"] >= 30, by
    assert by["computer"] >= 30, by
    played = sum(e.type == "battle" for e in events)
    assert len(flips) - 2 * played in (0, 1)  # at most one flip of the battle in progress


async def test_a_stale_cache_is_refreshed_by_remote_events(pg_url, redis_prefix):
    a, b = await _pair(pg_url, redis_prefix)
    table = await _game_of_two(a, b)
    tb = await b.get(table.id)
    async with b.bus.subscribe(table.id) as sub:
        sub.start_after(tb.seq)
        for _ in range(3):
            await a.flip(table.id, 0)
            await a.flip(table.id, 1)
        stored = await a.get(table.id)  # a's cache is replaced when it reloads
        assert stored.game.battles == 3
        while (await asyncio.wait_for(sub.next(), 5))["seq"] != stored.seq:
            pass
        current = await b.get(table.id)
        assert current.seq == stored.seq
        assert current.game.battles == 3
        assert current.game.counts() == stored.game.counts()
    await _close(a, b)


async def test_a_lost_race_catches_up_without_replaying_the_game(
        pg_url, redis_prefix, monkeypatch):
    from cardwar.obs.metrics import REGISTRY
    from cardwar.tables import service as service_module

    a, b = await _pair(pg_url, redis_prefix)
    table = await _game_of_two(a, b)
    async with a.bus.subscribe(table.id), b.bus.subscribe(table.id):
        await b.get(table.id)
        for n in (1, 2, 3):
            await a.flip(table.id, 0, "player", n)
            await a.flip(table.id, 1, "player", n)

        async def b_has_three() -> bool:
            return (await b.get(table.id)).game.battles == 3

        await eventually(b_has_three, 10.0)
        built: list[int] = []

        class Counting(service_module.Table):  # type: ignore[misc, valid-type]
            def __init__(self, record) -> None:
                built.append(record.steps)
                super().__init__(record)

        monkeypatch.setattr(service_module, "Table", Counting)
        stale = REGISTRY.get_sample_value("cardwar_stale_writes_total") or 0.0
        # a saves seat 0's flip; b, not having heard of it yet, saves seat 1's
        # flip of the same battle: b loses the version check, catches up, retries
        assert await a.flip(table.id, 0, "player", 4)
        assert await b.flip(table.id, 1, "player", 4)
        assert (REGISTRY.get_sample_value("cardwar_stale_writes_total") or 0.0) > stale
        assert (await b.get(table.id)).game.battles == 4

        async def a_has_four() -> bool:
            return (await a.get(table.id)).game.battles == 4

        await eventually(a_has_four, 10.0)
        assert built == []  # neither process rebuilt the game by replaying it
    events = await a.store.events_since(table.id, 0)
    _check_history(events)
    assert sum(e.type == "battle" for e in events) == 4
    await _close(a, b)


async def test_spectators_and_gone_players_are_known_to_every_process(pg_url, redis_prefix):
    a, b = await _pair(pg_url, redis_prefix, gone_after=600.0)
    table = await _game_of_two(a, b)
    async with a.bus.subscribe(table.id), b.bus.subscribe(table.id) as sub_b:
        sub_b.start_after(table.seq)
        await b.get(table.id)
        await a.connect(table.id, 0)  # Ann plays on a, Bob is not connected anywhere
        await b.connect(table.id, None)  # a spectator on b, two on a
        await a.connect(table.id, None)
        await a.connect(table.id, None)

        async def three_watchers() -> bool:
            return a.watchers(table.id) == 3 and b.watchers(table.id) == 3

        await eventually(three_watchers, 10.0)
        # b's page is told the site-wide count, not b's own
        tb = await b.get(table.id)
        assert b.message(tb, None, {"type": "watchers", "seq": None, "count": 1})["count"] == 3
        assert await a.presence.mark_gone(table.id, 1)  # Bob is away: a plays for him

        async def b_knows_gone() -> bool:
            return b.gone(table.id) == {1}

        await eventually(b_knows_gone, 10.0)
        assert b.message(tb, 0)["seats"][1]["gone"] is True
        await b.connect(table.id, 1)  # Bob comes back, on b

        async def back_everywhere() -> bool:
            return a.gone(table.id) == set() and b.gone(table.id) == set() and \
                1 in a.online(table.id)

        await eventually(back_everywhere, 10.0)
        await a.disconnect(table.id, None)

        async def two_watchers() -> bool:
            return a.watchers(table.id) == 2 and b.watchers(table.id) == 2

        await eventually(two_watchers, 10.0)
    await _close(a, b)


async def test_players_of_a_process_that_died_go_offline(pg_url, redis_prefix):
    a, b = await _pair(pg_url, redis_prefix, liveness_ttl=1.0, gone_after=600.0)
    table = await _game_of_two(a, b)
    async with a.bus.subscribe(table.id), b.bus.subscribe(table.id) as sub_b:
        sub_b.start_after(table.seq)
        await b.get(table.id)
        await a.connect(table.id, 0)  # Ann and a spectator on a
        await a.connect(table.id, None)
        await b.connect(table.id, 1)  # Bob on b

        async def b_sees_ann() -> bool:
            return b.online(table.id) == {0, 1} and b.watchers(table.id) == 1

        await eventually(b_sees_ann, 10.0)
        assert await b.presence.forget_dead_processes() == set()  # a is alive: nothing changes
        assert b.online(table.id) == {0, 1}
        # a dies without a word: its liveness key is no longer refreshed and expires
        await a.bus.retire()
        gone_clocks = b.clocks.timers.count(f"{table.id}#gone")
        # a was heard a moment ago, and a key missing at one check may be a Redis that
        # restarted: nobody is dead until a is silent and missing at two checks in a row
        assert await b.presence.forget_dead_processes() == set()
        assert b.online(table.id) == {0, 1}
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 10
        dead: set[str] = set()
        checks = 0
        while not dead and loop.time() < deadline:
            await asyncio.sleep(0.2)
            dead = await b.presence.forget_dead_processes()
            checks += 1
        assert dead == {a.bus.origin}
        assert checks >= 2
        assert b.online(table.id) == {1}
        assert b.watchers(table.id) == 0
        seen = []
        while not any(m.get("type") == "presence" and m.get("seat") == 0
                      and m.get("online") is False for m in seen):
            seen.append(await asyncio.wait_for(sub_b.next(), 5))
        # Ann will be played for if she stays away
        assert b.clocks.timers.count(f"{table.id}#gone") == gone_clocks + 1
    await _close(a, b)


async def test_rematch_asked_on_two_processes_at_once_makes_one_game(pg_url, redis_prefix):
    from cardwar.tables.rematch import rematch

    a, b = await _pair(pg_url, redis_prefix, testing_stacked_deck=True)
    table = await _game_of_two(a, b)
    async with a.bus.subscribe(table.id), b.bus.subscribe(table.id):
        await b.get(table.id)
        for n in range(1, 60):  # the stacked deck ends within a few battles
            if (await a.get(table.id)).status == "over":
                break
            await a.flip(table.id, 0, "player", n)
            await b.flip(table.id, 1, "player", n)

            async def a_saw_it(n: int = n) -> bool:
                return (await a.get(table.id)).game.battles >= n

            await eventually(a_saw_it, 10.0)  # as a page would: flip the next battle once shown it

        async def over_everywhere() -> bool:
            return [(await s.get(table.id)).status for s in (a, b)] == ["over", "over"]

        await eventually(over_everywhere, 10.0)
        # Ann on a and Bob on b click "Rematch" at the same moment
        (ann_game, _), (bob_game, _) = await asyncio.gather(
            rematch(a, table.id, 0), rematch(b, table.id, 1))
        assert ann_game == bob_game
    offers = [e for e in await a.store.events_since(table.id, 0) if e.type == "rematch"]
    assert len(offers) == 1
    new = await a.get(ann_game)
    assert new is not None
    assert new.status == "playing"  # both came: it started by itself
    await _close(a, b)
