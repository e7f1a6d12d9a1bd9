"""Issue 22 in real Chromium: against the computer the game starts at once,
without the friends' lobby or the reactions bar, and "Finish the game" plays
it to the result; a nickname counts what it shows; a mistyped game link."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from cardwar.settings import Settings

from .helpers import create_game, open_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(120)]

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
#: Where the screenshots go (look at them): test-results/, kept out of git.
SHOTS = Path(os.environ.get("CARDWAR_SHOTS", "test-results")) / "vs_computer"


@pytest.fixture(scope="module")
def seeded_server(server_factory, tmp_path_factory) -> str:
    """A real shuffle of a fixed seed: a long game, which Finish the game ends."""
    db = tmp_path_factory.mktemp("vs_computer") / "games.db"
    return server_factory(Settings(database=f"sqlite+aiosqlite:///{db}",
                                   testing_seed="issue22-vs-computer", computer_delay=0.2,
                                   flip_timeout=60.0))


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=False)


@pytest.mark.parametrize("width", [390, 1280])
def test_against_the_computer_the_table_comes_at_once_and_finish_plays_it_out(
        browser, seeded_server, width):
    ctx = browser.new_context(viewport={"width": width, "height": 844 if width == 390 else 900},
                              locale="it-IT")
    a = ctx.new_page()
    try:
        a.goto(f"{seeded_server}/it/war")
        form = a.locator("form.start-form")
        form.locator('input[name="players"][value="3"]').check()
        form.locator('select[name="seat1"]').select_option("computer")
        form.locator('select[name="seat2"]').select_option("computer")
        form.locator('input[name="nickname"]').fill("Ann")
        form.locator('button[type="submit"]').click()
        a.wait_for_url(re.compile(r".*/it/g/[A-Za-z0-9_-]{16}$"))
        a.wait_for_selector("#table:not([hidden]) #my-pile")  # no lobby, no Start button
        assert a.locator("#lobby").is_hidden() and a.locator("#start-game").count() == 0
        assert a.locator("#share-link").is_hidden()
        # nobody to react to: no reaction buttons, the sound switch stays
        assert a.locator("#reaction-buttons").is_hidden()
        assert a.locator("#sound-on").is_visible()
        finish = a.locator("#skip")
        finish.wait_for(state="visible")
        assert finish.inner_text() == "Concludi la partita"
        _shot(a, f"table-{width}")
        a.locator("#my-pile").click()
        a.wait_for_function("+document.getElementById('table').dataset.battle >= 1")
        finish.click()
        expect(a.locator("#end")).to_be_visible(timeout=60_000)
        assert int(a.locator("#table").get_attribute("data-battle") or 0) > 1
        _shot(a, f"finished-{width}")
    finally:
        ctx.close()


def test_a_nickname_of_seven_family_emoji_is_taken_and_a_long_one_is_refused_in_words(
        browser, seeded_server):
    ctx, a = open_page(browser, locale="pl-PL")
    try:
        a.goto(f"{seeded_server}/pl/peace")
        field = a.locator("#start-nickname")
        field.fill(FAMILY * 7)  # seven visible characters
        assert field.evaluate("f => f.checkValidity()") is True
        field.fill("x" * 25)
        assert field.evaluate("f => f.checkValidity()") is False
        said = field.evaluate("f => f.validationMessage")
        assert said.startswith("Wybierz pseudonim od 1 do 24 znaków")  # not the browser's words
        field.fill(FAMILY * 7)
        a.locator('form.start-form select[name="seat1"]').select_option("friend")
        a.locator('form.start-form button[type="submit"]').click()
        a.wait_for_url(re.compile(r".*/pl/g/[A-Za-z0-9_-]{16}$"))
        a.wait_for_selector("#seat-list li")
        assert FAMILY * 7 in a.locator("#seat-list").inner_text()
    finally:
        ctx.close()


def test_a_mistyped_game_link_offers_a_new_game(browser, seeded_server):
    ctx, a = open_page(browser, locale="uk-UA", width=390)
    try:
        r = a.goto(f"{seeded_server}/uk/g/NoSuchGameAtAll1")
        assert r is not None and r.status == 404
        assert a.locator("h1").inner_text() == "Такої гри не існує"
        button = a.get_by_role("link", name="Почати нову гру")
        box = button.bounding_box()
        assert box is not None and box["y"] + box["height"] <= 800  # on the first screen
        _shot(a, "no-such-game-390")
        button.click()
        a.wait_for_url(re.compile(r".*/uk/(#play)?$"))
    finally:
        ctx.close()


@pytest.mark.parametrize("width", [390, 1280])
def test_the_join_page_says_who_invites_and_a_full_lobby_asks_no_spectator_to_share(
        browser, seeded_server, width):
    size = {"width": width, "height": 844 if width == 390 else 900}
    ctxs = [browser.new_context(viewport=size, locale=loc) for loc in ("en-US", "pl-PL", "pl-PL")]
    a, b, c = (ctx.new_page() for ctx in ctxs)
    try:
        url = create_game(a, seeded_server, players=2, nickname="Zoë")
        b.goto(url.replace("/en/g/", "/pl/g/"))
        invite = b.locator("#invite")
        assert invite.inner_text() == "Zoë zaprasza cię do partii Pokój dla 2 graczy."
        box = invite.bounding_box()
        assert box is not None and box["y"] + box["height"] <= size["height"]  # first screen
        _shot(b, f"join-{width}")
        b.locator("#nickname").fill("Bartek")
        b.locator("form.join-form button[type=submit]").click()
        b.wait_for_selector("#seat-list .tag")
        c.goto(url.replace("/en/g/", "/pl/g/"))  # a visitor of the full lobby
        c.locator("#join-full").wait_for(state="visible")
        assert c.locator("#join-full").inner_text() == (
            "Wszystkie miejsca są zajęte. Gdy gra się zacznie, możesz ją tu oglądać.")
        assert c.locator("#lobby-invite").is_hidden()
        assert c.locator("#watchers").is_hidden()  # nobody else watches: not "1 person"
        _shot(c, f"full-lobby-spectator-{width}")
    finally:
        for ctx in ctxs:
            ctx.close()


def test_without_javascript_only_the_notice_is_shown(browser, seeded_server):
    ctx, a = open_page(browser)
    plain = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US",
                                java_script_enabled=False)
    try:
        url = create_game(a, seeded_server, "war", 2, seats={1: "computer"})
        a.wait_for_selector("#table:not([hidden]) #my-pile")
        b = plain.new_page()
        b.goto(url)  # a visitor without JavaScript, of a game being played
        assert b.locator("#noscript").is_visible()
        assert b.locator("#game-status").is_hidden()
        assert b.locator("#watching-note").is_hidden()
        _shot(b, "nojs_en_phone")
        other, c = open_page(browser)  # with JavaScript the visitor is told they watch
        c.goto(url)
        expect(c.locator("#watching-note")).to_be_visible()
        assert c.locator("#watching-note").is_visible()
        other.close()
    finally:
        plain.close()
        ctx.close()
