"""The slap games' rules pages in every language (RULES.md 11): the names used,
the patterns drawn as cards, the comparison with Beggar-my-neighbour, fairness,
the simulator's figures, and the start form with the table's options (online play,
issue 27)."""

from __future__ import annotations

import re

import pytest

from cardwar.engine import VARIANTS
from cardwar.web import slap_stats
from cardwar.web.i18n import LOCALES, format_number

from .test_pages import outline

PATHS = {"ers": "egyptian-ratscrew", "slapjack": "slapjack"}
#: The name each language's pages use (French has a traditional one), and a
#: word of the sentence that says which name is used and why.
NAMES = {"fr": ("Bataille corse", "bataille corse")}


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("variant", sorted(PATHS))
def test_the_rules_page(client, locale, variant):
    r = client.get(f"/{locale}/{PATHS[variant]}")
    assert r.status_code == 200
    html = r.text
    o = outline(html)
    assert o.headings[0] == 1
    assert o.headings.count(1) == 1
    name = NAMES.get(locale, ("Egyptian Ratscrew",))[0] if variant == "ers" else "Slapjack"
    assert f"<h1>{name}</h1>" in html
    for section in ("play", "what", "patterns", "changes", "fairness", "history", "details",
                    "length"):
        assert f'id="{section}"' in html, section
        assert f'href="#{section}"' in html or section == "play", section
    assert 'class="rules__name"' in html  # which name the page uses, and why
    # the patterns, each with its little pile of cards
    patterns = re.findall(r'<li class="pattern">(.*?)</li>', html, re.S)
    assert len(patterns) == (1 if variant == "slapjack" else 4)
    assert all(p.count('class="card card--mini"') >= 2 for p in patterns)
    assert "slap.css" in html
    # compared with Beggar-my-neighbour, row by row
    changes = html.split('id="changes"')[1].split("</table>")[0]
    assert changes.count("<tr>") == 7
    assert "Beggar-my-neighbour" in changes
    assert format_number(10_000, locale) in changes
    # fairness: the latency cap and the wait, in the reader's numbers
    fairness = html.split('id="fairness"')[1].split("</section>")[0]
    assert format_number(150, locale) in fairness
    # the start form with the table's options (RULES.md 11.4-11.7), and the hero's Play
    form = html.split('data-testid="start-form"')[1].split("</form>")[0]
    assert 'name="players"' in form
    assert 'name="options" value="1"' in form
    assert 'name="slap_in"' in form
    assert 'name="skill"' in form
    assert ('name="sandwich"' in form) == (variant == "ers")
    assert ('name="burn"' in form) == (variant == "ers")
    assert '<a class="button" href="#play">' in html.split('class="hero__actions"')[1]
    assert "badge--soon" not in html


@pytest.mark.parametrize("locale", LOCALES)
def test_the_length_section_shows_the_simulator_figures(client, locale):
    for variant, path in PATHS.items():
        html = client.get(f"/{locale}/{path}").text.split('id="length"')[1]
        tables = slap_stats.load()["variants"][variant]["tables"]
        even = tables[0]
        assert format_number(even["games"], locale) in html
        assert format_number(even["mean_cards"], locale) in html
        assert format_number(even["median_cards"], locale) in html
        assert html.count("<tr>") >= 1 + 4 + 1 + 11  # shares: 4 rows; histogram: 11 bins
        for t in tables[1:]:
            assert format_number(t["mean_cards"], locale) in html


def test_the_french_page_uses_the_traditional_name(client):
    html = client.get("/fr/egyptian-ratscrew").text
    assert "<h1>Bataille corse</h1>" in html
    assert re.search(r"Qu(&#39;|')est-ce que la bataille corse", html)
    assert "Egyptian Ratscrew" in html  # the name paragraph gives the English name too
    assert "<h1>Slapjack</h1>" in client.get("/fr/slapjack").text


@pytest.mark.parametrize("locale", LOCALES)
def test_home_and_navigation_list_both_games_with_a_play_button(client, locale):
    html = client.get(f"/{locale}/").text
    nav = html.split('class="site-nav"')[1].split("</nav>")[0]
    cards = html.split('class="game-cards"')[1]
    for path in PATHS.values():
        assert f'href="/{locale}/{path}"' in nav
        assert f'href="/{locale}/{path}"' in cards
        assert cards.count(f'href="/{locale}/{path}#play"') == 1, path
    assert "badge--soon" not in html
    # the hero's buttons stay the battle games'
    hero = html.split('class="hero__actions')[1].split("</p>")[0]
    for path in ("peace", "war"):
        assert hero.count(f'href="/{locale}/{path}#play"') == 1, path


def test_a_slap_game_is_created_online_with_its_options(client):
    """The start form's fields make a table with those options; an option Slapjack
    does not have is refused with a 400, as the command line refuses it."""
    def create(variant: str, **fields: str) -> int:
        r = client.post("/en/play", data={"variant": variant, "players": "2",
                                          "nickname": "Ann", **fields},
                        headers={"Origin": "http://testserver"}, follow_redirects=False)
        return r.status_code

    for variant in PATHS:
        assert VARIANTS[variant].online
        assert create(variant) == 303, variant
    assert create("ers", options="1", sandwich="on", marriage="on", burn="2") == 303
    assert create("slapjack", options="1", marriage="on") == 400
    assert create("ers", options="1", burn="3") == 400
    r = client.get("/en/play?variant=ers", follow_redirects=False)
    assert r.headers["location"] == "/en/egyptian-ratscrew#play"


def test_the_statistics_file_matches_the_engine():
    """slap_stats.json: every table, its shares within their intervals, and the first
    games of each table replayed give figures the file's intervals hold."""
    data = slap_stats.load()
    assert data["games"] >= 10_000
    for variant in slap_stats.VARIANTS:
        tables = data["variants"][variant]["tables"]
        assert [t["key"] for t in tables] == list(slap_stats.TABLES)
        for t in tables:
            assert t["games"] == data["games"] == sum(b["games"] for b in t["bins"])
            assert t["ci"][0] <= t["share"] <= t["ci"][1]
            assert t["draws"] <= t["games"]
            assert t["median_cards"] <= 10_000
        quick = tables[1:]  # the quicker computer wins most games
        assert all(t["share"] > 0.5 for t in quick)
        fresh = slap_stats.table(variant, "sharp-normal", 60, data["seed"])
        assert abs(fresh["share"] - tables[1]["share"]) < 0.15
        assert fresh["bins"][0]["from"] == 0
