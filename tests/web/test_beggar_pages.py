"""Beggar-my-neighbour's pages in every language: the rules page (its own
comparison table and statistics), the records page (the engine's counts of
the published deals) and each record deal in the replay viewer."""

from __future__ import annotations

import json
import re

import pytest

from cardwar.engine.beggar_deals import RECORD_DEALS, record_results
from cardwar.web.i18n import LOCALES, format_number

from .test_pages import outline

SOURCES = ("testserver", "richardpmann.weebly.com", "arxiv.org", "tkcs-collins.com",
           "en.wikipedia.org")


@pytest.mark.parametrize("locale", LOCALES)
def test_the_rules_page_compares_it_with_war_and_gives_its_length(client, locale):
    html = client.get(f"/{locale}/beggar-my-neighbour").text
    assert 'id="changes"' in html and 'id="length"' in html
    assert html.count("<tr>") >= 6 + 13  # six rule rows, thirteen histogram bins
    assert f'href="/{locale}/beggar-my-neighbour/records"' in html
    assert 'class="rules__name"' in html  # which name the page uses, and why
    form = html.split('class="start-form__players"')[1].split("</fieldset>")[0]
    assert 'value="2"' in form and 'value="3"' not in form


@pytest.mark.parametrize("locale", LOCALES)
def test_the_records_page_lists_the_deals_with_our_counts(client, locale):
    r = client.get(f"/{locale}/beggar-my-neighbour/records")
    assert r.status_code == 200
    html = r.text
    o = outline(html)
    assert o.headings[0] == 1 and o.headings.count(1) == 1
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
    assert data["turns"] is True and data["record"]["reason"] == "cycle"
    assert data["record"]["cycle"]["length_tricks"] == 62
    assert len(data["record"]["log"]) == data["record"]["tricks"]
    assert 'id="replay-play"' in html and 'id="replay-speed"' in html
    assert client.get(f"/{locale}/beggar-my-neighbour/records/nobody-1900").status_code == 404
