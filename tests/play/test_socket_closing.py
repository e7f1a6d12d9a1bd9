"""A page that leaves while its answer is on the way: the socket is closed
quietly (no warning with a traceback in the log, no ``unavailable`` retry)."""

from __future__ import annotations

import logging

from starlette.websockets import WebSocketDisconnected

from cardwar.web.socket import Connection
from play.helpers import create, make_client


class _LeftPage:
    """A WebSocket whose page has gone: every send fails as Starlette's does."""

    def __init__(self) -> None:
        self.sends = 0

    async def send_text(self, text: str) -> None:
        self.sends += 1
        raise WebSocketDisconnected('Cannot call "send" once a close message has been sent.')


def test_an_answer_to_a_page_that_left_closes_the_connection_quietly(tmp_path, caplog):
    with make_client(tmp_path) as c:
        gid, _ = create(c)
        service = c.app.state.tables
        table = c.portal.call(service.get, gid)
        page = _LeftPage()
        conn = Connection(page, service, table, None, None, 20.0)  # type: ignore[arg-type]
        with caplog.at_level(logging.WARNING, logger="cardwar"):
            c.portal.call(conn.handle, "not json")  # answered with an error frame
        assert page.sends == 1  # one try, no "unavailable" frame after it
        assert conn.closed
        assert not [r for r in caplog.records if r.levelno >= logging.WARNING], caplog.text
