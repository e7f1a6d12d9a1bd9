"""Issue 22: a player alone with computers - "Finish the game", the start
without a lobby, the snapshot's ``vs_computer`` and each seat's ``number``."""

from __future__ import annotations

import time

import pytest
from waiting import eventually

from cardwar.bus import LocalBus
from cardwar.engine import PEACE
from cardwar.settings import Settings
from cardwar.store import Store
from cardwar.tables import Table, TableError, TableService, hash_secret, stacked_hands
from cardwar.tables.views import view_message, vs_computer

from .test_service import _close


def _table(players: int, computers: tuple[int, ...], seed: str | None = None) -> Table:
    deal = {"seed": seed} if seed else {"hands": stacked_hands(PEACE, players)}
    return Table.new("g" * 16, "peace", players, creator="Ann", creator_hash="h0",
                     computers=computers, **deal)


def test_a_player_in_play_finishes_only_when_no_other_human_in_play_is_here():
    t = _table(3, (2,))
    t.join("Bo", "h1")
    t.start(0)
    t.take_outbox()
    with pytest.raises(TableError, match="not_alone"):
        t.fast_forward(0, [0, 1], present=[0, 1])  # Bo is here (on auto-flip or not)
    with pytest.raises(TableError, match="not_alone"):
        t.fast_forward(0, [])  # presence unknown: every human in play counts
    t.fast_forward(0, [0], present=[0])  # Bo is away
    assert [e["type"] for e in t.take_outbox()] == ["fast_forward"]
    assert t.skipping
    t.fast_forward(0, [0], present=[0])  # once only
    assert t.take_outbox() == []


def test_the_snapshot_says_vs_computer_and_keeps_each_seats_lobby_number():
    t = _table(4, (1, 2, 3), seed="issue22-numbers")
    lobby = view_message(t, 0)
    assert lobby["game"]["vs_computer"] is True
    assert [s["number"] for s in lobby["seats"]] == [1, 2, 3, 4]
    t.start(0)
    state = view_message(t, None)
    order = state["game"]["seating"]
    assert order != [0, 1, 2, 3]  # the seed drew other seats
    assert [s["number"] for s in state["seats"]] == [p + 1 for p in order]
    friends = _table(2, ())
    assert vs_computer(friends) is False  # an open seat: someone may come
    friends.join("Bo", "h1")
    assert vs_computer(friends) is False
    friends.start(0)
    friends.leave(1)  # Bo left: the computer plays his seat
    assert vs_computer(friends) is True


@pytest.mark.anyio
async def test_start_if_alone_starts_only_a_game_against_the_computer(tmp_path):
    settings = Settings(database=f"sqlite+aiosqlite:///{tmp_path / 'games.db'}",
                        testing_stacked_deck=True, computer_delay=0.01)
    store = Store(settings.database)
    await store.migrate()
    service = TableService(store, LocalBus(), settings, time.monotonic)
    alone, secret = await service.create("peace", 3, computers=(1, 2), nickname="Ann")
    assert await service.start_if_alone(alone) is True
    assert (await service.get(alone.id)).status == "playing"
    assert await service.start_if_alone(await service.get(alone.id)) is False  # started
    friends, _ = await service.create("peace", 3, computers=(1,), nickname="Ann")
    assert await service.start_if_alone(friends) is False
    assert (await service.get(friends.id)).status == "lobby"
    # and it plays: on auto-flip the stacked game ends by itself
    await service.set_auto(alone.id, alone.seat_of(hash_secret(secret)), True)
    await eventually(lambda: alone.status == "over")
    await _close(service)
