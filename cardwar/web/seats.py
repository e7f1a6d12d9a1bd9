"""What pages and routes share about a request: its seat, its origin, its locale.

* Seat secrets live in an HttpOnly, SameSite=Lax cookie named
  ``cw_<game id>`` (:func:`cookie_name`, :func:`set_seat_cookie`,
  :func:`seat_of`).
* State-changing POSTs and the WebSocket handshake must come from this site
  (:func:`same_origin`: ``Origin`` matching ``Host``, or
  ``Sec-Fetch-Site: same-origin``).
* :func:`service` is the table service of the app serving a request;
  :func:`live_table` the game a request is about: 404 for an unknown id,
  410 ("this game has expired") for a lobby past its time or a removed game
  (404 with :data:`NO_SUCH_GAME`: "this game does not exist", a new one offered).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from urllib.parse import urlsplit

from fastapi import Request, WebSocket
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import HTTPConnection

from cardwar.tables import Table, TableService, hash_secret

from .i18n import LOCALES

COOKIE_MAX_AGE = 60 * 60 * 24 * 60  # 60 days
#: The detail of the 404 of a game that does not exist (its page says so, and
#: offers a new game: :func:`cardwar.web.pages.install_error_pages`).
NO_SUCH_GAME = "no such game"


def service(request: Request | WebSocket) -> TableService:
    """The table service of the app serving ``request`` (set up by its lifespan)."""
    tables: TableService = request.app.state.tables
    return tables


async def live_table(conn: HTTPConnection, game_id: str) -> Table:
    """The table ``game_id`` a page or form is about.

    Raises:
        HTTPException: 410 when it expired (a lobby past ``lobby_ttl``, even
            before the sweep removes it, or a game removed by the sweep), 404
            when there is no such game.
    """
    tables: TableService = conn.app.state.tables
    table = await tables.get(game_id)
    if table is not None and not await tables.lobby_expired(table):
        return table
    if table is not None or await tables.store.was_expired(game_id):
        raise StarletteHTTPException(410, "this game has expired")
    raise StarletteHTTPException(404, NO_SUCH_GAME)


def cookie_name(game_id: str) -> str:
    """The name of the seat cookie of ``game_id``."""
    return f"cw_{game_id}"


_DEFAULT_PORTS = {"http": 80, "https": 443}


def _site(scheme: str, netloc: str) -> tuple[str, str, int | None] | None:
    """(scheme, host, port) of an origin, the default port filled in; None if unreadable."""
    try:
        parts = urlsplit(f"//{netloc}")
        return scheme, (parts.hostname or "").lower(), parts.port or _DEFAULT_PORTS.get(scheme)
    except ValueError:
        return None


def same_origin(conn: HTTPConnection) -> bool:
    """True when a request comes from this site (CSRF and WebSocket Origin check).

    ``Origin`` must name the scheme, host and port the request was sent to
    (``Host``, and the scheme as seen through a trusted proxy: ``wss`` is
    ``https``); without an ``Origin``, ``Sec-Fetch-Site`` must be
    ``same-origin`` (or ``none``: typed by the user). A request with neither
    header is refused.
    """
    headers = conn.headers
    origin = headers.get("origin")
    if origin:
        parts = urlsplit(origin)
        scheme = {"ws": "http", "wss": "https"}.get(conn.url.scheme, conn.url.scheme)
        mine = _site(scheme, headers.get("host") or "")
        return mine is not None and _site(parts.scheme.lower(), parts.netloc) == mine
    return headers.get("sec-fetch-site") in ("same-origin", "none")


def check_locale(locale: str | None) -> None:
    """404 unless ``locale`` is one of the site's (None: no locale in the path).

    Raises:
        HTTPException: 404.
    """
    if locale is not None and locale not in LOCALES:
        raise StarletteHTTPException(404)


def forbidden() -> StarletteHTTPException:
    """The 403 of a cross-site request (shown as the translated error page)."""
    return StarletteHTTPException(403, "cross-site request")


def set_seat_cookie(response: Response, request: Request, game_id: str, secret: str) -> None:
    """Give the browser of ``request`` the seat of ``secret`` in ``game_id``."""
    response.set_cookie(
        cookie_name(game_id), secret, max_age=COOKIE_MAX_AGE, path="/", httponly=True,
        samesite="lax", secure=request.url.scheme == "https",
    )


def seat_of(table: Table, cookies: Mapping[str, str]) -> int | None:
    """The seat at ``table`` of the browser sending ``cookies``, or None."""
    secret = cookies.get(cookie_name(table.id))
    return table.seat_of(hash_secret(secret)) if secret else None


def form_echo(typed: str, limit: int = 100) -> str:
    """``typed`` made fit to show again in a form field: control characters
    (C0, C1: category Cc) removed, cut to ``limit`` characters."""
    return "".join(ch for ch in typed if unicodedata.category(ch) != "Cc")[:limit]
