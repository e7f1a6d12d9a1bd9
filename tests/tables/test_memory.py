"""Issue 23, item 3: memory that lets go. A finished game nobody follows leaves
the process's memory within a minute (the service's clock is the test's, moved
by hand: no sleeping), a game still in the lobby or in play stays for the
cache's idle time, and what is cached of a finished game is its state, not
its history (the engine forgets the positions it checked for repeats)."""

from __future__ import annotations

import pickle

import pytest

from cardwar.engine import WAR, Game, deal, shuffled_deck
from cardwar.tables import TableService, hash_secret
from cardwar.tables.cache import FINISHED_IDLE

from .test_choices import _service
from .test_service import _close

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def _finished(service: TableService) -> str:
    """A two-player game (Ann and the computer) played to its end; its id."""
    table, secret = await service.create("peace", 2, computers=(1,), nickname="Ann")
    async with service.bus.subscribe(table.id) as events:
        await service.start(table.id, 0)
        await service.set_auto(table.id, table.seat_of(hash_secret(secret)), True)
        while (await events.get())["type"] != "over":
            pass
    return table.id


async def test_a_finished_game_nobody_follows_leaves_memory_within_a_minute(tmp_path):
    now = [1000.0]
    service = await _service(tmp_path, clock=lambda: now[0], computer_delay=0.0,
                             table_idle=600.0)
    lobby, _ = await service.create("peace", 2, nickname="Bo")
    done = await _finished(service)
    assert service.cache.by_status() == {"lobby": 1, "playing": 0, "over": 1}
    now[0] += FINISHED_IDLE - 1
    assert done in service.cache
    now[0] += 2  # a minute at most, counting the gauges' sweep every 15 s
    assert FINISHED_IDLE + 15 <= 60
    assert service.cache.by_status() == {"lobby": 1, "playing": 0, "over": 0}
    assert done not in service.cache
    assert lobby.id in service.cache
    # gone from memory, not from the site: read back from the store on its next use
    back = await service.get(done)
    assert back.record.status == "over"
    assert back.game.over
    await _close(service)


async def test_a_finished_game_someone_uses_stays_while_used(tmp_path):
    now = [1000.0]
    service = await _service(tmp_path, clock=lambda: now[0], computer_delay=0.0)
    done = await _finished(service)
    for _ in range(3):  # a page that asks about it (a replay, a rematch) keeps it
        now[0] += FINISHED_IDLE - 1
        assert service.cache.get(done) is not None
    now[0] += FINISHED_IDLE + 1
    assert service.cache.by_status()["over"] == 0
    await _close(service)


def test_a_finished_engine_game_keeps_its_state_not_its_history():
    """War checks for repeated positions (RULES.md 7) with every position seen;
    once over no battle follows, so they are let go."""
    game = Game(WAR, deal(shuffled_deck("memory-1"), 2))
    fresh = len(pickle.dumps(game))
    game.play_to_end()
    assert game.over
    assert game.battles > 50
    assert len(pickle.dumps(game)) <= fresh + 200
    again = Game(WAR, deal(shuffled_deck("memory-1"), 2))
    assert [r.winner for r in again.play_to_end()][-1] == game.winner  # the same game
