"""Egyptian Ratscrew and Slapjack online in real Chromium (RULES.md 11, issue 27).

The stacked deal (cardwar/tables/stacked.py): ``2C JC 9H 3S / 2D 4H 8S 6D``, so
the second card (the computer's 2D on our 2C) makes a double. Games against the
computer to the end in English on a phone, slapping by tapping the pile, and in
French on a desktop, slapping with the S key; the pile and the line that says
who took it lie in the viewport; the record lists every slap with its figures;
the replay goes card by card. Screenshots go to /tmp/slappage/ for a look.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from cardwar.settings import Settings

from .helpers import open_page, serious_axe_violations

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SHOTS = Path("/tmp/slappage")
MY_SHOTS = Path("/tmp/slapfix")


@pytest.fixture(scope="module")
def slap_server(server_factory, tmp_path_factory) -> str:
    db = tmp_path_factory.mktemp("slaps") / "games.db"
    return server_factory(Settings(
        database=f"sqlite+aiosqlite:///{db}", testing_stacked_deck=True,
        testing_slap_online=True, computer_delay=0.2, flip_timeout=60.0))


#: JavaScript: keep everything the live region says in window.__said
SAID = """() => {
  window.__said = [];
  const region = document.getElementById('announce');
  new MutationObserver(() => { if (region.textContent) window.__said.push(region.textContent); })
    .observe(region, {childList: true, characterData: true, subtree: true});
}"""


def _shot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _create(page, base: str, locale: str, variant: str = "egyptian-ratscrew",
            computer: bool = True, **options: bool) -> None:
    page.goto(f"{base}/{locale}/{variant}")
    form = page.locator("form.start-form")
    if computer:
        form.locator('select[name="seat1"]').select_option("computer")
    for name, on in options.items():
        form.locator(f'input[name="{name}"]').set_checked(on)
    form.locator('input[name="nickname"]').fill("Ann")
    form.locator('button[type="submit"]').click()
    page.wait_for_url(re.compile(rf".*/{locale}/g/[A-Za-z0-9_-]{{16}}$"))


def _top(page) -> list[str]:
    """The face-up cards of the pile in the middle, oldest first."""
    return page.locator("#slap-pile .slap-pile__card").evaluate_all(
        "els => els.map(e => e.dataset.card)")


def _line(page) -> str:
    return page.locator("#slap-line").inner_text()


def _in_view(page, selector: str) -> None:
    """``selector``'s box lies inside the viewport (read in one go: the table is drawn
    again with every move)."""
    page.wait_for_selector(selector)
    box = page.evaluate("""s => { const r = document.querySelector(s).getBoundingClientRect();
        return {x: r.x, y: r.y, right: r.right, bottom: r.bottom,
                w: innerWidth, h: innerHeight}; }""", selector)
    assert box["x"] >= 0 and box["y"] >= 0, (selector, box)
    assert box["right"] <= box["w"] + 0.5, (selector, box)
    assert box["bottom"] <= box["h"] + 0.5, (selector, box)


def _tap(page, selector: str) -> None:
    """Tap ``selector`` if it is still there: the computer plays on meanwhile, and
    the game may end (the pile goes) between the test's look and its tap; the
    loop of :func:`_play_to_the_end` looks again."""
    try:
        page.locator(selector).tap(timeout=2_000)
    except PlaywrightTimeoutError:
        over = page.locator("#game").get_attribute("data-status") == "over"
        if page.locator(selector).count() and not over:
            raise


def _put_down(page, by_key: bool) -> None:
    if by_key:
        page.keyboard.press("Space")
    else:
        _tap(page, "#my-pile")


def _slap(page, by_key: bool) -> None:
    if by_key:
        page.keyboard.press("s")
    else:
        _tap(page, "#slap-pile")


def _play_to_the_end(page, by_key: bool) -> int:
    """Put down whenever it is our turn, slap every double or sandwich; the slaps made."""
    slapped, seen = 0, ""
    for _ in range(120):
        if page.locator("#game").get_attribute("data-status") == "over":
            return slapped
        top = [c[0] for c in _top(page)]
        key = ",".join(top) + "/" + (page.locator("#slap-pile").get_attribute("data-size") or "")
        pattern = len(top) >= 2 and (top[-1] == top[-2] or (len(top) >= 3 and top[-1] == top[-3]))
        if pattern and key != seen and page.locator("button#slap-pile").count():
            _slap(page, by_key)
            slapped, seen = slapped + 1, key
        elif page.locator("#my-pile[aria-disabled='false']").count():
            _put_down(page, by_key)
        page.wait_for_timeout(120)
    raise AssertionError("the game did not end")


def _wait_double(page) -> None:
    page.wait_for_function(
        "[...document.querySelectorAll('#slap-pile .slap-pile__card')]"
        ".map(e => e.dataset.card).join(' ') === '2C 2D'")


@pytest.mark.parametrize(("locale", "width", "height", "by_key", "words"), [
    ("en", 390, 844, False, {
        "rules": "Slap: double, sandwich.", "first": "slapped the double first:",
        "empty": "Nothing to slap yet: no penalty.", "length": "Cards put down:",
        "late": "Too late: the pile was already taken. No penalty.",
        "card": "Card", "keys": "S, or a tap on the pile in the middle, slaps"}),
    ("fr", 1280, 800, True, {
        "rules": "On tape sur\u00a0: paire, sandwich.", "first": "en premier sur la paire",
        "empty": "Rien à taper pour l'instant\u00a0: pas de pénalité.", "length": "Cartes posées :",
        "late": "Trop tard\u00a0: le tas a déjà été ramassé. Pas de pénalité.",
        "card": "Carte", "keys": "S, ou une touche sur le tas du milieu, tape"}),
])
def test_a_game_against_the_computer_to_the_end(browser, slap_server, locale, width, height,
                                                by_key, words):
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale=locale,
                              has_touch=not by_key, is_mobile=not by_key)
    page = ctx.new_page()
    name = f"{locale}_{width}"
    try:
        _create(page, slap_server, locale)
        page.wait_for_selector("button#slap-pile")  # against the computer: no lobby
        page.evaluate(SAID)
        assert words["rules"] in page.locator("#slap-rules").inner_text()
        assert words["keys"] in page.locator("#flip-help").inner_text()
        # the keys, on the piles themselves; not on a touch screen, which has none
        if by_key:
            assert page.locator("#slap-pile kbd").inner_text() == "S"
            assert page.locator("#my-pile kbd").is_visible()
        else:
            assert page.locator("#slap-pile .slap-pile__cta").is_visible()
            assert not page.locator("#slap-pile kbd").is_visible()
            assert not page.locator("#my-pile kbd").is_visible()
        # a slap before the first card: counts for nothing, and says so
        _slap(page, by_key)
        page.wait_for_function("document.getElementById('slap-line').textContent.length > 0")
        assert _line(page) == words["empty"]
        _shot(page, f"{name}_0_start")
        _put_down(page, by_key)
        _wait_double(page)
        _slap(page, by_key)
        _in_view(page, "#slap-pile")
        # who took the pile and why, with the reactions; or, on a machine so slow
        # that the computer's slap came first, ours too late, without a penalty
        late = json.dumps(words["late"])
        page.wait_for_function(
            "/\\d\\u00a0ms/.test(document.getElementById('slap-line').textContent) || "
            f"document.getElementById('slap-line').textContent === {late}")
        line = _line(page)
        assert words["first"] in line or line == words["late"], line
        _shot(page, f"{name}_2_slapped")
        _in_view(page, "#slap-pile")
        _in_view(page, "#slap-line")
        _in_view(page, "#my-pile")  # the whole table of two, our pile and its key included
        # said to screen readers too (the live region, before the next card replaces it)
        page.wait_for_function("window.__said.some(t => /\\d\\u00a0ms/.test(t))")
        assert any(words["first"] in t for t in page.evaluate("window.__said"))
        _play_to_the_end(page, by_key)
        end = page.locator("#end")
        end.wait_for(state="visible")
        page.wait_for_timeout(500)  # the sheet's entrance
        _shot(page, f"{name}_3_end")
        assert words["length"] in end.inner_text()
        assert "--slaps" in (end.locator(".end__command").text_content() or "")
        # the record lists every slap with its figures
        record = json.loads(page.request.get(f"{slap_server}/g/{page.url.rsplit('/', 1)[1]}"
                                             "/game.json").text())
        judged = record["judged"]
        assert judged and all({"sent", "arrived", "latency", "reaction"} <= set(j)
                              for j in judged if j["verdict"] != "empty_pile")
        assert {j["verdict"] for j in judged} >= {"valid", "empty_pile"}
        # the replay, card by card
        end.locator(".end__links a").first.click()
        page.wait_for_url(re.compile(r".*/replay$"))
        page.locator("#replay-next").click()
        page.locator("#replay-next").click()
        assert page.locator("#replay-step").inner_text().startswith(words["card"] + " 2")
        assert page.locator("#slap-pile .pcard").count() == 2
        assert re.search(r"\d\u00a0ms", page.locator("#replay-summary").inner_text())
        assert page.locator("#replay-summary").is_visible()
        _shot(page, f"{name}_4_replay")
        page.locator("#replay-last").click()
        assert int(page.locator("#replay").get_attribute("data-step") or 0) == \
            record["cards_played"]
    finally:
        ctx.close()


def test_a_wrong_slap_burns_a_card_and_the_page_says_so(browser, slap_server, axe_source):
    ctx, page = open_page(browser)
    try:
        _create(page, slap_server, "en")
        page.wait_for_selector("button#slap-pile")
        page.keyboard.press("Space")  # 2C; the computer's 2D makes a double, it takes it
        # and puts down 4H, then waits for us: a pile that stays unslappable
        page.wait_for_function(
            "[...document.querySelectorAll('#slap-pile .slap-pile__card')]"
            ".map(e => e.dataset.card).join(' ') === '4H' && "
            "document.getElementById('my-pile').getAttribute('aria-disabled') === 'false'")
        assert page.locator("#turn-owed").inner_text() == "Your turn to play."
        page.keyboard.press("s")  # nothing to slap
        page.wait_for_function("document.getElementById('slap-line').textContent"
                               ".startsWith('Your wrong slap')")
        assert _line(page) == "Your wrong slap: 1 card burned under the pile."
        assert page.locator("#slap-line").get_attribute("class") == "slap-line slap-line--wrong"
        assert serious_axe_violations(page, axe_source) == []
        # seen again after a reload: the last move's line comes back with the table
        page.reload()
        page.wait_for_selector("button#slap-pile")
        assert _line(page) == "Your wrong slap: 1 card burned under the pile."
        assert page.locator("#auto-area").inner_text() == "Put down automatically"
    finally:
        ctx.close()


def test_the_lobby_shows_the_table_s_options(browser, slap_server):
    ctx, page = open_page(browser, width=390)
    try:
        _create(page, slap_server, "en", computer=False, marriage=True, slap_in=False)
        page.wait_for_selector("#seat-list li")
        rules = page.locator("#slap-rules")
        assert rules.is_visible()
        assert rules.inner_text() == ("Slap: double, sandwich, marriage (a king and a queen). "
                                      "A wrong slap burns 1 card. "
                                      "No slapping in: a player with no cards is out.")
        _shot(page, "lobby_390")
    finally:
        ctx.close()


def test_slapjack_offers_only_its_own_options(browser, slap_server):
    ctx, page = open_page(browser)
    try:
        page.goto(f"{slap_server}/en/slapjack")
        form = page.locator("form.start-form")
        assert form.locator('input[name="sandwich"]').count() == 0
        assert form.locator('input[name="slap_in"]').is_checked()
        _create(page, slap_server, "en", variant="slapjack")
        page.wait_for_selector("button#slap-pile")
        assert page.locator("#slap-rules").inner_text() == (
            "Slap: a jack on top. A wrong slap gives a card to the player of the top card. "
            "Slapping in: a player with no cards may still slap.")
        # 2C, the computer's 2D (nothing in Slapjack), then our JC: a jack on top while
        # it is the computer's turn, and we slap it all the same
        page.keyboard.press("Space")
        page.wait_for_function(
            "document.querySelectorAll('#slap-pile .slap-pile__card').length === 2 && "
            "document.getElementById('my-pile').getAttribute('aria-disabled') === 'false'")
        page.keyboard.press("Space")
        page.wait_for_function(
            "document.querySelector('#slap-pile .slap-pile__card:last-child')?.dataset.card"
            " === 'JC'")
        assert page.locator("#my-pile").get_attribute("aria-disabled") == "true"  # not ours
        page.keyboard.press("s")
        page.wait_for_function(
            "/slapped the jack first|Too late/.test("
            "document.getElementById('slap-line').textContent)")
        assert re.match(r"(You|Computer 2) slapped the jack first: \d+\u00a0ms|Too late",
                        _line(page)), _line(page)
    finally:
        ctx.close()


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_four_players_fit_and_reduced_motion_keeps_the_pile_still(browser, slap_server,
                                                                   width, height):
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-US",
                              reduced_motion="reduce")
    page = ctx.new_page()
    try:
        page.goto(f"{slap_server}/en/egyptian-ratscrew")
        form = page.locator("form.start-form")
        form.locator('input[name="players"][value="4"]').check()
        for seat in (1, 2, 3):
            form.locator(f'select[name="seat{seat}"]').select_option("computer")
        form.locator('input[name="nickname"]').fill("Ann")
        form.locator('button[type="submit"]').click()
        page.wait_for_selector("button#slap-pile")
        page.keyboard.press("s")  # nothing on the table yet: said, no penalty
        page.wait_for_function("document.getElementById('slap-line').textContent.length > 0")
        _in_view(page, "#slap-pile")
        _in_view(page, "#slap-line")
        _in_view(page, "#my-pile")
        for seat in range(4):
            _in_view(page, f".tseat[data-seat='{seat}'] .tseat__name")
        # with reduced motion the slapped pile does not move
        assert page.evaluate(
            "document.getElementById('slap-pile').getAnimations({subtree: true}).length") == 0
        _shot(page, f"four_{width}")
    finally:
        ctx.close()


#: JavaScript: after every drawing of the table, the boxes of our pile and of the pile
#: in the middle and the line shown, kept in window.__boxes
BOXES = """() => {
  window.__boxes = [];
  let queued = false;
  const box = (id) => { const r = document.getElementById(id).getBoundingClientRect();
    return [Math.round(r.x), Math.round(r.y), Math.round(r.width), Math.round(r.height)]; };
  const take = () => {
    queued = false;
    const line = document.getElementById('slap-line');
    if (!line || !document.getElementById('my-pile')) return;
    window.__boxes.push({mine: box('my-pile'), middle: box('slap-pile'),
      line: line.textContent, lineH: line.getBoundingClientRect().height,
      status: document.getElementById('game').dataset.status});
  };
  new MutationObserver(() => { if (!queued) { queued = true; requestAnimationFrame(take); } })
    .observe(document.querySelector('.felt'),
             {childList: true, subtree: true, characterData: true});
  take();
}"""


@pytest.mark.parametrize(("width", "height", "touch"), [(390, 844, True), (1280, 800, False)])
def test_the_piles_stay_put_while_lines_come_and_go(browser, slap_server, width, height, touch):
    """Our pile and the pile in the middle keep their place and size while cards are put
    down, slaps won and lost, and the line under the pile comes, wraps and goes."""
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-US",
                              has_touch=touch, is_mobile=touch, reduced_motion="reduce")
    page = ctx.new_page()
    try:
        _create(page, slap_server, "en")
        page.wait_for_selector("button#slap-pile")
        page.evaluate(BOXES)
        for i in range(36):
            if page.locator("#game").get_attribute("data-status") == "over":
                break
            if i % 5 == 2 and page.locator("button#slap-pile").count():
                _slap(page, not touch)  # right or wrong: a line either way
            elif page.locator("#my-pile[aria-disabled='false']").count():
                _put_down(page, not touch)
            page.wait_for_timeout(150)
            if i in (3, 12):
                MY_SHOTS.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(MY_SHOTS / f"still_{width}_{i}.png"))
        boxes = [b for b in page.evaluate("window.__boxes") if b["status"] == "playing"]
        lines = {b["line"] for b in boxes}
        # a line came and went (how many different ones is up to the deal and the
        # computer's timing: on a 1280 screen CI once saw only one)
        assert "" in lines, lines
        assert len(lines) >= 2, lines
        assert {b["lineH"] for b in boxes} == {boxes[0]["lineH"]}
        assert len(boxes) >= 10
        x, y, w, h = boxes[0]["mine"]
        assert y + h <= height, boxes[0]  # our pile, its word and key included, in view
        for b in boxes:  # top and height to the pixel; the middle within a pixel or two
            for pile in ("mine", "middle"):  # (the pile's size in words is not as wide as 12)
                x, y, w, h = b[pile]
                x0, y0, w0, h0 = boxes[0][pile]
                assert (y, h) == (y0, h0) and abs(x + w / 2 - x0 - w0 / 2) <= 2, \
                    (pile, b, boxes[0])
    finally:
        ctx.close()
