"""The open tables page and its live socket (ASGI test client)."""

from __future__ import annotations

import json
import re

import pytest
from starlette.websockets import WebSocketDisconnect

from cardwar.web.i18n import LOCALES
from cardwar.web.socket import MESSAGE_RATE

from .helpers import ORIGIN, create, join, make_client, receive, until


@pytest.fixture
def client(tmp_path):
    with make_client(tmp_path) as c:
        yield c


def _listed(client, locale: str = "en") -> list[dict]:
    page = client.get(f"/{locale}/tables")
    assert page.status_code == 200
    config = re.search(r'id="tables-config">(.*?)</script>', page.text, re.S)
    assert config
    return json.loads(config.group(1))["tables"]


def test_only_tables_ticked_public_are_listed(client):
    hidden, _ = create(client)
    listed, _ = create(client, locale="de", public="1", variant="war", players="3")
    tables = _listed(client)
    assert [t["id"] for t in tables] == [listed]
    assert tables[0]["locale"] == "de"
    assert tables[0]["free"] == 2
    assert hidden not in client.get("/en/tables").text


@pytest.mark.parametrize("locale", LOCALES)
def test_the_page_and_the_navigation_in_every_language(client, locale):
    page = client.get(f"/{locale}/tables")
    assert page.status_code == 200
    assert f'href="/{locale}/tables" aria-current="page"' in page.text
    home = client.get(f"/{locale}/")
    assert f'href="/{locale}/tables"' in home.text
    form = client.get(f"/{locale}/peace").text
    assert 'name="public"' in form


def test_the_socket_lists_then_follows_joins(client):
    gid, _ = create(client, public="1")
    with client.websocket_connect("/ws/tables", headers=ORIGIN) as sock:
        first = until(sock, "tables")
        assert [t["id"] for t in first["tables"]] == [gid]
        other, _ = create(client, public="1", players="3")
        listed = until(sock, "listed")
        assert listed["table"]["id"] == other
        assert listed["table"]["free"] == 2
        join(client, other, "Bob")
        assert until(sock, "listed")["table"]["free"] == 1
        join(client, gid, "Cleo")  # full: off the list
        assert until(sock, "unlisted") == {"type": "unlisted", "seq": None, "id": gid}
    assert [t["id"] for t in _listed(client)] == [other]


def test_the_socket_refuses_other_sites(client):
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(
            "/ws/tables", headers={"origin": "http://evil.example"}) as sock:
        sock.receive_json()


def test_a_page_that_floods_the_socket_is_disconnected(client):
    with client.websocket_connect("/ws/tables", headers=ORIGIN) as sock:
        until(sock, "tables")
        for _ in range(MESSAGE_RATE[0] + 1):
            sock.send_json({"type": "pong"})
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(sock, 5)
        assert closed.value.code == 1008
