"""Beggar-my-neighbour online in real Chromium: a game against the computer to
the end, in English and in German (the stacked deal: seat 1 pays for a jack
twice and runs out after 6 cards, 2 tricks)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from cardwar.settings import Settings

from .helpers import (
    battles,
    next_battle_or_end,
    open_page,
    serious_axe_violations,
    start_play_server,
)

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
    expect(page.locator("#turn")).to_be_visible()  # against the computer: no lobby


def _play_to_the_end(page) -> None:
    """Put down a card whenever it is ours to put down, until the game is over
    (``#table``'s ``data-battle`` counts the cards put down, ours and the computer's)."""
    over = "#game[data-status='over']"
    for _ in range(20):
        page.locator(f"{over}, #my-pile[aria-disabled='false']").first.wait_for()
        if page.locator(over).count():
            return
        before = battles(page)
        page.locator("#my-pile").click()
        next_battle_or_end(page, before)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("locale", "words"), [
    ("en", {"to_play": "Your turn to play.", "owed": "must pay 1 card for the jack of hearts",
            "wins": "Ann wins the game!", "length": "Cards put down: 6. Tricks: 2."}),
    ("de", {"to_play": "Sie sind am Zug.", "owed": "muss für den Herz-Buben 1 Karte zahlen",
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
        # the game's replay: trick by trick
        end.locator(".end__links a").first.click()
        page.wait_for_url(re.compile(r".*/replay$"))
        page.locator("#replay-last").click()
        assert page.locator("#replay").get_attribute("data-step") == "2"
        assert page.locator("#turn-pile").get_attribute("data-size") == "0"  # taken
        assert page.locator("#turn-pile .pcard").count() == 4
    finally:
        ctx.close()


@pytest.fixture(scope="module")
def slow_computer(server_factory, tmp_path_factory) -> str:
    """The stacked deal with a computer that takes two seconds for each card."""
    db = tmp_path_factory.mktemp("beggar-slow") / "games.db"
    return server_factory(Settings(database=f"sqlite+aiosqlite:///{db}",
                                   testing_stacked_deck=True, computer_delay=2.0))


def test_only_the_player_to_move_may_put_down_a_card(browser, slow_computer, axe_source):
    ctx, page = open_page(browser)
    try:
        _start_against_the_computer(page, slow_computer, "en")
        page.locator("#my-pile").click()
        # while the computer pays, our pile is not ours to flip
        page.wait_for_selector("#my-pile[aria-disabled='true']")
        assert "Flip" not in page.locator("#my-pile").inner_text()
        assert "Computer 2 must pay 1 card for the jack of hearts." in page.locator(
            "#turn-owed").inner_text()
        assert page.locator(".tseat[data-seat='1'] .tseat__state--wait").count() == 1
        assert page.locator(".tseat[data-seat='0'] .tseat__state").count() == 0
        assert serious_axe_violations(page, axe_source) == []
    finally:
        ctx.close()


def _step(page) -> int:
    return int(page.locator("#replay").get_attribute("data-step") or 0)


def test_a_record_opens_in_the_replay_and_plays(browser, live_server):
    ctx, page = open_page(browser)
    try:
        page.clock.install()  # a clock the test may run ahead (it flows as the real one)
        page.goto(f"{live_server}/en/beggar-my-neighbour/records")
        row = page.locator("tr[data-slug='nessler-2022']")
        assert "8,344" in row.inner_text() and "1,164" in row.inner_text()
        row.get_by_role("link").click()
        page.wait_for_url(re.compile(r".*/en/beggar-my-neighbour/records/nessler-2022$"))
        assert _step(page) == 0
        page.locator("#replay-speed").select_option(index=4)
        page.locator("#replay-play").click()
        assert page.locator("#replay-play").get_attribute("aria-pressed") == "true"
        page.wait_for_function("+document.getElementById('replay').dataset.step >= 5")
        page.locator("#replay-play").click()  # pause
        stopped = _step(page)
        page.clock.run_for(5_000)  # paused: however long, no step more
        assert _step(page) == stopped
        assert "Trick" in page.locator("#replay-step").inner_text()
        assert page.locator("#turn-pile .pcard").count() >= 1
        assert page.locator("#replay-cycle").is_hidden()  # a finite game has no cycle
    finally:
        ctx.close()


def test_the_endless_deal_shows_its_cycle(browser, live_server, axe_source):
    ctx, page = open_page(browser, locale="de-DE")
    try:
        page.goto(f"{live_server}/de/beggar-my-neighbour/records/casella-2024")
        cycle = page.locator("#replay-cycle")
        assert cycle.is_visible()
        info = page.locator("#replay-cycle-info").inner_text()
        assert "Stich 4" in info and "62 Stiche" in info
        assert cycle.get_attribute("data-rounds") == "0"
        page.locator("#replay-speed").select_option(index=4)
        page.locator("#replay-play").click()
        # past its last trick the replay goes round the cycle again, and counts
        page.wait_for_function(
            "+document.getElementById('replay-cycle').dataset.rounds >= 1", timeout=20000)
        assert _step(page) > 4
        assert "1" in page.locator("#replay-rounds").inner_text()
        page.locator("#replay-play").click()  # pause
        assert serious_axe_violations(page, axe_source) == []
    finally:
        ctx.close()


def _pile_total(page) -> int:
    """The cards in both piles (their labels) plus those on the table."""
    labels = page.locator("#replay-seats .pile").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")
    piles = sum(int(re.findall(r"\d+", label.replace(",", ""))[-1]) for label in labels)
    return piles + int(page.locator("#turn-pile").get_attribute("data-size") or 0)


def test_the_replay_never_counts_more_than_52_cards(browser, live_server):
    ctx, page = open_page(browser)
    try:
        page.goto(f"{live_server}/en/beggar-my-neighbour/records/paulhus-1999")
        for button in ("#replay-next", "#replay-next", "#replay-last"):
            page.locator(button).click()
            # a trick was just taken: its cards are in the taker's pile
            assert page.locator("#turn-pile").get_attribute("data-size") == "0"
            assert _pile_total(page) == 52
    finally:
        ctx.close()


def test_the_cycle_counter_restarts_with_first_and_counts_the_last_trick(browser, live_server):
    ctx, page = open_page(browser)
    try:
        page.goto(f"{live_server}/en/beggar-my-neighbour/records/casella-2024")
        cycle = page.locator("#replay-cycle")
        page.locator("#replay-last").click()  # trick 66: the position after trick 4 again
        assert _step(page) == 66
        assert cycle.get_attribute("data-rounds") == "1"
        page.locator("#replay-next").click()  # round again: trick 5 for the second time
        assert _step(page) == 5
        assert cycle.get_attribute("data-rounds") == "1"
        page.locator("#replay-last").click()
        assert cycle.get_attribute("data-rounds") == "2"
        page.locator("#replay-first").click()
        assert _step(page) == 0
        assert cycle.get_attribute("data-rounds") == "0"
        assert "0" in page.locator("#replay-rounds").inner_text()
    finally:
        ctx.close()


@pytest.mark.parametrize("width", [360, 1280, 1920])
@pytest.mark.parametrize("locale", ["en", "pl"])
def test_the_histogram_and_the_records_table_fit(browser, live_server, width, locale):
    ctx, page = open_page(browser, width=width)
    try:
        page.goto(f"{live_server}/{locale}/beggar-my-neighbour")
        rows = page.locator(".stats--histogram tbody tr").evaluate_all("""trs => trs.map(tr => {
            const bar = tr.querySelector('td svg').getBoundingClientRect();
            const count = tr.querySelector('td').lastElementChild.getBoundingClientRect();
            const text = [...tr.querySelector('td').querySelectorAll('*')].at(-1)
                .getBoundingClientRect();
            return {x: Math.round(bar.left), wraps: text.top >= bar.bottom,
                    right: Math.max(count.right, text.right)};
        })""")
        assert len(rows) >= 10
        assert len({r["x"] for r in rows}) == 1  # every bar starts at the same x
        assert not any(r["wraps"] for r in rows)  # its count beside it, not under it
        wrap = page.locator(".stats--histogram").evaluate(
            "t => [t.parentElement.scrollWidth, t.parentElement.clientWidth]")
        assert wrap[0] <= wrap[1]
        page.goto(f"{live_server}/{locale}/beggar-my-neighbour/records")
        box = page.locator(".records__wrap").evaluate("e => [e.scrollWidth, e.clientWidth]")
        if width >= 1280:  # on a desktop the whole table fits its box: no scrollbar
            assert box[0] <= box[1]
        assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        ctx.close()


def test_the_player_to_move_hears_the_play_and_no_clock_against_the_computer(
        browser, stacked_server):
    """The computer's card (and the trick it gives us) stays in the play's live
    region; alone with the computer and playing by hand, no "Flipping for you in
    … s" clock runs (it is said in a region of its own when another human waits)."""
    ctx, page = open_page(browser)
    try:
        _start_against_the_computer(page, stacked_server, "en")
        page.locator("#my-pile").click()  # the jack: the computer pays one card, we take
        page.wait_for_function(  # the trick is ours: it is our turn again
            "document.getElementById('announce').textContent.includes('Ann takes the pile')")
        said = page.locator("#announce").inner_text()
        assert "Computer 2 puts down the" in said
        assert "Ann takes the pile: 2 cards." in said
        assert "Flipping for you" not in said
        clock = page.locator("#announce-clock")
        assert clock.get_attribute("aria-live") == "polite"
        assert "Flipping for you" not in clock.inner_text()
        assert "Flipping for you" not in page.locator("#idle-note").inner_text()
    finally:
        ctx.close()


def test_the_pace_controls_play_a_beggar_game_by_themselves(browser, stacked_server):
    ctx, page = open_page(browser)
    try:
        _start_against_the_computer(page, stacked_server, "en")
        assert page.locator("#pace-area").is_visible()
        # alone with the computer: "Finish the game" (no "Skip": nobody is out before the end)
        assert page.locator("#skip").inner_text() == "Finish the game"
        page.locator("#pace").select_option("fast")
        page.locator("#auto-flip").check()  # nobody puts down by hand: the fast pace
        page.wait_for_selector("#game[data-status='over']", timeout=20000)
        assert "Cards put down: 6. Tricks: 2." in page.locator("#end").inner_text()
    finally:
        ctx.close()
