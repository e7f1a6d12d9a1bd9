"""A table people come back to, in real Chromium: reactions, sound, sharing the
result, link previews, open tables, and installing the site as an app."""

from __future__ import annotations

import re
import tempfile

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from .conftest import CHROMIUM, CHROMIUM_ARGS
from .helpers import (
    battles,
    create_game,
    flip_piles,
    game_ended,
    next_battle_or_end,
    open_page,
    start_play_server,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

#: Counts what the page's sound does: audio contexts made, notes started.
AUDIO_SPY = """
(() => {
  window.__audio = {contexts: 0, notes: 0};
  const Real = window.AudioContext;
  if (!Real) return;
  window.AudioContext = class extends Real {
    constructor(...args) { super(...args); window.__audio.contexts += 1; }
    createOscillator() { window.__audio.notes += 1; return super.createOscillator(); }
    createBufferSource() { window.__audio.notes += 1; return super.createBufferSource(); }
  };
  let hidden = false;  // a test hides the tab with window.__hide(true)
  Object.defineProperty(document, "visibilityState", {get: () => hidden ? "hidden" : "visible"});
  window.__hide = (on) => { hidden = on; };
})();
"""
#: A phone's share sheet: remembers what it was asked to share.
SHARE_SHEET = """
navigator.share = (data) => { window.__shared = data; return Promise.resolve(); };
"""


@pytest.fixture(scope="module")
def social_server(server_factory, tmp_path_factory) -> str:
    return start_play_server(server_factory, tmp_path_factory, "social")


def _audio(page) -> dict:
    return page.evaluate("window.__audio")


def _axe_all(page, axe_source, include: list[str]) -> list[dict]:
    """Every axe violation (any impact) inside the ``include`` selectors."""
    page.add_script_tag(path=str(axe_source))
    return page.evaluate(
        """async (include) => {
            const r = await axe.run({include: include.map((s) => [s])},
                                    {resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact,
                nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
        }""", include)


def _preview(page) -> dict[str, str]:
    return page.evaluate("""() => Object.fromEntries([...document.querySelectorAll(
        'meta[property^="og:"], meta[name^="twitter:"]')].map(
        (m) => [m.getAttribute('property') || m.getAttribute('name'), m.content]))""")


def test_reactions_sound_previews_and_sharing_the_result(browser, social_server, axe_source):
    ctx_a, ann = open_page(browser)
    ctx_a.grant_permissions(["clipboard-read", "clipboard-write"], origin=social_server)
    ctx_b, bob = open_page(browser, locale="de-DE", width=360)
    ctx_c, cleo = open_page(browser, locale="it-IT")
    for ctx in (ctx_a, ctx_b, ctx_c):
        ctx.add_init_script(AUDIO_SPY)
    ctx_b.add_init_script(SHARE_SHEET)
    try:
        url = create_game(ann, social_server, nickname="Ann")
        gid = url.rsplit("/", 1)[1]
        bob.goto(f"{social_server}/g/{gid}")
        bob.wait_for_url(re.compile(r".*/de/g/"))
        # the link's preview: the creator's language and name, no seat secret
        tags = _preview(bob)
        assert tags["og:title"] == "Ann invites you to a game of Peace — 1 seat free"
        assert tags["og:url"] == f"{social_server}/g/{gid}"
        assert tags["og:image"].startswith(f"{social_server}/static/og/peace.png?v=")
        bob.locator("#nickname").fill("Bob")
        bob.locator("form.join-form button[type=submit]").click()
        bob.wait_for_selector("#seat-list li[data-seat='1'] .tag")
        secrets = [c["value"] for ctx in (ctx_a, ctx_b) for c in ctx.cookies()
                   if c["name"] == f"cw_{gid}"]
        assert len(secrets) == 2
        for page in (ann, bob):
            page.reload()
            page.wait_for_selector("#seat-list li[data-seat='1'] .seat-list__name")
            tags = _preview(page)
            assert not any(s in str(tags) for s in secrets) and "Bob" not in str(tags)
        cleo.goto(url.replace("/en/", "/it/"))  # a spectator
        cleo.wait_for_selector("#reaction-buttons button")

        # a reaction: sent as a key, worded in each viewer's language, by the seat
        ann.get_by_role("button", name="Good game").click()
        expect(bob.locator("#seat-list li[data-seat='0'] .reaction")).to_have_text(
            "Gutes Spiel", use_inner_text=True)
        cleo.wait_for_selector("#seat-list li[data-seat='0'] .reaction")
        assert cleo.locator("#seat-list li[data-seat='0'] .reaction").inner_text() == \
            "Bella partita"
        # a spectator's, shown apart from the players'
        cleo.get_by_role("button", name="Applausi").click()
        ann.wait_for_selector("#spectator-reactions .reaction")
        assert ann.locator("#spectator-reactions").inner_text().startswith("Spectators:")
        # named for screen readers: the emoji's label, or its words where the machine
        # has no emoji font (issue 22)
        shown = ann.locator("#spectator-reactions .reaction")
        assert (shown.get_attribute("aria-label") or shown.inner_text()) == "Applause"
        # too many at once: refused, and said so
        for _ in range(3):
            ann.get_by_role("button", name="One more?").click()
        expect(ann.locator("#reaction-note")).to_contain_text("Not so fast")
        # Bob hides the others' reactions: remembered
        bob.get_by_label("Reaktionen der anderen ausblenden").check()
        bob.reload()
        bob.wait_for_selector("#reaction-buttons button")
        assert bob.get_by_label("Reaktionen der anderen ausblenden").is_checked()
        cleo.get_by_role("button", name="Wow").click()
        # its emoji, or its words without an emoji font
        ann.wait_for_function("/\U0001F62E|Wow/.test(document.getElementById("
                              "'spectator-reactions').textContent)")
        bob.get_by_role("button", name="Noch eine Runde?").click()  # after Cleo's, in order
        bob.wait_for_selector("#seat-list li[data-seat='1'] .reaction")
        assert bob.locator("#spectator-reactions").is_hidden()
        assert not bob.locator("#seat-list li[data-seat='0'] .reaction").count()

        # sound: Ann switches it off (remembered); nothing plays before a click
        ann.get_by_label("Sound").uncheck()
        ann.reload()
        ann.wait_for_selector("#reaction-buttons button")
        assert not ann.get_by_label("Sound").is_checked()
        assert bob.get_by_label("Ton").is_checked()
        cleo.reload()  # from now on Cleo only watches: no click, no key
        cleo.wait_for_selector("#reaction-buttons button")
        ann.locator("#start-game").click()
        expect(bob.locator("#table")).to_be_visible()
        expect(cleo.locator("#table")).to_be_visible()
        bob.locator("#my-pile").click()  # Bob's first click: his sound wakes up
        ann.locator("#my-pile").click()
        bob.wait_for_function("+document.getElementById('table').dataset.battle >= 1")
        cleo.wait_for_function("+document.getElementById('table').dataset.battle >= 1")
        assert _audio(bob)["contexts"] == 1 and _audio(bob)["notes"] > 0
        assert _audio(cleo) == {"contexts": 0, "notes": 0}  # never clicked since loading
        assert _audio(ann)["notes"] == 0  # switched off
        bob.evaluate("window.__hide(true)")  # a background tab plays nothing
        heard = _audio(bob)["notes"]
        before = battles(bob)
        bob.locator("#my-pile").click()
        ann.locator("#my-pile").click()
        bob.wait_for_function(f"+document.getElementById('table').dataset.battle > {before}")
        assert _audio(bob)["notes"] == heard
        bob.evaluate("window.__hide(false)")

        for _ in range(12):
            if game_ended(ann):
                break
            before = battles(ann)
            flip_piles(ann, bob)
            next_battle_or_end(ann, before)
        expect(ann.locator("#end")).to_be_visible()
        expect(bob.locator("#end")).to_be_visible()
        n = battles(ann)

        # sharing the result: the clipboard (no share sheet here), then a share sheet
        ann.get_by_role("button", name="Share the result").click()
        expect(ann.locator("#share-note")).not_to_be_empty()
        copied = ann.evaluate("navigator.clipboard.readText()")
        replay = f"{social_server}/g/{gid}/replay"
        winner = "Ann" if "Ann wins" in ann.locator("#end").inner_text() else "Bob"
        said = (f"I won a game of Peace on cardwar in {n} battles!" if winner == "Ann"
                else f"Bob won a game of Peace on cardwar in {n} battles.")
        assert copied == f"{said} Watch the replay: {replay}"
        assert ann.locator("#share-note").inner_text().startswith("Copied: ")
        bob.get_by_role("button", name="Ergebnis teilen").click()
        shared = bob.evaluate("window.__shared")
        assert shared["url"] == replay
        assert shared["text"].startswith(
            f"Ich habe eine Partie Frieden auf cardwar in {n} Schlachten gewonnen!"
            if winner == "Bob" else f"Ann hat eine Partie Frieden auf cardwar in {n} Schlachten")
        assert _axe_all(bob, axe_source, ["#reactions", "#end"]) == []
        assert _axe_all(cleo, axe_source, ["#reactions"]) == []
    finally:
        for ctx in (ctx_a, ctx_b, ctx_c):
            ctx.close()


def test_a_public_table_is_listed_joined_and_gone(browser, social_server, axe_source):
    ctx_a, ana = open_page(browser, locale="es-ES")
    ctx_c, carl = open_page(browser, locale="cs-CZ")
    ctx_d, dora = open_page(browser)
    try:
        carl.goto(f"{social_server}/cs/tables")
        dora.goto(f"{social_server}/en/tables")
        for page in (carl, dora):
            page.wait_for_function(
                "!document.getElementById('open-count').textContent.includes('…')")
        ana.goto(f"{social_server}/es/war")
        form = ana.locator("form.start-form")
        form.locator('input[name="nickname"]').fill("Ana")
        form.locator('button[type="submit"]').click()  # not listed: never appears
        ana.wait_for_url(re.compile(r".*/es/g/"))
        hidden = ana.url.rsplit("/", 1)[1]
        ana.goto(f"{social_server}/es/peace")
        form = ana.locator("form.start-form")
        form.locator('input[name="players"][value="3"]').check()
        form.get_by_label("Mostrar esta mesa públicamente").check()
        form.locator('input[name="nickname"]').fill("Ana")
        form.locator('button[type="submit"]').click()
        ana.wait_for_url(re.compile(r".*/es/g/"))
        gid = ana.url.rsplit("/", 1)[1]
        # listed live, in each viewer's language
        row = carl.locator(f"li[data-game='{gid}']")
        row.wait_for()
        assert "Mír" in row.inner_text() and "Español" in row.inner_text()
        assert "2 volná místa" in row.inner_text()
        dora.locator(f"li[data-game='{gid}']").wait_for()
        assert dora.locator("#open-count").inner_text() == "1 open table"
        assert carl.locator(f"li[data-game='{hidden}']").count() == 0
        assert _axe_all(carl, axe_source, ["main"]) == []
        # Carl joins through the usual game page; the table fills up with Dora
        carl.get_by_role("link", name="Přidat se ke hře: Mír (Español)").click()
        carl.wait_for_url(re.compile(rf".*/cs/g/{gid}$"))
        tags = _preview(carl)
        assert tags["og:title"] == "Ana te invita a una partida de Paz — 2 asientos libres"
        carl.locator("#nickname").fill("Carl")
        carl.locator("form.join-form button[type=submit]").click()
        carl.wait_for_selector("#seat-list li[data-seat='1'] .tag")
        dora.wait_for_function(
            f"document.querySelector(\"li[data-game='{gid}'] .open-table__free\")"
            ".textContent === '1 free seat'")
        dora.locator(f"li[data-game='{gid}'] a").click()
        dora.locator("#nickname").fill("Dora")
        dora.locator("form.join-form button[type=submit]").click()
        dora.wait_for_selector("#seat-list li[data-seat='2'] .tag")
        carl.goto(f"{social_server}/cs/tables")
        carl.wait_for_function(
            "document.getElementById('open-count').textContent === "
            "'Právě teď není otevřený žádný stůl.'")
        assert carl.locator(f"li[data-game='{gid}']").count() == 0
    finally:
        for ctx in (ctx_a, ctx_c, ctx_d):
            ctx.close()


def test_the_site_installs_as_an_app_and_works_offline(browser, social_server):
    # a profile on disk: Chromium never offers to install from an incognito one
    with tempfile.TemporaryDirectory() as profile:
        ctx = browser.browser_type.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=CHROMIUM_ARGS, locale="de-DE", bypass_csp=True)
        try:
            page = ctx.new_page()
            page.goto(f"{social_server}/de/")
            page.wait_for_function("""navigator.serviceWorker.getRegistration().then(
                (r) => Boolean(r && r.active && r.active.state === 'activated'))""")
            cdp = ctx.new_cdp_session(page)
            assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
            manifest = cdp.send("Page.getAppManifest")
            assert manifest["errors"] == [] and manifest["url"].endswith("/de/manifest.webmanifest")
            page.wait_for_function("Boolean(navigator.serviceWorker.controller)")  # claimed
            page.goto(f"{social_server}/de/peace")  # (a reload would bypass the worker)
            page.wait_for_function("Boolean(navigator.serviceWorker.controller)")
            ctx.set_offline(True)
            page.goto(f"{social_server}/it/war")
            page.locator("h1", has_text="Sei offline").wait_for()
            # the offline app keeps its manifest (its name and icons)
            assert cdp.send("Page.getAppManifest")["errors"] == []
            assert page.evaluate("""fetch('/it/manifest.webmanifest')
                .then((r) => r.json()).then((m) => m.lang)""") == "it"
            # game pages are never kept: the offline page instead. Chromium sometimes
            # reloads the page it leaves instead of going on (a browser-initiated
            # reload: no script asks for it), so the navigation gets three tries.
            game = f"{social_server}/de/g/AbCdEfGhIjKlMnOp"
            for _ in range(3):
                page.goto(game)
                try:
                    page.locator("h1", has_text="Sie sind offline").wait_for(timeout=5000)
                    break
                except PlaywrightTimeoutError:
                    continue
            assert page.url == game
            assert page.locator("h1").inner_text() == "Sie sind offline"
            ctx.set_offline(False)
            page.get_by_role("button", name="Erneut versuchen").click()
            page.wait_for_selector("h1:has-text('Seite nicht gefunden'), h1")
            assert page.locator("h1").inner_text() != "Sie sind offline"
        finally:
            ctx.close()
