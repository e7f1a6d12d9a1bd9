"""Issue 10, items 3 and 4: allowed hosts, Origin, limits per client address,
sockets, flooding, and how long games are kept (real app, real SQLite file)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from play.helpers import ORIGIN, create, finish, join, make_client, receive_until_closed, ws
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from cardwar.tables.retention import Retention

FORM = {"variant": "peace", "players": "2", "seat1": "friend", "nickname": "Ann"}


def post_game(c, locale="en", headers=None):
    return c.post(f"/{locale}/play", data=FORM, headers={**ORIGIN, **(headers or {})},
                  follow_redirects=False)


# -- item 4: hosts and origins ------------------------------------------------------
def test_other_hosts_get_400_for_pages_posts_and_websocket_upgrades(tmp_path):
    with make_client(tmp_path, allowed_hosts="") as c:  # the default: loopback names
        assert c.get("/en/", headers={"host": "localhost:8000"}).status_code == 200
        assert c.get("/en/", headers={"host": "127.0.0.1"}).status_code == 200
        assert c.get("/en/", headers={"host": "evil.example"}).status_code == 400
        evil = {"host": "evil.example", "origin": "http://evil.example"}
        r = c.post("/en/play", data=FORM, headers=evil, follow_redirects=False)
        assert r.status_code == 400
        local = {"host": "localhost", "origin": "http://localhost"}
        r = c.post("/en/play", data=FORM, headers=local, follow_redirects=False)
        assert r.status_code == 303
        gid = r.headers["location"].rsplit("/", 1)[1]
        with (pytest.raises(WebSocketDenialResponse) as denied,
              c.websocket_connect(f"/ws/g/{gid}", headers=evil)):
            pass
        assert denied.value.status_code == 400
        with c.websocket_connect(f"/ws/g/{gid}", headers=local) as sock:
            assert sock.receive_json()["type"] == "state"


def test_allowed_hosts_setting_and_the_bind_address(tmp_path):
    from fastapi.testclient import TestClient

    from cardwar.settings import Settings
    from cardwar.web.app import create_app

    db = f"sqlite+aiosqlite:///{tmp_path / 'g.db'}"
    with TestClient(create_app(Settings(database=db, allowed_hosts=""), bind="10.1.2.3")) as c:
        assert c.get("/en/", headers={"host": "10.1.2.3:8000"}).status_code == 200
        assert c.get("/en/", headers={"host": "cards.example.org"}).status_code == 400
    given = Settings(database=db, allowed_hosts="cards.example.org, *.example.net")
    with TestClient(create_app(given, bind="10.1.2.3")) as c:
        assert c.get("/en/", headers={"host": "cards.example.org"}).status_code == 200
        assert c.get("/en/", headers={"host": "www.example.net"}).status_code == 200
        assert c.get("/en/", headers={"host": "localhost"}).status_code == 200
        assert c.get("/en/", headers={"host": "10.1.2.3"}).status_code == 400


def test_serving_the_local_network_answers_to_this_machines_addresses(tmp_path):
    from fastapi.testclient import TestClient

    from cardwar.settings import Settings
    from cardwar.web.app import create_app
    from cardwar.web.guard import own_addresses

    mine = [a for a in own_addresses() if a not in ("127.0.0.1", "[::1]", "localhost")]
    assert mine, "no address of this machine besides loopback"
    db = f"sqlite+aiosqlite:///{tmp_path / 'g.db'}"
    with TestClient(create_app(Settings(database=db, allowed_hosts=""), bind="0.0.0.0")) as c:
        for address in mine:
            assert c.get("/en/", headers={"host": f"{address}:8000"}).status_code == 200
        assert c.get("/en/", headers={"host": "evil.example:8000"}).status_code == 400


@pytest.mark.parametrize("origin", ["https://testserver", "http://testserver:8080",
                                    "http://testserver.evil", "null"])
def test_origin_must_match_scheme_host_and_port(tmp_path, origin):
    with make_client(tmp_path) as c:
        assert post_game(c, headers={"origin": origin}).status_code == 403
        assert post_game(c, headers={"origin": "http://testserver:80"}).status_code == 303
        gid, _ = create(c)
        with (pytest.raises(WebSocketDisconnect) as closed,
              c.websocket_connect(f"/ws/g/{gid}", headers={"origin": origin}) as sock):
            sock.receive_json()
        assert closed.value.code == 1008


def test_https_behind_the_trusted_proxy_needs_an_https_origin(tmp_path):
    proto = {"x-forwarded-proto": "https", "x-forwarded-for": "203.0.113.9"}
    with make_client(tmp_path, trusted_proxies="testclient") as c:
        assert post_game(c, headers={**proto, "origin": "https://testserver"}).status_code == 303
        assert post_game(c, headers={**proto, "origin": "http://testserver"}).status_code == 403


# -- item 3: limits per client address -------------------------------------------------
@pytest.mark.parametrize(("locale", "words"), [("en", "Too many requests"),
                                          ("pl", "Zbyt wiele"), ("de", "Zu viele")])
def test_creating_too_many_games_gets_a_translated_429(tmp_path, locale, words):
    with make_client(tmp_path, creates_per_minute=3) as c:
        assert [post_game(c, locale).status_code for _ in range(3)] == [303] * 3
        refused = post_game(c, locale)
        assert refused.status_code == 429
        assert f'<html lang="{locale}">' in refused.text
        assert words in refused.text
        assert refused.headers["retry-after"] == "20"  # 3 a minute: one more in 20 s


def test_forwarded_addresses_count_apart_only_from_a_trusted_proxy(tmp_path):
    def from_(address):
        return {"x-forwarded-for": address}

    with make_client(tmp_path, creates_per_minute=2, trusted_proxies="testclient") as c:
        for _ in range(2):
            assert post_game(c, headers=from_("203.0.113.1")).status_code == 303
        assert post_game(c, headers=from_("203.0.113.1")).status_code == 429
        assert post_game(c, headers=from_("203.0.113.2")).status_code == 303
    with make_client(tmp_path, creates_per_minute=2, trusted_proxies="127.0.0.1") as c:
        # the test client is not the proxy: its X-Forwarded-For is ignored
        for address in ("203.0.113.1", "203.0.113.2"):
            assert post_game(c, headers=from_(address)).status_code == 303
        assert post_game(c, headers=from_("203.0.113.3")).status_code == 429


def test_joins_and_rematches_per_minute(tmp_path):
    with make_client(tmp_path, joins_per_minute=1, rematches_per_minute=1,
                     computer_delay=0.001) as c:
        gid, _s0 = create(c)
        join(c, gid, "Bob")
        other, _ = create(c)
        r = c.post(f"/en/g/{other}/join", data={"nickname": "Cy"}, headers=ORIGIN,
                   follow_redirects=False)
        assert r.status_code == 429
        assert r.headers["retry-after"] == "60"
        finished, f0 = create(c, seat1="computer")
        with ws(c, finished, f0) as sock:
            sock.receive_json()
            finish([sock])
        cookie = {"cookie": f"cw_{finished}={f0}", **ORIGIN}
        first = c.post(f"/en/g/{finished}/rematch", headers=cookie, follow_redirects=False)
        assert first.status_code == 303
        c.cookies.clear()
        again = c.post(f"/en/g/{finished}/rematch", headers=cookie, follow_redirects=False)
        assert again.status_code == 429


def test_sockets_per_address_and_per_game(tmp_path):
    with make_client(tmp_path, sockets_per_address=2, sockets_per_game=100) as c:
        gid, _ = create(c)
        with ws(c, gid) as a, ws(c, gid) as b:
            a.receive_json(), b.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed, ws(c, gid) as third:
                third.receive_json()
            assert closed.value.code == 1008
        with ws(c, gid) as again:  # closed ones are counted off
            assert again.receive_json()["type"] == "state"
    with make_client(tmp_path, sockets_per_address=100, sockets_per_game=1) as c:
        gid, _ = create(c)
        other, _ = create(c)
        with ws(c, gid) as a, ws(c, other) as b:
            a.receive_json(), b.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed, ws(c, gid) as third:
                third.receive_json()
            assert closed.value.code == 1008


def test_spectators_at_the_games_limit_never_lock_its_players_out(tmp_path):
    with make_client(tmp_path, sockets_per_address=100, sockets_per_game=2) as c:
        gid, ann = create(c)
        with ws(c, gid) as a, ws(c, gid) as b:
            a.receive_json(), b.receive_json()
            with pytest.raises(WebSocketDisconnect) as closed, ws(c, gid) as third:
                third.receive_json()
            assert closed.value.code == 1008  # a third spectator is refused
            bob = join(c, gid, "Bob")
            with ws(c, gid, ann) as seated, ws(c, gid, bob) as joined:
                assert seated.receive_json()["type"] == "state"
                assert joined.receive_json()["type"] == "state"


def test_the_open_tables_socket_counts_for_its_address(tmp_path):
    with make_client(tmp_path, sockets_per_address=2) as c:
        gid, _ = create(c)
        with ws(c, gid) as game, c.websocket_connect("/ws/tables", headers=ORIGIN) as listing:
            game.receive_json()
            assert listing.receive_json()["type"] == "tables"
            with pytest.raises(WebSocketDisconnect) as closed, \
                    c.websocket_connect("/ws/tables", headers=ORIGIN) as third:
                third.receive_json()
            assert closed.value.code == 1008
            assert "cardwar_open_connections 2.0" in c.get("/metrics").text


def test_a_flooding_socket_is_warned_then_closed_with_1008(tmp_path):
    with make_client(tmp_path, flood_warnings=3) as c:
        gid, s0 = create(c)
        with ws(c, gid, s0) as sock:
            sock.receive_json()
            for _ in range(200):
                sock.send_json({"type": "auto", "on": False})
            got: list[dict] = []
            with pytest.raises(WebSocketDisconnect) as closed:
                receive_until_closed(sock, got, limit=400)
            assert closed.value.code == 1008
            assert sum(m.get("code") == "rate_limited" for m in got) == 3
        metrics = c.get("/metrics").text
        assert 'cardwar_limited_total{what="flood"}' in metrics


# -- item 3: retention -------------------------------------------------------------------
def test_lobbies_that_never_start_expire_with_their_events(tmp_path):
    with make_client(tmp_path, lobby_ttl=3600.0, computer_delay=0.001) as c:
        service = c.app.state.tables
        lobby, _ = create(c)
        played, p0 = create(c, seat1="computer")
        with ws(c, played, p0) as sock:
            sock.receive_json()
            finish([sock])
        sweep = Retention(service.store, service.cache, service.settings).sweep
        run = c.portal.call

        async def at(hours):
            return await sweep(datetime.now(UTC) + timedelta(hours=hours))

        assert run(at, 0.5) == 0
        assert c.get(f"/en/g/{lobby}").status_code == 200
        assert run(at, 2) == 1
        assert c.get(f"/en/g/{lobby}").status_code == 410  # "this game has expired"

        async def events(game):
            return await service.store.events_since(game, 0)

        assert run(events, lobby) == []
        assert run(events, played)  # finished games are kept (finished_ttl 0)
        assert c.get(f"/en/g/{played}/replay").status_code == 200


def test_finished_games_are_kept_for_finished_ttl(tmp_path):
    with make_client(tmp_path, finished_ttl=86400.0, computer_delay=0.001) as c:
        service = c.app.state.tables
        played, p0 = create(c, seat1="computer")
        with ws(c, played, p0) as sock:
            sock.receive_json()
            finish([sock])
        sweep = Retention(service.store, service.cache, service.settings).sweep

        async def at(days):
            return await sweep(datetime.now(UTC) + timedelta(days=days))

        assert c.portal.call(at, 0.5) == 0
        assert c.portal.call(at, 2) == 1
        assert c.get(f"/en/g/{played}/replay").status_code == 410  # expired, not unknown
        assert c.get(f"/g/{played}/game.json").status_code == 410

