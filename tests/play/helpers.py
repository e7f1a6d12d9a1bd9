"""Shared helpers of the online-play tests (ASGI test client)."""

from __future__ import annotations

import queue
import re
import threading
import time
from typing import Any

from fastapi.testclient import TestClient

from cardwar.settings import Settings
from cardwar.web.app import create_app

ORIGIN = {"origin": "http://testserver"}
#: Seconds :func:`until` waits for the message it looks for.
DEADLINE = 20.0
CARD = re.compile(r"^(?:[2-9TJQKA][CDHS])$")


def make_client(tmp_path: Any, **overrides: Any) -> TestClient:
    """A test client (not yet entered) of a fresh app with a temporary database."""
    values: dict[str, Any] = {"database": f"sqlite+aiosqlite:///{tmp_path / 'games.db'}",
                              "testing_stacked_deck": True, "flip_timeout": 60.0,
                              "computer_delay": 0.01, "peace_show": 0.0}
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


def rematch(c: TestClient, gid: str, secret: str) -> tuple[str, str]:
    """The former player of ``secret`` clicks the rematch button: (new game, new secret)."""
    r = c.post(f"/en/g/{gid}/rematch", headers=seat_headers({gid: secret}, ORIGIN),
               follow_redirects=False)
    assert r.status_code == 303, r.headers
    assert "error" not in r.headers["location"], r.headers
    new = r.headers["location"].rsplit("/", 1)[1]
    secret = r.cookies[f"cw_{new}"]
    c.cookies.clear()
    return new, secret


def seat_headers(seats: dict[str, str], base: dict[str, str] | None = None) -> dict[str, str]:
    """The headers of a request from a browser holding these seats (game id ->
    secret): ``base`` (e.g. :data:`ORIGIN`) and the seat cookies in a Cookie
    header (the test client deprecates per-request ``cookies=``)."""
    cookie = "; ".join(f"cw_{gid}={secret}" for gid, secret in seats.items())
    return {**(base or {}), **({"cookie": cookie} if cookie else {})}


def armed(c: TestClient, gid: str) -> int:
    """How many timers ``gid`` has armed once the change in flight is over (its
    lock taken and given back): 0 means nothing will happen by itself, which a
    test shows without waiting to see that nothing comes."""
    service = c.app.state.tables

    async def count() -> int:
        async with service.cache.lock(gid):
            return int(service.clocks.count(gid))

    return int(c.portal.call(count))  # type: ignore[union-attr]


def ws(c: TestClient, gid: str, secret: str | None = None, query: str = "") -> Any:
    """Open the game's WebSocket as the seat of ``secret`` (or a spectator)."""
    headers = dict(ORIGIN)
    if secret:
        headers["cookie"] = f"cw_{gid}={secret}"
    return c.websocket_connect(f"/ws/g/{gid}{query}", headers=headers)


def receive(sock: Any, seconds: float = DEADLINE) -> dict[str, Any]:
    """The next message of ``sock``; AssertionError when none comes within ``seconds``.

    The test client's ``receive_json`` waits forever, so it runs in a thread
    of its own (a daemon: one left waiting after a failure ends with the run).
    """
    box: queue.Queue[tuple[bool, Any]] = queue.Queue()

    def run() -> None:
        try:
            box.put((True, sock.receive_json()))
        except BaseException as exc:  # noqa: BLE001 - handed to the test's thread
            box.put((False, exc))

    threading.Thread(target=run, daemon=True).start()
    try:
        ok, value = box.get(timeout=max(0.0, seconds))
    except queue.Empty:
        raise AssertionError(f"no message within {seconds:.1f} s") from None
    if not ok:
        raise value
    return value


def until(sock: Any, kind: str, seen: list[dict[str, Any]] | None = None,
          seconds: float = DEADLINE, **match: Any) -> dict[str, Any]:
    """Receive messages until one of type ``kind`` (with ``match`` fields) arrives.

    Raises:
        AssertionError: it did not arrive within ``seconds`` (the messages
            that did are in the error).
    """
    deadline = time.monotonic() + seconds
    got: list[dict[str, Any]] = []
    while True:
        try:
            m = receive(sock, deadline - time.monotonic())
        except AssertionError:
            raise AssertionError(f"no {kind} {match or ''} within {seconds} s; "
                                 f"got {[x.get('type') for x in got]}") from None
        got.append(m)
        if seen is not None:
            seen.append(m)
        if m["type"] == kind and all(m.get(k) == v for k, v in match.items()):
            return m


def receive_until_closed(sock: Any, into: list[dict[str, Any]] | None = None,
                         limit: int = 1000) -> None:
    """Receive messages (appended to ``into``) until the server closes ``sock``.

    Raises:
        WebSocketDisconnect: the close, with its ``code``: what the caller expects.
        AssertionError: ``limit`` messages came and the socket is still open.
    """
    for _ in range(limit):
        message = sock.receive_json()
        if into is not None:
            into.append(message)
    raise AssertionError(f"still open after {limit} messages")


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
