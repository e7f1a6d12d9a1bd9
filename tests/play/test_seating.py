"""Online games are seated by their seed (RULES.md 9, Seating).

Seed ``war`` seats two players ``[1, 0]``: the creator (lobby seat 0) plays
table seat 1. Seed ``peace`` seats three ``[1, 2, 0]``.
"""

from __future__ import annotations

import json
import shlex

import pytest

from cardwar.cli import main as cli_main
from cardwar.engine import seating

from .helpers import ORIGIN, create, join, make_client, seat_headers, sync, until, ws


@pytest.fixture
def war_seed(tmp_path):
    """Every game is dealt from seed ``war``; computers flip at once."""
    with make_client(tmp_path, testing_stacked_deck=False, testing_seed="war") as c:
        yield c


def test_the_seed_draws_the_seats_and_every_socket_follows_its_player(war_seed):
    c = war_seed
    assert seating("war", 2) == [1, 0]
    gid, s0 = create(c)
    s1 = join(c, gid, "Bob")
    with ws(c, gid, s0) as ann, ws(c, gid, s1) as bob, ws(c, gid) as watcher:
        assert ann.receive_json()["you"] == 0
        assert bob.receive_json()["you"] == 1
        lobby = watcher.receive_json()
        assert lobby["game"]["seating"] is None  # not drawn before the start
        ann.send_json({"type": "start"})
        started = until(watcher, "started")
        assert started["seating"] == [1, 0]
        sync(ann)
        sync(bob)
        ann.send_json({"type": "flip", "battle": 1})
        assert until(watcher, "flipped")["seat"] == 1  # Ann plays table seat 1 now
        bob.send_json({"type": "flip", "battle": 1})
        assert until(watcher, "flipped")["seat"] == 0
        until(watcher, "battle", battle=1)
    with ws(c, gid, s0) as ann, ws(c, gid, s1) as bob:
        state = ann.receive_json()
        assert state["you"] == 1
        assert state["game"]["seating"] == [1, 0]
        assert [s["nickname"] for s in state["seats"]] == ["Bob", "Ann"]
        assert state["game"]["creator"] == 1  # still Ann, wherever she sits
        assert bob.receive_json()["you"] == 0
        # both seats are online: presence followed the players to their new seats
        online = until(ann, "presence", seat=0, online=True)
        assert online["seat"] == 0


def test_the_replay_command_reproduces_the_seated_game(war_seed, capsys):
    c = war_seed
    gid, s0 = create(c, seat1="computer")
    with ws(c, gid, s0) as ann:  # against the computer: started at once
        assert ann.receive_json()["game"]["seating"] == [1, 0]  # the computer plays seat 0
        ann.send_json({"type": "auto", "on": True})
        over = until(ann, "over", seconds=60.0)
    argv = shlex.split(over["command"])
    assert argv[:2] == ["cardwar", "play"]
    capsys.readouterr()
    assert cli_main([*argv[1:], "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["seating"] == [1, 0]
    assert (replayed["winner"], replayed["battles"], replayed["final_counts"]) == (
        over["winner"], over["battles"], over["final_counts"])


def test_a_rematch_is_seated_by_its_own_seed(tmp_path):
    with make_client(tmp_path) as c:  # stacked: the lobby's order, quick games
        gid, s0 = create(c, seat1="computer")
        with ws(c, gid, s0) as ann:  # against the computer: started at once
            ann.receive_json()
            ann.send_json({"type": "auto", "on": True})
            until(ann, "over")
        c.app.state.tables.settings.testing_stacked_deck = False
        c.app.state.tables.settings.testing_seed = "war"
        r = c.post(f"/en/g/{gid}/rematch", headers=seat_headers({gid: s0}, ORIGIN),
                   follow_redirects=False)
        new = r.headers["location"].rsplit("/", 1)[1]
        secret = r.cookies[f"cw_{new}"]
        c.cookies.clear()
        with ws(c, new, secret) as ann:  # the rematch too: started at once, by its seed
            first = ann.receive_json()
            assert first["game"]["seating"] == seating("war", 2)
            assert first["you"] == 1
