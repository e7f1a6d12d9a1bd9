"""Beggar-my-neighbour online in real Chromium: a game against the computer to
the end, in English and in German (the stacked deal: seat 1 pays for a jack
twice and runs out after 6 cards, 2 tricks)."""

from __future__ import annotations

import json
import re

import pytest

from .helpers import open_page, start_play_server

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


@pytest.fixture(scope="module")
def stacked_server(server_factory, tmp_path_factory) -> str:
    return start_play_server(server_factory, tmp_path_factory, "beggar")


def _start_against_the_computer(page, base: str, locale: str) -> None:
    page.goto(f"{base}/{locale}/beggar-my-neighbour")
    form = page.locator("form.start-form")
    form.locator('select[name="seat1"]').select_option("computer")
    form.locator('input[name="nickname"]').fill("Ann")
    form.locator('button[type="submit"]').click()
    page.wait_for_url(re.compile(rf".*/{locale}/g/[A-Za-z0-9_-]{{16}}$"))
    page.locator("#start-game").click()
    page.wait_for_selector("#turn:not([hidden])")


def _play_to_the_end(page) -> None:
    for _ in range(20):
        if page.locator("#game").get_attribute("data-status") == "over":
            return
        if page.locator("#my-pile[aria-disabled='false']").count():
            page.locator("#my-pile").click()
        page.wait_for_timeout(150)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("locale", "words"), [
    ("en", {"to_play": "Ann to play.", "owed": "must pay 1 card for the jack of hearts",
            "wins": "Ann wins the game!", "length": "Cards put down: 6. Tricks: 2."}),
    ("de", {"to_play": "Ann ist am Zug.", "owed": "muss 1 Karte für: Herz Bube zahlen",
            "wins": "Ann", "length": "Gelegte Karten: 6. Stiche: 2."}),
])
def test_a_game_against_the_computer_to_the_end(browser, stacked_server, locale, words):
    ctx, page = open_page(browser, locale=locale)
    try:
        _start_against_the_computer(page, stacked_server, locale)
        assert page.locator("#turn-owed").inner_text() == words["to_play"]
        page.locator("#my-pile").click()  # the jack: the computer owes one card
        owed = json.dumps(words["owed"])
        page.wait_for_function(
            f"document.getElementById('turn-owed').textContent.includes({owed}) || "
            "document.getElementById('turn-pile').dataset.size === '0'")
        _play_to_the_end(page)
        end = page.locator("#end")
        end.wait_for(state="visible")
        assert words["wins"] in end.inner_text()
        assert words["length"] in end.inner_text()
        # the screen reader heard the last card and the trick
        assert page.locator("#turn-last").inner_text()
    finally:
        ctx.close()


def test_only_the_player_to_move_may_put_down_a_card(browser, stacked_server):
    ctx, page = open_page(browser)
    try:
        _start_against_the_computer(page, stacked_server, "en")
        page.locator("#my-pile").click()
        # while the computer pays, our pile is not ours to flip
        page.wait_for_selector("#my-pile[aria-disabled='true']")
        assert "Flip" not in page.locator("#my-pile").inner_text()
    finally:
        ctx.close()
