"""Real-browser fixtures: a uvicorn server on a free port and one Chromium.

Reusable by every browser test (the site's and online play's):

* ``server_factory(settings=None) -> base URL``: start another server,
  e.g. with a ``Settings`` override; stopped at the end of the session.
* ``live_server``: the default server (temp SQLite database), base URL.
* ``browser``: one Chromium for the whole session (Debian's: :data:`CHROMIUM`).
* ``page``: a fresh context and page per test (1280x800, English).
* ``axe_source``: path of axe-core's ``axe.min.js`` (from ``npm ci``).

Tests wait with Playwright's auto-waiting ``expect`` (a locator's assertion
retried until it holds), given the same 30 s as the page's own waits: CI's
two cores are shared, 5 s (its default) is too short there.

Missing Chromium or axe-core makes the tests FAIL, never skip.
"""

from __future__ import annotations

import functools
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import pytest
import uvicorn
from playwright.sync_api import Page, expect

from cardwar.cli import WS_MAX_SIZE
from cardwar.settings import Settings
from cardwar.web.app import create_app

from .helpers import free_port

expect.set_options(timeout=30_000)

#: How often ``page.wait_for_function`` tries its predicate, in ms. Playwright's
#: default is every animation frame, which keeps the page drawing 60 frames a
#: second for as long as a test waits (a game's battles, a hold, the end): the
#: browser tests took 374 CPU-s in 204 s so, 325 CPU-s in 188 s polling every
#: 100 ms (7 December, three workers). A test that needs the frame passes
#: ``polling="raf"``.
WAIT_POLLING_MS = 100
_wait_every_frame = Page.wait_for_function


@functools.wraps(_wait_every_frame)
def _wait_for_function(self: Page, expression: str, *, arg: Any = None,
                       timeout: float | None = None,
                       polling: float | Literal["raf"] | None = None) -> Any:
    return _wait_every_frame(self, expression, arg=arg, timeout=timeout,
                             polling=WAIT_POLLING_MS if polling is None else polling)


Page.wait_for_function = _wait_for_function  # type: ignore[method-assign]

#: Debian's Chromium: its headless shell (package ``chromium-headless-shell``,
#: the build Playwright itself runs headless) when it is installed, else the
#: browser (``chromium``); ``CARDWAR_TEST_CHROMIUM`` names another. The same
#: Blink, V8 and layout; the shell has no browser UI process and costs about
#: half the CPU (all the browser tests on two cores, 7 December: 371 CPU-s in
#: 246 s against about 900 CPU-s in 490 s), which is what CI waits for.
CHROMIUM = os.environ.get("CARDWAR_TEST_CHROMIUM") or next(
    (path for path in ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
     if Path(path).exists()), "/usr/bin/chromium")
ROOT = Path(__file__).resolve().parents[2]
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


class _ServerThread:
    """One uvicorn server in a daemon thread."""

    def __init__(self, settings: Settings) -> None:
        self.port = free_port()
        config = uvicorn.Config(
            create_app(settings), host="127.0.0.1", port=self.port,
            log_level="warning", lifespan="on", ws="auto", ws_max_size=WS_MAX_SIZE,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture(scope="session")
def server_factory(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[..., str]]:
    """``start(settings=None) -> base URL`` (no trailing slash).

    Without ``settings`` the server gets a fresh temporary SQLite database.
    """
    servers: list[_ServerThread] = []

    def start(settings: Settings | None = None) -> str:
        if settings is None:
            db = tmp_path_factory.mktemp("db") / "db.sqlite"
            settings = Settings(database=f"sqlite+aiosqlite:///{db}")
        server = _ServerThread(settings)
        server.start()
        servers.append(server)
        return server.url

    yield start
    for server in servers:
        server.stop()


@pytest.fixture(scope="session")
def live_server(server_factory: Callable[..., str]) -> str:
    """Base URL of the default test server, e.g. ``http://127.0.0.1:40123``."""
    return server_factory()


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """One headless Chromium (Debian's) for the session."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is missing at {CHROMIUM}: apt-get install chromium-headless-shell")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # The site's CSP forbids eval, which Playwright's string predicates
        # (wait_for_function("...")) and axe injection need: test contexts
        # bypass it unless a test asks for the real policy (bypass_csp=False,
        # see tests/browser/test_play_reconnect.py).
        plain_new_context = b.new_context

        def new_context(**kwargs: object) -> object:
            kwargs.setdefault("bypass_csp", True)
            return plain_new_context(**kwargs)

        b.new_context = new_context  # type: ignore[method-assign]
        yield b
        b.close()


@pytest.fixture
def page(browser: object) -> Iterator[object]:
    """A new browser context and page for one test."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US")  # type: ignore[attr-defined]
    pg = context.new_page()
    yield pg
    context.close()


@pytest.fixture(scope="session")
def axe_source() -> Path:
    """Path of axe-core's ``axe.min.js``; fails when ``npm ci`` was not run."""
    if not AXE_JS.is_file():
        pytest.fail(f"axe-core is missing at {AXE_JS}: run `npm ci`")
    return AXE_JS
