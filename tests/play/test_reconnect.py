"""Staying in the game: catch-up by seq, tabs, heartbeats, device links,
spectators, gone players, rematch, replay and download."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from starlette.websockets import WebSocketDisconnect

from cardwar.engine import Setup, game_json, get_variant, parse_hands

from .helpers import (
    ORIGIN,
    create,
    finish,
    join,
    make_client,
    receive_until_closed,
    seat_headers,
    sync,
    until,
    ws,
)


@pytest.fixture
def seeded(tmp_path):
    """A client whose games are shuffled (long games), timers far away; seed
    ``peace`` seats two players in the lobby's order (RULES.md 9, Seating)."""
    with make_client(tmp_path, testing_stacked_deck=False, testing_seed="peace") as c:
        yield c


@pytest.fixture
def stacked(tmp_path):
    """A client dealing the short stacked deck (games end in two battles)."""
    with make_client(tmp_path) as c:
        yield c


def _battle(w0, w1, n: int) -> None:
    w0.send_json({"type": "flip", "battle": n})
    w1.send_json({"type": "flip", "battle": n})
    until(w0, "battle", battle=n)
    until(w1, "battle", battle=n)


def test_a_returning_page_gets_exactly_what_it_missed(seeded):
    gid, s0 = create(seeded)
    s1 = join(seeded, gid, "Bob")
    with ws(seeded, gid, s0) as w0, ws(seeded, gid, s1) as w1:
        w0.receive_json()
        w1.receive_json()
        w0.send_json({"type": "start"})
        until(w1, "started")
        _battle(w0, w1, 1)
        sync(w1)
        with ws(seeded, gid, s1) as tab:  # Bob's page, about to lose its connection
            last_seen = tab.receive_json()["seq"]
        for n in (2, 3, 4):
            _battle(w0, w1, n)
        w0.send_json({"type": "flip", "battle": 5})
        until(w1, "flipped", battle=5)
        table = seeded.app.state.tables.cache.get(gid)
        with ws(seeded, gid, s1, f"?since={last_seen}") as back:
            got = []
            while True:
                m = back.receive_json()
                got.append(m)
                if m["type"] == "watchers":
                    break
            numbered = [m["seq"] for m in got if m["seq"] is not None]
            assert numbered == list(range(last_seen + 1, table.seq + 1))  # no gap, no repeat
            assert "state" not in {m["type"] for m in got}
            assert [m["battle"] for m in got if m["type"] == "battle"] == [2, 3, 4]
            assert {"presence", "gone", "watchers"} <= {m["type"] for m in got}
            # and the live game carries on from there
            w1.send_json({"type": "flip", "battle": 5})
            assert until(back, "battle")["battle"] == 5


@pytest.mark.parametrize("query", ["?since=999999", "?since=-1", "?since=abc", "?since=",
                                   "?since=0x10", ""])
def test_an_unusable_since_gets_a_full_state(seeded, query):
    gid, s0 = create(seeded)
    with ws(seeded, gid, s0, query) as sock:
        first = sock.receive_json()
    assert first["type"] == "state"
    assert first["you"] == 0


def test_too_many_missed_events_get_a_full_state(seeded, monkeypatch):
    from cardwar.web import socket

    monkeypatch.setattr(socket, "MAX_REPLAY", 2)
    gid, s0 = create(seeded, seat1="computer")  # against the computer: started at once
    with ws(seeded, gid, s0) as sock:
        sock.receive_json()
        sock.send_json({"type": "flip"})
        until(sock, "battle")
    with ws(seeded, gid, s0, "?since=0") as sock:
        assert sock.receive_json()["type"] == "state"


def test_two_tabs_of_one_seat_stay_in_step_and_never_flip_twice(seeded):
    gid, s0 = create(seeded, seat1="friend")
    s1 = join(seeded, gid, "Bob")
    with ws(seeded, gid, s0) as tab_a, ws(seeded, gid, s0) as tab_b, ws(seeded, gid, s1) as w1:
        for sock in (tab_a, tab_b, w1):
            assert sock.receive_json()["you"] in (0, 1)
        tab_a.send_json({"type": "start"})
        until(tab_b, "started")
        tab_a.send_json({"type": "flip", "battle": 1})
        assert until(tab_b, "flipped")["seat"] == 0  # the other tab sees it
        tab_b.send_json({"type": "flip", "battle": 1})  # a repeat: ignored
        sync(tab_b)
        table = seeded.app.state.tables.cache.get(gid)
        assert table.record.flipped == [0]
        w1.send_json({"type": "flip", "battle": 1})
        until(tab_a, "battle", battle=1)
        until(tab_b, "battle", battle=1)
        tab_b.send_json({"type": "flip", "battle": 1})  # a late flip for battle 1
        sync(tab_b)
        assert table.record.flipped == []
        assert table.game.battles == 1


def test_reloading_keeps_the_seat(seeded):
    gid, s0 = create(seeded)
    page = seeded.get(f"/en/g/{gid}", headers=seat_headers({gid: s0}))
    assert 'id="device-link"' in page.text
    for _ in range(2):
        with ws(seeded, gid, s0) as sock:
            assert sock.receive_json()["you"] == 0


def test_heartbeats_ping_and_silent_sockets_are_closed(tmp_path):
    with make_client(tmp_path, heartbeat=0.2) as c:
        gid, s0 = create(c)
        with ws(c, gid, s0) as sock:
            sock.receive_json()
            ping = until(sock, "ping")
            assert ping == {"type": "ping", "seq": None, "id": ping["id"]}  # a seat's: numbered
            sock.send_json({"type": "pong", "id": ping["id"]})
            with pytest.raises(WebSocketDisconnect) as closed:  # never answer again:
                receive_until_closed(sock)  # closed after three heartbeats
            assert closed.value.code == 4000


def test_device_link_moves_the_seat_and_can_be_replaced(seeded):
    gid, s0 = create(seeded)
    page = seeded.get(f"/de/g/{gid}", headers=seat_headers({gid: s0})).text
    link = re.search(r'id="device-link" type="url" value="([^"]+)"', page)[1]
    assert link.endswith(f"/de/g/{gid}/continue/{s0}")
    assert "Auf einem anderen Gerät weiterspielen" in page
    # a spectator's page has no such link
    assert 'id="device-link"' not in seeded.get(f"/de/g/{gid}").text
    # another device opens it and gets the seat
    r = seeded.get(link.replace("http://testserver", ""), follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"] == f"/de/g/{gid}"
    assert r.cookies[f"cw_{gid}"] == s0
    seeded.cookies.clear()
    with ws(seeded, gid, s0) as old_device:
        assert old_device.receive_json()["you"] == 0
        r = seeded.post(f"/de/g/{gid}/link", headers=seat_headers({gid: s0}, ORIGIN),
                        follow_redirects=False)
        assert r.status_code == 303
        fresh = r.cookies[f"cw_{gid}"]
        seeded.cookies.clear()
        assert fresh != s0
        until(old_device, "relinked", seat=0)
        with pytest.raises(WebSocketDisconnect) as closed:
            old_device.receive_json()
        assert closed.value.code == 4001  # the page reloads and is a spectator now
    assert seeded.get(f"/de/g/{gid}/continue/{s0}").status_code == 404
    assert seeded.get(f"/de/g/{gid}/continue/{fresh}", follow_redirects=False).status_code == 303
    with ws(seeded, gid, s0) as sock:
        assert sock.receive_json()["you"] is None
    with ws(seeded, gid, fresh) as sock:
        assert sock.receive_json()["you"] == 0


def test_spectators_watch_live_and_players_see_how_many(seeded):
    gid, s0 = create(seeded)
    s1 = join(seeded, gid, "Bob")
    with ws(seeded, gid, s0) as w0, ws(seeded, gid, s1) as w1:
        assert w0.receive_json()["watchers"] == 0
        w1.receive_json()
        with ws(seeded, gid) as spectator, ws(seeded, gid) as second:
            state = spectator.receive_json()
            assert state["you"] is None
            second.receive_json()
            assert until(w0, "watchers", count=2)["count"] == 2
            w0.send_json({"type": "start"})
            until(spectator, "started")
            w0.send_json({"type": "flip"})
            w1.send_json({"type": "flip"})
            battle = until(spectator, "battle")
            assert battle["battle"] == 1
            assert len(battle["face_up"]) == 2
        assert until(w1, "watchers", count=0)["count"] == 0


def test_a_gone_player_is_played_for_and_takes_over_again(tmp_path):
    # a gone seat flips computer_delay into a battle: long enough for Bob's page to
    # be back before it would flip for him in battle 2
    with make_client(tmp_path, testing_stacked_deck=False, testing_seed="peace",
                     gone_after=0.2, computer_delay=1.0) as c:  # seats in the lobby's order
        gid, s0 = create(c)
        s1 = join(c, gid, "Bob")
        with ws(c, gid, s0) as w0:
            w0.receive_json()
            with ws(c, gid, s1) as w1:
                w1.receive_json()
                w0.send_json({"type": "start"})
                until(w1, "started")
            # Bob has gone: after gone_after he is played for
            assert until(w0, "gone", seat=1)["gone"] is True
            w0.send_json({"type": "flip", "battle": 1})
            flips = []
            until(w0, "battle", flips, battle=1)
            assert {"type": "flipped", "seq": flips[-2]["seq"], "seat": 1, "battle": 1,
                    "by": "gone"} in flips
            # Bob comes back: he flips for himself again
            with ws(c, gid, s1) as back:
                state = back.receive_json()
                assert state["seats"][1]["gone"] is False
                assert state["you"] == 1
                assert until(w0, "gone", seat=1)["gone"] is False
                w0.send_json({"type": "flip", "battle": 2})
                until(back, "flipped", seat=0, battle=2)
                sync(back)
                # back, so not played for: no flip for him is armed but the idle clock's
                service = c.app.state.tables
                assert service.gone(gid) == set()
                assert service.clocks.count(gid) == 1
                assert service.cache.get(gid).record.flipped == [0]
                back.send_json({"type": "flip", "battle": 2})
                until(back, "battle", battle=2)


def test_the_creator_can_hand_a_gone_seat_to_the_computer(tmp_path):
    with make_client(tmp_path, testing_stacked_deck=False, gone_after=0.1) as c:
        gid, s0 = create(c, players="3", seat2="friend")
        s1 = join(c, gid, "Bob")
        s2 = join(c, gid, "Cy")
        with ws(c, gid, s0) as w0, ws(c, gid, s2) as w2:
            w0.receive_json()
            w2.receive_json()
            w0.send_json({"type": "hand_over", "seat": 1})
            assert until(w0, "error")["code"] == "not_gone"  # Bob is not gone (not playing)
            w0.send_json({"type": "start"})
            bob = until(w2, "started")["seating"].index(1)  # Bob's seat at the table
            until(w2, "gone", seat=bob)
            w2.send_json({"type": "hand_over", "seat": bob})
            assert until(w2, "error")["code"] == "not_creator"
            w0.send_json({"type": "hand_over", "seat": bob})
            assert until(w2, "handed")["seat"] == bob
            table = c.app.state.tables.cache.get(gid)
            assert table.record.seats[bob].kind == "computer"
            assert table.record.seats[bob].secret_hash is None
        with ws(c, gid, s1) as bob:  # Bob's secret no longer holds a seat
            assert bob.receive_json()["you"] is None


def test_rematch_offers_the_same_seats_and_options(stacked):
    c = stacked
    gid, s0 = create(c, variant="war", players="3", seat1="friend", seat2="computer",
                     face_down="1")
    s1 = join(c, gid, "Bob")
    with ws(c, gid, s0) as w0, ws(c, gid, s1) as w1:
        w0.receive_json()
        w1.receive_json()
        finish([w0, w1])
        # a spectator or a game still going cannot ask; Bob offers
        assert c.post(f"/en/g/{gid}/rematch", headers=ORIGIN,
                      follow_redirects=False).headers["location"].endswith("?error=rematch")
        r = c.post(f"/en/g/{gid}/rematch", headers=seat_headers({gid: s1}, ORIGIN),
                   follow_redirects=False)
        new = r.headers["location"].rsplit("/", 1)[1]
        b1 = r.cookies[f"cw_{new}"]
        c.cookies.clear()
        offer = until(w0, "rematch")
        assert offer["game"] == new
        assert offer["by"] == 1
        table = c.app.state.tables.cache.get(new)
        assert (table.record.variant, table.record.players, table.record.face_down) == \
            ("war", 3, 1)
        assert [s.kind for s in table.record.seats] == ["reserved", "human", "computer"]
        assert table.record.seats[1].nickname == "Bob"
        assert table.status == "lobby"
        assert table.record.seats[1].secret_hash != c.app.state.tables.cache.get(gid) \
            .record.seats[1].secret_hash
        # Ann joins with one click: her old seat, and the game starts by itself
        r = c.post(f"/en/g/{gid}/rematch", headers=seat_headers({gid: s0}, ORIGIN),
                   follow_redirects=False)
        assert r.headers["location"] == f"/en/g/{new}"
        b0 = r.cookies[f"cw_{new}"]
        c.cookies.clear()
        assert b0 != s0
        assert table.record.seats[0].nickname == "Ann"
        assert table.status == "playing"
        # clicking again just goes to the new game
        r = c.post(f"/en/g/{gid}/rematch", headers=seat_headers({gid: s0, new: b0}, ORIGIN),
                   follow_redirects=False)
        assert r.headers["location"] == f"/en/g/{new}"
    with ws(c, gid, s0) as again:  # a reloaded old page knows the offer
        assert again.receive_json()["game"]["rematch"] == new
    with ws(c, new, b1) as sock:
        assert sock.receive_json()["you"] == 1


def test_replay_page_and_download_match_the_command_line(stacked):
    c = stacked
    gid, s0 = create(c, players="3", seat1="computer", seat2="computer")
    with ws(c, gid, s0) as w0:
        w0.receive_json()
        finish([w0])
    record = c.app.state.tables.cache.get(gid).record
    page = c.get(f"/pl/g/{gid}/replay")
    assert page.status_code == 200
    assert "Następna bitwa" in page.text
    data = json.loads(re.search(
        r'<script type="application/json" id="replay-data">(.*?)</script>', page.text, re.S)[1])
    setup = Setup.from_hands(get_variant("peace"), parse_hands(record.hands))
    assert data["record"] == game_json(setup, log=True)
    assert len(data["record"]["log"]) == record.steps
    assert data["start_counts"] == [len(p) for p in setup.piles]
    r = c.get(f"/g/{gid}/game.json")
    assert r.status_code == 200
    assert "attachment" in r.headers["content-disposition"]
    cli = subprocess.run(
        [str(Path(sys.executable).parent / "cardwar"), "play", "--variant", "peace",
         "--players", "3", "--hands", record.hands, "--log", "--json"],
        capture_output=True, text=True, check=True)
    assert r.text == cli.stdout


def test_a_creator_who_went_away_leaves_the_lobby_to_the_next_player(tmp_path):
    with make_client(tmp_path, testing_stacked_deck=False, gone_after=0.2) as c:
        gid, s0 = create(c, players="3", public="1")
        with ws(c, gid, s0) as ann:
            ann.receive_json()
        s1 = join(c, gid, "Bob")  # Ann closed her tab; a stranger joins her table
        with ws(c, gid, s1) as bob:
            bob.receive_json()
            left = until(bob, "left")
            # Bob moves up to Ann's seat and may start now
            assert (left["seat"], left["creator"], left["seating"]) == (0, 0, [1, 0, 2])
            bob.send_json({"type": "start"})
            until(bob, "started")
        with ws(c, gid, s0) as ann:  # Ann's link no longer holds a seat
            assert ann.receive_json()["you"] is None


def test_the_creator_leaving_the_lobby_passes_the_start_to_who_came_next(tmp_path):
    """Issue 11: Ann (the creator) leaves the lobby. Bob, who came second, moves up to
    her seat and may start; Cy, who came third, moves up too; Dee, a newcomer, sits
    after them and may not start. Every socket (and who is online) follows its seat."""
    with make_client(tmp_path, testing_stacked_deck=False, gone_after=60.0) as c:
        gid, s0 = create(c, players="4", seat1="friend", seat2="friend", seat3="friend")
        s1, s2 = join(c, gid, "Bob"), join(c, gid, "Cy")
        with ws(c, gid, s1) as bob, ws(c, gid, s2) as cy:
            with ws(c, gid, s0) as ann:
                for sock in (ann, bob, cy):
                    sock.receive_json()
                ann.send_json({"type": "leave"})
                left = until(bob, "left")
                assert (left["seat"], left["creator"], left["seating"]) == (0, 0, [1, 2, 0, 3])
                with pytest.raises(WebSocketDisconnect):
                    until(ann, "never")  # Ann's seat is gone: her page reloads (4001)
            service = c.app.state.tables
            deadline = time.monotonic() + 5
            while service.online(gid) != {0, 1} and time.monotonic() < deadline:
                time.sleep(0.02)  # Ann's closed socket is uncounted from her freed seat
            assert service.online(gid) == {0, 1}  # Bob and Cy, in their new seats
            s3 = join(c, gid, "Dee")
            with ws(c, gid, s3) as dee:
                state = dee.receive_json()
                assert (state["you"], state["game"]["creator"]) == (2, 0)
                assert [s["nickname"] for s in state["seats"]] == ["Bob", "Cy", "Dee", None]
                dee.send_json({"type": "start"})
                assert until(dee, "error")["code"] == "not_creator"
                cy.send_json({"type": "start"})
                assert until(cy, "error")["code"] == "not_creator"
                bob.send_json({"type": "start"})
                until(dee, "started")
