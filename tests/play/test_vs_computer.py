"""Issue 22: a game against the computer through the real app - no lobby, a
rematch that starts at once and keeps each seat's choices, "Finish the game",
no reactions bar, computers named by their lobby seat; and the pages' details
(a game that does not exist, the invitation, no JavaScript)."""

from __future__ import annotations

import pytest

from cardwar.tables import hash_secret

from .helpers import create, join, make_client, rematch, seat_headers, until, ws


@pytest.fixture
def stacked(tmp_path):
    """A client dealing the short stacked deck (games end in two battles)."""
    with make_client(tmp_path) as c:
        yield c


@pytest.fixture
def seeded(tmp_path):
    """A client dealing a real shuffle of a fixed seed (a long game)."""
    with make_client(tmp_path, testing_stacked_deck=False, testing_seed="issue22-table-server",
                     computer_delay=0.05) as c:
        yield c


def _ann_and_bob(c) -> tuple[str, str, str]:
    """Ann, Bob and a computer in a lobby: (game id, Ann's secret, Bob's)."""
    gid, s0 = create(c, players="3", seat1="friend", seat2="computer")
    return gid, s0, join(c, gid, "Bob")


def _play_out(sock) -> dict:
    """Flip until the game is over; the ``over`` message."""
    while True:
        sock.send_json({"type": "flip"})
        if until(sock, "battle").get("outcome"):
            return until(sock, "over")


def test_against_the_computer_the_game_starts_at_once_without_a_lobby(stacked):
    c = stacked
    gid, s0 = create(c, players="3", seat1="computer", seat2="computer")
    assert c.app.state.tables.cache.get(gid).status == "playing"
    with ws(c, gid, s0) as sock:
        first = sock.receive_json()
    assert first["type"] == "state"
    assert first["game"]["status"] == "playing"
    assert first["game"]["vs_computer"] is True  # the page shows no reactions bar
    page = c.get(f"/en/g/{gid}", headers=seat_headers({gid: s0})).text
    assert 'id="lobby" class="lobby" hidden' in page  # straight to the table
    # with a friend's seat there is a lobby to wait in, and reactions
    friends, f0 = create(c, players="3", seat1="computer", seat2="friend")
    with ws(c, friends, f0) as sock:
        first = sock.receive_json()
    assert first["game"]["status"] == "lobby"
    assert first["game"]["vs_computer"] is False


def test_a_rematch_against_the_computer_starts_at_once_and_keeps_pace_and_auto_flip(stacked):
    c = stacked
    gid, s0 = create(c, seat1="computer")
    with ws(c, gid, s0) as sock:
        sock.receive_json()
        sock.send_json({"type": "pace", "pace": "fast"})
        sock.send_json({"type": "auto", "on": True})
        until(sock, "over")  # on auto-flip the stacked game plays itself out
    new, a0 = rematch(c, gid, s0)
    with ws(c, new, a0) as sock:
        first = sock.receive_json()
    # no lobby again: started at once (on fast auto-flip the short deal may be over already)
    assert first["game"]["status"] in ("playing", "over")
    assert first["game"]["seating"]
    me = first["seats"][first["you"]]
    assert me["pace"] == "fast"
    assert me["auto_flip"] is True


def test_a_rematch_with_a_friend_keeps_each_players_pace_and_auto_flip(stacked):
    c = stacked
    gid, s0, s1 = _ann_and_bob(c)
    with ws(c, gid, s0) as w0, ws(c, gid, s1) as w1:
        for sock in (w0, w1):
            sock.receive_json()
        w1.send_json({"type": "pace", "pace": "slow"})
        w1.send_json({"type": "auto", "on": True})
        until(w1, "auto_flip")
        w0.send_json({"type": "start"})
        until(w0, "started")
        w0.send_json({"type": "auto", "on": True})
        until(w0, "over")
    new, _ = rematch(c, gid, s0)
    table = c.app.state.tables.cache.get(new)
    assert table.status == "lobby"  # Bob's seat is kept for him
    _, b1 = rematch(c, gid, s1)
    table = c.app.state.tables.cache.get(new)
    bob = table.seat_of(hash_secret(b1))
    ann = next(s.seat for s in table.record.seats if s.nickname == "Ann")
    assert table.status == "playing"  # every seat taken: it started by itself
    assert (table.record.seats[bob].pace, table.record.seats[bob].auto_flip) == ("slow", True)
    assert (table.record.seats[ann].pace, table.record.seats[ann].auto_flip) == ("normal", True)


def test_finish_the_game_plays_to_the_result_at_once_when_no_other_human_plays(seeded):
    c = seeded
    gid, s0 = create(c, variant="war", players="3", seat1="computer", seat2="computer")
    with ws(c, gid, s0) as sock:
        first = sock.receive_json()
        assert first["game"]["status"] == "playing"
        sock.send_json({"type": "flip"})
        until(sock, "battle")
        sock.send_json({"type": "skip"})  # still in play: "Finish the game"
        assert until(sock, "fast_forward")["seat"] == first["you"]
        over = until(sock, "over", seconds=60)
    assert over["outcome"] in ("win", "draw")
    table = c.app.state.tables.cache.get(gid)
    assert table.status == "over"
    assert table.steps > 1
    assert table.skipping


def test_finish_the_game_is_refused_while_another_human_plays(stacked):
    c = stacked
    gid, s0, s1 = _ann_and_bob(c)
    with ws(c, gid, s0) as w0, ws(c, gid, s1) as w1:
        for sock in (w0, w1):
            sock.receive_json()
        w0.send_json({"type": "start"})
        until(w0, "started")
        w1.send_json({"type": "auto", "on": True})  # on auto-flip, Bob is still here
        until(w0, "auto_flip")
        w0.send_json({"type": "skip"})
        assert until(w0, "error")["code"] == "not_alone"
        assert not c.app.state.tables.cache.get(gid).skipping


def test_computers_keep_their_lobby_numbers_when_the_seats_are_drawn(seeded):
    c = seeded
    gid, s0 = create(c, players="4", seat1="computer", seat2="computer", seat3="computer")
    with ws(c, gid, s0) as sock:
        state = sock.receive_json()
    order = state["game"]["seating"]
    assert order != [0, 1, 2, 3]  # the seed drew other seats (else the test shows nothing)
    assert [s["number"] for s in state["seats"]] == [p + 1 for p in order]
    computers = sorted(s["number"] for s in state["seats"] if s["kind"] == "computer")
    assert computers == [2, 3, 4]  # "Computer 2, 3 and 4" as in the lobby


def test_a_mistyped_game_link_says_the_game_does_not_exist(stacked):
    c = stacked
    for locale, title, button in (("en", "This game does not exist", "Start a new game"),
                                  ("it", "Questa partita non esiste", "Inizia una nuova partita")):
        r = c.get(f"/{locale}/g/NoSuchGameAtAll1")
        assert r.status_code == 404
        assert title in r.text
        assert button in r.text
        assert f'href="/{locale}/#play"' in r.text
        assert "Page not found" not in r.text
    other = c.get("/en/no-such-page")  # any other address: the generic page
    assert other.status_code == 404
    assert "Page not found" in other.text
    assert "This game does not exist" not in other.text


def test_the_join_page_says_who_invites_to_what_and_works_without_javascript_notice(stacked):
    c = stacked
    gid, _ = create(c, players="3", seat1="friend", seat2="friend", nickname="Zoë")
    page = c.get(f"/en/g/{gid}").text
    assert "Zoë invites you to a game of Peace for 3 players." in page
    assert "<noscript>" in page
    assert "switched off here" in page
    pl = c.get(f"/pl/g/{gid}").text
    assert "Zoë zaprasza cię do partii" in pl
    assert "dla 3 graczy" in pl
