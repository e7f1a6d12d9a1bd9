"""The site in real Chromium: keyboard, language switcher, axe-core, layout."""

from __future__ import annotations

import json
from urllib.parse import urlparse

import pytest

from cardwar.web.i18n import LOCALES

pytestmark = pytest.mark.browser

PAGES = ("", "peace", "war", "beggar-my-neighbour", "beggar-my-neighbour/records",
         "egyptian-ratscrew", "slapjack")


def test_skip_link_moves_focus_to_main_content(page, live_server):
    page.goto(f"{live_server}/en/peace")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent.trim()")
    assert focused == "Skip to main content"
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "the focused skip link shows no focus ring"
    assert page.evaluate("document.activeElement.getBoundingClientRect().top") >= 0
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'main'")
    page.keyboard.press("Tab")
    inside = page.evaluate("document.getElementById('main').contains(document.activeElement)")
    assert inside, "the next Tab should land inside the main content"


def test_language_switcher_keeps_the_page(page, live_server):
    page.goto(f"{live_server}/en/war")
    page.locator("details.lang summary").click()
    page.get_by_role("link", name="Deutsch").click()
    page.wait_for_url(f"{live_server}/de/war")
    assert page.evaluate("document.documentElement.lang") == "de"
    page.locator("details.lang summary").click()
    page.get_by_role("link", name="Čeština").click()
    page.wait_for_url(f"{live_server}/cs/war")
    assert page.locator("h1").inner_text() == "Válka"


def test_language_switcher_works_by_keyboard(page, live_server):
    page.goto(f"{live_server}/it/peace")
    page.locator("details.lang summary").focus()
    page.keyboard.press("Enter")
    link = page.get_by_role("link", name="Polski")
    link.focus()
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live_server}/pl/peace")
    page.goto(f"{live_server}/pl/peace")
    page.locator("details.lang summary").click()
    page.keyboard.press("Escape")
    assert page.evaluate("document.querySelector('details.lang').open") is False


#: axe-core's run, in the page (axe injected by the context's init script):
#: the violations found by the rules ``only`` (every rule axe runs by default
#: when null), leaving out the rules ``skip``
AXE_RUN = """async ([only, skip]) => {
    const options = {resultTypes: ['violations']};
    if (only) options.runOnly = {type: 'rule', values: only};
    if (skip) options.rules = Object.fromEntries(skip.map(id => [id, {enabled: false}]));
    const r = await axe.run(document, options);
    return JSON.stringify(r.violations.map(v => ({
        id: v.id, impact: v.impact,
        nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ')),
    })));
}"""

#: The rules whose findings the colour scheme can change: the dark scheme only
#: swaps the colours (custom properties under prefers-color-scheme), so it is
#: checked against these alone.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
#: The languages whose pages are checked against the colour rules too, in both
#: schemes. The colours are the stylesheet's, the same in every language; the
#: colour rules cost two thirds of axe's time, so they run on English and on
#: German (the longest words, the likeliest to wrap onto another background),
#: and every other rule on every language.
COLOUR_LOCALES = ("en", "de")


def _axe(page, only: list[str] | None, skip: list[str] | None = None) -> list[dict]:
    found = json.loads(page.evaluate(AXE_RUN, [only, skip]))
    return [v for v in found if v["impact"] in ("serious", "critical")]


def _axe_pages(browser, base: str, axe_source, paths: list[str], scheme: str,
               only: list[str] | None, skip: list[str] | None) -> dict[str, list[dict]]:
    """axe's serious findings on each of ``paths``, in one context whose init
    script injects axe-core once into every page it loads."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=scheme)
    context.add_init_script(path=str(axe_source))
    page = context.new_page()
    found = {}
    try:
        for path in paths:
            page.goto(base + path)
            violations = _axe(page, only, skip)
            if violations:
                found[path] = violations
    finally:
        context.close()
    return found


def _paths(where: str) -> list[str]:
    return ["/xx/nothing"] if where == "404" else [f"/{where}/{name}" for name in PAGES]


# One test per language (and one for the 404 page), so that the browser tests'
# workers share them.
@pytest.mark.parametrize("where", [*LOCALES, "404"])
def test_axe_finds_no_serious_violation_anywhere(browser, live_server, axe_source, where):
    skip = None if where in (*COLOUR_LOCALES, "404") else COLOUR_RULES
    found = _axe_pages(browser, live_server, axe_source, _paths(where), "light", None, skip)
    assert not found, json.dumps(found, indent=1)


@pytest.mark.parametrize("where", [*COLOUR_LOCALES, "404"])
def test_axe_finds_the_dark_scheme_readable(browser, live_server, axe_source, where):
    found = _axe_pages(browser, live_server, axe_source, _paths(where), "dark", COLOUR_RULES, None)
    assert not found, json.dumps(found, indent=1)


@pytest.mark.parametrize("locale", LOCALES)  # one test per language: the workers share them
def test_pages_fit_360px_and_make_no_external_request(browser, live_server, locale):
    context = browser.new_context(viewport={"width": 360, "height": 740}, color_scheme="dark")
    page = context.new_page()
    hosts: set[str] = set()
    page.on("request", lambda request: hosts.add(urlparse(request.url).netloc))
    wide = {}
    try:
        for name in PAGES:
            page.goto(f"{live_server}/{locale}/{name}")
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 360:
                wide[f"/{locale}/{name}"] = width
    finally:
        context.close()
    assert not wide, f"horizontal scrolling at 360px: {wide}"
    assert hosts == {urlparse(live_server).netloc}, f"requests to {hosts}"


def test_reduced_motion_disables_transitions(browser, live_server):
    context = browser.new_context(reduced_motion="reduce")
    page = context.new_page()
    try:
        page.goto(f"{live_server}/en/")
        duration = page.evaluate(
            "getComputedStyle(document.querySelector('.button')).transitionDuration"
        )
    finally:
        context.close()
    assert duration in ("0s", "")
