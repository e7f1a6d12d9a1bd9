"""Findings about the table in real Chromium: a real click on the pile right
after the pot slides onto it, and going offline (notice, stale info, catch-up)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from cardwar.settings import Settings

from .helpers import battles, create_game, game_ended, join_game, open_page, wait_revealed

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


@pytest.fixture(scope="module")
def server(server_factory, tmp_path_factory) -> str:
    """A fresh deal each game (not the two-battle stacked deck), a quick computer."""
    db = tmp_path_factory.mktemp("connection") / "games.db"
    return server_factory(Settings(database=f"sqlite+aiosqlite:///{db}",
                                   flip_timeout=60.0, computer_delay=0.2))


#: JavaScript: resolves when the pot's slide onto the winner's pile is over (the
#: transitions of the areas being taken; at once if they are gone already)
SLID = """() => Promise.all([...document.querySelectorAll('.tplay--taken')]
    .flatMap((area) => area.getAnimations({subtree: true}))
    .map((t) => t.finished.catch(() => null))).then(() => true)"""


@pytest.mark.parametrize("width", [1280, 360])
def test_a_real_click_on_the_pile_flips_right_after_the_pot_slides(browser, server, width):
    ctx, a = open_page(browser, width=width)
    try:
        create_game(a, server, seats={1: "computer"})  # no lobby: it starts at once
        a.wait_for_selector("#my-pile")
        # plural-aware: "60 seconds" (and "1 second" in the singular)
        assert "you have 60 seconds before" in a.locator("#flip-help").inner_text()
        a.locator("#my-pile").click()
        won = played = 0
        for n in range(1, 16):
            a.wait_for_function(f"+document.getElementById('table').dataset.battle >= {n}")
            if game_ended(a) or (played >= 4 and won >= 2):
                break
            if a.locator(".tseat--won").count() == 0:  # nobody took the pot: nothing slides
                a.locator("#my-pile").click()
                continue
            # the pot slides onto the winner's pile (1.6 s, then a 0.7 s transition)
            a.wait_for_selector(".tplay--taken", state="attached", timeout=15000)
            a.evaluate(SLID)
            pile = a.locator("#my-pile")
            pile.scroll_into_view_if_needed()
            box = pile.bounding_box()
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            on_top = a.evaluate(
                "([x, y]) => { const e = document.elementFromPoint(x, y);"
                " return e ? (e.closest('#my-pile') ? 'pile' : e.className) : null; }", [x, y])
            assert on_top == "pile", f"battle {n}: {on_top!r} covers the pile"
            won += a.locator(".tseat--you.tseat--won").count()
            a.mouse.click(x, y)  # a real click, no force
            a.wait_for_function(f"+document.getElementById('table').dataset.battle >= {n + 1}",
                                timeout=10000)
            played += 1
        assert played >= 4 and won >= 1, (played, won)
    finally:
        ctx.close()


def test_going_offline_shows_the_notice_and_marks_what_may_be_stale(browser, server):
    ctx_a, a = open_page(browser)
    a.clock.install()  # a clock the test may run ahead (it flows as the real one)
    ctx_b, b = open_page(browser)
    ctx_c, c = open_page(browser)
    try:
        url = create_game(a, server, nickname="Ann")
        join_game(b, url, "Bob")
        expect(a.locator("#seat-list")).to_contain_text("Bob")
        a.locator("#start-game").click()
        a.wait_for_selector("#my-pile")
        b.wait_for_selector("#my-pile")
        bob = b.locator(".tseat--you").get_attribute("data-seat")  # drawn by the seed
        c.goto(url)  # a spectator: Ann sees "1 person is watching"
        expect(a.locator("#watchers")).to_be_visible()
        for n in (1, 2):
            a.locator("#my-pile").click()
            b.locator("#my-pile").click()
            a.wait_for_function(f"+document.getElementById('table').dataset.battle >= {n}")
        a.wait_for_selector(f".tseat[data-seat='{bob}'] .presence--on")
        assert a.locator("#conn-notice").is_hidden()

        ctx_a.set_offline(True)
        # at once, not after a heartbeat timeout
        expect(a.locator("#conn-notice")).to_be_visible(timeout=2000)
        assert "Reconnecting" in a.locator("#conn-notice").inner_text()
        other = a.locator(f".tseat[data-seat='{bob}'] .presence")
        assert "presence--unknown" in (other.get_attribute("class") or "")
        assert other.inner_text() == "status unknown"
        assert a.locator("#watchers").is_hidden()
        pile = a.locator("#my-pile")
        assert pile.get_attribute("aria-disabled") == "true"
        assert "Flip" not in (pile.get_attribute("aria-label") or "")
        assert a.locator(".pile__flip").count() == 0
        a.mouse.click(*_centre(pile))  # nothing to send: the flip does not count
        assert a.evaluate("document.querySelector('.tseat--you .tseat__state').textContent") \
            == "to flip"
        b.locator("#my-pile").click()  # Bob flips while Ann is away
        b.wait_for_selector(".tseat--you .tseat__state--ready")
        a.clock.run_for(2_500)  # her page's retries (1 s, then 2 s) find no network
        assert a.locator("#conn-notice").is_visible()

        ctx_a.set_offline(False)
        a.wait_for_selector("#conn-notice", state="hidden", timeout=10000)
        a.wait_for_selector(f".tseat[data-seat='{bob}'] .presence--on")
        expect(a.locator("#watchers")).to_be_visible()
        assert a.locator(".presence--unknown").count() == 0
        assert battles(a) == 2
        assert a.locator("#my-pile").get_attribute("aria-disabled") == "false"
        assert a.locator(f".tseat[data-seat='{bob}'] .tseat__state").inner_text() == "ready"
        a.locator("#my-pile").click()
        a.wait_for_function("+document.getElementById('table').dataset.battle >= 3")
        b.wait_for_function("+document.getElementById('table').dataset.battle >= 3")
        wait_revealed(a)  # a peace's counts are the new ones once its cards turn
        wait_revealed(b)
        # no battle missing or doubled: both pages agree, every card is somewhere
        assert battles(a) == battles(b) == 3
        counts_a = a.locator(".pile__count").all_inner_texts()
        expect(b.locator(".pile__count")).to_have_text(counts_a)
        assert sum(int(t.split()[0]) for t in counts_a) == 52
    finally:
        ctx_a.close()
        ctx_b.close()
        ctx_c.close()


def _centre(locator) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
