"""The join form follows the seats live: gone once the last seat is taken (real Chromium)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .helpers import create_game, join_game, open_page, start_play_server

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]


@pytest.fixture(scope="module")
def server(server_factory, tmp_path_factory) -> str:
    return start_play_server(server_factory, tmp_path_factory, "join_full")


def _seat_shows(page, seat: int, name: str) -> None:
    page.wait_for_function(
        f"document.querySelector(\"#seat-list li[data-seat='{seat}']\")"
        f".textContent.includes('{name}')")


def test_the_join_form_hides_when_the_last_seat_is_taken(browser, server):
    contexts = [open_page(browser) for _ in range(4)]
    a, b, c, d = (page for _, page in contexts)
    try:
        url = create_game(a, server, players=3)
        c.goto(url)  # C looks at the lobby, not seated
        c.wait_for_selector("#seat-list li")
        form, full = c.locator("form.join-form"), c.locator("#join-full")
        assert form.is_visible() and full.count() == 0
        # a visitor is invited, not given the creator's sharing tools nor reactions
        assert c.locator("#lobby-invite").is_hidden() and c.locator("#share-link").is_hidden()
        assert c.locator(".lobby__qr").is_hidden() and c.locator("#reactions").is_hidden()
        assert a.locator("#lobby-invite").is_visible()

        join_game(b, url, "Bob")  # one seat is still open: the form stays
        _seat_shows(c, 1, "Bob")
        assert form.is_visible() and full.count() == 0

        join_game(d, url, "Dee")  # the last open seat
        _seat_shows(c, 2, "Dee")
        form.wait_for(state="hidden")
        assert full.inner_text() == ("Every seat is taken. "
                                     "You can watch the game here once it starts.")
        assert full.is_visible()
        assert c.locator("#announce").inner_text() == "Every seat is taken."

        # the stale form, sent anyway: back to the game with the reason, not silently
        form.evaluate("f => f.submit()")
        c.wait_for_url(re.compile(r".*\?error=full$"))
        c.wait_for_selector("#seat-list li")
        full.wait_for(state="visible")
        assert full.inner_text() == "Every seat is taken."
        assert full.get_attribute("role") == "alert"
        assert c.locator("form.join-form").count() == 0
        assert "Dee" in c.locator("#seat-list").inner_text()  # C did not take a seat
        assert c.locator("#seat-list .tag:text-is('you')").count() == 0

        a.locator("#start-game").click()  # once started, C is still told why
        expect(c.locator("#table")).to_be_visible()
        assert full.is_visible() and c.locator("#watching-note").is_visible()
    finally:
        for ctx, _ in contexts:
            ctx.close()


def test_a_visitor_of_a_full_lobby_is_told_every_seat_is_taken(browser, server):
    (ctx_a, a), (ctx_c, c) = open_page(browser, locale="de-DE"), open_page(browser, locale="de-DE")
    ctx_b, b = open_page(browser)
    try:
        url = create_game(a, server, players=2)
        join_game(b, url, "Bob")
        c.goto(url.replace("/en/", "/de/"))
        full = c.locator("#join-full")
        full.wait_for(state="visible")
        assert full.inner_text() == ("Alle Plätze sind besetzt. "
                                     "Sobald die Partie beginnt, können Sie hier zuschauen.")
        assert full.get_attribute("role") is None  # information, not an error
        assert c.locator("form.join-form").count() == 0
        # nobody is left to invite: a spectator is not asked to share the link
        assert c.locator("#lobby-invite").is_hidden() and c.locator("#share-link").is_hidden()
        assert a.locator("#lobby-invite").is_visible()  # the players still may
        a.locator("#start-game").click()
        full.wait_for(state="hidden")  # a started game: just "you are watching"
        assert c.locator("#watching-note").is_visible()
    finally:
        ctx_a.close()
        ctx_b.close()
        ctx_c.close()
