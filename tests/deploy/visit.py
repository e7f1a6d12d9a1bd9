"""A site installed by these tests, used as a person would: pages, games, WebSockets.

* :func:`create_game`, :func:`join_game` - the real forms (``Origin`` set);
* :class:`Socket` - a WebSocket client (asyncio's, in a thread of its own);
* :class:`Player` - one page's WebSocket: ``send``, ``until`` an event;
* :func:`finish_against_computer` - a game played to its end;
* :func:`check_every_page` - every page kind in every locale answers and
  is in that language (the translation of a sentence it shows, looked up
  in the catalogs).
"""

from __future__ import annotations

import asyncio
import html
import json
import os
import re
import signal
import ssl
import subprocess
import threading
import time
from collections.abc import Coroutine, Iterator
from contextlib import ExitStack, contextmanager, suppress
from functools import cache
from pathlib import Path
from typing import Any, Self, TypeVar

import httpx2 as httpx
from babel.messages.pofile import read_po
from websockets.asyncio.client import ClientConnection, connect

from cardwar.web.i18n import LOCALES, babel_locale

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")
_loop: asyncio.AbstractEventLoop | None = None
_loop_lock = threading.Lock()


def _run(coro: Coroutine[Any, Any, T], seconds: float) -> T:
    """Run ``coro`` on the sockets' event loop (one thread for all of them); its
    result, or its exception. Raises TimeoutError after ``seconds``."""
    global _loop
    with _loop_lock:
        if _loop is None:
            _loop = asyncio.new_event_loop()
            threading.Thread(target=_loop.run_forever, name="test-sockets", daemon=True).start()
    return asyncio.run_coroutine_threadsafe(coro, _loop).result(seconds)


class Socket:
    """A WebSocket client for tests written without asyncio: ``send``, ``recv``, ``close``.

    It is websockets' asyncio client on an event loop in a thread of its own,
    which keeps reading (and answering pings) between calls, as a browser does.
    Not websockets' sync client: over TLS that one reads and writes one OpenSSL
    connection from two threads at once (a thread always in ``recv``), which
    OpenSSL does not allow. With it, now and then, a handshake that the server
    accepted and nginx answered (101 in its log) never reached the guide's
    test, and its reading thread hung on until the server closed the socket.

    Raises (from the constructor): what ``websockets.asyncio.client.connect``
    raises (``InvalidStatus`` for a refused handshake, TimeoutError, OSError).
    """

    def __init__(self, url: str, *, tls: ssl.SSLContext | None = None,
                 headers: dict[str, str] | None = None, open_timeout: float = 10,
                 close_timeout: float = 2) -> None:
        self.close_timeout = close_timeout

        async def opened() -> ClientConnection:
            return await connect(url, ssl=tls, additional_headers=headers,
                                 open_timeout=open_timeout, close_timeout=close_timeout)

        self.ws = _run(opened(), open_timeout + 5)

    def send(self, text: str) -> None:
        _run(self.ws.send(text), 10)

    def recv(self, timeout: float) -> str:
        """The next message (text frames only here); TimeoutError after ``timeout`` s."""
        async def received() -> str:
            async with asyncio.timeout(timeout):
                message = await self.ws.recv()
            assert isinstance(message, str), message
            return message

        return _run(received(), timeout + 5)

    def close(self) -> None:
        _run(self.ws.close(), self.close_timeout + 5)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def create_game(base: str, *, players: int = 2, computer: bool = False,
                nickname: str = "Ann", **client: Any) -> tuple[str, str]:
    """Create a game through the start form; return ``(game id, seat secret)``.
    ``client``: options of the ``httpx.Client`` (e.g. ``verify``)."""
    with httpx.Client(timeout=10, **client) as http:
        r = http.post(f"{base}/en/play", headers={"Origin": base}, data={
        "variant": "peace", "players": str(players),
            "seat1": "computer" if computer else "friend", "nickname": nickname})
    assert r.status_code == 303, (r.status_code, r.text[:500])
    gid = r.headers["location"].rsplit("/", 1)[1]
    return gid, r.cookies[f"cw_{gid}"]


def join_game(base: str, gid: str, nickname: str = "Bob", **client: Any) -> str:
    """Take the free seat of ``gid``; return the seat secret."""
    with httpx.Client(timeout=10, **client) as http:
        r = http.post(f"{base}/en/g/{gid}/join", headers={"Origin": base},
                      data={"nickname": nickname})
    assert r.status_code == 303, (r.status_code, r.text[:500])
    return r.cookies[f"cw_{gid}"]


class Player:
    """One game page's WebSocket (through whatever ``base`` is: nginx or a process)."""

    def __init__(self, base: str, gid: str, secret: str,
                 tls: ssl.SSLContext | None = None) -> None:
        self.base, self.gid, self.secret, self.tls = base, gid, secret, tls
        self._socket = ExitStack()
        self.seq = 0
        self.battles: dict[int, Any] = {}
        self.ws: Any = None  # a Socket once connected
        self.state: dict[str, Any] = {}

    def connect(self) -> dict[str, Any]:
        """Open the socket; return the ``state`` it starts with."""
        url = self.base.replace("http", "ws", 1) + f"/ws/g/{self.gid}"
        self.ws = self._socket.enter_context(Socket(url, tls=self.tls, headers={
            "Origin": self.base, "Cookie": f"cw_{self.gid}={self.secret}"}))
        self.state = self.until("state")
        return self.state

    def send(self, kind: str, **fields: Any) -> None:
        self.ws.send(json.dumps({"type": kind, **fields}))

    def until(self, kind: str, seconds: float = 20, **match: Any) -> dict[str, Any]:
        """Read until a ``kind`` event (with ``match``) or ``over``; events must come
        once each, in ``seq`` order."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            assert left > 0, f"no {kind} {match} within {seconds} s (seq {self.seq})"
            message = json.loads(self.ws.recv(timeout=left))
            seq = message.get("seq")
            if message["type"] == "ping":  # as a page does: a silent socket is closed
                self.ws.send(json.dumps({"type": "pong"}))
            if message["type"] == "state":
                self.seq = max(self.seq, message["seq"])
            elif seq is not None:
                assert seq == self.seq + 1, (message, self.seq)
                self.seq = seq
            if message["type"] == "battle":
                self.battles[message["battle"]] = message
            if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                return dict(message)
            if message["type"] == "over":
                return dict(message)

    def close(self) -> None:
        with suppress(Exception):
            self._socket.close()


def finish_against_computer(base: str) -> tuple[str, dict[str, Any]]:
    """A 2-player Peace game against the computer, flipped automatically to its
    end (the server's computer delay should be short); returns (id, ``over``)."""
    gid, secret = create_game(base, computer=True)
    me = Player(base, gid, secret)
    state = me.connect()
    # every other seat is the computer's: the game started when it was created
    assert state["game"]["status"] == "playing", state["game"]["status"]
    me.send("auto", on=True)
    over = me.until("over", seconds=120)
    me.close()
    assert over["type"] == "over", over
    return gid, over


@cache
def catalog(locale: str) -> dict[str, str]:
    """msgid -> translation of both domains of ``locale`` (the repository's .po)."""
    found: dict[str, str] = {}
    folder = ROOT / "cardwar" / "locales" / babel_locale(locale) / "LC_MESSAGES"
    for po in sorted(folder.glob("*.po")):
        with po.open("rb") as fh:
            for m in read_po(fh, locale=babel_locale(locale)):
                if isinstance(m.id, str) and m.id and isinstance(m.string, str):
                    found[m.id] = m.string or m.id
    return found


#: Page kinds: (path, expected status, sentences the page shows, in English).
def page_kinds(lobby: str, finished: str | None) -> dict[str, tuple[str, int, tuple[str, ...]]]:
    kinds = {
        "home": ("/{locale}/", 200, ("Skip to main content",)),
        "peace rules": ("/{locale}/peace", 200, ("Skip to main content",)),
        "war rules": ("/{locale}/war", 200, ("Skip to main content",)),
        "lobby": (f"/{{locale}}/g/{lobby}", 200, ("Invite your friends",)),
        "not found": ("/{locale}/no-such-page", 404, ("Page not found",)),
    }
    if finished:
        kinds["finished game"] = (f"/{{locale}}/g/{finished}", 200,
                                  ("You are watching this game.",))
        kinds["replay"] = (f"/{{locale}}/g/{finished}/replay", 200, ("Download the game",))
    return kinds


def _text(page: str) -> str:
    page = re.sub(r"<script\b.*?</script>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page))


def check_every_page(base: str, lobby: str, finished: str | None, **client: Any) -> int:
    """Every page kind in every locale: the expected status, ``<html lang>`` and
    the translations of its sentences; also a refused request's error page.
    ``client``: options of the ``httpx.Client`` (e.g. ``verify``). Returns how
    many pages were checked; raises AssertionError listing the problems."""
    with httpx.Client(timeout=10, **client) as http:
        return _check_pages(http, base, lobby, finished)


def _check_pages(http: httpx.Client, base: str, lobby: str, finished: str | None) -> int:
    get, post = http.get, http.post
    problems, count = [], 0
    for locale in LOCALES:
        words = catalog(locale)
        pages = {name: (get(base + path.format(locale=locale)), status, sentences)
                 for name, (path, status, sentences) in page_kinds(lobby, finished).items()}
        refused = post(f"{base}/{locale}/play", headers={"Origin": "http://elsewhere.example"},
                       data={"variant": "peace"})
        pages["refused request"] = (refused, 403, ("Something went wrong",))
        for name, (r, status, sentences) in pages.items():
            count += 1
            where = f"{name} ({locale}, {r.request.url.path})"
            if r.status_code != status:
                problems.append(f"{where}: status {r.status_code}, not {status}")
                continue
            if f'<html lang="{locale}">' not in r.text:
                problems.append(f"{where}: not <html lang=\"{locale}\">")
            text = _text(r.text)
            for sentence in sentences:
                if words[sentence] not in text:
                    problems.append(f"{where}: no {words[sentence]!r} ({sentence!r})")
    assert not problems, "\n".join(problems)
    return count


@contextmanager
def serving(cardwar: Path, folder: Path, port: int, **env: str) -> Iterator[str]:
    """``cardwar serve`` of an installed cardwar on 127.0.0.1:``port`` with an SQLite
    file in ``folder`` (the folder is its working directory); yields the base URL."""
    log = folder / f"serve-{port}.log"
    settings = {"CARDWAR_COMPUTER_DELAY": "0.001", "CARDWAR_PEACE_SHOW": "0.001",
                **{f"CARDWAR_{k.upper()}": v for k, v in env.items()}}
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [str(cardwar), "serve", "--host", "127.0.0.1", "--port", str(port),
             "--database", f"sqlite:///{folder}/cardwar.db"],
            cwd=folder, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            env={"PATH": "/usr/bin:/bin", "HOME": str(folder), **settings})
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(base, proc, log)
        yield base
    finally:
        stop(proc)


def wait_healthy(base: str, proc: subprocess.Popen[bytes] | None = None,
                 log: Path | None = None, seconds: float = 60) -> dict[str, Any]:
    """Poll ``/healthz`` until it answers 200; return its JSON."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the server exited: {log.read_text()[-3000:] if log else ''}")
        with suppress(httpx.HTTPError):
            r = httpx.get(f"{base}/healthz", timeout=2)
            if r.status_code == 200:
                return dict(r.json())
        time.sleep(0.2)
    raise AssertionError(f"{base}/healthz did not answer within {seconds} s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a process started in its own session (and its children)."""
    if proc.poll() is None:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)


def replayed(cardwar: Path, seed: str, variant: str = "peace", players: int = 2) -> dict[str, Any]:
    """``cardwar play --seed`` of the installed cardwar, as JSON."""
    done = subprocess.run([str(cardwar), "play", "--variant", variant, "--players",
                           str(players), "--seed", seed, "--json"],
                          capture_output=True, text=True, timeout=60, check=True)
    return dict(json.loads(done.stdout))
