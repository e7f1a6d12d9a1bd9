"""A page is shown its table seat, whatever the order of socket accept, start
and snapshot (issue 24, item 1).

Seed ``war`` seats two players ``[1, 0]``: Bob, who came second (lobby seat
1), plays table seat 0. His socket is accepted while the game is in the
lobby, and the creator's start lands (from another process, say) before his
first snapshot is built: the snapshot must say ``you: 0``, and his flips and
presence count for seat 0.
"""

from __future__ import annotations

import pytest

from cardwar.web.socket import Connection

from .helpers import create, join, make_client, sync, until, ws


@pytest.fixture
def war_seed(tmp_path):
    """Every game is dealt from seed ``war`` (seating ``[1, 0]``)."""
    with make_client(tmp_path, testing_stacked_deck=False, testing_seed="war") as c:
        yield c


def test_a_start_between_accept_and_snapshot_shows_the_table_seat(war_seed, monkeypatch):
    c = war_seed
    gid, _s0 = create(c)
    s1 = join(c, gid, "Bob")
    service = c.app.state.tables
    snapshot = Connection.catch_up

    async def start_first(self: Connection, table, since):
        if table.status == "lobby" and self.secret == s1:
            await service.start(gid, 0)  # the creator's start arrives first
        return await snapshot(self, table, since)

    monkeypatch.setattr(Connection, "catch_up", start_first)
    with ws(c, gid, s1) as bob, ws(c, gid) as watcher:
        state = bob.receive_json()
        assert state["game"]["status"] == "playing"
        assert state["game"]["seating"] == [1, 0]
        assert state["you"] == 0
        assert [s["online"] for s in state["seats"]] == [True, False]
        watcher.receive_json()
        sync(bob)
        bob.send_json({"type": "flip", "battle": 1})
        assert until(watcher, "flipped")["seat"] == 0
