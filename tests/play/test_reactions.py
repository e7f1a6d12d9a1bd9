"""Reactions over the game's WebSocket: keys not text, per-seat limits, spectators."""

from __future__ import annotations

import pytest

from cardwar.tables.events import REACTIONS
from cardwar.tables.reactions import REACTION_RATE

from .helpers import create, join, make_client, sync, until
from .helpers import ws as open_ws


@pytest.fixture
def client(tmp_path):
    with make_client(tmp_path) as c:
        yield c


def test_a_reaction_reaches_every_page_as_a_key(client):
    gid, ann = create(client)
    bob = join(client, gid, "Bob")
    with open_ws(client, gid, ann) as a, open_ws(client, gid, bob) as b, \
            open_ws(client, gid) as watcher:
        for sock in (a, b, watcher):
            until(sock, "state")
        b.send_json({"type": "react", "key": "gg"})
        for sock in (a, b, watcher):
            m = until(sock, "reaction")
            assert m == {"type": "reaction", "seq": None, "seat": 1, "key": "gg"}
        watcher.send_json({"type": "react", "key": "clap"})  # spectators react too
        for sock in (a, b, watcher):
            assert until(sock, "reaction") == {"type": "reaction", "seq": None, "seat": None,
                                               "key": "clap"}


@pytest.mark.parametrize("message", [
    {"type": "react", "key": "Good game"},          # words, not a key
    {"type": "react", "key": "<script>"},
    {"type": "react"},
    {"type": "react", "key": "gg", "text": "hello"},  # nothing else rides along
    {"type": "react", "key": ["gg"]},
])
def test_anything_but_a_preset_key_is_refused(client, message):
    gid, ann = create(client)
    with open_ws(client, gid, ann) as a:
        until(a, "state")
        a.send_json(message)
        assert until(a, "error")["code"] == "bad_message"
        seen: list[dict] = []
        sync(a, seen)
        assert not [m for m in seen if m["type"] == "reaction"]


def test_reactions_are_limited_per_seat_with_a_clear_refusal(client):
    gid, ann = create(client)
    bob = join(client, gid, "Bob")
    count = REACTION_RATE[0]
    # two pages of the same seat share its limit
    with open_ws(client, gid, ann) as a1, open_ws(client, gid, ann) as a2, \
            open_ws(client, gid, bob) as b, open_ws(client, gid) as w1, \
            open_ws(client, gid) as w2:
        for sock in (a1, a2, b, w1, w2):
            until(sock, "state")
        for i in range(count):
            (a1 if i % 2 else a2).send_json({"type": "react", "key": REACTIONS[i]})
        for sock in (a1, a2):
            sync(sock)
        a1.send_json({"type": "react", "key": "gg"})
        assert until(a1, "error")["code"] == "too_many_reactions"
        seen: list[dict] = []
        sync(b, seen)
        assert [m["key"] for m in seen if m["type"] == "reaction"] == list(REACTIONS[:count])
        # the other seat and each spectator's connection have limits of their own
        b.send_json({"type": "react", "key": "again"})
        until(a1, "reaction", seat=1, key="again")
        for _ in range(count):
            w1.send_json({"type": "react", "key": "wow"})
        w1.send_json({"type": "react", "key": "wow"})
        assert until(w1, "error")["code"] == "too_many_reactions"
        w2.send_json({"type": "react", "key": "sad"})
        until(b, "reaction", seat=None, key="sad")


def test_invalid_reactions_are_refused_before_the_limit_and_never_count(client):
    # issue 24, item 8: what is not a reaction is refused as such, and the seat
    # still has its whole budget afterwards
    gid, s0 = create(client)
    with open_ws(client, gid, s0) as a:
        a.receive_json()
        for bad in ({"type": "react", "key": "nope"}, {"type": "react", "key": "x" * 2000},
                    {"type": "react", "key": "clap", "extra": 1}, {"type": "react", "key": 7},
                    {"type": "react"}):
            a.send_json(bad)
            assert until(a, "error")["code"] == "bad_message"
        for _ in range(REACTION_RATE[0]):
            a.send_json({"type": "react", "key": "clap"})
            until(a, "reaction")
        a.send_json({"type": "react", "key": "clap"})
        assert until(a, "error")["code"] == "too_many_reactions"
