"""Fixtures of the online-play tests: ``delayed_app``, a served app with a delaying proxy."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from cardwar.settings import Settings
from cardwar.web.app import create_app

from .latency import DEADLINE, DelayProxy, Loop, serve

#: Seconds the proxy holds traffic each way: the latency cap (RULES.md 11.6).
DELAY = 0.150
#: Seconds between two heartbeats of the served app: five round trips in a few
#: seconds, and a socket closed as silent only after 1.5 s (a busy machine's stall).
HEARTBEAT = 0.5


@dataclass
class DelayedApp:
    """A served app (``port``) and a proxy to it (``delayed``) adding ``delay`` s each way."""

    app: Any
    loop: Loop
    port: int
    delayed: int
    delay: float

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def delayed_app(tmp_path: Any) -> Iterator[DelayedApp]:
    """The real app served by uvicorn on 127.0.0.1, and a :class:`DelayProxy` to it."""
    app = create_app(Settings(database=f"sqlite+aiosqlite:///{tmp_path / 'games.db'}",
                              heartbeat=HEARTBEAT, flip_timeout=60.0))
    loop = Loop()
    server, task, port = loop.run(serve(app))
    proxy = DelayProxy(port, DELAY)
    delayed = loop.run(proxy.start())
    try:
        yield DelayedApp(app, loop, port, delayed, DELAY)
    finally:
        loop.run(proxy.close())
        server.should_exit = True
        loop.run(asyncio.wait_for(task, DEADLINE))
        loop.close()
