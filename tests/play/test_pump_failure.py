"""A socket whose sending of events fails is closed with 1011 and says why
(issue 24, item 3): the page reconnects and catches up, instead of sitting
on a socket that only gets heartbeats for the rest of the game."""

from __future__ import annotations

import logging

import pytest
from starlette.websockets import WebSocketDisconnect

from cardwar.bus import LocalBus
from cardwar.tables.listing import CHANNEL
from cardwar.web.frames import Frames

from .helpers import ORIGIN, create, join, make_client, receive, until, ws


def test_a_failing_event_frame_closes_the_socket_with_1011_and_is_logged(
        tmp_path, monkeypatch, caplog):
    with make_client(tmp_path) as c:
        gid, s0 = create(c)
        s1 = join(c, gid, "Bob")
        text = Frames.text
        failures = []

        def fail_once(self, game_id, table, event):
            if event.get("type") == "started" and not failures:
                failures.append(event)
                raise OSError("no space left on device")
            return text(self, game_id, table, event)

        monkeypatch.setattr(Frames, "text", fail_once)
        with caplog.at_level(logging.ERROR, logger="cardwar"), ws(c, gid, s0) as ann:
            seq = ann.receive_json()["seq"]
            ann.send_json({"type": "start"})
            with pytest.raises(WebSocketDisconnect) as closed:
                until(ann, "started")
            assert closed.value.code == 1011
        assert failures
        assert "no space left on device" in caplog.text
        with ws(c, gid, s1) as bob:  # the other pages go on
            assert bob.receive_json()["game"]["status"] == "playing"
        # the page reconnects and gets what it missed
        with ws(c, gid, s0, f"?since={seq}") as ann:
            assert until(ann, "started")["seq"] == seq + 1


def test_a_failing_open_tables_socket_closes_with_1011_and_is_logged(tmp_path, caplog):
    with make_client(tmp_path) as c:
        bus: LocalBus = c.app.state.tables.bus
        with caplog.at_level(logging.ERROR, logger="cardwar"), \
                c.websocket_connect("/ws/tables", headers=ORIGIN) as page:
            assert receive(page)["type"] == "tables"
            # a message that cannot be sent (not JSON): the forwarding fails
            c.portal.call(bus.publish, CHANNEL, {"type": "listed", "seq": None,
                                                 "table": object()})
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(page)
            assert closed.value.code == 1011
        assert "open tables" in caplog.text
