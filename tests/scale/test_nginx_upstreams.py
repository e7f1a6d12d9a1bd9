"""The shipped nginx config never takes both processes for down (issue 23).

Two backends that answer with their own port stand in for the two
``cardwar serve`` processes (what is tested is nginx's choice of upstream,
with the shipped deploy/nginx config, as ``bench/proxy.py`` runs it). The
scenario is a rolling restart: process B stops and comes back, and within
nginx's old ``fail_timeout`` (10 s) process A stops. With ``max_fails=3
fail_timeout=10s`` nginx had taken B for down while it was away, then took A
for down too, and answered every request 502 ("no live upstreams") for up to
10 s though B was up; and a restarted owner got its games back only
``fail_timeout`` later. With ``max_fails=0`` every request goes to a process
that is up, and a game's requests go back to its owner as soon as it answers.
"""

from __future__ import annotations

import http.server
import socketserver
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from .conftest import free_port, proxy, require_nginx


class _Answer(http.server.BaseHTTPRequestHandler):
    """Answers every GET with the port it listens on."""

    def do_GET(self) -> None:
        body = str(self.server.server_address[1]).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


class _Backend(socketserver.ThreadingMixIn, http.server.HTTPServer):
    allow_reuse_address = True
    daemon_threads = True


class Backends:
    """Backends on fixed ports that can be stopped and started again."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.running: dict[int, _Backend] = {}

    def up(self, port: int) -> None:
        server = _Backend(("127.0.0.1", port), _Answer)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.running[port] = server

    def down(self, port: int) -> None:
        server = self.running.pop(port)
        server.shutdown()
        server.server_close()


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[str, Backends]]:
    """(nginx's base URL, the two backends behind it)."""
    require_nginx()
    backends = Backends([free_port(), free_port()])
    for port in backends.ports:
        backends.up(port)
    port = free_port()
    nginx = proxy.start(tmp_path / "nginx", port, backends.ports)
    try:
        yield f"http://127.0.0.1:{port}", backends
    finally:
        proxy.stop(nginx)
        for port in list(backends.running):
            backends.down(port)


def _served_by(base: str, path: str) -> int | str:
    """The port of the backend that answered ``path``, or the HTTP status."""
    r = httpx.get(base + path, timeout=5)
    return int(r.text) if r.status_code == 200 else f"HTTP {r.status_code}"


def _game_on(base: str, port: int) -> str:
    """A game id that nginx's consistent hash sends to ``port``."""
    for n in range(200):
        if _served_by(base, f"/g/game{n}") == port:
            return f"game{n}"
    raise AssertionError(f"no game id of 200 hashed to {port}")


def test_a_rolling_restart_never_answers_502_and_the_owner_takes_its_games_back(site):
    base, backends = site
    a, b = backends.ports
    on_a, on_b = _game_on(base, a), _game_on(base, b)

    backends.down(b)
    # B's game, and pages spread by least_conn: answered by A, B tried and refused
    assert {_served_by(base, f"/g/{on_b}") for _ in range(4)} == {a}
    assert {_served_by(base, "/en/peace") for _ in range(6)} == {a}
    backends.up(b)
    assert _served_by(base, f"/g/{on_b}") == b  # back to its owner at once
    assert _served_by(base, f"/ws/g/{on_b}") == b

    backends.down(a)  # well within the old fail_timeout (10 s)
    assert [_served_by(base, f"/g/{on_a}") for _ in range(3)] == [b] * 3
    assert [_served_by(base, f"/en/g/{on_a}") for _ in range(3)] == [b] * 3
    assert {_served_by(base, "/en/peace") for _ in range(6)} == {b}
    backends.up(a)
    assert _served_by(base, f"/g/{on_a}") == a
    assert _served_by(base, f"/ws/g/{on_a}") == a
    assert {_served_by(base, "/en/war") for _ in range(6)} == {a, b}  # both in use again
