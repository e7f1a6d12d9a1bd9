"""A rematch keeps the former players' seats for them, through the real app."""

from __future__ import annotations

import json
import re

import pytest

from cardwar.tables import hash_secret

from .helpers import (
    ORIGIN,
    create,
    finish,
    join,
    make_client,
    rematch,
    seat_headers,
    until,
    ws,
)


@pytest.fixture
def stacked(tmp_path):
    """A client dealing the short stacked deck (games end in two battles)."""
    with make_client(tmp_path) as c:
        yield c


def _strings(page: str) -> dict:
    found = re.search(r'<script type="application/json" id="play-strings">(.*?)</script>',
                      page, re.S)
    assert found
    return json.loads(found.group(1))


def _stranger_is_refused(c, new: str, nickname: str) -> None:
    """The public join of ``new`` answers as for a full table: back with
    ``?error=full`` (every seat is taken), no seat."""
    page = c.get(f"/en/g/{new}")
    assert page.status_code == 200
    assert 'name="nickname"' not in page.text
    r = c.post(f"/en/g/{new}/join", data={"nickname": nickname}, headers=ORIGIN,
               follow_redirects=False)
    assert r.status_code == 303
    assert r.headers["location"] == f"/en/g/{new}?error=full"
    assert f"cw_{new}" not in r.cookies
    c.cookies.clear()


def test_a_stranger_cannot_take_a_seat_kept_for_a_former_player(stacked):
    c = stacked
    gid, s0 = create(c, players="3", seat1="friend", seat2="friend")
    s1 = join(c, gid, "Bob")
    s2 = join(c, gid, "Cy")
    with ws(c, gid, s0) as w0, ws(c, gid, s1) as w1, ws(c, gid, s2) as w2:
        for sock in (w0, w1, w2):
            sock.receive_json()
        finish([w0, w1, w2])
        new, a0 = rematch(c, gid, s0)  # Ann offers
        assert until(w1, "rematch")["game"] == new
    table = c.app.state.tables.cache.get(new)
    assert [(s.kind, s.nickname) for s in table.record.seats] == [
        ("human", "Ann"), ("reserved", "Bob"), ("reserved", "Cy")]
    # a spectator of the old game saw the offer: the seats are not theirs, nor the names
    for nickname in ("Zed", "Bob", "cy"):
        _stranger_is_refused(c, new, nickname)
    assert [s.kind for s in table.record.seats] == ["human", "reserved", "reserved"]
    with ws(c, new) as spectator:
        state = spectator.receive_json()
        assert state["you"] is None
        assert state["game"]["status"] == "lobby"
        assert [(s["kind"], s["nickname"], s["online"]) for s in state["seats"]] == [
            ("human", "Ann", False), ("reserved", "Bob", False), ("reserved", "Cy", False)]
        # Bob comes along with one click on the old game's page: his own seat
        r = c.post(f"/en/g/{gid}/rematch", headers=seat_headers({gid: s1}, ORIGIN),
                   follow_redirects=False)
        assert r.headers["location"] == f"/en/g/{new}"
        b1 = r.cookies[f"cw_{new}"]
        c.cookies.clear()
        joined = until(spectator, "joined")
        assert (joined["seat"], joined["kind"], joined["nickname"]) == (1, "human", "Bob")
        assert table.status == "lobby"  # Cy's seat is still kept: no start yet
        _stranger_is_refused(c, new, "Zed")
        with ws(c, new, b1) as bob:
            assert bob.receive_json()["you"] == 1
        # Cy comes too: every seat is taken, the rematch starts by itself
        assert rematch(c, gid, s2)[0] == new
        until(spectator, "started")
    assert [(s.kind, s.nickname) for s in table.record.seats] == [
        ("human", "Ann"), ("human", "Bob"), ("human", "Cy")]
    assert table.status == "playing"
    assert table.seat_of(hash_secret(a0)) == 0


def test_the_creator_may_start_before_everyone_came(stacked):
    c = stacked
    gid, s0 = create(c)
    s1 = join(c, gid, "Bob")
    with ws(c, gid, s0) as w0, ws(c, gid, s1) as w1:
        w0.receive_json()
        w1.receive_json()
        finish([w0, w1])
    new, a0 = rematch(c, gid, s0)
    page = c.get(f"/en/g/{new}", headers=seat_headers({new: a0}))
    assert _strings(page.text)["reserved_seat"] == "Kept for {name}"
    c.cookies.clear()
    for locale, text in (("de", "Für {name} freigehalten"), ("it", "Riservato a {name}")):
        assert _strings(c.get(f"/{locale}/g/{new}").text)["reserved_seat"] == text
    _stranger_is_refused(c, new, "Zed")
    with ws(c, new, a0) as w0:
        state = w0.receive_json()
        assert state["you"] == 0
        assert state["game"]["creator"] == 0
        assert (state["seats"][1]["kind"], state["seats"][1]["nickname"]) == ("reserved", "Bob")
        w0.send_json({"type": "start"})
        joined = until(w0, "joined")
        assert (joined["seat"], joined["kind"], joined["nickname"]) == (1, "computer", None)
        until(w0, "started")
    # Bob is too late: the rematch has started without him
    r = c.post(f"/en/g/{gid}/rematch", headers=seat_headers({gid: s1}, ORIGIN),
               follow_redirects=False)
    assert r.headers["location"] == f"/en/g/{gid}?error=rematch"
