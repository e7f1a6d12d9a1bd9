"""Shared helpers of the online-play tests (ASGI test client)."""

from __future__ import annotations

import re
from typing import Any

from fastapi.testclient import TestClient

from cardwar.settings import Settings
from cardwar.web.app import create_app

ORIGIN = {"origin": "http://testserver"}
CARD = re.compile(r"^(?:[2-9TJQKA][CDHS])$")


def make_client(tmp_path: Any, **overrides: Any) -> TestClient:
    """A test client (not yet entered) of a fresh app with a temporary database."""
    values: dict[str, Any] = {"database": f"sqlite+aiosqlite:///{tmp_path / 'games.db'}",
                              "testing_stacked_deck": True, "flip_timeout": 60.0,
                              "computer_delay": 0.01}
    values.update(overrides)
    return TestClient(create_app(Settings(**values)))


def create(c: TestClient, locale: str = "en", **form: str) -> tuple[str, str]:
    """Create a game by the start form; return (game id, creator's secret)."""
    data = {"variant": "peace", "players": "2", "seat1": "friend", "nickname": "Ann", **form}
    r = c.post(f"/{locale}/play", data=data, headers=ORIGIN, follow_redirects=False)
    assert r.status_code == 303, r.text
    gid = r.headers["location"].rsplit("/", 1)[1]
    secret = r.cookies[f"cw_{gid}"]
    c.cookies.clear()
    return gid, secret


def join(c: TestClient, gid: str, nickname: str) -> str:
    """Take a seat in ``gid``; return the seat's secret."""
    r = c.post(f"/en/g/{gid}/join", data={"nickname": nickname}, headers=ORIGIN,
               follow_redirects=False)
    assert r.status_code == 303
    secret = r.cookies[f"cw_{gid}"]
    c.cookies.clear()
    return secret


def ws(c: TestClient, gid: str, secret: str | None = None, query: str = "") -> Any:
    """Open the game's WebSocket as the seat of ``secret`` (or a spectator)."""
    headers = dict(ORIGIN)
    if secret:
        headers["cookie"] = f"cw_{gid}={secret}"
    return c.websocket_connect(f"/ws/g/{gid}{query}", headers=headers)


def until(sock: Any, kind: str, seen: list[dict[str, Any]] | None = None,
          **match: Any) -> dict[str, Any]:
    """Receive messages until one of type ``kind`` (with ``match`` fields) arrives."""
    while True:
        m = sock.receive_json()
        if seen is not None:
            seen.append(m)
        if m["type"] == kind and all(m.get(k) == v for k, v in match.items()):
            return m


def sync(sock: Any, seen: list[dict[str, Any]] | None = None) -> None:
    """Ping and wait for the pong: everything sent before has been handled."""
    sock.send_json({"type": "ping"})
    until(sock, "pong", seen)


def cards_named(message: Any) -> set[str]:
    """Every card code a message names (in any string value, split on spaces)."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, str):
            found.update(t for t in value.replace("/", " ").split() if CARD.match(t))

    walk(message)
    return found


def finish(socks: list[Any]) -> dict[str, Any]:
    """Start a stacked-deck game (``socks[0]`` is its creator) and flip every
    seat until it is over; return the ``over`` message."""
    socks[0].send_json({"type": "start"})
    while True:
        for sock in socks:
            sock.send_json({"type": "flip"})
        if until(socks[0], "battle").get("outcome"):
            break
    return until(socks[0], "over")
