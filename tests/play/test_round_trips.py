"""A seat's heartbeats are numbered and their round trips measured (RULES.md 11.6:
the latency slaps are judged with); a spectator's are not; a wrong answer counts
for nothing and is no error."""

from __future__ import annotations

from typing import Any

from cardwar.web.socket import Connection

from .helpers import create, make_client, sync, until, ws


def connection(c: Any, seat: int | None) -> Connection:
    """The app's open connection of ``seat`` (None: a spectator's)."""
    clock = c.app.state.sockets.heartbeats(c.app.state.tables.settings.heartbeat)
    found = [conn for conn in clock if isinstance(conn, Connection) and conn.seat == seat]
    assert len(found) == 1, found
    return found[0]


def test_a_seats_heartbeats_are_numbered_and_their_round_trips_counted(tmp_path):
    with make_client(tmp_path, heartbeat=0.2) as c:
        gid, s0 = create(c)
        with ws(c, gid, s0) as sock:
            sock.receive_json()
            first = until(sock, "ping")
            sock.send_json({"type": "pong", "id": first["id"] + 50})  # never sent: ignored
            sock.send_json({"type": "pong"})  # an old page's answer: ignored
            seen: list[dict[str, Any]] = []
            sync(sock, seen)
            assert not [m for m in seen if m["type"] == "error"]
            trips = connection(c, 0).trips
            assert trips is not None
            assert trips.trips == ()
            sock.send_json({"type": "pong", "id": first["id"]})
            second = until(sock, "ping")
            assert second["id"] > first["id"]
            sock.send_json({"type": "pong", "id": second["id"]})
            sock.send_json({"type": "pong", "id": second["id"]})  # twice: counted once
            sync(sock)
            assert len(trips.trips) == 2
            assert all(t >= 0 for t in trips.trips)
            assert trips.latency_ms == min(150, min(trips.trips) // 2)


def test_a_spectators_heartbeats_are_not_numbered(tmp_path):
    with make_client(tmp_path, heartbeat=0.2) as c:
        gid, _ = create(c)
        with ws(c, gid) as sock:
            sock.receive_json()
            assert until(sock, "ping") == {"type": "ping", "seq": None}
            assert connection(c, None).trips is None


def test_a_pong_with_a_bad_id_is_a_bad_message(tmp_path):
    with make_client(tmp_path) as c:
        gid, s0 = create(c)
        with ws(c, gid, s0) as sock:
            sock.receive_json()
            for bad in ("7", 0, -1, 2**60, True):
                sock.send_json({"type": "pong", "id": bad})
                assert until(sock, "error")["code"] == "bad_message"
