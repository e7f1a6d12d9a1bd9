"""The HTTP routes and the WebSocket protocol of online play (ASGI test client)."""

from __future__ import annotations

import json
import re

import pytest
from starlette.websockets import WebSocketDisconnect

from .helpers import ORIGIN, create, join, make_client, until
from .helpers import ws as open_ws


@pytest.fixture
def client(tmp_path):
    with make_client(tmp_path) as c:
        yield c


def test_create_sets_an_httponly_cookie_and_redirects(client):
    r = client.post("/de/play", data={"variant": "war", "players": "3", "seat1": "computer",
                                      "seat2": "friend", "face_down": "1", "nickname": " Zoe "},
                    headers=ORIGIN, follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"].startswith("/de/g/")
    gid = r.headers["location"].rsplit("/", 1)[1]
    assert len(gid) >= 16
    cookie = r.headers["set-cookie"]
    assert "HttpOnly" in cookie
    assert "samesite=lax" in cookie.lower()
    assert f"cw_{gid}=" in cookie
    page = client.get(r.headers["location"])
    assert page.status_code == 200
    table = client.app.state.tables.cache.get(gid)
    assert [s.kind for s in table.record.seats] == ["human", "computer", "open"]
    assert table.record.seats[0].nickname == "Zoe"
    assert table.record.face_down == 1


@pytest.mark.parametrize("headers", [
    {}, {"origin": "http://evil.example"}, {"sec-fetch-site": "cross-site"},
])
def test_cross_site_posts_are_refused(client, headers):
    r = client.post("/en/play", data={"variant": "peace", "players": "2"}, headers=headers,
                    follow_redirects=False)
    assert r.status_code == 403
    gid, _ = create(client)
    r = client.post(f"/en/g/{gid}/join", data={"nickname": "Eve"}, headers=headers,
                    follow_redirects=False)
    assert r.status_code == 403


def test_same_origin_fetch_metadata_is_enough(client):
    r = client.post("/en/play", data={"variant": "peace", "players": "2", "nickname": "Ann"},
                    headers={"sec-fetch-site": "same-origin"}, follow_redirects=False)
    assert r.status_code == 303


def test_pages_shared_link_qr_and_404(client):
    gid, _ = create(client)
    r = client.get(f"/g/{gid}", headers={"accept-language": "pl,en;q=0.5"},
                   follow_redirects=False)
    assert r.status_code == 307
    assert r.headers["location"] == f"/pl/g/{gid}"
    page = client.get(f"/pl/g/{gid}").text
    strings = json.loads(re.search(
        r'<script type="application/json" id="play-strings">(.*?)</script>', page, re.S)[1])
    assert strings["tie_word"] == "POKÓJ"
    assert strings["cards"]["few"] == "{count} karty"
    # no inline executable script, no inline handlers
    for tag in re.findall(r"<script[^>]*>", page):
        assert "src=" in tag or 'type="application/json"' in tag
    assert not re.search(r"\son[a-z]+=", page)
    assert 'value="Gracz 2"' in page  # the friendly default nickname
    qr = client.get(f"/g/{gid}/qr.svg")
    assert qr.status_code == 200
    assert qr.headers["content-type"].startswith("image/svg+xml")
    assert client.get("/en/g/nonexistent12345").status_code == 404
    assert client.get("/xx/g/" + gid).status_code == 404
    assert client.get("/g/nonexistent12345/qr.svg").status_code == 404


def test_variant_page_has_the_start_form(client):
    page = client.get("/en/war").text
    assert 'action="/en/play"' in page
    assert 'name="face_down"' in page
    assert 'value="war"' in page
    assert 'value="computer"' in page
    peace = client.get("/pl/peace").text
    assert 'name="face_down"' not in peace


def test_bad_nicknames_are_refused_and_escaped(client):
    gid, _ = create(client)
    r = client.post(f"/en/g/{gid}/join", data={"nickname": "a\u200bb"}, headers=ORIGIN,
                    follow_redirects=False)
    assert "?error=nickname&name=" in r.headers["location"]  # what was typed comes back
    assert f"cw_{gid}" not in r.headers.get("set-cookie", "")
    secret = join(client, gid, "<img src=x onerror=f()>")
    page = client.get(f"/en/g/{gid}").text
    assert "<img src=x" not in page
    with open_ws(client, gid, secret) as ws:
        state = ws.receive_json()
    assert state["seats"][1]["nickname"] == "<img src=x onerror=f()>"


def test_websocket_refuses_other_origins_and_unknown_games(client):
    gid, _ = create(client)
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            f"/ws/g/{gid}", headers={"origin": "http://evil.example"}) as ws:
        ws.receive_json()
    with pytest.raises(WebSocketDisconnect), open_ws(client, "nope") as ws:
        ws.receive_json()


def test_two_players_play_to_the_end_over_websockets(client):
    gid, s0 = create(client)
    s1 = join(client, gid, "Bob")
    hands = client.app.state.tables.cache.get(gid).record.hands
    seen0: list = []
    seen1: list = []
    with open_ws(client, gid, s0) as ws0, open_ws(client, gid, s1) as ws1, \
            open_ws(client, gid) as watcher:
        st0, st1, stw = ws0.receive_json(), ws1.receive_json(), watcher.receive_json()
        assert (st0["you"], st1["you"], stw["you"]) == (0, 1, None)
        assert st0["game"]["status"] == "lobby"
        assert st0["result"] is None
        ws1.send_json({"type": "start"})
        assert until(ws1, "error", seen1)["code"] == "not_creator"
        watcher.send_json({"type": "flip"})
        assert until(watcher, "error", [])["code"] == "not_seated"
        ws0.send_text("not json")
        assert until(ws0, "error", seen0)["code"] == "bad_message"
        ws0.send_text(json.dumps({"type": "flip", "pad": "x" * 2000}))
        assert until(ws0, "error", seen0)["code"] == "bad_message"
        ws0.send_json({"type": "flip"})
        assert until(ws0, "error", seen0)["code"] == "not_playing"
        ws0.send_json({"type": "start"})
        until(ws0, "started", seen0)
        until(ws1, "started", seen1)
        while True:
            ws0.send_json({"type": "flip"})
            ws1.send_json({"type": "flip"})
            b0 = until(ws0, "battle", seen0)
            until(ws1, "battle", seen1)
            if b0.get("outcome"):
                break
        over0 = until(ws0, "over", seen0)
        over1 = until(ws1, "over", seen1)
        overw = until(watcher, "over", [])
    assert over0 == over1 == overw
    assert over0["winner"] == 0
    assert over0["hands"] == hands
    assert over0["command"].startswith("cardwar play --variant peace --players 2 --hands ")
    battles = [m for m in seen0 if m["type"] == "battle"]
    assert any(b["peaces"] for b in battles)
    peace = next(b for b in battles if b["peaces"])["peaces"][0]
    assert [len(d) for d in peace["face_down"]] == [5, 5]
    numbered = [m["seq"] for m in seen0 if m.get("seq") is not None]
    assert numbered == sorted(numbered)
    assert len(set(numbered)) == len(numbered)
    for m in seen0 + seen1:
        if m["type"] != "over":
            assert hands not in json.dumps(m)
    # a page opened afterwards gets the end in its snapshot
    with open_ws(client, gid, s1) as ws:
        state = ws.receive_json()
    assert state["game"]["status"] == "over"
    assert state["result"]["winner"] == 0
    assert state["last"]["battle"] == over0["battles"]


def test_computer_seat_and_auto_flip(client):
    gid, s0 = create(client, players="3", seat1="computer", seat2="friend")
    with open_ws(client, gid, s0) as ws:
        state = ws.receive_json()
        assert [s["kind"] for s in state["seats"]] == ["human", "computer", "open"]
        ws.send_json({"type": "start"})
        started_seen: list = []
        until(ws, "started", started_seen)
        ws.send_json({"type": "auto", "on": True})
        until(ws, "auto_flip", [])
        over = until(ws, "over", [])
    assert over["outcome"] == "win"
