"""A player's choices besides flipping: pace, fast-forward once out, leaving;
and how long a peace stays on the table at each pace (cardwar.tables.clocks)."""

from __future__ import annotations

import time

import pytest
from waiting import eventually

from cardwar.bus import LocalBus
from cardwar.engine import PEACE
from cardwar.settings import Settings
from cardwar.store import Store
from cardwar.tables import Table, TableError, TableService, hash_secret, stacked_hands
from cardwar.tables.clocks import PACE_DELAY, PACE_PEACE
from cardwar.tables.events import follow
from cardwar.tables.pace import fast_forward, set_pace

from .test_service import _close


def _playing(players: int = 3, **kw) -> Table:
    """Ann (creator), Bo and Cy at a stacked table (the lobby's seating), started."""
    t = Table.new("g" * 16, "peace", players, creator="Ann", creator_hash="h0",
                  hands=stacked_hands(PEACE, players), **kw)
    t.join("Bo", "h1")
    if players > 2:
        t.join("Cy", "h2")
    t.start(0)
    t.take_outbox()
    return t


def test_pace_is_a_players_and_follows_to_other_processes():
    t = _playing()
    other = t.clone()
    t.set_pace(1, "fast")
    t.set_pace(1, "fast")  # the same again: no event
    events = t.take_outbox()
    assert [(e["type"], e["seat"], e["pace"]) for e in events] == [("pace", 1, "fast")]
    assert follow(other, events[0])
    assert other.record.seats[1].pace == "fast"
    with pytest.raises(TableError, match="not_seated"):
        t.set_pace(7, "slow")


def test_leaving_gives_the_seat_to_the_computer_and_the_rights_to_the_next_human():
    t = _playing()
    assert t.creator == 0
    t.leave(0)
    (event,) = t.take_outbox()
    assert event == {"type": "left", "seq": t.seq, "seat": 0, "creator": 1}
    assert t.record.seats[0].kind == "left"
    assert t.record.seats[0].nickname == "Ann"
    assert t.seat_of("h0") is None
    assert t.creator == 1
    with pytest.raises(TableError, match="not_seated"):
        t.leave(0)  # once only


def test_only_a_player_who_is_out_fast_forwards_and_only_if_nobody_flips_by_hand():
    t = _playing(4)
    for s in range(4):
        if s in t.to_flip():
            t.flip(s)  # battle 1: seats 2 and 3 go out (the stacked deal)
    assert 3 not in t.game.in_play()
    assert t.status == "playing"
    t.take_outbox()
    with pytest.raises(TableError, match="not_alone"):
        t.fast_forward(0, [])  # still in play, and so is Bo
    with pytest.raises(TableError, match="not_out"):
        t.fast_forward(2, t.by_hand())  # Ann and Bo flip by hand
    t.set_auto(0, True)
    t.set_auto(1, True)
    assert t.by_hand() == []
    t.take_outbox()
    t.fast_forward(2, [])
    assert [e["type"] for e in t.take_outbox()] == ["fast_forward"]
    assert t.skipping


async def _service(tmp_path, clock=time.monotonic, **kw) -> TableService:
    settings = Settings(database=f"sqlite+aiosqlite:///{tmp_path / 'games.db'}",
                        testing_stacked_deck=True, **kw)
    store = Store(settings.database)
    await store.migrate()
    return TableService(store, LocalBus(), settings, clock)


@pytest.mark.anyio
async def test_a_peace_waits_before_any_automatic_flip_at_every_pace(tmp_path):
    service = await _service(tmp_path, computer_delay=0.8, peace_show=3.0)
    table, secret = await service.create("peace", 2, computers=(1,), nickname="Ann")
    await service.start(table.id, 0)
    ann = table.seat_of(hash_secret(secret))
    await service.flip(table.id, ann)
    await eventually(lambda: table.game.battles >= 1)
    assert not table.last.peaces
    assert service.clocks.wait(table) == pytest.approx(0.8)  # Ann flips by hand: normal
    table.last = table.game.copy().play_battle()  # battle 2 of the stacked deal: a peace
    assert table.last.peaces
    assert service.clocks.wait(table) == pytest.approx(0.8 + 3.0)
    await service.set_auto(table.id, ann, True)
    shown = {}
    for pace in ("slow", "normal", "fast"):
        await set_pace(service, table.id, ann, pace)
        shown[pace] = service.clocks.wait(table)
        assert shown[pace] == pytest.approx(0.8 * PACE_DELAY[pace] + 3.0 * PACE_PEACE[pace])
    assert shown == pytest.approx({"slow": 6.5, "normal": 3.8, "fast": 2.45})
    table.skipping = True
    assert service.clocks.wait(table) == 0.0
    await _close(service)


@pytest.mark.anyio
async def test_leave_and_fast_forward_through_the_service(tmp_path):
    service = await _service(tmp_path, computer_delay=0.01, peace_show=0.0)
    table, _s0 = await service.create("peace", 4, nickname="Ann")
    _, s1 = await service.join(table.id, "Bo")
    _, s2 = await service.join(table.id, "Cy")
    await service.start(table.id, 0)  # seat 3 to the computer
    bo, cy = table.seat_of(hash_secret(s1)), table.seat_of(hash_secret(s2))
    await service.leave(table.id, bo)
    assert table.record.seats[bo].kind == "left"
    for seat in (0, cy):
        await service.flip(table.id, seat)
    await eventually(lambda: table.game.battles >= 1)  # Cy (seat 2) went out
    assert cy not in table.game.in_play()
    with pytest.raises(TableError, match="not_out"):
        await fast_forward(service, table.id, cy)  # Ann still flips by hand
    await service.set_auto(table.id, 0, True)
    await fast_forward(service, table.id, cy)
    await eventually(lambda: table.status == "over")
    await _close(service)


def test_leaving_the_lobby_frees_the_seat_and_passes_the_start_on():
    t = Table.new("l" * 16, "peace", 3, creator="Ann", creator_hash="h0", seed="s")
    t.join("Bo", "h1")
    t.take_outbox()
    t.leave(0)
    # Bo moves up to seat 0 (the freed seat goes after him) and may start
    assert t.take_outbox() == [{"type": "left", "seq": t.seq, "seat": 0, "creator": 0,
                                "seating": [1, 0, 2]}]
    assert [(s.kind, s.nickname) for s in t.record.seats] == [
        ("human", "Bo"), ("open", None), ("open", None)]
    assert t.seat_of("h1") == 0
    assert t.seat_of("h0") is None
    assert t.open_seats() == [1, 2]
    assert t.creator == 0
    with pytest.raises(TableError, match="not_creator"):
        t.start(1)
    t.start(0)  # Bo may start now
    assert t.status == "playing"


def test_the_creators_rights_go_to_who_came_next_never_to_a_newcomer():
    """Issue 11: the creator leaving the lobby hands "start" and "hand over" to the
    next human by arrival; a newcomer who takes the freed seat does not get them."""
    t = Table.new("n" * 16, "peace", 3, creator="Ann", creator_hash="h0", seed="s")
    t.join("Bo", "h1")
    t.join("Cy", "h2")
    other = t.clone()  # another process following the game
    t.take_outbox()
    t.leave(0)
    (left,) = t.take_outbox()
    assert (left["creator"], left["seating"]) == (0, [1, 2, 0])
    assert follow(other, left)
    assert [s.nickname for s in other.record.seats] == [s.nickname for s in t.record.seats] == [
        "Bo", "Cy", None]
    assert other.seat_of("h2") == t.seat_of("h2") == 1
    assert other.creator == 0
    assert t.join("Dee", "h3") == 2  # the newcomer sits after those already waiting
    assert t.creator == t.seat_of("h1") == 0
    with pytest.raises(TableError, match="not_creator"):
        t.start(t.seat_of("h3"))
    t.leave(t.seat_of("h1"))  # Bo leaves too: Cy came next, then Dee
    assert t.creator == t.seat_of("h2") == 0
    assert t.seat_of("h3") == 1
    t.start(t.seat_of("h2"))
    assert t.status == "playing"


def test_computers_and_reserved_seats_stay_put_when_the_lobby_moves_up():
    t = Table.new("c" * 16, "peace", 4, creator="Ann", creator_hash="h0", seed="s",
                  computers=(1,))
    t.join("Bo", "h1")  # seat 2
    t.join("Cy", "h2")  # seat 3
    t.take_outbox()
    t.leave(2)
    (left,) = t.take_outbox()
    assert (left["creator"], left["seating"]) == (0, [0, 1, 3, 2])
    assert [s.kind for s in t.record.seats] == ["human", "computer", "human", "open"]
    assert t.seat_of("h2") == 2
    t.leave(0)  # Ann: Cy, the next human, moves up over the computer's seat
    assert [s.kind for s in t.record.seats] == ["human", "computer", "open", "open"]
    assert t.seat_of("h2") == 0
    assert t.creator == 0
    t.join("Dee", "h3")
    t.leave(2)  # the last one leaving: nobody moves, no seating
    assert "seating" not in t.take_outbox()[-1]


@pytest.mark.anyio
async def test_beggar_follows_the_players_paces(tmp_path):
    """A game in turns (thousands of cards) has the same paces: normal while
    someone puts down cards by hand, else the fastest chosen; nobody is out
    before its end, so nobody fast-forwards it."""
    service = await _service(tmp_path, computer_delay=0.8)
    table, s0 = await service.create("beggar", 2, nickname="Ann")
    _, s1 = await service.join(table.id, "Bo")
    await service.start(table.id, 0)
    ann, bo = table.seat_of(hash_secret(s0)), table.seat_of(hash_secret(s1))
    await set_pace(service, table.id, ann, "fast")
    assert service.clocks.wait(table) == pytest.approx(0.8)  # both put down by hand: normal
    await service.set_auto(table.id, ann, True)
    assert service.clocks.wait(table) == pytest.approx(0.8)  # Bo still by hand
    await set_pace(service, table.id, bo, "slow")
    await service.set_auto(table.id, bo, True)
    assert table.by_hand() == []
    assert service.clocks.wait(table) == pytest.approx(0.8 * PACE_DELAY["fast"])  # the fastest
    await set_pace(service, table.id, ann, "slow")
    assert service.clocks.wait(table) == pytest.approx(0.8 * PACE_DELAY["slow"])
    for seat in (ann, bo):  # both in play, both here
        with pytest.raises(TableError, match="not_alone"):
            await fast_forward(service, table.id, seat)
    await _close(service)


@pytest.mark.anyio
async def test_beggar_on_auto_flip_plays_itself_to_the_end_at_its_pace(tmp_path):
    service = await _service(tmp_path, computer_delay=0.02)
    table, s0 = await service.create("beggar", 2, computers=(1,), nickname="Ann")
    await service.start(table.id, 0)
    ann = table.seat_of(hash_secret(s0))
    await set_pace(service, table.id, ann, "fast")
    await service.set_auto(table.id, ann, True)  # nobody by hand: the fast pace
    assert service.clocks.pace(table) == "fast"
    await eventually(lambda: table.status == "over")
    assert table.game.cards_played == 6
    assert table.game.tricks == 2  # the stacked deal
    await _close(service)


@pytest.mark.anyio
async def test_a_pace_chosen_while_a_battle_waits_counts_from_its_start(tmp_path):
    """The wait (a peace's too) starts when the battle before is played, not
    again at every change: a faster pace chosen late flips at once. The
    service reads a clock the test moves: 20 s pass at the normal pace (60 s),
    then the fast pace (15 s) is already over; counted from the change, the
    flip would be 15 s away, past the test's patience."""
    now = [1000.0]
    service = await _service(tmp_path, clock=lambda: now[0], computer_delay=60.0,
                             peace_show=0.0)
    table, secret = await service.create("peace", 2, computers=(1,), nickname="Ann")
    await service.start(table.id, 0)
    ann = table.seat_of(hash_secret(secret))
    await service.set_auto(table.id, ann, True)  # normal pace: 60 s for battle 1
    assert table.game.battles == 0
    now[0] += 20.0
    await set_pace(service, table.id, ann, "fast")  # 60 s * 0.25: already over
    await eventually(lambda: table.game.battles >= 1, seconds=5)
    await _close(service)
