"""Joining a full table, echoed form values and computer labels as nicknames."""

from __future__ import annotations

import re

import pytest

from cardwar.web.i18n import LOCALES
from cardwar.web.strings import client_strings

from .helpers import ORIGIN, create, join, make_client, until, ws


@pytest.fixture
def client(tmp_path):
    with make_client(tmp_path) as c:
        yield c


def _post_join(client, gid: str, nickname: str, locale: str = "en", secret: str = ""):
    headers = {**ORIGIN, "cookie": f"cw_{gid}={secret}"} if secret else ORIGIN
    return client.post(f"/{locale}/g/{gid}/join", data={"nickname": nickname}, headers=headers,
                       follow_redirects=False)


def _nickname_field(html: str, field: str = "nickname") -> str:
    found = re.search(rf'<input id="{field}"[^>]*value="([^"]*)"', html)
    assert found is not None
    return found.group(1)


def test_joining_a_full_lobby_says_every_seat_is_taken(client):
    gid, _ = create(client)
    join(client, gid, "Bob")  # the last open seat
    r = _post_join(client, gid, "Cleo", locale="pl")
    assert r.status_code == 303
    assert r.headers["location"] == f"/pl/g/{gid}?error=full"
    assert f"cw_{gid}" not in r.headers.get("set-cookie", "")
    page = client.get(r.headers["location"]).text
    assert 'class="join-form"' not in page  # no form to fill in again
    # the page's script words it: "Every seat is taken." in the visitor's language
    assert client_strings("pl")["errors"]["no_seat"] in page


def test_joining_a_started_game_says_every_seat_is_taken(client):
    gid, s0 = create(client, players="3")
    with ws(client, gid, s0) as sock:
        sock.receive_json()
        sock.send_json({"type": "start"})
        until(sock, "started")
    r = _post_join(client, gid, "Cleo")
    assert r.headers["location"] == f"/en/g/{gid}?error=full"
    assert f"cw_{gid}" not in r.headers.get("set-cookie", "")


def test_a_full_table_is_said_before_a_bad_nickname(client):
    gid, _ = create(client, seat1="computer")  # two players, no open seat
    r = _post_join(client, gid, "a\u200bb")
    assert r.headers["location"] == f"/en/g/{gid}?error=full"


def test_a_seated_player_who_joins_again_just_goes_back(client):
    gid, s0 = create(client)
    join(client, gid, "Bob")
    r = _post_join(client, gid, "Ann", secret=s0)
    assert r.headers["location"] == f"/en/g/{gid}"


def test_control_characters_are_not_echoed_into_the_start_form(client):
    r = client.post("/it/play", data={"variant": "war", "players": "2",
                                      "nickname": "\x00\x01\x02Ann\x7f\x85\x9f"},
                    headers=ORIGIN, follow_redirects=False)
    assert r.status_code == 400
    assert _nickname_field(r.text, "start-nickname") == "Ann"
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", r.text)


def test_control_characters_are_not_echoed_into_the_join_form(client):
    gid, _ = create(client, players="3")
    r = _post_join(client, gid, "\x00\x01\x02")
    location = r.headers["location"]
    assert "error=nickname" in location
    assert "%00" not in location
    assert "%01" not in location
    page = client.get(location).text
    assert _nickname_field(page) == ""
    # a hand-made link is cleaned too, C1 controls included
    page = client.get(f"/en/g/{gid}?error=nickname&name=%00Zo%C2%85%1Fe%0A").text
    assert _nickname_field(page) == "Zoe"
    assert not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]", page)
    # and what can be shown is still kept as typed
    page = client.get(f"/en/g/{gid}?error=taken&name=%3Cb%3E%20Ann").text
    assert _nickname_field(page) == "&lt;b&gt; Ann"


@pytest.mark.parametrize("locale", LOCALES)
def test_a_computer_seat_label_is_not_a_nickname(client, locale):
    gid, _ = create(client, players="3")
    label = client_strings(locale)["computer_name"]  # what game.js shows for a computer seat
    for n in (1, 2, 3, 4):
        r = _post_join(client, gid, f" {label.format(n=n).upper()} ", locale=locale)
        assert "error=computer" in r.headers["location"], (locale, n)
        assert f"cw_{gid}" not in r.headers.get("set-cookie", "")
    r = client.post(f"/{locale}/play", data={"players": "2", "nickname": label.format(n=2)},
                    headers=ORIGIN, follow_redirects=False)
    assert r.status_code == 400
    assert 'role="alert"' in r.text


def test_emoji_nicknames_are_seated(client):
    gid, _ = create(client, nickname="\U0001f3f3\ufe0f\u200d\U0001f308", players="3")
    s1 = join(client, gid, "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466 Bob")
    with ws(client, gid, s1) as sock:
        state = sock.receive_json()
    assert [s["nickname"] for s in state["seats"][:2]] == [
        "\U0001f3f3\ufe0f\u200d\U0001f308",
        "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466 Bob"]


@pytest.mark.parametrize(("locale", "said"), [("en", "That is how computer seats are named"),
                                             ("de", "So heißen die Plätze des Computers")])
def test_a_computer_seat_label_gets_its_own_reason(tmp_path, locale, said):
    with make_client(tmp_path) as c:
        r = c.post(f"/{locale}/play", headers=ORIGIN, data={
            "variant": "peace", "players": "2", "seat1": "friend", "nickname": "Computer 2"})
        assert r.status_code == 400
        assert said in r.text
        gid, _ = create(c)
        c.cookies.clear()
        r = c.post(f"/{locale}/g/{gid}/join", headers=ORIGIN, data={"nickname": "Komputer 2"},
                   follow_redirects=False)
        assert r.status_code == 303
        assert "error=computer" in r.headers["location"]
        assert said in c.get(r.headers["location"]).text
