"""Staying in the game, in real Chromium: reconnecting by itself, the real CSP,
escaped nicknames, two tabs, spectators, rematch, the replay page and axe."""

from __future__ import annotations

import signal

import pytest
from playwright.sync_api import expect

from cardwar.settings import Settings

from .helpers import (
    battles,
    create_game,
    free_port,
    join_game,
    open_page,
    serious_axe_violations,
    serve,
    start_play_server,
    wait_revealed,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


@pytest.fixture(scope="module")
def server(server_factory, tmp_path_factory) -> str:
    return start_play_server(server_factory, tmp_path_factory, "reconnect")


def test_the_page_reconnects_by_itself_and_catches_up(browser, tmp_path):
    port = free_port()
    db = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    base = f"http://127.0.0.1:{port}"
    proc = serve(port, db)
    ctx, a = open_page(browser)
    a.clock.install()  # a clock the test may run ahead (it flows as the real one)
    try:
        create_game(a, base, seats={1: "computer"})  # no lobby: it starts at once
        a.wait_for_selector("#my-pile")
        for n in (1, 2):
            a.locator("#my-pile").click()
            a.wait_for_function(f"+document.getElementById('table').dataset.battle >= {n}")
        wait_revealed(a)  # a peace's counts are the new ones once its cards turn
        counts = a.locator(".pile__count").all_inner_texts()

        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        expect(a.locator("#conn-notice")).to_be_visible()
        assert "Reconnecting" in a.locator("#conn-notice").inner_text()
        proc = serve(port, db)
        # no reload: the page comes back by itself, at the same battle, at its next
        # attempt (the clock run past the longest wait between two, 15 s)
        a.clock.run_for(15_000)
        expect(a.locator("#conn-notice")).to_be_hidden()
        assert battles(a) == 2 and a.locator(".pile__count").all_inner_texts() == counts
        a.locator("#my-pile").click()
        a.wait_for_function("+document.getElementById('table').dataset.battle >= 3")
    finally:
        ctx.close()
        proc.kill()
        proc.wait(timeout=10)


def test_the_game_works_under_the_real_csp(browser, server):
    ctx = browser.new_context(bypass_csp=False, locale="en-US")
    page = ctx.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        create_game(page, server, seats={1: "computer"})  # no lobby: it starts at once
        page.wait_for_selector("#my-pile")
        page.locator("#my-pile").click()
        page.wait_for_selector("#table[data-battle='1']")
        page.goto(page.url + "/replay")  # the replay page refuses an unfinished game
        assert "This game does not exist" in page.content()
    finally:
        ctx.close()
    assert not [p for p in problems if "Content Security Policy" in p or "404" not in p], problems


def test_markup_in_a_nickname_shows_as_text(browser, server):
    ctx_a, a = open_page(browser)
    ctx_b, b = open_page(browser)
    try:
        url = create_game(a, server, nickname="<img src=x onerror=f()>")
        join_game(b, url, "<b>Bob</b>")
        for page in (a, b):
            page.wait_for_selector("#seat-list li[data-seat='1'] .seat-list__name")
            names = page.locator(".seat-list__name").all_inner_texts()
            assert names == ["<img src=x onerror=f()>", "<b>Bob</b>"]
            assert page.locator("#seat-list img, #seat-list b").count() == 0
    finally:
        ctx_a.close()
        ctx_b.close()


def test_two_tabs_spectators_rematch_and_replay(browser, server, axe_source):
    ctx_a, a = open_page(browser)
    ctx_b, b = open_page(browser, locale="de-DE")
    ctx_s, spectator = open_page(browser)
    found = {}
    try:
        url = create_game(a, server)
        join_game(b, url.replace("/en/", "/de/"), "Bea")
        tab2 = ctx_a.new_page()  # Ann's second tab keeps her seat
        tab2.goto(url)
        tab2.wait_for_selector("#start-game")
        spectator.goto(url)
        spectator.wait_for_selector("#seat-list li[data-seat='1'] .seat-list__name")
        assert spectator.locator("#nickname").count() == 0  # seats taken: just watching
        expect(a.locator("#watchers")).to_be_visible()
        expect(a.locator("#watchers")).to_have_text("1 person is watching")
        assert b.locator("#watchers").inner_text() == "1 Person schaut zu"
        assert a.locator("#device-link").count() == 1 and spectator.locator("#device").count() == 0
        found["lobby"] = serious_axe_violations(a, axe_source)
        tab2.locator("#start-game").click()
        a.wait_for_selector("#my-pile")
        a.locator("#my-pile").click()
        tab2.wait_for_selector(".tseat[data-seat='0'] .tseat__state--ready")  # in step
        assert tab2.locator("#my-pile .pile__flip").count() == 0
        b.locator("#my-pile").click()
        for page in (a, tab2, spectator):
            page.wait_for_function("+document.getElementById('table').dataset.battle >= 1")
        found["table"] = serious_axe_violations(a, axe_source)
        a.locator("#my-pile").click()
        b.locator("#my-pile").click()
        expect(a.locator("#end")).to_be_visible()
        expect(b.locator("#rematch-form")).to_be_visible()
        assert spectator.locator("#rematch-form").is_hidden()
        found["end"] = serious_axe_violations(a, axe_source)

        # the replay: every battle, by buttons and arrow keys
        a.locator("#end a", has_text="Watch the replay").click()
        a.wait_for_selector("#replay[data-step='0']")
        found["replay"] = serious_axe_violations(a, axe_source)
        a.keyboard.press("ArrowRight")
        a.wait_for_selector("#replay[data-step='1']")
        assert a.locator("#replay-step").inner_text() == "Battle 1 of 2"
        a.locator("#replay-next").click()
        a.wait_for_selector("#replay[data-step='2']")
        assert a.locator("#replay-seats .pcard--shown").count() == 10  # the peace, face up
        a.keyboard.press("Home")
        a.wait_for_selector("#replay[data-step='0']")
        with a.expect_download() as dl:
            a.locator("a", has_text="Download the game").click()
        assert dl.value.suggested_filename.endswith(".json")
        a.go_back()

        # rematch: Bea offers, Ann sees the offer and joins with one click
        b.locator("#rematch-button").click()
        b.wait_for_url(lambda u: u != url.replace("/en/", "/de/"))
        a.wait_for_selector("#rematch-offer:has-text('Bea')")
        a.reload()  # who offered is known after a reload too
        a.wait_for_selector("#rematch-offer:has-text('Bea')")
        a.locator("#rematch-button").click()
        a.wait_for_url(b.url.replace("/de/", "/en/"))
        a.wait_for_selector("#my-pile")
        b.wait_for_selector("#my-pile")
        assert a.locator(".tseat--you").get_attribute("data-seat") == "0"
        assert b.locator(".tseat--you").get_attribute("data-seat") == "1"
    finally:
        ctx_a.close()
        ctx_b.close()
        ctx_s.close()
    assert not any(found.values()), found


def test_a_gone_player_is_played_for_and_the_creator_hands_the_seat_over(
        browser, server_factory, tmp_path_factory, axe_source):
    db = tmp_path_factory.mktemp("gone") / "games.db"
    base = server_factory(Settings(database=f"sqlite+aiosqlite:///{db}", flip_timeout=60.0,
                                   computer_delay=0.2, gone_after=0.5))
    ctx_a, a = open_page(browser)
    ctx_b, b = open_page(browser)
    try:
        url = create_game(a, base)
        join_game(b, url, "Bea")
        a.locator("#start-game").click()
        b.wait_for_selector("#my-pile")
        bea = b.locator(".tseat--you").get_attribute("data-seat")  # drawn by the seed
        ctx_b.close()  # Bea walks away
        a.wait_for_selector(f".tseat[data-seat='{bea}'] .tseat__gone")
        assert a.locator(f".tseat[data-seat='{bea}'] .tseat__gone").inner_text() == (
            "away: played for")
        assert serious_axe_violations(a, axe_source) == []
        a.locator("#my-pile").click()  # Bea is flipped for quickly
        a.wait_for_function("+document.getElementById('table').dataset.battle >= 1")
        a.get_by_role("button", name="Let the computer play for Bea").click()
        # named by Bea's lobby seat (the second), wherever the seats were drawn
        a.wait_for_function(
            f"document.querySelector(\".tseat[data-seat='{bea}'] .tseat__name\")"
            ".textContent === 'Computer 2'")
        assert a.locator(".tseat__hand").count() == 0
    finally:
        ctx_a.close()


def test_a_flip_lost_with_the_connection_can_be_made_again(browser, server):
    ctx, a = open_page(browser)
    try:
        create_game(a, server, seats={1: "computer"})  # no lobby: it starts at once
        a.wait_for_selector("#my-pile[aria-disabled='false']")
        # the flip is sent just before the connection drops and never reaches the server
        a.evaluate("""() => {
            const send = WebSocket.prototype.send;
            WebSocket.prototype.send = function (data) {
                if (String(data).indexOf('"flip"') >= 0) return;
                return send.call(this, data);
            };
            window.__unpatchSend = () => { WebSocket.prototype.send = send; };
        }""")
        a.keyboard.press("Space")
        a.wait_for_selector(".tseat[data-seat='0'] .tseat__state--ready")
        ctx.set_offline(True)
        expect(a.locator("#conn-notice")).to_be_visible()
        a.evaluate("() => window.__unpatchSend()")
        ctx.set_offline(False)
        a.wait_for_selector("#conn-notice", state="hidden", timeout=30000)
        # caught up: the server never had the flip, so the pile is flippable again
        a.wait_for_selector("#my-pile[aria-disabled='false']")
        assert a.locator(".tseat[data-seat='0'] .tseat__state--wait").count() == 1
        assert battles(a) == 0
        a.keyboard.press("Space")
        a.wait_for_function("+document.getElementById('table').dataset.battle >= 1")
    finally:
        ctx.close()


def test_in_a_rematch_the_start_button_moves_to_whoever_may_start(browser, server):
    pages, contexts = [], []
    for _ in range(3):
        ctx, page = open_page(browser)
        contexts.append(ctx)
        pages.append(page)
    a, b, c = pages
    try:
        url = create_game(a, server, players=3)
        join_game(b, url, "Bea")
        join_game(c, url, "Cy")
        a.locator("#start-game").click()
        for _ in range(40):  # the stacked deck ends in a few battles
            if a.locator("#end:not([hidden])").count():
                break
            for page in pages:
                if page.locator("#my-pile .pile__flip").count():
                    page.locator("#my-pile").click()
            a.wait_for_timeout(150)
        expect(a.locator("#end")).to_be_visible()
        # Bea (seat 1) offers the rematch: she may start it while the others are away
        expect(b.locator("#rematch-form")).to_be_visible()
        b.locator("#rematch-button").click()
        b.wait_for_url(lambda u: u != url)
        b.wait_for_selector("#start-game")
        # Ann (seat 0) comes back: now she may start it, and Bea's button goes away
        a.wait_for_selector("#rematch-offer:has-text('Bea')")
        a.locator("#rematch-button").click()
        a.wait_for_url(b.url)
        a.wait_for_selector("#start-game")
        b.wait_for_selector("#start-game", state="detached")
        b.wait_for_selector("#seat-list li[data-seat='0'] .tag:has-text('starts the game')")
        # Ann starts without Cy (the computer takes his seat); Cy's click comes too late:
        # no button to click again, a link to watch the rematch instead
        a.locator("#start-game").click()
        a.wait_for_selector("#my-pile")
        c.wait_for_selector("#rematch-offer:has-text('Bea')")
        c.locator("#rematch-button").click()
        c.wait_for_url(lambda u: "error=rematch" in u)
        c.wait_for_selector("#rematch-watch")
        assert c.locator("#rematch-button").is_hidden()
        c.locator("#rematch-watch").click()
        c.wait_for_url(b.url)
        c.wait_for_selector("#table")
    finally:
        for ctx in contexts:
            ctx.close()
