"""Online play end to end in real Chromium: two friends, a computer seat, a restart."""

from __future__ import annotations

import re
import signal

import pytest
from babel import Locale
from playwright.sync_api import expect

from .helpers import (
    battles,
    create_game,
    flip_piles,
    free_port,
    game_ended,
    next_battle_or_end,
    open_page,
    serious_axe_violations,
    serve,
    settle,
    start_play_server,
    wait_revealed,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


@pytest.fixture(scope="module")
def stacked_server(server_factory, tmp_path_factory) -> str:
    return start_play_server(server_factory, tmp_path_factory, "play")


def test_two_friends_play_peace_to_the_end(browser, stacked_server):
    ctx_a, a = open_page(browser)
    ctx_a.grant_permissions(["clipboard-read", "clipboard-write"], origin=stacked_server)
    ctx_b, b = open_page(browser, locale="pl-PL", width=360)
    try:
        create_game(a, stacked_server, nickname="Ann")
        a.get_by_role("button", name="Copy link").click()
        expect(a.locator("#copied")).not_to_be_empty()
        link = a.evaluate("navigator.clipboard.readText()")
        assert re.fullmatch(rf"{stacked_server}/g/[A-Za-z0-9_-]{{16}}", link)
        assert a.locator(".lobby__qr img").evaluate("img => img.naturalWidth") > 0
        # in the "Fair deal" badge's explanation (closed: its text is in the page)
        assert a.locator("#commitment").text_content().strip()

        b.goto(link)  # the shared link opens in the friend's own language
        b.wait_for_url(re.compile(r".*/pl/g/"))
        nick = b.locator("#nickname")
        assert nick.input_value() == "Gracz 2"
        nick.fill("Bob")
        b.get_by_role("button", name="Zajmij miejsce").click()
        b.wait_for_selector("#seat-list li[data-seat='1'] .tag")
        expect(a.locator("#seat-list li[data-seat='1']")).to_contain_text("Bob")
        a.get_by_role("button", name="Start the game").click()
        expect(a.locator("#table")).to_be_visible()
        expect(b.locator("#table")).to_be_visible()
        expect(a.locator("#battle-number")).to_have_text("Battle 1 of 1,000")
        expect(b.locator("#battle-number")).to_have_text("Bitwa 1 z 1000")
        # a 360px phone: nothing wider than the screen
        assert b.evaluate("document.documentElement.scrollWidth") <= 360

        letters_a: list[str] = []
        letters_b: list[str] = []
        for _ in range(10):
            if game_ended(a):
                break
            before = battles(a)
            a.locator("#my-pile").click()          # mouse
            b.locator("body").focus()
            b.keyboard.press("Space")              # keyboard
            next_battle_or_end(a, before)
            next_battle_or_end(b, before)
            letters = ".tseat[data-seat='0'] .pcard__letter"
            letters_a = letters_a or a.locator(letters).all_inner_texts()
            letters_b = letters_b or b.locator(letters).all_inner_texts()
            expect(a.locator("#announce")).not_to_be_empty()
        expect(a.locator("#end")).to_be_visible()
        expect(b.locator("#end")).to_be_visible()
        assert letters_a == list("PEACE")
        assert letters_b == list("POKÓJ")
        end_a = a.locator("#end").inner_text()
        assert "Ann wins the game!" in end_a
        # inside "Check this deal" (closed)
        assert "cardwar play --variant peace --players 2 --hands" in a.locator(
            ".end__command").text_content()
        assert "Ann wygrywa grę!" in b.locator("#end").inner_text()
        assert "Bitwa 2 z 1000" in b.locator("#battle-number").inner_text()
    finally:
        ctx_a.close()
        ctx_b.close()


def test_three_players_with_a_computer(browser, stacked_server):
    ctx_a, a = open_page(browser)
    ctx_b, b = open_page(browser)
    try:
        url = create_game(a, stacked_server, players=3, seats={1: "computer", 2: "friend"})
        assert a.locator("#seat-list li[data-seat='1']").inner_text().startswith("Seat 2")
        b.goto(url)
        b.locator("#nickname").fill("Cleo")
        b.get_by_role("button", name="Take a seat").click()
        b.wait_for_selector("#seat-list li[data-seat='2'] .tag")
        expect(a.locator("#seat-list li[data-seat='2']")).to_contain_text("Cleo")
        a.locator("#start-game").click()
        expect(b.locator("#table")).to_be_visible()
        # the computer flips by itself
        b.wait_for_selector(".tseat[data-seat='1'] .tseat__state--ready")
        for _ in range(10):
            if game_ended(a):
                break
            before = battles(a)
            if a.locator("#my-pile[aria-disabled='false']").count():
                a.locator("#my-pile").click()
            if b.locator("#my-pile[aria-disabled='false']").count():
                b.keyboard.press("Enter")
            next_battle_or_end(a, before)
        # Cleo (seat 2) went out in battle 1 and is marked so
        b.wait_for_selector(".tseat--out[data-seat='2']")
        assert b.locator(".tseat[data-seat='2'] .tseat__state--out").text_content() == "out"
        expect(a.locator("#end")).to_be_visible()
        assert "Ann wins the game!" in a.locator("#end").inner_text()
    finally:
        ctx_a.close()
        ctx_b.close()


def test_restart_in_the_middle_of_a_game(browser, tmp_path):
    port = free_port()
    db = f"sqlite+aiosqlite:///{tmp_path / 'games.db'}"
    base = f"http://127.0.0.1:{port}"
    proc = serve(port, db)
    ctx_a, a = open_page(browser)
    ctx_b, b = open_page(browser, locale="de-DE")
    try:
        url = create_game(a, base)
        b.goto(url.replace("/en/", "/de/"))
        b.locator("#nickname").fill("Bea")
        b.get_by_role("button", name="Platz nehmen").click()
        b.wait_for_selector("#seat-list li[data-seat='1'] .tag")
        a.locator("#start-game").click()
        expect(b.locator("#table")).to_be_visible()
        expect(a.locator("#table")).to_be_visible()
        # the seed drew the seats (RULES.md 9): where Ann and Bea sit
        ann = a.locator(".tseat--you").get_attribute("data-seat")
        bea = b.locator(".tseat--you").get_attribute("data-seat")
        assert {ann, bea} == {"0", "1"}
        for _ in range(3):
            before = battles(a)
            flip_piles(a, b)
            next_battle_or_end(a, before)
            next_battle_or_end(b, before)
        wait_revealed(a)  # a peace's counts are the new ones once its cards turn
        a.locator("#my-pile").click()  # Ann has flipped for battle 4; Bea has not
        b.wait_for_selector(f".tseat[data-seat='{ann}'] .tseat__state--ready")
        counts = a.locator(".pile__count").all_inner_texts()
        battle_a = a.locator("#battle-number").inner_text()

        proc.send_signal(signal.SIGKILL)  # no graceful shutdown
        proc.wait(timeout=10)
        expect(a.locator("#conn-notice")).to_be_visible()  # "reconnecting" (issue 5)
        proc = serve(port, db)

        a.reload()
        b.reload()
        a.wait_for_selector("#table:not([hidden]) .tseat")
        b.wait_for_selector("#table:not([hidden]) .tseat")
        # the heading names the battle whose cards are on the table (issue 22)
        assert a.locator("#battle-number").inner_text() == battle_a == "Battle 3 of 1,000"
        assert b.locator("#battle-number").inner_text() == "Schlacht 3 von 1.000"
        assert a.locator(".pile__count").all_inner_texts() == counts
        assert a.locator(".tseat--you").get_attribute("data-seat") == ann
        assert b.locator(".tseat--you").get_attribute("data-seat") == bea
        assert a.locator(f".tseat[data-seat='{ann}'] .tseat__state--ready").count() == 1
        b.locator("#my-pile").click()  # the game carries on
        a.wait_for_function("+document.getElementById('table').dataset.battle >= 4")
    finally:
        ctx_a.close()
        ctx_b.close()
        proc.kill()
        proc.wait(timeout=10)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_game_page_has_no_serious_axe_violation(browser, stacked_server, axe_source, scheme):
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme,
                              reduced_motion="reduce")
    a = ctx.new_page()
    found = {}
    try:
        create_game(a, stacked_server, seats={1: "computer"})  # no lobby: it starts at once
        a.wait_for_selector("#my-pile")
        a.locator("#my-pile").focus()
        a.keyboard.press("Enter")  # keyboard only: the pile is a button
        a.wait_for_function("+document.getElementById('table').dataset.battle >= 1")
        assert a.evaluate("document.activeElement.id") == "my-pile"  # focus stays on the pile
        found["table"] = serious_axe_violations(a, axe_source)
        a.keyboard.press("Enter")
        expect(a.locator("#end")).to_be_visible()
        expect(a.locator("#game")).to_have_attribute("data-status", "over")
        settle(a)  # nothing is still fading in
        found["end"] = serious_axe_violations(a, axe_source)
        # reduced motion: the pot is not slid away, the cards just fade a little
        assert a.locator(".tplay--taken").count() == 0
    finally:
        ctx.close()
    assert not any(found.values()), found


def test_war_shows_face_down_counts_without_letters(browser, stacked_server):
    ctx, a = open_page(browser, locale="de-DE")
    try:
        a.goto(f"{stacked_server}/de/war")
        form = a.locator("form.start-form")
        form.locator('select[name="seat1"]').select_option("computer")
        form.locator('input[name="face_down"][value="1"]').check()
        form.locator('button[type="submit"]').click()
        a.wait_for_selector("#my-pile")  # against the computer: no lobby
        # every "N face down" drawn, with whether the cards next to it were face down
        a.evaluate("""() => { window.downCounts = [];
          new MutationObserver(() => document.querySelectorAll('.tplay__count').forEach((c) =>
            window.downCounts.push([c.textContent,
              c.parentElement.querySelectorAll('.pcard--shown').length]))
          ).observe(document.getElementById('table'), { childList: true, subtree: true }); }""")
        for _ in range(5):
            if game_ended(a):
                break
            before = battles(a)
            a.locator("#my-pile").click()
            next_battle_or_end(a, before)
        assert a.locator("#battle-number").inner_text() == "Schlacht 2"  # War: no limit
        assert a.locator(".pcard__letter").count() == 0
        counts = a.evaluate("window.downCounts")
        assert ["1 verdeckt", 0] in counts  # with the card it counts, while face down
        assert all(shown == 0 for _, shown in counts), counts  # never by face-up cards
        expect(a.locator("#end")).to_be_visible()
        assert "--face-down 1" in a.locator(".end__command").text_content()
        assert "Gleichstand: Krieg!" in a.locator("#summary").inner_text()
        assert a.locator(".tplay__count").count() == 0  # turned: nothing face down
    finally:
        ctx.close()


@pytest.fixture(scope="module")
def idle_server(server_factory, tmp_path_factory) -> str:
    return start_play_server(server_factory, tmp_path_factory, "idle", flip_timeout=4.0)


def test_idle_countdown_focus_and_the_end_screen(browser, idle_server):
    ctx_a, a = open_page(browser)
    ctx_b, b = open_page(browser, width=360)
    ctx_c, c = open_page(browser)
    for p in (a, b):  # a clock the test may run ahead (it flows as the real one)
        p.clock.install()
    try:
        url = create_game(a, idle_server, nickname="Ann")
        # the Share button only shows where the browser can share
        assert a.locator("#share-link-button").is_visible() == a.evaluate("!!navigator.share")
        b.goto(url)
        b.locator("#nickname").fill("ANN")  # taken, whatever the case
        b.get_by_role("button", name="Take a seat").click()
        expect(b.locator(".form-error")).to_contain_text("already has that nickname",
                                                          use_inner_text=True)
        assert b.locator("#nickname").input_value() == "ANN"
        b.locator("#nickname").fill("Bob")
        b.get_by_role("button", name="Take a seat").click()
        b.wait_for_selector("#seat-list li[data-seat='1'] .tag")
        expect(a.locator("#seat-list li[data-seat='1']")).to_contain_text("Bob")
        a.locator("#start-game").focus()
        a.keyboard.press("Enter")
        expect(a.locator("#table")).to_be_visible()
        a.wait_for_function("document.activeElement && document.activeElement.id === 'my-pile'")
        c.goto(url)  # a spectator keeps their label once the game has started
        expect(c.locator("#table")).to_be_visible()
        assert c.locator("#watching-note").is_visible()
        assert "You are watching this game." in c.locator("#watching-note").inner_text()
        assert "4 seconds" in a.locator("#flip-help").inner_text()
        # nobody has flipped: no clock (the service starts none before the first
        # flip, tests/tables/test_service.py), so none is shown
        assert battles(a) == 0 and a.locator("#idle-note").is_hidden()
        a.locator("#my-pile").click()
        expect(b.locator("#idle-note")).to_contain_text(re.compile(r"Flipping for you in \d s"))
        expect(a.locator("#idle-note")).to_contain_text(re.compile(r"Waiting for Bob… \d s"))
        expect(c.locator("#idle-note")).to_contain_text(re.compile(r"Waiting for Bob… \d s"))
        a.wait_for_function("+document.getElementById('table').dataset.battle >= 1",
                            timeout=10000)
        expect(a.locator("#idle-note")).to_be_hidden()
        for _ in range(12):
            if game_ended(a):
                break
            before = battles(a)
            flip_piles(a, b)
            next_battle_or_end(a, before)
        for p in (a, b):
            expect(p.locator("#end")).to_be_visible()
            # the page's clock run past the pick-up's delay (1.6 s) and slide (0.75 s):
            # the last battle's cards stay on the table for the end screen
            p.clock.run_for(2500)
            expect(p.locator(".tplay--taken, .tplay--taken-still")).to_have_count(0)
            assert p.locator(".tseat .tplay .pcard").count() >= 2  # the deciding cards
            end = p.locator("#end").inner_text()
            assert "Placings" in end and "went out in battle" in end
        assert b.evaluate("document.documentElement.scrollWidth") <= 360
        # after a reload the last battle looks the same: same cards, face-down ones shown
        live = a.locator(".tseat .tplay .pcard").count()
        shown = a.locator(".tseat .tplay .pcard--shown").count()
        a.reload()
        expect(a.locator("#end")).to_be_visible()
        assert a.locator(".tseat .tplay .pcard").count() == live
        assert a.locator(".tseat .tplay .pcard--shown").count() == shown
    finally:
        ctx_a.close()
        ctx_b.close()
        ctx_c.close()


def test_a_peace_in_ukrainian_and_dutch(browser, stacked_server):
    """Ukrainian keeps P-E-A-C-E, Dutch spells V-R-E-D-E; numbers and plurals by CLDR."""
    ctx_a, a = open_page(browser, locale="uk-UA")
    ctx_b, b = open_page(browser, locale="nl-NL", width=360)
    try:
        a.goto(f"{stacked_server}/uk/peace")
        form = a.locator("form.start-form")
        form.locator('input[name="nickname"]').fill("Ann")
        form.get_by_role("button", name="Створити гру").click()
        a.wait_for_url(re.compile(r".*/uk/g/[A-Za-z0-9_-]{16}$"))
        link = a.url.replace("/uk/g/", "/g/")
        b.goto(link)  # the shared link opens in the friend's own language
        b.wait_for_url(re.compile(r".*/nl/g/"))
        assert b.locator("#nickname").input_value() == "Speler 2"
        b.locator("#nickname").fill("Bob")
        b.get_by_role("button", name="Neem plaats").click()
        expect(a.locator("#seat-list li[data-seat='1']")).to_contain_text("Bob")
        a.get_by_role("button", name="Почати гру").click()
        expect(a.locator("#table")).to_be_visible()
        expect(b.locator("#table")).to_be_visible()
        expect(a.locator("#battle-number")).to_have_text("Бій 1 з 1\u00a0000")
        expect(b.locator("#battle-number")).to_have_text("Slag 1 van 1.000")
        uk_word = {"one": "карта", "few": "карти", "many": "карт"}
        count, word = a.locator("#my-pile .pile__count").inner_text().split()
        assert word == uk_word[Locale.parse("uk").plural_form(int(count))]
        count, word = b.locator("#my-pile .pile__count").inner_text().split()
        assert word == ("kaart" if count == "1" else "kaarten")
        assert b.evaluate("document.documentElement.scrollWidth") <= 360

        # every category the browser picks (21 -> one, 1.5 -> other) has a Ukrainian text
        picked = a.evaluate("""() => {
            const forms = JSON.parse(document.getElementById('play-strings').textContent).cards;
            const pr = new Intl.PluralRules('uk'), nf = new Intl.NumberFormat('uk');
            return [1, 2, 5, 21, 1.5].map(
                (n) => forms[pr.select(n)].replace('{count}', nf.format(n)));
        }""")
        assert picked == ["1 карта", "2 карти", "5 карт", "21 карта", "1,5 карти"]

        letters_a: list[str] = []
        letters_b: list[str] = []
        for _ in range(10):
            if game_ended(a):
                break
            before = battles(a)
            a.locator("#my-pile").click()
            b.locator("body").focus()
            b.keyboard.press("Space")
            next_battle_or_end(a, before)
            next_battle_or_end(b, before)
            letters = ".tseat[data-seat='0'] .pcard__letter"
            letters_a = letters_a or a.locator(letters).all_inner_texts()
            letters_b = letters_b or b.locator(letters).all_inner_texts()
        expect(a.locator("#end")).to_be_visible()
        expect(b.locator("#end")).to_be_visible()
        assert letters_a == list("PEACE")
        assert letters_b == list("VREDE")
        assert "Ann виграє гру!" in a.locator("#end").inner_text()
        assert "Ann wint het spel!" in b.locator("#end").inner_text()
    finally:
        ctx_a.close()
        ctx_b.close()
