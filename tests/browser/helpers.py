"""Shared helpers of the online-play browser tests (real Chromium).

* ``start_play_server(server_factory, tmp_path_factory, name, flip_timeout=60.0)``:
  an in-process server with the stacked deck and a quick computer.
* ``serve(port, db)``: a real ``cardwar serve`` process, to stop and start again.
* ``open_page``, ``create_game``, ``battles``, ``serious_axe_violations``.
* ``wait_revealed(page)``: wait until the last battle's result is shown.
* ``settle(page)``: wait until the page's animations and transitions are over.
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from cardwar.settings import Settings


def start_play_server(server_factory: Callable[..., str],
                      tmp_path_factory: pytest.TempPathFactory, name: str,
                      flip_timeout: float = 60.0) -> str:
    """Base URL of a new server: stacked deck, a fresh database under ``name``."""
    db = tmp_path_factory.mktemp(name) / "games.db"
    return server_factory(Settings(
        database=f"sqlite+aiosqlite:///{db}", testing_stacked_deck=True,
        flip_timeout=flip_timeout, computer_delay=0.2,
    ))


def open_page(browser, locale: str = "en-US", width: int = 1280):
    ctx = browser.new_context(viewport={"width": width, "height": 800}, locale=locale)
    return ctx, ctx.new_page()


def create_game(page, base: str, variant: str = "peace", players: int = 2,
                seats: dict[int, str] | None = None, nickname: str = "Ann") -> str:
    page.goto(f"{base}/en/{variant}")
    form = page.locator("form.start-form")
    form.locator(f'input[name="players"][value="{players}"]').check()
    for seat, kind in (seats or {}).items():
        form.locator(f'select[name="seat{seat}"]').select_option(kind)
    form.locator('input[name="nickname"]').fill(nickname)
    form.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r".*/en/g/[A-Za-z0-9_-]{16}$"))
    # the lobby's seats; against the computer only the game starts at once: the table
    page.wait_for_selector("#seat-list li, #table:not([hidden]) #seats > *")
    return page.url


def battles(page) -> int:
    return int(page.locator("#table").get_attribute("data-battle") or 0)


#: JavaScript: the game is over on the page, or its end is kept while the last
#: peace is on show (nothing may be flipped any more)
ENDED = ("document.getElementById('game').dataset.status === 'over' || "
         "document.getElementById('game').hasAttribute('data-ending')")


def game_ended(page) -> bool:
    """Whether ``page``'s game is over (see ``ENDED``)."""
    return bool(page.evaluate(ENDED))


def wait_revealed(page) -> None:
    """Wait until ``page`` shows its last battle's result: a peace shows the counts
    from before it until its face-down cards turn (state.js ``shownCounts``), and
    its result (``#summary``) only once they have."""
    expect(page.locator("#summary")).to_have_text(re.compile(r"\S"))


def flip_piles(*pages) -> None:
    """Click each page's pile, where it has one (who went out has none)."""
    for page in pages:
        if page.locator("#my-pile").count():
            page.locator("#my-pile").click()


def next_battle_or_end(page, before: int) -> None:
    """Wait until ``page`` shows a battle after ``before``, or the end of the game
    (see ``ENDED``)."""
    page.wait_for_function(
        f"+document.getElementById('table').dataset.battle > {before} || {ENDED}")


# -- a real server process, stopped and started again --------------------------
def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serve(port: int, db: str) -> subprocess.Popen:
    env = dict(os.environ, CARDWAR_FLIP_TIMEOUT="120", CARDWAR_COMPUTER_DELAY="0.2")
    env.pop("CARDWAR_TESTING_STACKED_DECK", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardwar.cli", "serve", "--port", str(port), "--database", db],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 90  # a bound: a loaded CI machine took over 30 s
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("cardwar serve did not start")


#: JavaScript: resolves once every finite animation and transition on the page
#: is over (an endless one, e.g. a pulsing hint, is left running)
SETTLED = """() => Promise.all(document.getAnimations()
    .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
    .map((a) => a.finished.catch(() => null))).then(() => true)"""


def settle(page) -> None:
    """Wait until ``page``'s finite animations and CSS transitions have ended
    (e.g. before axe-core checks colours that are still fading in)."""
    page.evaluate(SETTLED)


def serious_axe_violations(page, axe_source) -> list[dict]:
    page.add_script_tag(path=str(axe_source))
    found = page.evaluate(
        """async () => {
            const r = await axe.run(document, {resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
        }"""
    )
    return [v for v in found if v["impact"] in ("serious", "critical")]


def join_game(page, url: str, nickname: str, lang: str | None = None) -> None:
    """Open the game ``url`` (in language ``lang`` if given: ``url`` is an /en/
    page then) and take a seat as ``nickname`` through the join form."""
    page.goto(url if lang is None else url.replace("/en/g/", f"/{lang}/g/"))
    page.locator("#nickname").fill(nickname)
    page.locator("form.join-form button[type=submit]").click()
    page.wait_for_selector("#seat-list .tag")
