"""Rematch, handing a seat over and new seat secrets, on the pure Table and the service."""

from __future__ import annotations

import asyncio

import pytest

from cardwar.bus import LocalBus
from cardwar.engine import seated, seating
from cardwar.settings import Settings
from cardwar.store import Store
from cardwar.tables import Table, TableError, TableService, hash_secret
from cardwar.tables.events import follow
from cardwar.tables.pace import fast_forward
from cardwar.tables.rematch import known_rematch, rematch
from cardwar.tables.replay import game_record, start_counts


def _table(players: int = 3, **kw) -> Table:
    return Table.new("g" * 16, "peace", players, creator="Ann", creator_hash="h0",
                     seed="s", **kw)


def test_a_rematch_table_can_seat_its_creator_anywhere():
    t = _table(3, computers=(0,), creator_seat=1)
    assert [s.kind for s in t.record.seats] == ["computer", "human", "open"]
    assert t.creator == 1
    with pytest.raises(TableError, match="seat_taken"):
        t.join("Bo", "h2", seat=0)
    assert t.join("Bo", "h2", seat=2) == 2
    with pytest.raises(TableError, match="not_creator"):
        t.start(2)
    t.start(1)
    assert t.status == "playing"
    with pytest.raises(ValueError, match="must be other seats"):
        _table(3, computers=(1,), creator_seat=1)


def test_a_reserved_seat_is_kept_for_its_player_and_nickname():
    t = _table(4, computers=(3,), creator_seat=1, reserved={0: "Bob"})
    assert [(e["seat"], e["kind"], e["nickname"]) for e in t.take_outbox()] == [
        (1, "human", "Ann"), (3, "computer", None), (0, "reserved", "Bob")]
    assert [s.kind for s in t.record.seats] == ["reserved", "human", "open", "computer"]
    assert t.open_seats() == [2]
    assert t.reserved_seats() == [0]
    assert t.creator == 1
    assert t.seat_of(None) is None
    assert t.record.seats[0].secret_hash is None
    # a stranger: not Bob's nickname (compared like any nickname), only the open seat
    for name in ("Bob", " bOB "):
        with pytest.raises(TableError, match="name_taken"):
            t.join(name, "hz")
    with pytest.raises(TableError, match="name_taken"):
        _table(3, creator_seat=1, reserved={0: "Zoé"}).join("ZOE\u0301", "hz")  # after NFC
    assert t.join("Zed", "hz") == 2
    with pytest.raises(TableError, match="no_seat"):
        t.join("Yan", "hy")  # only the reserved seat is left: the table is full
    with pytest.raises(TableError, match="seat_taken"):
        t.join("Yan", "hy", seat=2)
    # Bob takes his own seat, under his own nickname
    assert t.join("Bob", "hb", seat=0) == 0
    assert (t.record.seats[0].kind, t.record.seats[0].nickname) == ("human", "Bob")
    assert t.seat_of("hb") == 0
    assert t.reserved_seats() == []
    assert t.creator == 0
    # and may start it now (the lowest seat back): every page is told so
    assert t.take_outbox()[-1] == {"type": "joined", "seq": t.seq, "seat": 0,
                                   "kind": "human", "nickname": "Bob", "creator": 0}
    with pytest.raises(TableError, match="no_seat"):
        t.join("Bob", "hb2", seat=0)


def test_a_former_player_may_not_take_another_kept_nickname():
    t = _table(3, creator_seat=1, reserved={0: "Bob", 2: "Cy"})
    with pytest.raises(TableError, match="no_seat"):
        t.join("Zed", "hz")
    with pytest.raises(TableError, match="name_taken"):
        t.join("cy", "hb", seat=0)
    with pytest.raises(TableError, match="name_taken"):
        t.join("Ann", "hb", seat=0)
    with pytest.raises(TableError, match="seat_taken"):
        t.join("Bob", "hb", seat=1)
    assert t.join("Bob", "hb", seat=0) == 0
    with pytest.raises(ValueError, match="must be other seats"):
        _table(3, creator_seat=1, reserved={1: "Bob"})
    with pytest.raises(ValueError, match="both a computer's and reserved"):
        _table(3, computers=(2,), reserved={2: "Bob"})
    with pytest.raises(ValueError, match="must be other seats"):
        _table(3, reserved={3: "Bob"})


def test_starting_early_gives_the_reserved_seats_to_the_computer():
    t = _table(3, creator_seat=1, reserved={0: "Bob", 2: "Cy"})
    t.join("Cy", "hc", seat=2)
    t.take_outbox()
    with pytest.raises(TableError, match="not_creator"):
        t.start(0)  # a reserved seat is nobody's yet
    t.start(1)
    # the lobby's seats, then placed at the table by the seed (RULES.md 9, Seating)
    assert [(s.kind, s.nickname) for s in t.record.seats] == seated(seating("s", 3), [
        ("computer", None), ("human", "Ann"), ("human", "Cy")])
    assert [(e["type"], e.get("seat"), e.get("kind")) for e in t.take_outbox()] == [
        ("joined", 0, "computer"), ("started", None, None)]
    assert t.reserved_seats() == []
    assert t.open_seats() == []
    with pytest.raises(TableError, match="not_lobby"):
        t.join("Bob", "hb", seat=0)


def test_another_process_applies_reserved_seats_and_reloads_for_their_player():
    mine = _table(3, creator_seat=1)
    theirs = _table(3, creator_seat=1, reserved={0: "Bob"})
    event = theirs.take_outbox()[-1]
    assert follow(mine, event) is True
    assert (mine.record.seats[0].kind, mine.record.seats[0].nickname) == ("reserved", "Bob")
    assert mine.seq == theirs.seq
    assert mine.reserved_seats() == [0]
    theirs.join("Bob", "hb", seat=0)
    assert follow(mine, theirs.take_outbox()[-1]) is False  # the secret is not in the event
    assert mine.record.seats[0].kind == "reserved"
    assert mine.seq == theirs.seq - 1
    playing = _table(2)
    playing.join("Bo", "h1")
    playing.start(0)
    late = {**event, "seq": playing.seq + 1, "seat": 1}
    assert follow(playing, late) is False
    assert playing.record.seats[1].kind == "human"


def test_only_the_creator_hands_a_human_seat_to_the_computer():
    t = _table(3)
    t.join("Bo", "h1")
    t.join("Cy", "h2")
    with pytest.raises(TableError, match="not_playing"):
        t.hand_over(0, 1)
    t.start(0)
    t.take_outbox()
    # the seed drew the seats (RULES.md 9): who sits where now
    ann, bo, cy = (t.seat_of(h) for h in ("h0", "h1", "h2"))
    assert t.creator == ann
    for by, seat, code in ((bo, cy, "not_creator"), (None, bo, "not_creator"),
                           (ann, ann, "not_gone"), (ann, 7, "not_gone")):
        with pytest.raises(TableError, match=code):
            t.hand_over(by, seat)
    t.hand_over(ann, bo)
    assert t.record.seats[bo].kind == "computer"
    assert t.seat_of("h1") is None
    assert t.take_outbox() == [{"type": "handed", "seq": t.seq, "seat": bo}]
    with pytest.raises(TableError, match="not_gone"):
        t.hand_over(ann, bo)  # a computer seat already


def test_relink_replaces_the_secret():
    t = _table(2)
    t.relink(0, "fresh")
    assert t.seat_of("h0") is None
    assert t.seat_of("fresh") == 0
    with pytest.raises(TableError, match="not_seated"):
        t.relink(1, "x")


def test_a_rematch_is_offered_once_after_the_end():
    t = Table.new("g" * 16, "peace", 2, creator="Ann", creator_hash="h0",
                  hands="2C 3C / 9H 8H")
    t.join("Bo", "h1")
    with pytest.raises(TableError, match="not_over"):
        t.offer_rematch(0, "new")
    t.start(0)
    while t.status != "over":
        for s in t.to_flip():
            t.flip(s)
    with pytest.raises(TableError, match="not_seated"):
        t.offer_rematch(None, "new")
    t.offer_rematch(1, "new")
    assert t.rematch == "new"
    assert t.take_outbox()[-1]["type"] == "rematch"
    with pytest.raises(TableError, match="rematch_offered"):  # its own reason
        t.offer_rematch(0, "other")
    assert t.rematch == "new"
    assert t.rematch_by == 1
    assert game_record(t)["log"][0]["battle"] == 1
    assert start_counts(t) == [2, 2]


@pytest.mark.anyio
async def test_service_rematch_keeps_seats_options_and_computers(tmp_path):
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")
    await store.migrate()
    settings = Settings(testing_stacked_deck=True, computer_delay=0.001, flip_timeout=60)
    service = TableService(store, LocalBus(), settings)
    try:
        table, s0 = await service.create("war", 4, face_down=1, computers=(1, 3), nickname="Ann")
        gid = table.id
        _, _s2 = await service.join(gid, "Cy")
        with pytest.raises(TableError, match="not_over"):
            await rematch(service, gid, 0)
        await service.start(gid, 0)
        while table.status != "over":
            for s in table.to_flip():
                if table.record.seats[s].kind == "human":
                    await service.flip(gid, s)
            await asyncio.sleep(0.01)
        with pytest.raises(TableError, match="not_seated"):
            await rematch(service, gid, 1)  # a computer seat
        new_id, b2 = await rematch(service, gid, 2)
        new = await service.get(new_id)
        assert [s.kind for s in new.record.seats] == \
            ["reserved", "computer", "human", "computer"]
        assert [s.nickname for s in new.record.seats] == ["Ann", None, "Cy", None]
        assert (new.record.variant, new.record.face_down) == ("war", 1)
        assert new.seat_of(hash_secret(b2)) == 2
        assert new.creator == 2
        # after a restart the offer is read back from the stored events
        fresh = TableService(store, LocalBus(), settings)
        old = await fresh.get(gid)
        assert old.rematch is None
        assert await known_rematch(fresh, old) == new_id
        # and who offered it, for the page's "Cy offers a rematch" after a reload
        assert old.rematch_by == 2
        assert fresh.message(old, 0)["game"]["rematch_by"] == 2
        joined, b0 = await rematch(fresh, gid, 0)
        assert joined == new_id
        assert b0 != s0
        started = await fresh.get(new_id)
        assert started.status == "playing"
        assert started.seat_of(hash_secret(b0)) == 0
        with pytest.raises(TableError, match="not_lobby"):
            await rematch(fresh, gid, 2)
        await fresh.close()
    finally:
        await service.close()
        await store.close()


@pytest.mark.anyio
async def test_service_rematch_starts_once_no_seat_is_reserved(tmp_path):
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")
    await store.migrate()
    settings = Settings(testing_stacked_deck=True, computer_delay=0.001, flip_timeout=60)
    service = TableService(store, LocalBus(), settings)
    try:
        table, _ = await service.create("peace", 3, nickname="Ann")
        gid = table.id
        await service.join(gid, "Bob")
        await service.join(gid, "Cy")
        await service.start(gid, 0)
        while table.status != "over":
            for s in table.to_flip():
                await service.flip(gid, s)
        new_id, _ = await rematch(service, gid, 0)
        new = await service.get(new_id)
        assert [(s.kind, s.nickname) for s in new.record.seats] == [
            ("human", "Ann"), ("reserved", "Bob"), ("reserved", "Cy")]
        with pytest.raises(TableError, match="no_seat"):
            await service.join(new_id, "Zed")  # the public join: the table is full
        # reserved seats are stored (another process, or a restart, reads them back)
        fresh = TableService(store, LocalBus(), settings)
        assert [s.kind for s in (await fresh.get(new_id)).record.seats] == \
            ["human", "reserved", "reserved"]
        await fresh.close()
        assert (await rematch(service, gid, 1))[0] == new_id
        assert new.status == "lobby"
        assert new.reserved_seats() == [2]  # Cy still to come
        assert (await rematch(service, gid, 2))[0] == new_id
        assert new.status == "playing"
        assert [(s.kind, s.nickname) for s in new.record.seats] == [
            ("human", "Ann"), ("human", "Bob"), ("human", "Cy")]
    finally:
        await service.close()
        await store.close()


def _numbers(service: TableService, table: Table) -> list[tuple[str, str | None, int]]:
    """Each seat's (kind, nickname, number) as a page shows it, sorted (the seats
    are drawn again, so only who is there counts, not where)."""
    seats = service.message(table, None)["seats"]
    return sorted((s["kind"], s["nickname"], s["number"]) for s in seats)


@pytest.mark.anyio
@pytest.mark.parametrize("players", [2, 3])
async def test_a_rematch_against_the_computer_keeps_the_computers_numbers(tmp_path, players):
    # seed "a" draws [0, 1] for 2 (so "c": [1, 0]) and [1, 0, 2] for 3: a computer
    # moves off its lobby seat, and its number must not move with the seat
    seed = "a" if players == 3 else "c"
    assert seating(seed, players) != list(range(players))
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")
    await store.migrate()
    settings = Settings(testing_seed=seed, computer_delay=0.001, flip_timeout=60)
    service = TableService(store, LocalBus(), settings)
    try:
        computers = tuple(range(1, players))
        table, secret = await service.create("war", players, computers=computers, nickname="Ola")
        assert await service.start_if_alone(table)
        before = _numbers(service, table)
        assert before == sorted([("human", "Ola", 1)] +
                                [("computer", None, n + 1) for n in computers])
        mine = table.seat_of(hash_secret(secret))
        await fast_forward(service, table.id, mine)  # "Finish the game"
        for _ in range(500):
            if table.status == "over":
                break
            await asyncio.sleep(0.01)
        assert table.status == "over", (table.steps, table.skipping)
        new_id, _ = await rematch(service, table.id, mine)
        new = await service.get(new_id)
        assert new.status == "playing"
        assert _numbers(service, new) == before
    finally:
        await service.close()
        await store.close()


@pytest.mark.anyio
async def test_a_rematch_with_friends_keeps_the_lobby_order(tmp_path):
    store = Store(f"sqlite+aiosqlite:///{tmp_path / 'g.db'}")
    await store.migrate()
    settings = Settings(testing_seed="a", computer_delay=0.001, flip_timeout=60)
    service = TableService(store, LocalBus(), settings)
    try:
        table, _ = await service.create("peace", 3, nickname="Ann")
        _, bob = await service.join(table.id, "Bob")
        await service.join(table.id, "Cy")
        await service.start(table.id, 0)
        assert table.seating() == [1, 0, 2]
        assert table.seat_of(hash_secret(bob)) == 0
        for _ in range(5000):  # the battle limit ends it before
            if table.status == "over":
                break
            for s in table.to_flip():
                await service.flip(table.id, s)
        assert table.status == "over"
        new_id, secret = await rematch(service, table.id, 0)  # Bob asks, from table seat 0
        new = await service.get(new_id)
        assert [(s.kind, s.nickname) for s in new.record.seats] == [
            ("reserved", "Ann"), ("human", "Bob"), ("reserved", "Cy")]
        assert new.seat_of(hash_secret(secret)) == 1
        assert new.creator == 1
        assert (await rematch(service, table.id, 1))[0] == new_id  # Ann (table seat 1)
        assert new.status == "lobby"
        assert new.reserved_seats() == [2]
        assert (await rematch(service, table.id, 2))[0] == new_id  # and Cy: it starts
        assert new.status == "playing"
        assert _numbers(service, new) == _numbers(service, table)
    finally:
        await service.close()
        await store.close()
