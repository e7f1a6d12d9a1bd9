"""A timer's flip that the store could not save is tried again, never dropped
silently (issue 10, faults lose nothing)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from cardwar.settings import Settings
from cardwar.tables import clocks as clocks_module
from cardwar.tables.clocks import Clocks
from cardwar.tables.errors import ErrorCode, TableError

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_a_failed_timer_flip_is_tried_again_until_it_is_saved(monkeypatch, caplog):
    monkeypatch.setattr(clocks_module, "RETRY_AFTER", 0.01)
    calls: list[tuple[str, int, str, int]] = []
    saved = asyncio.Event()

    async def flip(game_id: str, seat: int, by: str, battle: int) -> None:
        calls.append((game_id, seat, by, battle))
        if len(calls) < 3:
            raise ConnectionRefusedError("the database system is starting up")
        saved.set()

    clocks = Clocks(Settings(), flip, lambda game, seat: False)
    clocks.arm(SimpleNamespace(id="g1", steps=4), 1, "timer", 0.01)  # type: ignore[arg-type]
    await asyncio.wait_for(saved.wait(), 5)
    assert calls == [("g1", 1, "timer", 5)] * 3
    assert "trying again" in caplog.text
    await clocks.close()


async def test_a_flip_of_a_battle_that_moved_on_is_dropped(monkeypatch):
    monkeypatch.setattr(clocks_module, "RETRY_AFTER", 0.01)
    calls = 0

    async def flip(game_id: str, seat: int, by: str, battle: int) -> None:
        nonlocal calls
        calls += 1
        raise TableError(ErrorCode.NOT_PLAYING)

    clocks = Clocks(Settings(), flip, lambda game, seat: False)
    clocks.arm(SimpleNamespace(id="g1", steps=4), 1, "timer", 0.01)  # type: ignore[arg-type]
    await asyncio.sleep(0.2)
    assert calls == 1
    assert clocks.count("g1") == 0
    await clocks.close()
