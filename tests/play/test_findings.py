"""Findings of a fresh user's test: nicknames, form errors, wording, layout."""

from __future__ import annotations

import json
import re

import pytest

from cardwar.web.i18n import LOCALES
from cardwar.web.strings import client_strings

from .helpers import ORIGIN, create, join, make_client


@pytest.fixture
def client(tmp_path):
    with make_client(tmp_path) as c:
        yield c


@pytest.mark.parametrize("nickname", ["", "   ", "x" * 25, "Ann\u0007", "\u200b"])
def test_a_bad_nickname_on_creating_shows_the_form_again(client, nickname):
    r = client.post("/it/play", data={"variant": "war", "players": "2", "nickname": nickname},
                    headers=ORIGIN, follow_redirects=False)
    assert r.status_code == 400
    assert "cw_" not in r.headers.get("set-cookie", "")  # no game was created
    assert "Scegli un soprannome" in r.text or "soprannome" in r.text
    assert 'role="alert"' in r.text
    assert 'aria-invalid="true"' in r.text
    field = re.search(r'<input id="start-nickname"[^>]*value="([^"]*)"', r.text)
    assert field is not None
    if nickname.strip() and "\u0007" not in nickname:
        assert field.group(1) == nickname  # what was typed is kept


def test_a_nickname_taken_at_the_table_is_refused(client):
    gid, _ = create(client, nickname="Ana")
    for taken in ("ana", " ANA ", "An\u0061"):
        r = client.post(f"/de/g/{gid}/join", data={"nickname": taken}, headers=ORIGIN,
                        follow_redirects=False)
        assert r.status_code == 303
        assert "error=taken" in r.headers["location"]
        assert "cw_" not in r.headers.get("set-cookie", "")
        page = client.get(r.headers["location"])
        assert "Jemand an diesem Tisch hat diesen Spitznamen schon" in page.text
        assert 'value="' + taken.replace(" ", " ") in page.text
    # NFC: a composed and a decomposed "é" are the same name
    gid2, _ = create(client, nickname="Zo\u00e9", players="3")
    r = client.post(f"/en/g/{gid2}/join", data={"nickname": "zoe\u0301"}, headers=ORIGIN,
                    follow_redirects=False)
    assert "error=taken" in r.headers["location"]
    join(client, gid2, "Bob")


@pytest.mark.parametrize(("data", "status"), [
    ({"players": "abc"}, 400), ({"players": "5"}, 400), ({"players": "1"}, 400),
    ({"face_down": "x"}, 400), ({"variant": "peace", "face_down": "3"}, 400),
])
def test_hand_made_form_posts_get_the_translated_error_page(client, data, status):
    r = client.post("/pl/play", data={"nickname": "Ann", **data}, headers=ORIGIN)
    assert r.status_code == status
    assert r.headers["content-type"].startswith("text/html")
    assert '<html lang="pl"' in r.text


def test_tie_wording_follows_the_variant():
    for locale in LOCALES:
        war = client_strings(locale, "war")
        peace = client_strings(locale, "peace")
        assert war["tie_word"] == ""
        assert peace["tie_word"]
        assert war["reason_unresolvable"] != peace["reason_unresolvable"]
    assert client_strings("en", "war")["reason_unresolvable"].startswith("A war nobody")
    assert client_strings("pl", "war")["reason_unresolvable"].startswith("Wojna")
    assert client_strings("en", "peace")["reason_unresolvable"].startswith("A peace nobody")


def test_the_game_page_gives_the_idle_clock_to_the_script(client):
    gid, secret = create(client)
    page = client.get(f"/en/g/{gid}", headers={"cookie": f"cw_{gid}={secret}"}).text
    config = json.loads(re.search(r'id="play-config">(.*?)</script>', page).group(1))
    assert config["flip_timeout"] == 60.0
    strings = json.loads(re.search(r'id="play-strings">(.*?)</script>', page).group(1))
    assert strings["flip_help"]["one"].endswith("{count} second before the game flips for you.")
    assert "{count} seconds before" in strings["flip_help"]["other"]
    assert strings["idle_you"] == "Flipping for you in {n} s"
    assert strings["idle_wait"] == "Waiting for {names}… {n} s"
    assert 'id="idle-note"' in page


def test_a_visitor_sees_the_join_form_before_the_invite_link(client):
    gid, _ = create(client)
    page = client.get(f"/en/g/{gid}").text
    assert page.index('class="join-form"') < page.index('id="share-link"')
    assert page.index('class="join-form"') < page.index('class="lobby__qr"')


def test_spectators_keep_their_label_once_the_game_has_started(client):
    gid, secret = create(client)
    join(client, gid, "Bob")
    lobby = client.get(f"/en/g/{gid}").text
    assert re.search(r'id="watching-note" hidden', lobby)
    with client.websocket_connect(f"/ws/g/{gid}",
                                  headers={**ORIGIN, "cookie": f"cw_{gid}={secret}"}) as s:
        s.receive_json()
        s.send_text(json.dumps({"type": "start"}))
        while s.receive_json()["type"] != "started":
            pass
    page = client.get(f"/en/g/{gid}").text
    note = re.search(r'<p class="watching-note js-only" id="watching-note"([^>]*)>([^<]*)<', page)
    assert note
    assert "hidden" not in note.group(1)
    assert note.group(2) == "You are watching this game."
    seated = client.get(f"/en/g/{gid}", headers={"cookie": f"cw_{gid}={secret}"}).text
    assert re.search(r'id="watching-note" hidden', seated)


def test_favicon_and_upper_case_locales_redirect(client):
    r = client.get("/favicon.ico", follow_redirects=False)
    assert r.status_code == 301
    assert "/static/favicon.svg" in r.headers["location"]
    r = client.get("/EN/peace?x=1", follow_redirects=False)
    assert r.status_code == 308
    assert r.headers["location"] == "/en/peace?x=1"
    assert client.get("/XX/peace", follow_redirects=False).status_code == 404
    for spelled in ("pt-br", "PT_BR", "pt_BR"):  # the locale is written pt-BR in URLs
        r = client.get(f"/{spelled}/war", follow_redirects=False)
        assert r.status_code == 308
        assert r.headers["location"] == "/pt-BR/war"


def test_hidden_always_hides_in_the_site_css(client):
    css = client.get("/static/site.css").text
    assert re.search(r"\[hidden\]\s*\{\s*display:\s*none\s*!important;?\s*\}", css)


def test_the_flip_help_and_presence_are_worded_in_every_language():
    from cardwar.web.i18n import LOCALES

    for locale in LOCALES:
        strings = client_strings(locale)
        forms = strings["flip_help"]
        assert isinstance(forms, dict), locale
        assert "one" in forms, locale
        assert len(forms) >= 2, locale
        assert all("{count}" in f for f in forms.values()), locale
        assert strings["presence_unknown"], locale
    pl = client_strings("pl")
    # "other" is a fraction's form (1,5 sekundy): the browser can pick it, so it is there
    assert set(pl["flip_help"]) == {"one", "few", "many", "other"}
    assert pl["flip_help"]["other"] == pl["flip_help"]["few"]
    assert "{count} sekundę," in pl["flip_help"]["one"]
    assert "{count} sekundy," in pl["flip_help"]["few"]
    assert "{count} sekund," in pl["flip_help"]["many"]
    assert (pl["online"], pl["offline"]) == ("w sieci", "poza siecią")
    assert "{count} Sekunde," in client_strings("de")["flip_help"]["one"]
    assert "{count} second before" in client_strings("en")["flip_help"]["one"]


@pytest.mark.parametrize("seat", ["robot", "Computer", "friend "])
def test_a_seat_that_is_neither_a_friend_nor_the_computer_is_refused(client, seat):
    r = client.post("/en/play", data={"variant": "war", "players": "3", "nickname": "Ann",
                                      "seat1": "friend", "seat2": seat},
                    headers=ORIGIN, follow_redirects=False)
    assert r.status_code == 400
    assert "cw_" not in r.headers.get("set-cookie", "")


def test_a_visitor_of_the_lobby_is_not_given_the_sharing_tools(client):
    gid, secret = create(client)
    visitor = client.get(f"/en/g/{gid}").text
    assert re.search(r'<div id="lobby-invite" hidden>', visitor)
    assert 'class="join-form"' in visitor
    creator = client.get(f"/en/g/{gid}", headers={"cookie": f"cw_{gid}={secret}"}).text
    assert '<div id="lobby-invite">' in creator
