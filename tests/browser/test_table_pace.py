"""Issue 11 in real Chromium: a peace shown at every pace (and with reduced
motion), fast-forward for a player who is out, idle battle after battle marks a
seat away, leaving the table; in several languages.

Seed ``p4`` seats two players in the lobby's order and its battle 2 is a peace
(RULES.md 9: the tests know the deal)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from cardwar.settings import Settings
from cardwar.tables.clocks import PACE_DELAY, PACE_PEACE

from .helpers import create_game, join_game, open_page

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

DELAY = 0.2       # computer_delay (normal pace)
PEACE_SHOW = 2.0  # peace_show (normal pace)
PAGE_HOLD = 2.2   # the page keeps a peace at least REVEAL_DELAY + 1.5 s (game.js)
# the page writes down when each battle number shows (ms, performance.now())
WATCH = """() => {
  window.shownAt = {};
  const t = document.getElementById('table');
  new MutationObserver(() => { window.shownAt[t.dataset.battle] ??= performance.now(); })
    .observe(t, { attributes: true, attributeFilter: ['data-battle'] });
}"""

# seconds between battle 2 (the peace) and the next battle number the page showed
NEXT_AFTER_PEACE = """(Math.min(...Object.keys(window.shownAt).filter((b) => +b > 2)
  .map((b) => window.shownAt[b])) - window.shownAt['2']) / 1000"""


@pytest.fixture(scope="module")
def seeded_server(server_factory, tmp_path_factory) -> str:
    db = tmp_path_factory.mktemp("pace") / "games.db"
    return server_factory(Settings(
        database=f"sqlite+aiosqlite:///{db}", testing_seed="p4", computer_delay=DELAY,
        peace_show=PEACE_SHOW, flip_timeout=1.0, idle_away=2, gone_after=1.0))


@pytest.fixture(scope="module")
def slow_stacked_server(server_factory, tmp_path_factory) -> str:
    """The stacked deal, and a computer slow enough to be overtaken by a skip."""
    db = tmp_path_factory.mktemp("skip") / "games.db"
    return server_factory(Settings(database=f"sqlite+aiosqlite:///{db}",
                                   testing_stacked_deck=True, computer_delay=4.0,
                                   peace_show=4.0, flip_timeout=60.0))


@pytest.fixture(scope="module")
def end_on_peace_server(server_factory, tmp_path_factory) -> str:
    """Seed ``e1260``: seats in the lobby's order, three battles, each with a peace;
    the third peace takes Bob's last card and ends the game."""
    db = tmp_path_factory.mktemp("endpeace") / "games.db"
    return server_factory(Settings(
        database=f"sqlite+aiosqlite:///{db}", testing_seed="e1260", computer_delay=DELAY,
        peace_show=PEACE_SHOW, flip_timeout=5.0))


@pytest.fixture(scope="module")
def out_early_server(server_factory, tmp_path_factory) -> str:
    """Seed ``k546``, 3 players: Ann (lobby position 0, table seat 1) is out in
    battle 5, battle 6 is a peace and the computers play on to battle 470."""
    db = tmp_path_factory.mktemp("outearly") / "games.db"
    return server_factory(Settings(
        database=f"sqlite+aiosqlite:///{db}", testing_seed="k546", computer_delay=DELAY,
        peace_show=PEACE_SHOW, flip_timeout=5.0))


def _start_on_auto(page, base: str, lang: str, pace: str, **seats: str) -> None:
    """Create a Peace game (see :func:`_create`), start it, watch when each battle
    shows (``WATCH``) and flip automatically at ``pace``."""
    _create(page, base, lang, **seats)
    page.wait_for_selector("#start-game, #table:not([hidden])")
    if page.locator("#start-game").count():  # against the computer only it starts at once
        page.locator("#start-game").click()
    expect(page.locator("#table")).to_be_visible()
    page.evaluate(WATCH)
    page.locator("#pace").select_option(pace)
    page.locator("#auto-flip").check()


def _create(page, base: str, lang: str, **seats: str) -> str:
    """Create a Peace game from the ``lang`` rules page; return its /en/ URL."""
    page.goto(f"{base}/{lang}/peace")
    form = page.locator("form.start-form")
    players = 2 + len(seats) - 1 if seats else 2
    form.locator(f'input[name="players"][value="{players}"]').check()
    for name, kind in (seats or {"seat1": "computer"}).items():
        form.locator(f'select[name="{name}"]').select_option(kind)
    form.locator('input[name="nickname"]').fill("Ann")
    form.locator('button[type="submit"]').click()
    page.wait_for_selector("#start-game, #table:not([hidden])")  # the computer's: no lobby
    return page.url.replace(f"/{lang}/g/", "/en/g/")


@pytest.mark.parametrize(("pace", "locale", "word"), [
    ("slow", "en-US", "PEACE"), ("normal", "pl-PL", "POKÓJ"), ("fast", "de-DE", "PEACE"),
])
def test_a_peace_stays_on_the_table_at_every_pace(browser, seeded_server, pace, locale, word):
    ctx, a = open_page(browser, locale=locale)
    try:
        _start_on_auto(a, seeded_server, locale[:2], pace)
        # battle 2 is a peace: its face-down cards turn over, lettered in order
        a.wait_for_function("document.getElementById('table').dataset.battle === '2'")
        a.wait_for_selector(".tseat[data-seat='0'] .tplay__peace .pcard--shown")
        assert a.locator("#table").get_attribute("data-battle") == "2"  # still on the table
        letters = a.locator(".tseat[data-seat='0'] .tplay__peace .pcard__letter").all_inner_texts()
        assert letters == list(word)[:len(letters)] and len(letters) == 5
        assert a.locator(".tplay--turning .pcard--shown").count() == 10
        a.wait_for_function("+document.getElementById('table').dataset.battle >= 3",
                            timeout=30_000)
        shown = a.evaluate(NEXT_AFTER_PEACE)
        # the server counts its wait from the peace it stored; the page counts from
        # when it drew battle 2, which it may do later (battle 1's pot slides off
        # first, and a loaded machine delays the frame): up to half a second is that lag
        server_wait = DELAY * PACE_DELAY[pace] + PEACE_SHOW * PACE_PEACE[pace]
        assert shown >= max(PAGE_HOLD - 0.1, server_wait - 0.5), (pace, shown)
    finally:
        ctx.close()


def test_a_peace_with_reduced_motion_is_turned_still_and_still_held(browser, seeded_server):
    ctx = browser.new_context(locale="en-US", reduced_motion="reduce")
    a = ctx.new_page()
    try:
        _create(a, seeded_server, "en")
        expect(a.locator("#table")).to_be_visible()
        a.evaluate(WATCH)
        a.locator("#pace").select_option("fast")
        a.locator("#auto-flip").check()
        a.wait_for_selector(".tplay--turning .pcard--shown")
        assert a.locator(".pcard--shown").first.evaluate(
            "e => getComputedStyle(e).animationName") == "none"
        a.wait_for_function("+document.getElementById('table').dataset.battle >= 3")
        assert a.evaluate(NEXT_AFTER_PEACE) >= PAGE_HOLD - 0.1
    finally:
        ctx.close()


@pytest.mark.parametrize(("pace", "locale"), [("slow", "en-US"), ("fast", "cs-CZ")])
def test_a_game_that_ends_on_a_peace_shows_it_before_the_result(
        browser, end_on_peace_server, pace, locale):
    ctx, a = open_page(browser, locale=locale)
    try:
        # the game page writes down when the end screen shows
        a.add_init_script("""addEventListener('DOMContentLoaded', () => {
            const end = document.getElementById('end');
            if (!end) return;
            new MutationObserver(() => { if (!end.hidden) window.endAt ??= performance.now(); })
              .observe(end, { attributes: true });
          })""")
        _start_on_auto(a, end_on_peace_server, locale[:2], pace)
        # while the last peace is on show, the pile invites no flip (the game is over)
        # and the heading names the last battle
        a.wait_for_function("""document.getElementById('table').dataset.battle === '3'
            && document.getElementById('end').hidden
            && /^\\D*3\\D/.test(document.getElementById('battle-number').textContent)
            && document.getElementById('my-pile').getAttribute('aria-disabled') === 'true'
            && !document.querySelector('#my-pile .pile__flip')""", timeout=30_000)
        expect(a.locator("#end")).to_be_visible(timeout=30_000)
        # the last battle's peace was turned over and stayed before the result came
        assert a.locator("#table").get_attribute("data-battle") == "3"
        assert a.locator(".tseat[data-seat='0'] .tplay__peace .pcard--shown").count() == 5
        assert a.locator(".tseat[data-seat='1'] .tplay__peace .pcard--shown").count() == 4
        # as long as any peace at that pace (slow: longer)
        # (the observer writes battle 3 down when the page's task that drew it
        # ends, after the hold began: on a loaded machine CI saw 2.08 s of a
        # 2.2 s hold, so 0.3 s is allowed; the slow pace's 3.0 s still tells
        # itself from the page's own 2.2 s)
        shown = a.evaluate("(window.endAt - window.shownAt['3']) / 1000")
        assert shown >= max(PAGE_HOLD, PEACE_SHOW * PACE_PEACE[pace]) - 0.3, shown
    finally:
        ctx.close()


def test_a_skip_during_a_peace_goes_straight_to_the_result(browser, out_early_server):
    ctx, a = open_page(browser, locale="pl-PL")
    try:
        _start_on_auto(a, out_early_server, "pl", "normal", seat1="computer", seat2="computer")
        a.wait_for_function("document.getElementById('table').dataset.battle === '6'",
                            timeout=60_000)
        assert a.locator(".tplay__peace").count() > 0  # the peace is on show
        assert a.locator("#leave-area").is_hidden()  # out: nothing left to leave
        a.locator("#skip").click()
        # the 464 battles left arrive at once; none waits for the peace to be read
        # (at the normal pace they would take minutes)
        expect(a.locator("#end")).to_be_visible()
        assert a.locator("#table").get_attribute("data-battle") == "470"
    finally:
        ctx.close()


def test_a_player_who_is_out_skips_to_the_result(browser, slow_stacked_server):
    stacked_server = slow_stacked_server
    ctx_a, a = open_page(browser)
    ctx_c, c = open_page(browser, locale="de-DE")
    try:
        url = create_game(a, stacked_server, players=3, seats={1: "computer", 2: "friend"})
        join_game(c, url, "Cleo", "de")
        expect(a.locator("#seat-list li[data-seat='2']")).to_contain_text("Cleo")
        a.locator("#start-game").click()
        expect(c.locator("#table")).to_be_visible()
        a.locator("#pace").select_option("slow")
        c.locator("#my-pile").click()
        a.locator("#my-pile").click()
        c.wait_for_selector(".tseat--out[data-seat='2']")  # the stacked deal: Cleo is out
        assert c.locator("#skip-area").is_hidden()  # Ann still flips by hand
        a.locator("#auto-flip").check()
        expect(c.locator("#skip-area")).to_be_visible()
        expect(c.locator("#skip")).to_have_text("Zum Ergebnis springen")
        c.locator("#skip").click()  # instead of 10 s at the slow pace
        expect(c.locator("#end")).to_be_visible(timeout=5_000)
        expect(a.locator("#end")).to_be_visible()
    finally:
        ctx_a.close()
        ctx_c.close()


def test_an_idle_player_is_marked_away_and_flipping_takes_the_seat_back(browser, seeded_server):
    ctx_a, a = open_page(browser)
    ctx_b, b = open_page(browser, locale="pl-PL")
    try:
        url = _create(a, seeded_server, "en", seat1="friend")
        join_game(b, url, "Bob", "pl")
        a.wait_for_function("document.querySelectorAll('#seat-list .presence').length === 2")
        a.locator("#start-game").click()
        expect(b.locator("#table")).to_be_visible()
        # battle 1: only Ann has flipped, nobody waits on the computer... then Bob's
        # clock runs out twice in a row (idle_away=2): he is away, still connected
        a.locator("#auto-flip").check()
        expect(b.locator("#away-note")).to_be_visible(timeout=30_000)
        assert "komputer gra za ciebie" in b.locator("#away-note").inner_text()
        a.wait_for_selector(".tseat[data-seat='1'] .tseat__gone")
        assert a.locator(".tseat[data-seat='1'] .tseat__hand").is_visible()  # the creator may
        b.wait_for_selector("#my-pile[aria-disabled='false']", timeout=30_000)
        b.locator("#my-pile").click()
        b.wait_for_selector("#away-note[hidden]", state="attached")
        a.wait_for_selector(".tseat[data-seat='1'] .tseat__gone", state="detached")
    finally:
        ctx_a.close()
        ctx_b.close()


@pytest.mark.parametrize(("locale", "note"), [
    ("pl-PL", "komputer gra za ciebie"), ("de-DE", "Der Computer spielt für Sie"),
])
def test_an_away_player_takes_the_seat_back_while_the_other_human_waits(
        browser, seeded_server, locale, note):
    """Ann flips by hand, Bob never does: after two battles (idle_away=2) he is away
    and the computer flips for him in battle 3 while Ann waits. His pile still takes
    his seat back at once; his card of battle 3 stays, nothing is played."""
    ctx_a, a = open_page(browser)
    ctx_b, b = open_page(browser, locale=locale)
    try:
        url = _create(a, seeded_server, "en", seat1="friend")
        join_game(b, url, "Bob", locale[:2])
        a.wait_for_function("document.querySelectorAll('#seat-list .presence').length === 2")
        a.locator("#start-game").click()
        expect(b.locator("#table")).to_be_visible()
        bob = b.locator(".tseat--you").get_attribute("data-seat")
        for n in (1, 2):  # Ann flips; Bob's idle clock (1 s) flips for him
            a.wait_for_selector("#my-pile[aria-disabled='false']")
            a.locator("#my-pile").click()
            b.wait_for_function(f"document.getElementById('table').dataset.battle === '{n}'")
        expect(b.locator("#away-note")).to_be_visible(timeout=10_000)
        assert note in b.locator("#away-note").inner_text()
        a.wait_for_selector(f".tseat[data-seat='{bob}'] .tseat__gone")
        # battle 3: the computer flips for Bob (after the peace of battle 2 is shown)
        b.wait_for_selector(".tseat--you .tseat__state--ready", timeout=10_000)
        pile = b.locator("#my-pile")
        assert pile.get_attribute("aria-disabled") == "false"  # still his to tap
        assert pile.locator(".pile__flip").count() == 0  # no new card to flip
        pile.click()
        b.wait_for_selector("#away-note[hidden]", state="attached", timeout=5_000)
        a.wait_for_selector(f".tseat[data-seat='{bob}'] .tseat__gone", state="detached",
                            timeout=5_000)
        assert b.locator(".tseat--you .tseat__gone").count() == 0
        # nothing was played: battle 3 still waits for Ann, Bob's flip is as it was
        for page in (a, b):
            assert page.locator("#table").get_attribute("data-battle") == "2"
        b.wait_for_selector("#my-pile[aria-disabled='true']")
        assert b.locator(".tseat--you .tseat__state--ready").count() == 1
        assert a.locator(f".tseat[data-seat='{bob}'] .tseat__state--ready").count() == 1
        # back in his seat: in battle 4 the computer no longer flips for him (0.2 s)
        a.locator("#my-pile").click()
        b.wait_for_function("document.getElementById('table').dataset.battle === '3'")
        b.wait_for_timeout(1_000)
        assert b.locator(".tseat--you .tseat__state--wait").count() == 1
        assert b.locator("#my-pile .pile__flip").count() == 1
    finally:
        ctx_a.close()
        ctx_b.close()


def test_the_creator_leaves_and_the_next_human_may_hand_seats_over(browser, seeded_server):
    ctx_a, a = open_page(browser)
    ctx_b, b = open_page(browser, locale="de-DE")
    ctx_c, c = open_page(browser, locale="es-ES")
    try:
        url = _create(a, seeded_server, "en", seat1="friend", seat2="friend")
        join_game(b, url, "Bob", "de")
        join_game(c, url, "Cy", "es")
        a.wait_for_function("document.querySelectorAll('#seat-list .presence').length === 3")
        a.locator("#start-game").click()
        for page in (a, b, c):
            expect(page.locator("#table")).to_be_visible()
        ann = a.locator(".tseat--you").get_attribute("data-seat")
        a.once("dialog", lambda d: d.accept())
        a.locator("#leave").click()
        # everyone is told; the seat is shown as left and played by the computer
        b.wait_for_selector(f".tseat[data-seat='{ann}'] .tag--left")
        assert b.locator(f".tseat[data-seat='{ann}'] .tag--left").inner_text() == (
            "hat den Tisch verlassen")
        expect(b.locator("#announce")).to_contain_text("Ann")
        expect(a.locator("#watching-note")).to_be_visible()  # Ann watches now
        # Cy goes away: Bob, the next human, may now hand her seat to the computer
        cy = c.locator(".tseat--you").get_attribute("data-seat")
        ctx_c.close()
        hand = b.locator(f".tseat[data-seat='{cy}'] .tseat__hand")
        hand.wait_for(timeout=30_000)
        hand.click()
        b.wait_for_selector(f".tseat[data-seat='{cy}'] .tag--computer")
    finally:
        ctx_a.close()
        ctx_b.close()


def test_the_creator_leaves_the_lobby_and_who_came_next_may_start(browser, seeded_server):
    """Ann (the creator) leaves the lobby: Bob, who came second, moves up and gets the
    start button; Cy, who came third, and Dee, a newcomer taking a seat afterwards,
    wait for him. Leaving the lobby asks its own question (nothing is played yet)."""
    ctx_a, a = open_page(browser)
    a.clock.install()  # a clock the test may run ahead (it flows as the real one)
    ctx_b, b = open_page(browser, locale="de-DE")
    ctx_c, c = open_page(browser, locale="es-ES")
    ctx_d, d = open_page(browser, locale="pl-PL")
    try:
        url = _create(a, seeded_server, "en", seat1="friend", seat2="friend", seat3="friend")
        join_game(b, url, "Bob", "de")
        join_game(c, url, "Cy", "es")
        a.wait_for_function("document.querySelectorAll('#seat-list .presence').length === 3")
        asked: list[str] = []

        answers = [False]  # then yes

        def answer(dialog) -> None:
            asked.append(dialog.message)
            if answers and not answers.pop(0):
                dialog.dismiss()
            else:
                dialog.accept()

        a.on("dialog", answer)
        with a.expect_event("dialog"):
            a.locator("#leave").dblclick()  # a double click asks once, even answered no
        # both clicks are handled before this round trip: a second question would
        # have come first (its dialog event before the answer)
        a.evaluate("() => new Promise(requestAnimationFrame)")
        assert len(asked) == 1 and a.locator("#leave").is_visible()
        a.clock.run_for(1_000)  # later (an answer keeps the button quiet for 0.5 s)
        a.locator("#leave").dblclick()
        b.wait_for_selector("#start-game")  # Bob may start now
        assert asked == ["Leave this table? The game has not started: your seat becomes "
                         "free for another player."] * 2
        b.wait_for_function(
            "document.getElementById('announce').textContent"
            ".includes('Ann hat den Tisch verlassen.')")
        # the newcomer sits after those already waiting, and waits for Bob too
        join_game(d, url, "Dee", "pl")
        for page in (b, c, d):
            page.wait_for_function(
                "document.querySelectorAll('#seat-list .presence').length === 3")
        assert d.locator("#seat-list .seat-list__item[data-seat='2'] .tag").first.is_visible()
        for page in (c, d):
            assert page.locator("#start-game").count() == 0
            assert "Bob" in page.locator("#start-area").inner_text()
        names = b.locator("#seat-list .seat-list__name").all_inner_texts()
        assert names[:3] == ["Bob", "Cy", "Dee"]
        # Dee thinks again: the Polish lobby's question, dismissed
        d.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.dismiss()))
        with d.expect_event("dialog"):
            d.locator("#leave").click()
        assert asked[2] == ("Opuścić ten stół? Gra jeszcze się nie zaczęła: twoje miejsce "
                            "zwolni się dla innego gracza.")
        b.locator("#start-game").click()
        for page in (b, c, d):
            expect(page.locator("#table")).to_be_visible()
    finally:
        for ctx in (ctx_a, ctx_b, ctx_c, ctx_d):
            ctx.close()


# every change of the table: [ms, battle shown, peace rows on show, cards on show]
# (cards sliding away or picked up do not count)
TABLE_LOG = """() => {
  window.tableLog = [];
  const t = document.getElementById('table');
  const shown = (sel) => Array.from(document.querySelectorAll(sel)).filter(
    (e) => !e.closest('.tplay--taken') && !e.closest('.tplay--cleared')).length;
  new MutationObserver(() => {
    const e = [Math.round(performance.now()), t.dataset.battle, shown('.tplay__peace'),
      shown('.tplay .pcard')];
    const l = window.tableLog[window.tableLog.length - 1];
    if (!l || l.slice(1).join() !== e.slice(1).join()) window.tableLog.push(e);
  }).observe(t, { attributes: true, childList: true, subtree: true });
}"""


@pytest.fixture(scope="module")
def normal_server(server_factory, tmp_path_factory) -> str:
    """The site's own timing (a computer flips 0.8 s into a battle, a peace is
    shown 3 s): the pot of the peace is picked up before the next battle comes."""
    db = tmp_path_factory.mktemp("normal") / "games.db"
    return server_factory(Settings(database=f"sqlite+aiosqlite:///{db}", testing_seed="p4",
                                   computer_delay=0.8, peace_show=3.0, flip_timeout=60.0))


@pytest.mark.parametrize("locale", ["en-US", "fr-FR"])
def test_a_peace_picked_up_never_comes_back(browser, normal_server, locale):
    """At normal pace the peace (battle 2) slides to its winner's pile before battle 3;
    the flips of battle 3 draw the table again, and must not put the peace back."""
    ctx, a = open_page(browser, locale=locale)
    try:
        _create(a, normal_server, locale[:2])
        expect(a.locator("#table")).to_be_visible()
        a.evaluate(TABLE_LOG)
        a.locator("#auto-flip").check()
        a.wait_for_function("+document.getElementById('table').dataset.battle >= 4",
                            timeout=30_000)
        log = a.evaluate("window.tableLog")
        peace = [rows for _, battle, rows, _ in log if battle == "2"]
        assert peace and peace[0] == 2, log  # shown, both seats' rows
        assert 0 in peace, log  # picked up while battle 3 was still to come
        gone = peace.index(0)
        assert not any(peace[gone:]), log  # never back once picked up
        later = [(battle, rows) for _, battle, rows, _ in log if int(battle) > 2]
        assert later and not any(rows for _, rows in later), log
        assert [b for _, b, _, _ in log] == sorted((b for _, b, _, _ in log), key=int), log
    finally:
        ctx.close()


def test_at_slow_pace_the_peace_stays_on_the_table_longer(browser, normal_server):
    """At slow pace the server waits 0.8 s * 2.5 + 3 s * 1.5 after a peace; the page
    keeps the peace on the table for the peace's part of it (not the fast pace's
    2.25 s), then picks it up before the next battle."""
    ctx, a = open_page(browser, locale="es-ES")
    try:
        _create(a, normal_server, "es")
        expect(a.locator("#table")).to_be_visible()
        a.evaluate(TABLE_LOG)
        a.locator("#pace").select_option("slow")
        a.locator("#auto-flip").check()
        a.wait_for_function("+document.getElementById('table').dataset.battle >= 3",
                            timeout=30_000)
        log = a.evaluate("window.tableLog")
        shown = next(t for t, battle, rows, _ in log if battle == "2" and rows == 2)
        gone = next(t for t, battle, rows, _ in log if battle == "2" and rows == 0 and t > shown)
        third = next(t for t, battle, _, _ in log if battle == "3")
        on_table = (gone - shown) / 1000
        assert on_table >= 3.0 * PACE_PEACE["slow"] - 1.0, log  # fast pace's hold: 2.3-3.1 s
        assert gone < third, log
    finally:
        ctx.close()


# the table the first time a peace is on it, and the first time its cards are turned:
# [face-down cards turned, centre sentence, "+N" badges, seats marked won, score bar]
FIRST_PEACE_FRAMES = """() => {
  window.peaceFrames = [];
  const t = document.getElementById('table');
  const frame = () => [document.querySelectorAll('.tplay__peace .pcard--shown').length,
    document.getElementById('summary').textContent,
    document.querySelectorAll('.tseat__took').length,
    document.querySelectorAll('.tseat--won').length,
    document.getElementById('scorebar').getAttribute('aria-label')];
  new MutationObserver(() => {
    if (!document.querySelector('.tplay__peace')) return;
    const f = frame(), l = window.peaceFrames;
    if (!l.length || (f[0] > 0 && l[l.length - 1][0] === 0)) l.push(f);
  }).observe(t, { attributes: true, childList: true, subtree: true });
}"""


def test_a_peace_tells_its_result_only_when_its_cards_turn(browser, seeded_server):
    """Issue 22: while a peace's cards are laid, the centre says nothing of its
    result, no seat shows "+N" or is marked won, and the score bar has not moved;
    all of it comes when the face-down cards turn."""
    ctx, a = open_page(browser, locale="en-US")
    try:
        _create(a, seeded_server, "en")
        expect(a.locator("#table")).to_be_visible()
        a.evaluate(FIRST_PEACE_FRAMES)
        a.locator("#pace").select_option("slow")
        a.locator("#auto-flip").check()
        a.wait_for_function("window.peaceFrames.length >= 2", timeout=30_000)
        (turned0, said0, took0, won0, bar0), (turned1, said1, took1, won1, bar1) = \
            a.evaluate("window.peaceFrames")
        assert (turned0, said0, took0, won0) == (0, "", 0, 0)
        assert turned1 == 10 and "peace" in said1.lower() and took1 == 1 and won1 == 1
        assert bar0 != bar1  # the pot moved the counts then, not before
    finally:
        ctx.close()
