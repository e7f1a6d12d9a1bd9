"""Online play end to end in real Chromium: two friends, a computer seat, a restart."""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from cardwar.settings import Settings

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


@pytest.fixture(scope="module")
def stacked_server(server_factory, tmp_path_factory) -> str:
    db = tmp_path_factory.mktemp("play") / "games.db"
    return server_factory(Settings(
        database=f"sqlite+aiosqlite:///{db}", testing_stacked_deck=True,
        flip_timeout=60.0, computer_delay=0.2,
    ))


def _context(browser, locale: str = "en-US", width: int = 1280):
    ctx = browser.new_context(viewport={"width": width, "height": 800}, locale=locale)
    return ctx, ctx.new_page()


def _create(page, base: str, variant: str = "peace", players: int = 2,
            seats: dict[int, str] | None = None, nickname: str = "Ann") -> str:
    page.goto(f"{base}/en/{variant}")
    form = page.locator("form.start-form")
    form.locator(f'input[name="players"][value="{players}"]').check()
    for seat, kind in (seats or {}).items():
        form.locator(f'select[name="seat{seat}"]').select_option(kind)
    form.locator('input[name="nickname"]').fill(nickname)
    form.get_by_role("button", name="Create the game").click()
    page.wait_for_url(re.compile(r".*/en/g/[A-Za-z0-9_-]{16}$"))
    page.wait_for_selector("#seat-list li")
    return page.url


def _battles(page) -> int:
    return int(page.locator("#table").get_attribute("data-battle") or 0)


def _over(page) -> bool:
    return page.locator("#game").get_attribute("data-status") == "over"


def test_two_friends_play_peace_to_the_end(browser, stacked_server):
    ctx_a, a = _context(browser)
    ctx_a.grant_permissions(["clipboard-read", "clipboard-write"], origin=stacked_server)
    ctx_b, b = _context(browser, locale="pl-PL", width=360)
    try:
        _create(a, stacked_server, nickname="Ann")
        a.get_by_role("button", name="Copy link").click()
        a.wait_for_function("document.getElementById('copied').textContent.length > 0")
        link = a.evaluate("navigator.clipboard.readText()")
        assert re.fullmatch(rf"{stacked_server}/g/[A-Za-z0-9_-]{{16}}", link)
        assert a.locator(".lobby__qr img").evaluate("img => img.naturalWidth") > 0
        assert a.locator("#commitment").inner_text().strip()

        b.goto(link)  # the shared link opens in the friend's own language
        b.wait_for_url(re.compile(r".*/pl/g/"))
        nick = b.locator("#nickname")
        assert nick.input_value() == "Gracz 2"
        nick.fill("Bob")
        b.get_by_role("button", name="Zajmij miejsce").click()
        b.wait_for_selector("#seat-list li[data-seat='1'] .tag")
        a.wait_for_function(
            "document.querySelector(\"#seat-list li[data-seat='1']\").textContent.includes('Bob')")
        a.get_by_role("button", name="Start the game").click()
        a.wait_for_selector("#table:not([hidden])")
        b.wait_for_selector("#table:not([hidden])")
        assert a.locator("#battle-number").inner_text() == "Battle 1 of 1,000"
        assert b.locator("#battle-number").inner_text() == "Bitwa 1 z 1000"
        # a 360px phone: nothing wider than the screen
        assert b.evaluate("document.documentElement.scrollWidth") <= 360

        letters_a: list[str] = []
        letters_b: list[str] = []
        for _ in range(10):
            if _over(a):
                break
            before = _battles(a)
            a.locator("#my-pile").click()          # mouse
            b.locator("body").focus()
            b.keyboard.press("Space")              # keyboard
            a.wait_for_function(
                f"+document.getElementById('table').dataset.battle > {before}")
            b.wait_for_function(
                f"+document.getElementById('table').dataset.battle > {before}")
            letters = ".tseat[data-seat='0'] .pcard__letter"
            letters_a = letters_a or a.locator(letters).all_inner_texts()
            letters_b = letters_b or b.locator(letters).all_inner_texts()
            a.wait_for_function("document.getElementById('announce').textContent.length > 0")
        a.wait_for_selector("#end:not([hidden])")
        b.wait_for_selector("#end:not([hidden])")
        assert letters_a == list("PEACE")
        assert letters_b == list("POKÓJ")
        end_a = a.locator("#end").inner_text()
        assert "Ann wins the game!" in end_a
        assert "cardwar play --variant peace --players 2 --hands" in end_a
        assert "Ann wygrywa grę!" in b.locator("#end").inner_text()
        assert "Bitwa 2 z 1000" in b.locator("#battle-number").inner_text()
    finally:
        ctx_a.close()
        ctx_b.close()


def test_three_players_with_a_computer(browser, stacked_server):
    ctx_a, a = _context(browser)
    ctx_b, b = _context(browser)
    try:
        url = _create(a, stacked_server, players=3, seats={1: "computer", 2: "friend"})
        assert a.locator("#seat-list li[data-seat='1']").inner_text().startswith("Seat 2")
        b.goto(url)
        b.locator("#nickname").fill("Cleo")
        b.get_by_role("button", name="Take a seat").click()
        b.wait_for_selector("#seat-list li[data-seat='2'] .tag")
        a.wait_for_function(
            "document.querySelector(\"#seat-list li[data-seat='2']\").textContent.includes('Cleo')")
        a.locator("#start-game").click()
        b.wait_for_selector("#table:not([hidden])")
        # the computer flips by itself
        b.wait_for_selector(".tseat[data-seat='1'] .tseat__state--ready")
        for _ in range(10):
            if _over(a):
                break
            before = _battles(a)
            if a.locator("#my-pile[aria-disabled='false']").count():
                a.locator("#my-pile").click()
            if b.locator("#my-pile[aria-disabled='false']").count():
                b.keyboard.press("Enter")
            a.wait_for_function(
                f"+document.getElementById('table').dataset.battle > {before}")
        # Cleo (seat 2) went out in battle 1 and is marked so
        b.wait_for_selector(".tseat--out[data-seat='2']")
        assert b.locator(".tseat[data-seat='2'] .tseat__state--out").text_content() == "out"
        a.wait_for_selector("#end:not([hidden])")
        assert "Ann wins the game!" in a.locator("#end").inner_text()
    finally:
        ctx_a.close()
        ctx_b.close()


# -- a real server process, stopped and started again --------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _serve(port: int, db: str) -> subprocess.Popen:
    env = dict(os.environ, CARDWAR_FLIP_TIMEOUT="120", CARDWAR_COMPUTER_DELAY="0.2")
    env.pop("CARDWAR_TESTING_STACKED_DECK", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardwar.cli", "serve", "--port", str(port), "--database", db],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("cardwar serve did not start")


def test_restart_in_the_middle_of_a_game(browser, tmp_path):
    port = _free_port()
    db = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    base = f"http://127.0.0.1:{port}"
    proc = _serve(port, db)
    ctx_a, a = _context(browser)
    ctx_b, b = _context(browser, locale="de-DE")
    try:
        url = _create(a, base)
        b.goto(url.replace("/en/", "/de/"))
        b.locator("#nickname").fill("Bea")
        b.get_by_role("button", name="Platz nehmen").click()
        b.wait_for_selector("#seat-list li[data-seat='1'] .tag")
        a.locator("#start-game").click()
        b.wait_for_selector("#table:not([hidden])")
        for _ in range(3):
            before = _battles(a)
            a.locator("#my-pile").click()
            b.locator("#my-pile").click()
            a.wait_for_function(
                f"+document.getElementById('table').dataset.battle > {before}")
            b.wait_for_function(
                f"+document.getElementById('table').dataset.battle > {before}")
        a.locator("#my-pile").click()  # Ann has flipped for battle 4; Bea has not
        b.wait_for_selector(".tseat[data-seat='0'] .tseat__state--ready")
        counts = a.locator(".pile__count").all_inner_texts()
        battle_a = a.locator("#battle-number").inner_text()

        proc.send_signal(signal.SIGKILL)  # no graceful shutdown
        proc.wait(timeout=10)
        a.wait_for_selector("#conn-notice:not([hidden])")  # "reconnecting" (issue 5)
        proc = _serve(port, db)

        a.reload()
        b.reload()
        a.wait_for_selector("#table:not([hidden]) .tseat")
        b.wait_for_selector("#table:not([hidden]) .tseat")
        assert a.locator("#battle-number").inner_text() == battle_a == "Battle 4 of 1,000"
        assert b.locator("#battle-number").inner_text() == "Schlacht 4 von 1.000"
        assert a.locator(".pile__count").all_inner_texts() == counts
        assert a.locator(".tseat--you").get_attribute("data-seat") == "0"
        assert b.locator(".tseat--you").get_attribute("data-seat") == "1"
        assert a.locator(".tseat[data-seat='0'] .tseat__state--ready").count() == 1
        b.locator("#my-pile").click()  # the game carries on
        a.wait_for_function("+document.getElementById('table').dataset.battle >= 4")
    finally:
        ctx_a.close()
        ctx_b.close()
        proc.kill()
        proc.wait(timeout=10)


def _axe(page, axe_source) -> list[dict]:
    page.add_script_tag(path=str(axe_source))
    found = page.evaluate(
        """async () => {
            const r = await axe.run(document, {resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
        }"""
    )
    return [v for v in found if v["impact"] in ("serious", "critical")]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_game_page_has_no_serious_axe_violation(browser, stacked_server, axe_source, scheme):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme,
                              reduced_motion="reduce")
    a = ctx.new_page()
    found = {}
    try:
        _create(a, stacked_server, seats={1: "computer"})
        found["lobby"] = _axe(a, axe_source)
        a.locator("#start-game").click()
        a.wait_for_selector("#my-pile")
        a.locator("#my-pile").focus()
        a.keyboard.press("Enter")  # keyboard only: the pile is a button
        a.wait_for_function("+document.getElementById('table').dataset.battle >= 1")
        assert a.evaluate("document.activeElement.id") == "my-pile"  # focus stays on the pile
        found["table"] = _axe(a, axe_source)
        a.keyboard.press("Enter")
        a.wait_for_selector("#end:not([hidden])")
        a.wait_for_timeout(1000)
        found["end"] = _axe(a, axe_source)
        # reduced motion: the pot is not slid away, the cards just fade a little
        assert a.locator(".tplay--taken").count() == 0
    finally:
        ctx.close()
    assert not any(found.values()), found


def test_war_shows_face_down_counts_without_letters(browser, stacked_server):
    ctx, a = _context(browser, locale="de-DE")
    try:
        a.goto(f"{stacked_server}/de/war")
        form = a.locator("form.start-form")
        form.locator('select[name="seat1"]').select_option("computer")
        form.locator('input[name="face_down"][value="1"]').check()
        form.locator('button[type="submit"]').click()
        a.wait_for_selector("#start-game")
        a.locator("#start-game").click()
        for _ in range(5):
            if _over(a):
                break
            before = _battles(a)
            a.locator("#my-pile").click()
            a.wait_for_function(
                f"+document.getElementById('table').dataset.battle > {before}")
        assert a.locator("#battle-number").inner_text() == "Schlacht 2"  # War: no limit
        assert a.locator(".pcard__letter").count() == 0
        assert a.locator(".tseat[data-seat='0'] .tplay__count").first.inner_text() == "1 verdeckt"
        a.wait_for_selector("#end:not([hidden])")
        assert "--face-down 1" in a.locator(".end__command").inner_text()
        assert "Gleichstand: Krieg!" in a.locator("#summary").inner_text()
    finally:
        ctx.close()


@pytest.fixture(scope="module")
def idle_server(server_factory, tmp_path_factory) -> str:
    db = tmp_path_factory.mktemp("idle") / "games.db"
    return server_factory(Settings(
        database=f"sqlite+aiosqlite:///{db}", testing_stacked_deck=True,
        flip_timeout=4.0, computer_delay=0.2,
    ))


def test_idle_countdown_focus_and_the_end_screen(browser, idle_server):
    ctx_a, a = _context(browser)
    ctx_b, b = _context(browser, width=360)
    ctx_c, c = _context(browser)
    try:
        url = _create(a, idle_server, nickname="Ann")
        # the Share button only shows where the browser can share
        assert a.locator("#share-link-button").is_visible() == a.evaluate("!!navigator.share")
        b.goto(url)
        b.locator("#nickname").fill("ANN")  # taken, whatever the case
        b.get_by_role("button", name="Take a seat").click()
        b.wait_for_selector(".form-error")
        assert "already has that nickname" in b.locator(".form-error").inner_text()
        assert b.locator("#nickname").input_value() == "ANN"
        b.locator("#nickname").fill("Bob")
        b.get_by_role("button", name="Take a seat").click()
        b.wait_for_selector("#seat-list li[data-seat='1'] .tag")
        a.wait_for_function(
            "document.querySelector(\"#seat-list li[data-seat='1']\").textContent.includes('Bob')")
        a.locator("#start-game").focus()
        a.keyboard.press("Enter")
        a.wait_for_selector("#table:not([hidden])")
        a.wait_for_function("document.activeElement && document.activeElement.id === 'my-pile'")
        c.goto(url)  # a spectator keeps their label once the game has started
        c.wait_for_selector("#table:not([hidden])")
        assert c.locator("#watching-note").is_visible()
        assert "You are watching this game." in c.locator("#watching-note").inner_text()
        assert "4 seconds" in a.locator("#flip-help").inner_text()
        # nobody has flipped: no clock, nothing happens by itself
        time.sleep(1.5)
        assert _battles(a) == 0 and a.locator("#idle-note").is_hidden()
        a.locator("#my-pile").click()
        b.wait_for_function("/Flipping for you in \\d s/.test("
                            "document.getElementById('idle-note').textContent)")
        a.wait_for_function("/Waiting for Bob… \\d s/.test("
                            "document.getElementById('idle-note').textContent)")
        c.wait_for_function("/Waiting for Bob… \\d s/.test("
                            "document.getElementById('idle-note').textContent)")
        a.wait_for_function("+document.getElementById('table').dataset.battle >= 1",
                            timeout=10000)
        a.wait_for_function("document.getElementById('idle-note').hidden")
        for _ in range(12):
            if _over(a):
                break
            before = _battles(a)
            a.locator("#my-pile").click()
            b.locator("#my-pile").click()
            a.wait_for_function(
                f"+document.getElementById('table').dataset.battle > {before} || "
                "document.getElementById('game').dataset.status === 'over'")
        for p in (a, b):
            p.wait_for_selector("#end:not([hidden])")
            time.sleep(2.5)  # longer than the pick-up animation's delay
            assert p.locator(".tplay--taken, .tplay--taken-still").count() == 0
            assert p.locator(".tseat .tplay .pcard").count() >= 2  # the deciding cards
            end = p.locator("#end").inner_text()
            assert "Placings" in end and "went out in battle" in end
        assert b.evaluate("document.documentElement.scrollWidth") <= 360
        # after a reload the last battle looks the same: same cards, face-down ones shown
        live = a.locator(".tseat .tplay .pcard").count()
        shown = a.locator(".tseat .tplay .pcard--shown").count()
        a.reload()
        a.wait_for_selector("#end:not([hidden])")
        assert a.locator(".tseat .tplay .pcard").count() == live
        assert a.locator(".tseat .tplay .pcard--shown").count() == shown
    finally:
        ctx_a.close()
        ctx_b.close()
        ctx_c.close()
