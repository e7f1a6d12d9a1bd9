"""Limits for strangers on the internet: hosts, client addresses, rates, sockets.

* :func:`install_guards` wraps the app in Starlette's
  :class:`~starlette.middleware.trustedhost.TrustedHostMiddleware` (any
  ``Host`` not allowed: 400, WebSocket upgrades included) and uvicorn's
  :class:`~uvicorn.middleware.proxy_headers.ProxyHeadersMiddleware`: the
  client address and scheme come from ``X-Forwarded-For`` /
  ``X-Forwarded-Proto`` only when the peer is one of
  ``settings.trusted_proxies`` (nginx on this machine); a client's own
  header is ignored.
* :class:`Guard` (one per app, ``app.state.guard``) counts per client
  address: games created, joins and rematches per minute (over the limit:
  :func:`Guard.check` raises 429, shown as the translated error page), and
  sockets open at once, per address and per game (:meth:`Guard.open_socket`).

The per-minute counts go to the bus's :class:`~cardwar.bus.Limiter` and the
sockets per address to its :class:`~cardwar.bus.Slots`: in Redis when it is
configured, so N processes allow each limit once, not N times
(:mod:`cardwar.bus.limits`, :mod:`cardwar.bus.slots`: a socket's slot is
given back when it closes, and expires when its process dies). The sockets
per game (spectators) are counted in this process, while a socket is open.
"""

from __future__ import annotations

import contextlib
import math
import socket
from collections import Counter
from typing import Literal

from fastapi import FastAPI
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from cardwar.bus import Limiter, LocalLimiter, LocalSlots, Slots
from cardwar.obs import limited
from cardwar.settings import Settings, names

#: What the per-minute limits count.
Action = Literal["create", "join", "rematch"]


def client_address(conn: HTTPConnection) -> str:
    """The client's address (the proxy's forwarded one when trusted), or ``"-"``."""
    return conn.client.host if conn.client is not None else "-"


class Guard:
    """Per-address limits (settings in :class:`~cardwar.settings.Settings`).

    Attributes:
        limiter: where the per-minute limits are counted (the app's lifespan sets
            the bus's, shared by every process on Redis).
        slots: where the sockets per address are counted (likewise).
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._rates: dict[Action, int] = {
            "create": settings.creates_per_minute, "join": settings.joins_per_minute,
            "rematch": settings.rematches_per_minute}
        self.limiter: Limiter = LocalLimiter()
        self.slots: Slots = LocalSlots()
        self._by_address: Counter[str] = Counter()
        self._by_game: Counter[str] = Counter()

    async def check(self, conn: HTTPConnection, action: Action) -> None:
        """Count one ``action`` for the client of ``conn``.

        Raises:
            HTTPException: 429 when the address is over its per-minute limit, with
                ``Retry-After`` (seconds until the limit lets one more through).
        """
        wait = await self.limiter.hit(f"{action}:{client_address(conn)}",
                                      self._rates[action], 60.0)
        if wait:
            limited(action)
            # the bucket leaks one request every 60 / rate seconds
            raise StarletteHTTPException(429, f"too many {action} requests",
                                         headers={"Retry-After": str(max(1, math.ceil(wait)))})

    async def open_socket(self, conn: HTTPConnection, game: str | None, *,
                          seated: bool = False) -> str | None:
        """Count a socket opening: its slot's id (for :meth:`close_socket`), or
        None (nothing counted) when its address, or ``game`` for a spectator,
        has as many open as allowed.

        Args:
            game: the game watched, or None for a socket of no game (the open
                tables' list): only the address counts.
            seated: the socket is a seated player's: never refused for the
                game's limit (spectators cannot lock the players out), and not
                counted in it.
        """
        address = client_address(conn)
        watched = None if seated else game  # the game whose spectators count
        slot = None
        if watched is None or self._by_game[watched] < self.settings.sockets_per_game:
            slot = await self.slots.take(f"sockets:{address}",
                                         self.settings.sockets_per_address)
        if slot is None:
            limited("socket")
            return None
        self._by_address[address] += 1
        if watched is not None:
            self._by_game[watched] += 1
        return slot

    async def close_socket(self, conn: HTTPConnection, game: str | None, slot: str, *,
                           seated: bool = False) -> None:
        """A socket counted by :meth:`open_socket` (with the same arguments, and
        the ``slot`` it returned) closed."""
        address = client_address(conn)
        keys = [(self._by_address, address)]
        if game is not None and not seated:
            keys.append((self._by_game, game))
        for counter, key in keys:
            counter[key] -= 1
            if counter[key] <= 0:
                del counter[key]
        await self.slots.give(f"sockets:{address}", slot)

    def sockets(self) -> int:
        """Sockets open now (counted ones)."""
        return sum(self._by_address.values())


#: Bind addresses meaning "every address of this machine".
WILDCARDS = ("0.0.0.0", "::")


def own_addresses() -> list[str]:
    """This machine's host names and addresses (IPv6 in brackets, as in a ``Host``):
    what the devices of a local network use to reach ``serve --host 0.0.0.0``."""
    found = {socket.gethostname(), socket.getfqdn()}
    with contextlib.suppress(OSError):
        for *_, sockaddr in socket.getaddrinfo(socket.gethostname(), None):
            found.add(str(sockaddr[0]))
    for family, probe in ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1")):
        # the address of the route out (a UDP "connect" sends nothing)
        with contextlib.suppress(OSError), socket.socket(family, socket.SOCK_DGRAM) as s:
            s.connect((probe, 9))
            found.add(str(s.getsockname()[0]))
    return sorted(f"[{a}]" if ":" in a else a for a in found if a)


def guard(conn: HTTPConnection) -> Guard:
    """The :class:`Guard` of the app serving ``conn``."""
    found: Guard = conn.app.state.guard
    return found


def install_guards(app: FastAPI, settings: Settings, bind: str | None = None) -> None:
    """Add the host check and the trusted-proxy headers to ``app`` (outermost
    middleware: call after every other ``add_middleware``) and its :class:`Guard`.

    ``bind``: the address ``serve`` listens on, allowed as a host by default
    (every address, ``0.0.0.0`` or ``::``: this machine's names and addresses,
    :func:`own_addresses`).
    """
    app.state.guard = Guard(settings)
    hosts = settings.hosts(bind)
    if bind in WILDCARDS and not names(settings.allowed_hosts):
        hosts += own_addresses()  # serving the local network: this machine's names
    app.add_middleware(ProxyHeadersMiddleware,
                       trusted_hosts=names(settings.trusted_proxies) or "127.0.0.1")
    app.add_middleware(TrustedHostMiddleware, allowed_hosts=hosts, www_redirect=False)
