"""Beggar-my-neighbour's pages in every language: the rules page (its own
comparison table and statistics), the records page (the engine's counts of
the published deals) and each record deal in the replay viewer."""

from __future__ import annotations

import json
import re

import pytest
from babel import Locale

from cardwar.engine.beggar.deals import RECORD_DEALS, record_results
from cardwar.web.i18n import LOCALES, format_number
from cardwar.web.strings import client_strings

from .test_pages import outline

SOURCES = ("testserver", "richardpmann.weebly.com", "arxiv.org", "tkcs-collins.com",
           "en.wikipedia.org")


@pytest.mark.parametrize("locale", LOCALES)
def test_the_rules_page_compares_it_with_war_and_gives_its_length(client, locale):
    html = client.get(f"/{locale}/beggar-my-neighbour").text
    assert 'id="changes"' in html
    assert 'id="length"' in html
    assert html.count("<tr>") >= 6 + 13  # six rule rows, thirteen histogram bins
    assert f'href="/{locale}/beggar-my-neighbour/records"' in html
    assert 'class="rules__name"' in html  # which name the page uses, and why
    form = html.split('class="start-form__players"')[1].split("</fieldset>")[0]
    assert 'value="2"' in form
    assert 'value="3"' not in form


@pytest.mark.parametrize("locale", LOCALES)
def test_the_records_page_lists_the_deals_with_our_counts(client, locale):
    r = client.get(f"/{locale}/beggar-my-neighbour/records")
    assert r.status_code == 200
    html = r.text
    o = outline(html)
    assert o.headings[0] == 1
    assert o.headings.count(1) == 1
    rows = re.findall(r'<tr data-slug="([^"]+)">(.*?)</tr>', html, re.S)
    assert [slug for slug, _ in rows] == [d.slug for d in RECORD_DEALS]
    assert len(rows) >= 10
    for (slug, row), result in zip(rows, record_results(), strict=True):
        assert f'href="/{locale}/beggar-my-neighbour/records/{slug}"' in row
        assert format_number(result["cards_played"], locale) in row
        assert format_number(result["tricks"], locale) in row
    for host in re.findall(r'href="https?://([^/"]+)', html):
        assert host in SOURCES, host


def test_records_name_the_players_as_the_records_do(client):
    """First and second player (table seats 0 and 1), as the published records say."""
    html = client.get("/en/beggar-my-neighbour/records").text
    rows = dict(re.findall(r'<tr data-slug="([^"]+)">(.*?)</tr>', html, re.S))
    assert "The first player wins" in rows["paulhus-1999"]
    assert "The second player wins" in rows["mann-wu-2007"]
    assert "Seat" not in html
    replay = client.get("/en/beggar-my-neighbour/records/mann-wu-2007").text
    data = json.loads(re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', replay, re.S).group(1))
    assert [s["nickname"] for s in data["seats"]] == ["First player", "Second player"]
    assert data["record"]["winner"] == 1


@pytest.mark.parametrize("locale", LOCALES)
def test_a_record_deal_opens_in_the_replay(client, locale):
    html = client.get(f"/{locale}/beggar-my-neighbour/records/casella-2024").text
    data = json.loads(re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', html, re.S).group(1))
    assert data["turns"] is True
    assert data["record"]["reason"] == "cycle"
    assert data["record"]["cycle"]["length_tricks"] == 62
    assert len(data["record"]["log"]) == data["record"]["tricks"]
    assert 'id="replay-play"' in html
    assert 'id="replay-speed"' in html
    assert client.get(f"/{locale}/beggar-my-neighbour/records/nobody-1900").status_code == 404


def _fmt(text: str, **args: object) -> str:
    return text.format(**{k: str(v) for k, v in args.items()})


@pytest.mark.parametrize(("locale", "said"), [
    ("en", "Bob must pay 3 cards for the king of hearts."),
    ("de", "Bob muss für den Herz-König 3 Karten zahlen."),
    ("it", "Bob deve pagare 3 carte per il re di cuori."),
    ("pl", "Bob musi zapłacić 3 karty za króla kier."),
    ("cs", "Bob musí zaplatit 3 karty za srdcového krále."),
])
def test_what_is_owed_reads_naturally(locale, said):
    s = client_strings(locale, "beggar")
    form = Locale.parse(locale).plural_form(3)
    for_card = _fmt(s["pay_for"]["K"], suit=s["suits_of"]["H"])
    assert _fmt(s["must_pay"][form], name="Bob", count=3, for_card=for_card) == said


def test_the_cycle_is_worded_with_plurals_in_polish():
    s = client_strings("pl", "beggar")
    pl = Locale.parse("pl")
    text = _fmt(s["cycle_info"][pl.plural_form(62)], start=4, count=62,
                start_cards=_fmt(s["cards"][pl.plural_form(34)], count=34),
                length_cards=_fmt(s["cards"][pl.plural_form(440)], count=440))
    assert "Od 4. lewy (34 karty)" in text
    assert "te same 62 lewy (440 kart)" in text


@pytest.mark.parametrize("locale", LOCALES)
def test_beggar_has_no_war_reaction(locale):
    war = client_strings(locale, "war")["reactions"]["tie"]["text"]
    beggar = client_strings(locale, "beggar")["reactions"]["tie"]["text"]
    assert beggar != war
    assert client_strings("en", "beggar")["reactions"]["tie"]["text"] == "Pay up!"


def test_the_home_page_names_all_five_games(client):
    html = client.get("/en/").text
    title = html.split("<title>")[1].split("</title>")[0]
    for game in ("Peace", "War", "Beggar-my-neighbour", "Egyptian Ratscrew", "Slapjack"):
        assert game in title
    assert "Peace, War and Beggar-my-neighbour are card games of pure luck" in html
    assert "Egyptian Ratscrew and Slapjack games of speed" in html
    assert "Beggar-my-neighbour is for two players, the others for 2 to 4" in html
    assert "Pick a game and, except for Beggar-my-neighbour, the number of players." in html
    assert "Pick Peace" not in html


def test_the_italian_histogram_counts_partite(client):
    html = client.get("/it/beggar-my-neighbour").text
    head = html.split('class="stats stats--histogram"')[1].split("</thead>")[0]
    assert "Partite" in head
    assert "Giochi" not in head
