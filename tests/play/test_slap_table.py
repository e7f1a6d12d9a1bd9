"""Egyptian Ratscrew and Slapjack online through the app (ASGI test client): the
start form's options (4xx on bad ones), the options in the snapshot, the
``put`` and ``slap`` messages and their refusals, the burst of heartbeats on
connecting, a game against the computer to its end and its replay command."""

from __future__ import annotations

import json
import shlex
from typing import Any

import pytest

from cardwar.cli import main as cli_main

from .helpers import ORIGIN, create, join, make_client, receive, sync, until, ws


def slap_client(tmp_path: Any, **overrides: Any) -> Any:
    return make_client(tmp_path, testing_slap_online=True, **overrides)


def test_the_slap_games_are_not_offered_online_until_their_page_is(tmp_path):
    with make_client(tmp_path) as c:
        r = c.post("/en/play", data={"variant": "ers", "players": "2", "nickname": "Ann"},
                   headers=ORIGIN, follow_redirects=False)
        assert r.status_code == 400
        assert "online" in r.text


@pytest.mark.parametrize("form", [
    {"burn": "3"},
    {"burn": "two"},
    {"marriage": "yes please"},
    {"skill": "superb"},
    {"variant": "slapjack", "marriage": "on"},
    {"variant": "slapjack", "burn": "2"},
    {"variant": "slapjack", "options": "1", "top_bottom": "on"},
])
def test_bad_table_options_are_refused_with_400(tmp_path, form):
    data = {"variant": "ers", "players": "2", "nickname": "Ann", "seat1": "friend", **form}
    with slap_client(tmp_path) as c:
        r = c.post("/en/play", data=data, headers=ORIGIN, follow_redirects=False)
        assert r.status_code == 400, r.text


def test_the_options_chosen_are_stored_and_in_the_snapshot(tmp_path):
    with slap_client(tmp_path) as c:
        # options=1: the checkboxes were on the form, so sandwich and slap_in are off
        gid, secret = create(c, variant="ers", options="1", marriage="on", top_bottom="on",
                             burn="2", skill="sharp")
        with ws(c, gid, secret) as sock:
            state = until(sock, "state")
        assert state["game"]["options"] == {
            "sandwich": False, "marriage": True, "top_bottom": True, "burn": 2,
            "slap_in": False, "card_limit": 10_000, "skill": "sharp"}
        assert state["game"]["patterns"] == ["double", "marriage", "top_bottom"]
        # without options=1 the defaults
        gid, secret = create(c, variant="slapjack")
        with ws(c, gid, secret) as sock:
            state = until(sock, "state")
        assert state["game"]["options"] == {"slap_in": True, "card_limit": 10_000,
                                            "skill": "normal"}
        assert state["game"]["patterns"] == ["jack"]


def test_a_seated_page_gets_five_numbered_heartbeats_at_once(tmp_path):
    """The heartbeat is 20 s; the five pings of the burst come on connecting."""
    with slap_client(tmp_path) as c:
        gid, secret = create(c, variant="ers")
        with ws(c, gid, secret) as sock:
            ids = []
            for _ in range(50):
                m = receive(sock)
                if m["type"] == "ping":
                    ids.append(m["id"])
                    sock.send_json({"type": "pong", "id": m["id"]})
                if len(ids) == 5:
                    break
            assert ids == [1, 2, 3, 4, 5]
            sync(sock)  # the last pong handled
            conns = [conn for conn in c.app.state.sockets.heartbeats(
                c.app.state.tables.settings.heartbeat) if conn.game_id == gid]
            assert len(conns[0].trips.trips) == 5  # the latency is known


def test_put_and_slap_and_their_refusals(tmp_path):
    with slap_client(tmp_path) as c:
        gid, ann = create(c, variant="ers")
        bea = join(c, gid, "Bea")
        with ws(c, gid, ann) as s0, ws(c, gid, bea) as s1, ws(c, gid) as watcher:
            s0.send_json({"type": "slap", "pile": 0})
            assert until(s0, "error")["code"] == "not_playing"  # the lobby
            s0.send_json({"type": "start"})
            until(s1, "started")
            s1.send_json({"type": "put", "card": 1})
            assert until(s1, "error")["code"] == "not_your_turn"
            watcher.send_json({"type": "slap", "pile": 0})
            assert until(watcher, "error")["code"] == "not_seated"
            s0.send_json({"type": "slap", "pile": 1})  # no card down yet
            assert until(s0, "error")["code"] == "bad_message"
            s0.send_json({"type": "slap", "pile": -1})
            assert until(s0, "error")["code"] == "bad_message"
            s0.send_json({"type": "put", "card": 1})
            first = until(s1, "move")
            assert first["events"][0]["card"] == "2C"
            s0.send_json({"type": "put", "card": 2})  # seat 1 is to move: refused
            assert until(s0, "error")["code"] == "not_your_turn"
            s1.send_json({"type": "put", "card": 5})  # stale: ignored
            sync(s1)
            s1.send_json({"type": "put", "card": 2})
            until(s0, "move", cards_played=2)
            # the seat that put the double down slaps it: not to move, still its pile
            s1.send_json({"type": "slap", "pile": 2})
            decided = until(watcher, "move", slaps=1)
            assert decided["moves"][0]["move"] == ["slap", 1, 2]
            assert decided["events"][0]["verdict"] == "valid"
            timing = decided["moves"][0]["timing"]
            assert timing["reaction"] == timing["arrived"] - timing["sent"] - 2 * timing["latency"]
            assert decided["counts"] == [3, 5]
            assert decided["to_move"] == 1


def test_against_the_computer_to_the_end_and_the_command_replays_it(tmp_path, capsys):
    with slap_client(tmp_path) as c:
        gid, ann = create(c, variant="ers", seat1="computer", skill="relaxed")
        with ws(c, gid, ann) as sock:
            state = until(sock, "state")
            assert state["game"]["status"] == "playing"
            sock.send_json({"type": "put", "card": 1})
            seen: list[dict[str, Any]] = []
            until(sock, "move", seen, cards_played=2)  # the computer's double
            sock.send_json({"type": "slap", "pile": 2})
            for _ in range(400):
                m = receive(sock)
                seen.append(m)
                if m["type"] == "over":
                    break
                if m["type"] == "ping" and "id" in m:
                    sock.send_json({"type": "pong", "id": m["id"]})
                if m["type"] == "move" and m["to_move"] == 0 and m["window"] is None:
                    sock.send_json({"type": "put", "card": m["cards_played"] + 1})
            over = seen[-1]
            assert over["type"] == "over"
        assert over["decided_slaps"].split(",")[0] == "2:0"  # the relaxed computer: slower
        assert "--slaps" in over["command"]
        assert cli_main([*shlex.split(over["command"])[1:], "--json"]) == 0
        replayed = json.loads(capsys.readouterr().out)
        assert replayed["final_counts"] == over["final_counts"]
        assert replayed["winner"] == over["winner"]
        record = c.get(f"/g/{gid}/game.json").json()
        assert record["decided_slaps"] == over["decided_slaps"]
        assert record["judged"][0]["verdict"] == "valid"
        assert record["judged"][0]["seat"] == 0


def test_a_computer_slaps_a_double_even_once_it_is_covered(tmp_path):
    """The human covers the computer's double at once with the next card: the double
    is still on the table, so the computer's slap on it, after its reaction, takes it."""
    with slap_client(tmp_path) as c:
        gid, ann = create(c, variant="ers", seat1="computer")
        with ws(c, gid, ann) as sock:
            until(sock, "state")
            sock.send_json({"type": "put", "card": 1})
            until(sock, "move", cards_played=2)
            sock.send_json({"type": "put", "card": 3})  # covers the double at once
            until(sock, "move", cards_played=3)
            taken = until(sock, "move", slaps=1)
        assert taken["moves"][0]["move"] == ["slap", 1, 2]
        assert taken["moves"][0]["timing"]["computer"] is True
        assert taken["events"][0] == {"event": "slap", "seat": 1, "pile": 2,
                                      "verdict": "valid", "pattern": "double"}
        assert taken["pile"] == 0
