"""A seat's socket is the truth for where it is counted (issue 24, "use the
socket's own heartbeat"): at each heartbeat it says where it sits, so a
connection counted at another seat (a seating move and a socket's count that
crossed) is counted at its own again, and the pages are told."""

from __future__ import annotations

from typing import Any

from cardwar.web.socket import Connection

from .helpers import create, make_client, until, ws


def _connection(c: Any, seat: int) -> Connection:
    clock = c.app.state.sockets.heartbeats(c.app.state.tables.settings.heartbeat)
    found = [conn for conn in clock if isinstance(conn, Connection) and conn.seat == seat]
    assert len(found) == 1, found
    return found[0]


def test_a_connection_counted_at_another_seat_is_counted_at_its_own_at_its_heartbeat(
        tmp_path):
    with make_client(tmp_path, heartbeat=0.2) as c:
        service = c.app.state.tables
        gid, s0 = create(c)
        with ws(c, gid, s0) as sock:
            sock.receive_json()
            until(sock, "ping")
            conn = _connection(c, 0)
            # counted at seat 1, as a socket counted before a move it missed would be
            assert c.portal.call(service.presence.recount, gid, conn, 1) is True
            assert service.online(gid) == {1}
            told = until(sock, "presence")
            assert (told["seat"], told["online"]) == (0, False)
            for _ in range(20):  # its next heartbeat puts it right
                told = until(sock, "presence")
                if told["seat"] == 0 and told["online"]:
                    break
            else:
                raise AssertionError("seat 0 never said online again")
            assert service.online(gid) == {0}
