"""The TableService without the web: store, bus, timers, computers, restarts."""

from __future__ import annotations

import asyncio

import pytest
from waiting import eventually

from cardwar.bus import LocalBus
from cardwar.settings import Settings
from cardwar.store import Store
from cardwar.tables import TableError, TableService, hash_secret

pytestmark = pytest.mark.anyio


async def _service(tmp_path, **kw) -> TableService:
    kw.setdefault("flip_timeout", 30.0)
    kw.setdefault("computer_delay", 0.01)
    kw.setdefault("peace_show", 0.0)  # a peace's own wait: tests/tables/test_choices.py
    settings = Settings(database=f"sqlite+aiosqlite:///{tmp_path / 'games.db'}", **kw)
    store = Store(settings.database)
    await store.migrate()
    return TableService(store, LocalBus(), settings)


async def _close(service: TableService) -> None:
    await service.close()
    await service.store.close()



async def test_two_humans_play_a_stacked_game_to_the_end(tmp_path):
    service = await _service(tmp_path, testing_stacked_deck=True)
    table, secret0 = await service.create("peace", 2, nickname="Ann")
    seat, secret1 = await service.join(table.id, "Bob")
    assert seat == 1
    assert secret0 != secret1
    with pytest.raises(TableError) as err:
        await service.join(table.id, "Cid")
    assert err.value.code == "no_seat"
    seen = []
    async with service.bus.subscribe(table.id) as sub:
        with pytest.raises(TableError):
            await service.start(table.id, 1)
        await service.start(table.id, 0)
        while table.status != "over":
            for s in table.to_flip():
                await service.flip(table.id, s)
        while not sub.queue.empty():
            seen.append(await sub.get())
    idle = [e for e in seen if e["type"] == "idle"]  # transient, not stored: no seq
    assert idle
    assert all(e["seq"] is None for e in idle)
    seen = [e for e in seen if e["type"] != "idle"]
    types = [e["type"] for e in seen]
    assert types[0] == "started"
    assert types[-1] == "over"
    assert [e["seq"] for e in seen] == list(range(seen[0]["seq"], seen[-1]["seq"] + 1))
    stored = await service.store.events_since(table.id, 0)
    assert [e.seq for e in stored] == list(range(1, table.seq + 1))
    assert seen[-1]["winner"] == 0
    assert seen[-1]["hands"]
    await _close(service)


async def test_computer_seats_flip_by_themselves(tmp_path):
    service = await _service(tmp_path, testing_stacked_deck=True)
    table, _ = await service.create("peace", 3, computers=(2,), nickname="Ann")
    await service.join(table.id, "Bob")
    await service.start(table.id, 0)
    await eventually(lambda: table.record.flipped == [2])
    await service.flip(table.id, 0)
    await service.flip(table.id, 1)
    assert table.game.battles == 1
    # seat 2 went out in battle 1 (stacked deck): only humans remain
    assert table.to_flip() == [0, 1]
    await _close(service)


async def test_a_computer_game_plays_itself_with_auto_flip(tmp_path):
    service = await _service(tmp_path)
    table, secret = await service.create("war", 2, computers=(1,), nickname="Ann")
    await service.start(table.id, 0)
    ann = table.seat_of(hash_secret(secret))  # drawn from the seed (RULES.md 9)
    assert ann is not None
    await service.set_auto(table.id, ann, True)
    await eventually(lambda: table.game.battles >= 3)
    await service.set_auto(table.id, ann, False)
    assert table.record.seats[ann].auto_flip is False
    await _close(service)


async def test_idle_players_are_flipped_for(tmp_path):
    service = await _service(tmp_path, flip_timeout=0.05)
    table, _ = await service.create("peace", 2, nickname="Ann")
    await service.join(table.id, "Bob")
    await service.start(table.id, 0)
    await service.flip(table.id, 0)
    await eventually(lambda: table.game.battles >= 1)
    async with service.cache.lock(table.id):  # the battle's save is done
        events = await service.store.events_since(table.id, 0)
    assert any(e.type == "flipped" and e.data["by"] == "timer" for e in events), [
        (e.type, e.data) for e in events]
    await _close(service)


async def test_the_idle_clock_starts_only_when_someone_is_waiting(tmp_path):
    service = await _service(tmp_path, flip_timeout=0.05)
    table, _ = await service.create("peace", 2, nickname="Ann")
    await service.join(table.id, "Bob")
    await service.start(table.id, 0)
    # nobody has flipped: no idle clock and no timer, so nothing happens however
    # long everyone waits
    assert service.clocks.count(table.id) == 0
    assert service.idle_left(table) is None
    assert table.game.battles == 0
    assert table.record.flipped == []
    assert service.message(table, 1)["idle"] is None
    # Ann flips: Bob's clock starts, and the snapshot tells how long is left
    await service.flip(table.id, 0)
    left = service.idle_left(table)
    assert left is not None
    assert 0 < left <= 0.05
    assert service.message(table, 1)["idle"] is not None
    await eventually(lambda: table.game.battles == 1)
    # the next battle: both idle again, nothing is armed to happen
    async with service.cache.lock(table.id):  # the battle's change is over
        assert service.clocks.count(table.id) == 0
    assert table.game.battles == 1
    assert service.idle_left(table) is None
    await _close(service)


async def test_an_idle_human_against_the_computer_is_not_played_for_forever(tmp_path):
    service = await _service(tmp_path, flip_timeout=0.05)
    table, secret = await service.create("war", 2, computers=(1,), nickname="Ann")
    await service.start(table.id, 0)
    ann = table.seat_of(hash_secret(secret))  # drawn from the seed (RULES.md 9)
    assert ann is not None
    # the computer flips, but no human is kept waiting: no idle clock, no countdown
    await eventually(lambda: 1 - ann in table.record.flipped)
    async with service.cache.lock(table.id):  # the computer's flip is done
        assert service.clocks.count(table.id) == 0  # no timer armed: nothing will flip for Ann
    assert table.game.battles == 0
    assert service.idle_left(table) is None
    # Ann flips herself: the game goes on
    await service.flip(table.id, ann)
    assert table.game.battles == 1
    await _close(service)


async def test_a_connected_player_idle_battle_after_battle_is_marked_away(tmp_path):
    service = await _service(tmp_path, flip_timeout=0.05, idle_away=3, peace_show=0.0,
                             computer_delay=1.0)
    table, _ = await service.create("peace", 2, nickname="Ann")
    bob, _ = await service.join(table.id, "Bob")
    await service.start(table.id, 0)
    await service.connect(table.id, 0)
    await service.connect(table.id, 1)
    ann = next(s.seat for s in table.record.seats if s.nickname == "Ann")
    bob = 1 - ann
    for n in range(1, 4):  # Ann flips, Bob's clock runs out: three battles in a row
        assert not service.presence.is_gone(table.id, bob)
        await service.flip(table.id, ann)
        await eventually(lambda n=n: table.game.battles >= n or table.status != "playing")
        if table.status != "playing":
            pytest.skip("the deal ended the game before the third battle")
    await eventually(lambda: service.presence.is_gone(table.id, bob))
    assert bob in service.online(table.id)  # connected all along, but away
    # from now on Bob is played for at the computer's pace: Ann is never kept waiting
    await service.flip(table.id, ann)
    await eventually(lambda: table.game.battles >= 4 or table.status != "playing")
    async with service.cache.lock(table.id):
        events = await service.store.events_since(table.id, 0)
    assert [e.data["by"] for e in events if e.type == "flipped"
            and e.data["seat"] == bob][-1] == "gone"
    # flipping by hand takes the seat back
    if table.status == "playing":
        assert await service.flip(table.id, bob)
        assert not service.presence.is_gone(table.id, bob)
    await _close(service)


async def test_the_idle_message_reaches_the_bus(tmp_path):
    service = await _service(tmp_path, flip_timeout=5.0)
    table, _ = await service.create("peace", 2, nickname="Ann")
    await service.join(table.id, "Bob")
    await service.start(table.id, 0)
    published: list[dict] = []
    real = service.bus.publish

    async def spy(game_id, event):
        published.append(event)
        await real(game_id, event)

    service.bus.publish = spy  # type: ignore[method-assign]
    await service.flip(table.id, 0)
    idle = [e for e in published if e["type"] == "idle"]
    assert len(idle) == 1
    assert idle[0]["battle"] == 1
    assert 4 < idle[0]["left"] <= 5
    assert service.message(table, None, idle[0]) == {"type": "idle", "seq": None,
                                                      "battle": 1, "left": idle[0]["left"]}
    assert service.clocks.count(table.id) == 1  # Bob's timer only
    await _close(service)


async def test_restart_rebuilds_the_table_from_the_store(tmp_path, monkeypatch):
    # seed "peace" lasts 401 battles; a random deal may end within the 8 played here
    monkeypatch.setattr("cardwar.tables.service.new_seed", lambda: "peace")
    service = await _service(tmp_path)
    table, secret = await service.create("peace", 2, nickname="Ann")
    _, secret1 = await service.join(table.id, "Bob")
    await service.start(table.id, 0)
    for _ in range(7):
        await service.flip(table.id, 0)
        await service.flip(table.id, 1)
    await service.flip(table.id, 1)
    counts, seq = table.game.counts(), table.seq
    await _close(service)

    again = await _service(tmp_path)
    assert await again.get("no-such-game") is None
    rebuilt = await again.get(table.id)
    assert rebuilt is not None
    assert rebuilt is not table
    assert rebuilt.game.battles == 7
    assert rebuilt.game.counts() == counts
    assert rebuilt.seq == seq
    assert rebuilt.record.flipped == [1]
    from cardwar.tables import hash_secret
    assert rebuilt.seat_of(hash_secret(secret)) == 0
    assert rebuilt.seat_of(hash_secret(secret1)) == 1
    assert again.clocks.count(table.id) == 1  # seat 0's idle timer is armed again
    # with time for the pages to reconnect after the restart
    from cardwar.tables.clocks import RECONNECT_GRACE
    left = again.idle_left(rebuilt)
    assert left is not None
    assert left > again.settings.flip_timeout + RECONNECT_GRACE - 5
    await again.flip(table.id, 0)
    assert rebuilt.game.battles == 8
    await _close(again)


async def test_presence(tmp_path):
    service = await _service(tmp_path)
    table, _ = await service.create("peace", 2, nickname="Ann")
    async with service.bus.subscribe(table.id) as sub:
        await service.connect(table.id, 0)
        await service.connect(table.id, 0)
        assert service.online(table.id) == {0}
        await service.disconnect(table.id, 0)
        assert service.online(table.id) == {0}
        await service.disconnect(table.id, 0)
        assert service.online(table.id) == set()
        assert [(m["online"], m["seq"]) for m in (await sub.get(), await sub.get())] == [
            (True, None), (False, None)]
    await _close(service)


async def test_in_turns_the_idle_clock_starts_with_the_turn_of_an_active_human(tmp_path):
    """Beggar-my-neighbour: nobody can flip first, so the seat to move's clock starts
    with its turn once a human has played; a game of idle humans stops by itself."""
    service = await _service(tmp_path, flip_timeout=0.05)
    table, _ = await service.create("beggar", 2, nickname="Ann")
    await service.join(table.id, "Bob")
    await service.start(table.id, 0)
    # nobody has played yet: no clock
    assert service.idle_left(table) is None
    assert table.steps == 0
    with pytest.raises(TableError) as err:
        await service.flip(table.id, 1)  # not Bob's turn
    assert err.value.code == "not_your_turn"
    async with service.bus.subscribe(table.id) as sub:
        await service.flip(table.id, 0)
        # Ann played: Bob (to move) has a clock, said to the pages
        assert table.to_flip() == [table.game.to_move]
        assert service.idle_left(table) is not None
        message = await asyncio.wait_for(sub.get(), 1)
        while message["type"] != "idle":
            message = await asyncio.wait_for(sub.get(), 1)
        assert message["battle"] == table.steps + 1
    # then the clocks play for both idle humans a few cards, and stop
    await eventually(lambda: table.steps == 1 + 6, seconds=5)
    async with service.cache.lock(table.id):  # the sixth card's change is over
        assert service.clocks.count(table.id) == 0  # no timer armed: no more cards
    assert table.steps == 1 + 6
    assert table.status == "playing"
    assert service.idle_left(table) is None
    await _close(service)


async def test_a_game_in_turns_against_the_computer_ends_and_has_a_rematch(tmp_path):
    from cardwar.tables.rematch import rematch

    service = await _service(tmp_path, testing_stacked_deck=True)
    table, _ = await service.create("beggar", 2, computers=(1,), nickname="Ann")
    await service.start(table.id, 0)
    for _ in range(20):  # Ann's turn (or the end) comes once the computer has played
        await eventually(lambda: table.status == "over" or table.to_flip() == [0])
        if table.status == "over":
            break
        await service.flip(table.id, 0)
    assert table.status == "over"
    result = table.result()
    assert (result["winner"], result["battles"], result.get("tricks")) == (0, 6, 2)
    new_id, secret = await rematch(service, table.id, 0)
    new = await service.get(new_id)
    assert new is not None
    assert new.variant.name == "beggar"
    assert new.record.face_down == 0
    assert secret
    assert table.rematch == new_id
    await _close(service)


async def test_auto_flip_off_stops_the_next_flip(tmp_path):
    # issue 24, item 9: switching auto-flip off cancels the flip it had armed, and an
    # auto flip that fires anyway (armed by another process) re-checks the setting
    service = await _service(tmp_path, computer_delay=60.0, testing_stacked_deck=True)
    table, _ = await service.create("peace", 2, nickname="Ann")
    await service.join(table.id, "Bob")
    await service.start(table.id, 0)
    await service.set_auto(table.id, 0, True)
    assert service.clocks.count(table.id) == 1  # Ann's auto flip, in 60 s
    await service.set_auto(table.id, 0, False)
    assert service.clocks.count(table.id) == 0  # nobody waits: nothing armed
    assert await service.flip(table.id, 0, "auto", 1) is False  # fired all the same
    current = await service.get(table.id)
    assert current is not None
    assert current.record.flipped == []
    assert await service.flip(table.id, 0, "player", 1) is True  # by hand it counts
    await _close(service)


async def test_in_turns_against_the_computer_no_idle_clock_for_the_human(tmp_path):
    """Beggar-my-neighbour by hand against the computer: nobody is kept waiting, so
    no clock starts when it is the human's turn (README, Idle is idle)."""
    service = await _service(tmp_path, flip_timeout=60)
    table, _ = await service.create("beggar", 2, computers=(1,), nickname="Ann")
    await service.start(table.id, 0)
    # the seats are drawn at the start: Ann's table seat is 0 or 1
    ann = next(rec.seat for rec in table.record.seats if rec.kind == "human")
    turns = 0
    for _ in range(1000):  # at most 10 s; a few computer cards and tricks between turns
        if table.status != "playing" or turns >= 5:
            break
        if table.to_flip() == [ann]:
            async with service.cache.lock(table.id):  # the last card's change is over
                assert service.idle_left(table) is None
            await service.flip(table.id, ann)
            turns += 1
        await asyncio.sleep(0.01)
    assert turns >= 5 or table.status == "over", (turns, table.status, table.to_flip())
    await _close(service)
