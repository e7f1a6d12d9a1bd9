"""Issue 22 in real Chromium: the card table's layout, measured.

At the phone size (390x844) and the desktop size (1280x900), for 2, 3 and 4
players with a human in every seat (one page per seat, so one game covers every
table seat), the bounding box of every seat's card turned up and of the
player's own pile lies inside the viewport after each battle, without
scrolling; the player's seat is at the bottom of the table; the header is short
on a phone; the end screen's result line and Rematch button are in view. In
Beggar-my-neighbour the table's cards and "must pay" are in view too.
Screenshots of each page go under test-results/layout/ (look at them). The
pages prefer reduced motion, so that the pot stays on the table while measured.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .helpers import ENDED, create_game, join_game, start_play_server

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SIZES = {"phone": (390, 844), "desktop": (1280, 900)}
SHOTS = Path(__file__).resolve().parents[2] / "test-results" / "layout"
NAMES = ["Ann", "Bea", "Cleo", "Dora"]

#: JavaScript: what lies outside the viewport (or is missing), of every seat's card
#: turned up in the last battle and of our own pile; [] when all is in view
OUT_OF_VIEW = """(want) => {
  const out = [];
  const inside = (e, what) => {
    if (!e) { out.push(what + ": missing"); return; }
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.left < 0 || r.top < 0
        || r.right > innerWidth || r.bottom > innerHeight) {
      out.push(what + ": " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(","));
    }
  };
  for (const s of want) {
    inside(document.querySelector(`.tseat[data-seat="${s}"] .tplay .pcard`), "card of seat " + s);
  }
  inside(document.querySelector(".tseat--you .pile"), "our pile");
  // the winner's "+N" lies within the felt, not cut by its edge
  const felt = document.getElementById("felt"), fr = felt.getBoundingClientRect();
  document.querySelectorAll(".tseat__took").forEach((t) => {
    const r = t.getBoundingClientRect();
    if (r.top < fr.top + felt.clientTop || r.right > fr.right - felt.clientLeft
        || r.left < fr.left + felt.clientLeft) out.push("+N cut by the felt's edge");
  });
  // every seat's name, inside the view and clear of the others' (ellipsis, not overlap)
  const names = Array.from(document.querySelectorAll(".tseat__name"));
  names.forEach((e, i) => {
    inside(e, "name " + i);
    const a = e.getBoundingClientRect();
    names.slice(i + 1).forEach((f, j) => {
      const b = f.getBoundingClientRect();
      if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) {
        out.push("names " + i + " and " + (i + j + 1) + " overlap");
      }
    });
  });
  // nothing drawn over a seat's name and tags: no card, no "+N" (of any seat)
  const over = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
    && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const heads = Array.from(document.querySelectorAll(".tseat__head > *"))
    .filter((e) => e.offsetWidth);
  const drawn = Array.from(document.querySelectorAll(".tplay .pcard, .tseat__took"));
  for (const d of drawn) {
    const a = d.getBoundingClientRect();
    for (const h of heads) {
      if (over(a, h.getBoundingClientRect())) {
        out.push((d.className.includes("took") ? "+N" : "a card") + " of seat "
          + d.closest(".tseat").dataset.seat + " over '" + h.textContent + "' of seat "
          + h.closest(".tseat").dataset.seat);
      }
    }
  }
  if (scrollY !== 0) out.push("scrolled by " + scrollY);
  return out;
}"""


@pytest.fixture(scope="module")
def layout_server(server_factory, tmp_path_factory) -> str:
    return start_play_server(server_factory, tmp_path_factory, "layout")


def _seat_pages(browser, base: str, size: str, players: int, variant: str = "peace",
                names: list[str] | None = None):
    """A game of ``players`` humans, one page each, started: (contexts, pages by table
    seat). The stacked deck has no seed: the table seats are the lobby's."""
    width, height = SIZES[size]
    # reduced motion: the pot stays on the table (greyed) once taken, so every
    # page can be measured with the battle's cards in place
    contexts = [browser.new_context(viewport={"width": width, "height": height}, locale="en-US",
                                    reduced_motion="reduce") for _ in range(players)]
    pages = [c.new_page() for c in contexts]
    if variant == "beggar":  # two players only: no choice of how many
        pages[0].goto(f"{base}/en/beggar-my-neighbour")
        form = pages[0].locator("form.start-form")
        form.locator('input[name="nickname"]').fill(NAMES[0])
        form.locator('button[type="submit"]').click()
        pages[0].wait_for_selector("#seat-list li")
        url = pages[0].url
    else:
        url = create_game(pages[0], base, variant=variant, players=players,
                          seats={n: "friend" for n in range(1, players)},
                          nickname=(names or NAMES)[0])
    for n in range(1, players):
        join_game(pages[n], url, (names or NAMES)[n])
    pages[0].wait_for_function(
        f"document.querySelectorAll('#seat-list .seat-list__name:not(.seat-list__name--open)')"
        f".length === {players}")
    pages[0].locator("#start-game").click()
    for page in pages:
        page.wait_for_selector("#table:not([hidden]) .tseat--you")
    return contexts, pages


def _check_view(page, want: list[int], shot: str) -> None:
    out = page.evaluate(OUT_OF_VIEW, want)
    page.screenshot(path=str(SHOTS / f"{shot}.png"))
    assert out == [], (shot, out)


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_seat_sees_every_card_and_its_pile(browser, layout_server, size, players):
    SHOTS.mkdir(parents=True, exist_ok=True)
    contexts, pages = _seat_pages(browser, layout_server, size, players)
    try:
        for seat, page in enumerate(pages):
            assert page.locator(".tseat--you").get_attribute("data-seat") == str(seat)
            assert page.locator(".tseat--you").get_attribute("data-pos") == "bottom"
            you = page.locator(".tseat--you").bounding_box()
            for other in page.locator(".tseat:not(.tseat--you)").all():
                assert other.bounding_box()["y"] < you["y"], "our seat is at the bottom"
            if size == "phone":
                assert page.locator(".site-header").bounding_box()["height"] <= 64
        # the stacked deal: everyone plays battle 1 (seats 2 and 3 go out in it),
        # seats 0 and 1 battle 2, a peace that ends the game
        for battle, want in ((1, list(range(players))), (2, [0, 1])):
            for page in pages:
                if page.locator("#my-pile[aria-disabled='false']").count():
                    page.locator("#my-pile").click()
            for seat, page in enumerate(pages):
                page.wait_for_function(
                    f"document.getElementById('table').dataset.battle >= {battle}")
                _check_view(page, want, f"{size}-{players}p-seat{seat}-battle{battle}")
        for seat, page in enumerate(pages):
            expect(page.locator("#end")).to_be_visible(timeout=20_000)
            page.wait_for_function(ENDED)
            title = page.locator("#end-title")
            assert title.inner_text() == ("You won!" if seat == 0 else "You lost")
            expect(page.locator("#rematch-button")).to_be_visible()
            for what in (title, page.locator(".end__result"), page.locator("#rematch-button")):
                box = what.bounding_box()
                assert box and box["y"] >= 0 and box["y"] + box["height"] <= SIZES[size][1], what
            page.screenshot(path=str(SHOTS / f"{size}-{players}p-seat{seat}-end.png"))
    finally:
        for c in contexts:
            c.close()


#: JavaScript: the boxes (rounded) that the end screen lies over, of the table's
#: result line, our seat and every card on the table
UNDER_THE_END = """() => {
  const end = document.getElementById("end").getBoundingClientRect();
  return Array.from(document.querySelectorAll(".table__summary, .tseat--you, .tplay .pcard"))
    .map((e) => [e.className, e.getBoundingClientRect()])
    .filter(([, r]) => r.height > 0 && r.top < end.bottom && end.top < r.bottom
      && r.left < end.right && end.left < r.right)
    .map(([name, r]) => name + " " + [r.left, r.top, r.right, r.bottom].map(Math.round));
}"""


def test_the_end_screen_folds_away_to_show_the_table_on_a_phone(browser, layout_server):
    """On a phone the end screen covers the foot of the table (our seat, the last
    cards, the result line): "See the table" folds it to a bar that covers none
    of them and keeps the rematch; "See the result" opens it again; Escape folds it."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    contexts, pages = _seat_pages(browser, layout_server, "phone", 2)
    try:
        page = pages[0]
        for battle in (1, 2):  # the stacked deal ends in battle 2
            for p in pages:
                p.locator("#my-pile[aria-disabled='false']").click()
            page.wait_for_function(f"document.getElementById('table').dataset.battle >= {battle}")
        expect(page.locator("#end")).to_be_visible(timeout=20_000)
        page.wait_for_function(ENDED)
        assert page.evaluate(UNDER_THE_END), "open, the end screen lies over the table's foot"
        fold = page.locator("#end-fold")
        assert (fold.inner_text(), fold.get_attribute("aria-expanded")) == ("See the table", "true")
        fold.click()
        expect(page.locator("#end")).to_have_class(re.compile(r"\bend--folded\b"))
        page.screenshot(path=str(SHOTS / "phone-2p-end-folded.png"))
        bar = page.locator("#end").bounding_box()
        assert bar["height"] <= 110, bar  # one row, or two in a long language
        assert bar["y"] + bar["height"] <= SIZES["phone"][1], bar
        assert page.evaluate(UNDER_THE_END) == []
        expect(page.locator("#rematch-button")).to_be_visible()
        expect(page.locator(".end__placings-title")).to_be_hidden()
        assert (fold.inner_text(), fold.get_attribute("aria-expanded")) == ("See the result",
                                                                            "false")
        fold.click()
        expect(page.locator(".end__placings-title")).to_be_visible()
        title = page.locator("#end-title").bounding_box()
        assert title["y"] >= 0 and title["y"] + title["height"] <= SIZES["phone"][1], title
        page.locator(".scorebar").click()  # the focus leaves the end screen: Escape still folds it
        page.keyboard.press("Escape")
        expect(page.locator("#end")).to_have_class(re.compile(r"\bend--folded\b"))
        expect(page.locator("#end-fold")).to_be_focused()
        # a state drawn again (the other player offers a rematch) keeps it folded
        pages[1].locator("#rematch-button").click()
        expect(page.locator("#rematch-offer")).to_have_count(1)
        expect(page.locator("#rematch-button")).to_have_text("Join the rematch", timeout=10_000)
        expect(page.locator("#end")).to_have_class(re.compile(r"\bend--folded\b"))
    finally:
        for c in contexts:
            c.close()


def test_beggar_on_a_phone_keeps_the_table_and_what_is_owed_in_view(browser, layout_server):
    SHOTS.mkdir(parents=True, exist_ok=True)
    contexts, pages = _seat_pages(browser, layout_server, "phone", 2, variant="beggar")
    try:
        for seat, page in enumerate(pages):
            out = page.evaluate("""() => ["#turn-pile", "#turn-owed", ".tseat--you .pile"]
                .map((q) => [q, document.querySelector(q).getBoundingClientRect()])
                .filter(([, r]) => r.top < 0 || r.bottom > innerHeight || r.height === 0)
                .map(([q]) => q)""")
            page.screenshot(path=str(SHOTS / f"phone-beggar-seat{seat}.png"))
            assert out == [], (seat, out)
    finally:
        for c in contexts:
            c.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_home_shows_play_buttons_and_the_phone_folds_its_navigation(browser, live_server, size):
    SHOTS.mkdir(parents=True, exist_ok=True)
    width, height = SIZES[size]
    ctx = browser.new_context(viewport={"width": width, "height": height}, locale="en-US")
    try:
        page = ctx.new_page()
        page.goto(f"{live_server}/en/")
        play = page.locator(".hero__actions .button").first
        assert play.inner_text() == "Play Peace"
        box = play.bounding_box()
        assert box and box["y"] + box["height"] <= height, "a Play button in the first screen"
        header = page.locator(".site-header").bounding_box()["height"]
        nav = page.locator(".site-nav a", has_text="War").first
        if size == "phone":
            assert header <= 64, header
            assert nav.is_hidden()
            page.locator(".nav-toggle").click()
            assert page.locator(".nav-toggle").get_attribute("aria-expanded") == "true"
            assert nav.is_visible()
        else:
            assert page.locator(".nav-toggle").is_hidden() and nav.is_visible()
        page.screenshot(path=str(SHOTS / f"{size}-home.png"))
    finally:
        ctx.close()


def test_long_names_at_a_phone_table_of_four_keep_to_their_seats(browser, layout_server):
    """Issue 22: four long nicknames on a phone are cut with an ellipsis in their own
    seat, none runs into another or out of the view."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    long = ["Annabelle Longbottom", "Bartholomew Smithers", "Cleopatra Wintergreen",
            "Dorothea Featherstone"]
    contexts, pages = _seat_pages(browser, layout_server, "phone", 4, names=long)
    try:
        for seat, page in enumerate(pages):
            _check_view(page, [], f"phone-4p-long-names-seat{seat}")
    finally:
        for c in contexts:
            c.close()


@pytest.mark.parametrize("locale", ["pl-PL", "de-DE"])
def test_the_controls_fit_a_phone_in_long_languages(browser, layout_server, locale):
    """Issue 22: against the computer on a 390x844 phone, in Polish and German, every
    control under the table (switches, pace, Finish, Leave) lies in the view."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale=locale,
                              reduced_motion="reduce")
    page = ctx.new_page()
    try:
        url = create_game(page, layout_server, players=2, seats={1: "computer"}, nickname="Ann")
        page.goto(url.replace("/en/g/", f"/{locale[:2]}/g/"))
        page.wait_for_selector("#table:not([hidden]) .tseat--you")
        out = page.evaluate("""() => Array.from(document.querySelectorAll(
            '#controls input, #controls select, #controls button, #controls label'))
          .filter((e) => e.getClientRects().length)
          .map((e) => [e.id || e.textContent.trim(), e.getBoundingClientRect()])
          .filter(([, r]) => r.top < 0 || r.bottom > innerHeight || r.right > innerWidth)
          .map(([n, r]) => n + ": " + Math.round(r.bottom))""")
        page.screenshot(path=str(SHOTS / f"phone-controls-{locale}.png"))
        assert out == [], out
    finally:
        ctx.close()
