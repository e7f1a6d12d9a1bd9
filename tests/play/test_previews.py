"""Link previews (Open Graph, Twitter cards): the creator's language, no secrets."""

from __future__ import annotations

import re
import struct
from html import unescape

import pytest

from cardwar.web.i18n import LOCALES

from .helpers import create, finish, join, make_client, until
from .helpers import ws as open_ws

META = re.compile(r'<meta (?:property|name)="((?:og|twitter):[a-z:_]+)" content="([^"]*)">')


@pytest.fixture
def client(tmp_path):
    with make_client(tmp_path) as c:
        yield c


def tags(html: str) -> dict[str, str]:
    return {k: unescape(v) for k, v in META.findall(html)}


def test_a_game_link_is_previewed_in_its_creators_language(client):
    gid, _ann = create(client, locale="it", players="3", nickname="Ann")
    page = client.get(f"/en/g/{gid}")  # whoever opens it, in whatever language
    t = tags(page.text)
    assert t["og:title"] == "Ann ti invita a una partita a Pace — 2 posti liberi"
    assert t["twitter:title"] == t["og:title"]
    assert t["og:locale"] == "it_IT"
    assert t["og:url"] == f"http://testserver/g/{gid}"
    assert re.fullmatch(r"http://testserver/static/og/peace\.png\?v=[0-9a-f]{10}", t["og:image"])
    assert t["twitter:card"] == "summary_large_image"
    assert t["og:description"].startswith("La Guerra capovolta")
    join(client, gid, "Bob")
    t = tags(client.get(f"/de/g/{gid}").text)
    assert t["og:title"] == "Ann ti invita a una partita a Pace — 1 posto libero"
    assert "Bob" not in str(t)


@pytest.mark.parametrize(("locale", "title"), [
    ("pl", "Ann zaprasza cię do gry: Wojna — 1 wolne miejsce"),
    ("de", "Ann lädt Sie zu einer Partie Krieg ein – 1 Platz frei"),
    ("cs", "Ann vás zve na hru Válka — 1 volné místo"),
    ("fr", "Ann vous invite à une partie de Bataille — 1 place libre"),
    ("pt-BR", "Ann convida você para uma partida de Guerra — 1 lugar livre"),
    ("nl", "Ann nodigt je uit voor een potje Oorlogje — 1 plaats vrij"),
    ("uk", "Ann запрошує вас на гру «Війна» — 1 вільне місце"),
])
def test_other_languages_and_variants(client, locale, title):
    gid, _ = create(client, locale=locale, variant="war")
    t = tags(client.get(f"/en/g/{gid}").text)
    assert t["og:title"] == title
    assert "/static/og/war.png?v=" in t["og:image"]


def test_no_secret_and_no_other_nickname_in_any_preview(client):
    gid, ann = create(client, nickname="Ann")
    bob = join(client, gid, "Bob")
    pages = []
    # the personal "another device" link lands on the game page, seated
    r = client.get(f"/en/g/{gid}/continue/{bob}", follow_redirects=False)
    assert r.status_code == 303
    pages.append(client.get(r.headers["location"], headers={"cookie": f"cw_{gid}={bob}"}).text)
    pages.append(client.get(f"/en/g/{gid}", headers={"cookie": f"cw_{gid}={ann}"}).text)
    with open_ws(client, gid, ann) as a, open_ws(client, gid, bob) as b:
        until(a, "state")
        until(b, "state")
        finish([a, b])
    pages.append(client.get(f"/pl/g/{gid}/replay").text)
    pages.append(client.get(f"/en/g/{gid}", headers={"cookie": f"cw_{gid}={bob}"}).text)
    for html in pages:
        t = tags(html)
        assert t, "no preview tags"
        for secret in (ann, bob):
            assert secret not in str(t)
        assert "Bob" not in str(t)
        assert t["og:url"].startswith(f"http://testserver/g/{gid}")
    assert tags(pages[-2])["og:title"] == "The replay of a game of Peace"
    assert tags(pages[-2])["og:url"] == f"http://testserver/g/{gid}/replay"
    assert tags(pages[-1])["og:title"] == "A finished game of Peace: watch the replay"


@pytest.mark.parametrize("locale", LOCALES)
def test_rules_pages_and_home_have_previews_with_absolute_addresses(client, locale):
    host = {"host": "cards.example.org"}
    for path, image in ((f"/{locale}/", "site"), (f"/{locale}/peace", "peace"),
                        (f"/{locale}/war", "war"), (f"/{locale}/tables", "site")):
        t = tags(client.get(path, headers=host).text)
        assert t["og:url"] == f"http://cards.example.org{path}"
        assert t["og:image"].startswith(f"http://cards.example.org/static/og/{image}.png?v=")
        assert t["og:title"].endswith(" · cardwar")
        assert t["og:description"]
    assert not tags(client.get(f"/{locale}/nothing-here").text)  # a 404 has none


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


@pytest.mark.parametrize("name", ["peace", "war", "site"])
def test_preview_images_are_1200_by_630_and_cached_long(client, name):
    t = tags(client.get("/en/peace").text if name != "site" else client.get("/en/").text)
    path = f"/static/og/{name}.png"
    versioned = re.sub(r"^http://testserver", "", t["og:image"]).replace("peace", name)
    r = client.get(versioned)
    assert r.status_code == 200
    assert r.headers["content-type"] == "image/png"
    assert _png_size(r.content) == (1200, 630)
    assert r.headers["cache-control"] == "public, max-age=31536000, immutable"
    assert "immutable" not in client.get(path).headers["cache-control"]


def test_the_shared_replay_link_opens_in_the_visitors_language(client):
    r = client.get("/g/AbCdEfGhIjKlMnOp/replay", headers={"accept-language": "cs"},
                   follow_redirects=False)
    assert r.status_code == 307
    assert r.headers["location"] == "/cs/g/AbCdEfGhIjKlMnOp/replay"


def test_beggar_links_and_records_show_beggars_image(client):
    gid, _ = create(client, variant="beggar")
    t = tags(client.get(f"/en/g/{gid}").text)
    assert "/static/og/beggar.png?v=" in t["og:image"]
    for path in ("/en/beggar-my-neighbour", "/en/beggar-my-neighbour/records",
                 "/en/beggar-my-neighbour/records/nessler-2022"):
        assert "/static/og/beggar.png?v=" in tags(client.get(path).text)["og:image"], path
    record = tags(client.get("/de/beggar-my-neighbour/records/nessler-2022").text)
    assert "Nessler (2022)" in record["og:description"]
    assert "8.344" in record["og:description"]
    assert "1.164" in record["og:description"]
    endless = tags(client.get("/en/beggar-my-neighbour/records/casella-2024").text)
    assert "Casella (2024)" in endless["og:description"]
    assert "never ends" in endless[
        "og:description"]
