"""The rough edges of issue 11 that the server fixes: links of an odd path,
percentages, the statistics' draw column, numbers for the game page, the
nickname fields and the seating on the rules pages."""

from __future__ import annotations

import html
import json
import re
from decimal import Decimal

import pytest

from cardwar.web import stats
from cardwar.web.i18n import LOCALES, format_number, format_percent, number_words
from cardwar.web.strings import nickname_error


def test_a_nul_in_the_path_never_reaches_the_language_links(client):
    r = client.get("/de/g/abc%00def")
    assert r.status_code == 404
    assert "\x00" not in r.text
    links = re.findall(r'href="(/[a-z]{2}/g/[^"]*)"', r.text)
    assert links, links
    assert all("%00" in link for link in links), links


def test_percentages_keep_two_decimals_rounded_half_up():
    assert format_percent(175 / 2000, "en") == "8.75%"  # was 8.7%
    assert format_percent(Decimal(175) / Decimal(2000), "de") == "8,75\u00a0%"
    assert format_percent(0.115, "en") == "11.5%"
    assert format_percent(1 / 3, "en") == "33.33%"


@pytest.mark.parametrize(("locale", "figure"), [("en", r"\d+\.(\d+)%"),
                                               ("de", r"\d+,(\d+)\u00a0%")])
def test_the_statistics_tables_print_every_share_to_two_decimals(client, locale, figure):
    """A column of figures reads alike: 27.60% beside 18.65%, never 27.6%."""
    page = client.get(f"/{locale}/peace").text
    start = page.index('<table class="stats">')
    tables = page[start:page.rindex("</table>")]
    shares = re.findall(r"(\d+(?:[.,]\d+)?\u00a0?%)", tables)
    assert len(shares) > 30, shares
    assert all(re.fullmatch(figure, s) and len(re.fullmatch(figure, s)[1]) == 2
               for s in shares), [s for s in shares if not re.fullmatch(figure, s)
                                  or len(re.fullmatch(figure, s)[1]) != 2]
    assert format_percent(0.276, locale, 2) in ("27.60%", "27,60\u00a0%")


def test_the_draw_column_counts_every_draw(client):
    row = next(r for r in stats.for_variant("peace") if r["players"] == 4)
    draws = row["games"] - row["reasons"]["all_cards"]
    assert row["reasons"]["unresolvable"] > 0  # undecidable peaces are draws too
    page = client.get("/en/peace").text
    start = page.index('<table class="stats">')
    table = page[start:page.index("</table>", start)]
    cells = [c.strip() for c in re.findall(r"<td>([^<]*)", table)]  # before the interval
    assert format_percent(Decimal(draws) / Decimal(row["games"]), "en", 2) in cells
    assert "or a tie nobody can break" in table


@pytest.mark.parametrize("locale", LOCALES)
def test_the_game_page_writes_numbers_with_the_rules_pages_cldr_data(client, locale):
    gid = _game(client, locale)
    page = client.get(f"/{locale}/g/{gid}").text
    strings = json.loads(re.search(
        r'<script type="application/json" id="play-strings">(.*?)</script>', page, re.S)[1])
    assert strings["number"] == number_words(locale)
    n = strings["number"]
    digits = "1000" if n["min_grouping"] > 1 else "1" + n["group"] + "000"
    assert digits == format_number(1000, locale)


def test_nickname_fields_count_visible_characters_with_a_translated_message(client):
    """No ``pattern`` (its message is the browser's generic "Please match the
    requested format"): site.js counts what the field shows, 24 at most, and
    says the translated reason; maxlength only bounds the 64 code points."""
    for locale in ("en", "pl"):
        for page in (client.get(f"/{locale}/peace").text,
                     client.get(f"/{locale}/g/{_game(client, locale)}").text):
            field = re.search(r'<input id="(?:start-)?nickname"[^>]*>', page)[0]
            assert "pattern=" not in field
            assert 'maxlength="128"' in field
            assert 'data-max-visible="24"' in field
            said = re.search(r'data-too-long="([^"]+)"', field)[1]
            assert said == html.escape(nickname_error(locale), quote=True)
    assert nickname_error("pl") != nickname_error("en")  # translated


@pytest.mark.parametrize("locale", LOCALES)
def test_the_rules_pages_say_that_seats_are_drawn(client, locale):
    page = client.get(f"/{locale}/peace").text
    assert client.get("/en/peace").status_code == 200
    if locale == "en":
        assert "Seats are drawn." in page
        assert "the order of the seats matters" in page
    else:
        assert "Seats are drawn." not in page  # translated


def _game(client, locale: str = "en") -> str:
    r = client.post(f"/{locale}/play", data={"variant": "peace", "players": "2",
                                              "seat1": "friend", "nickname": "Ann"},
                    headers={"origin": "http://testserver"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    client.cookies.clear()
    return r.headers["location"].rsplit("/", 1)[1]
