"""Online play over HTTP and WebSocket: create, join, the game page, the socket.

Routes (``{locale}`` is one of :data:`cardwar.web.i18n.LOCALES`):

* ``POST /{locale}/play`` - form ``variant, players, seat1..seat3 (friend|computer),
  face_down, nickname, public`` -> 303 to ``/{locale}/g/{id}``; sets the seat
  cookie (``public``: list it on the open tables page, :mod:`cardwar.web.listing`).
* ``GET /{locale}/play?variant=peace`` -> 303 to the variant page's form.
* ``GET /g/{id}`` - the shared link: 307 to the game page in the visitor's language;
  ``GET /g/{id}/replay`` the same for the replay (the shared result links it).
* ``GET /{locale}/g/{id}`` - the game page (lobby, table, end screen).
* ``POST /{locale}/g/{id}/join`` - form ``nickname`` -> 303 back; sets the seat cookie
  (refused: back with ``?error=nickname``, ``taken`` or ``full``).
* ``GET /g/{id}/qr.svg`` - the shared link as a QR code (SVG).
* ``WS /ws/g/{id}[?since=N]`` - live play, served by :mod:`cardwar.web.socket`
  (catch-up from event ``N``, heartbeats, rate limits).

Creating, joining and sockets count against the client address's limits
(:mod:`cardwar.web.guard`: 429 page, or the socket closed with 1008). Client -> server
  messages are validated by :mod:`cardwar.web.protocol` (``flip``, ``auto``,
  ``start``, ``hand_over``, ``react``, ``ping``, ``pong``). Server -> client: messages
  built by :func:`cardwar.tables.view_message` only (``state`` or the missed
  events first, then numbered events; ``error`` frames ``{"type": "error",
  "code": ...}``).

Device links, rematch, replay and download: :mod:`cardwar.web.rooms`.

Seats (cookies) and origin checks: :mod:`cardwar.web.seats`; the strings the
game script shows: :mod:`cardwar.web.strings`.
"""

from __future__ import annotations

import io
from urllib.parse import urlencode

import segno
from fastapi import APIRouter, Form, Request, WebSocket
from fastapi.responses import RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardwar.engine import PEACE, VARIANTS, OptionError
from cardwar.obs import connection_closed, connection_opened
from cardwar.tables import NicknameError, TableError, clean_nickname, hash_secret
from cardwar.tables.rematch import known_rematch
from cardwar.tables.slap_kind import PLAY as SLAPS
from cardwar.tables.slap_kind import table_options

from . import socket
from .guard import guard
from .i18n import negotiate
from .pages import variant_response
from .previews import game_preview
from .rooms import device_link
from .seats import (
    check_locale,
    cookie_name,
    forbidden,
    form_echo,
    live_table,
    same_origin,
    seat_of,
    service,
    set_seat_cookie,
)
from .strings import client_strings, nickname_error, player_name
from .templating import render
from .variants import page_of

router = APIRouter()


# -- pages --------------------------------------------------------------------
@router.get("/{locale}/play", include_in_schema=False)
async def play_redirect(locale: str, variant: str = PEACE.name) -> Response:
    """``/{locale}/play?variant=war`` -> the variant page's start form."""
    check_locale(locale)
    page = page_of(variant if variant in VARIANTS else PEACE.name)
    return RedirectResponse(f"/{locale}/{page.path}#play", status_code=303)


@router.post("/{locale}/play", include_in_schema=False)
async def create_game(
    request: Request,
    locale: str,
    variant: str = Form(PEACE.name),
    players: int = Form(2),
    seat1: str = Form("friend"),
    seat2: str = Form("friend"),
    seat3: str = Form("friend"),
    face_down: int | None = Form(None),
    nickname: str = Form(""),
    public: str = Form(""),
    options: str = Form(""),
    sandwich: str = Form(""),
    marriage: str = Form(""),
    top_bottom: str = Form(""),
    burn: str = Form("1"),
    slap_in: str = Form(""),
    skill: str = Form("normal"),
) -> Response:
    """Create a game from the start form; the creator sits in seat 0. A ticked
    ``public`` lists it on the open tables page; ``locale`` is the creator's language.

    A slap game's table options (:func:`slap_options`): ``sandwich``,
    ``marriage``, ``top_bottom``, ``slap_in`` (checkboxes), ``burn`` (1 or 2),
    the computers' ``skill``; ``options=1`` says the checkboxes were on the form
    (an unticked one then means off), without it the defaults apply."""
    check_locale(locale)
    if not same_origin(request):
        raise forbidden()
    await guard(request).check(request, "create")
    if variant not in VARIANTS:
        raise StarletteHTTPException(400, "unknown variant")
    v = VARIANTS[variant]
    testing = v.play == SLAPS and service(request).settings.testing_slap_online
    if not v.online and not testing:  # the slap games: not seated online yet
        raise StarletteHTTPException(400, f"{variant} cannot be played online yet")
    table_opts = None
    if v.play == SLAPS:
        try:
            table_opts = slap_options(variant, bool(options), sandwich=sandwich,
                                      marriage=marriage, top_bottom=top_bottom, burn=burn,
                                      slap_in=slap_in, skill=skill)
        except (OptionError, ValueError) as exc:
            raise StarletteHTTPException(400, str(exc)) from None
    for number, kind in ((1, seat1), (2, seat2), (3, seat3)):
        if kind not in ("friend", "computer"):
            raise StarletteHTTPException(400, f"seat{number} must be friend or computer")
    computers = tuple(s for s, kind in ((1, seat1), (2, seat2), (3, seat3))
                      if s < players and kind == "computer")
    try:
        name = clean_nickname(nickname)
    except NicknameError as exc:  # the form again, with what was typed and why it was refused
        return variant_response(request, locale, VARIANTS[variant], status_code=400,
                                start_error=nickname_error(locale, exc.code),
                                start_nickname=form_echo(nickname))
    try:
        table, secret = await service(request).create(
            variant, players, face_down=face_down, computers=computers, nickname=name,
            public=bool(public), locale=locale, options=table_opts)
    except (OptionError, ValueError) as exc:
        raise StarletteHTTPException(400, str(exc)) from None
    await service(request).start_if_alone(table)  # against the computer: no lobby
    response = RedirectResponse(f"/{locale}/g/{table.id}", status_code=303)
    set_seat_cookie(response, request, table.id, secret)
    return response


#: What a ticked checkbox may send.
_TICKED = frozenset({"on", "1", "true"})


def _box(name: str, value: str, *, on_form: bool, default: bool) -> bool:
    """A checkbox of the start form: ticked, unticked (when the form had it), or the default.

    Raises:
        ValueError: a value no checkbox sends.
    """
    if value == "":
        return False if on_form else default
    if value.lower() not in _TICKED:
        raise ValueError(f"{name} must be on or absent, not {value[:20]!r}")
    return True


def slap_options(variant: str, on_form: bool, *, sandwich: str, marriage: str,
                 top_bottom: str, burn: str, slap_in: str, skill: str) -> dict[str, object]:
    """A slap game's table options from the start form's fields
    (:func:`cardwar.tables.slap_kind.table_options`); ``on_form``: the form had the
    checkboxes (an unticked one is off), else missing ones take their defaults.

    Raises:
        ValueError, OptionError: a value the form cannot send, or an option the
            game does not have (Slapjack: sandwich off, marriage, top-and-bottom, burn 2).
    """
    if burn not in ("1", "2"):
        raise ValueError(f"burn must be 1 or 2, not {burn[:20]!r}")
    return table_options(
        variant, sandwich=_box("sandwich", sandwich, on_form=on_form and variant == "ers",
                               default=True),
        marriage=_box("marriage", marriage, on_form=on_form, default=False),
        top_bottom=_box("top_bottom", top_bottom, on_form=on_form, default=False),
        burn=int(burn), slap_in=_box("slap_in", slap_in, on_form=on_form, default=True),
        skill=skill)


@router.get("/g/{game_id}", include_in_schema=False)
async def shared_link(request: Request, game_id: str) -> Response:
    """The link people share: the game page in the visitor's own language."""
    locale = negotiate(request.headers.get("accept-language"))
    return RedirectResponse(f"/{locale}/g/{game_id}", status_code=307,
                            headers={"Vary": "Accept-Language"})


@router.get("/g/{game_id}/replay", include_in_schema=False)
async def shared_replay(request: Request, game_id: str) -> Response:
    """A shared replay link: the replay in the visitor's own language."""
    locale = negotiate(request.headers.get("accept-language"))
    return RedirectResponse(f"/{locale}/g/{game_id}/replay", status_code=307,
                            headers={"Vary": "Accept-Language"})


@router.get("/g/{game_id}/qr.svg", include_in_schema=False)
async def qr_code(request: Request, game_id: str) -> Response:
    """The shared link as an SVG QR code."""
    await live_table(request, game_id)
    link = str(request.base_url).rstrip("/") + f"/g/{game_id}"
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False,
                                     dark="#000", light="#fff")
    return Response(out.getvalue(), media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})


@router.get("/{locale}/g/{game_id}", include_in_schema=False)
async def game_page(request: Request, locale: str, game_id: str) -> Response:
    """The game page: lobby, table and end screen, driven by game.js."""
    check_locale(locale)
    table = await live_table(request, game_id)
    seat = seat_of(table, request.cookies)
    free = table.open_seats()
    can_join = seat is None and table.status == "lobby" and bool(free)
    default_nickname = player_name(locale, (free[0] + 1) if free else 1)
    if request.query_params.get("error") in ("nickname", "taken"):
        default_nickname = form_echo(request.query_params.get("name", default_nickname))
    link = str(request.base_url).rstrip("/") + f"/g/{game_id}"
    offered = await known_rematch(service(request), table)
    rematch = await service(request).get(offered) if offered else None
    secret = request.cookies.get(cookie_name(game_id))
    config = {
        "id": game_id, "locale": locale, "socket": f"/ws/g/{game_id}", "link": link,
        "variant_page": f"/{locale}/{page_of(table.variant).path}#play",
        "heartbeat": service(request).settings.heartbeat,
        "flip_timeout": service(request).settings.flip_timeout,
        # the shortest time a peace is shown (the fast pace's): the page holds it as long
        "peace_hold": service(request).peace_shown("fast"),
        "peace_holds": {pace: service(request).peace_shown(pace)
                        for pace in ("slow", "normal", "fast")},
        "rematch": f"/{locale}/g/{game_id}/rematch", "replay": f"/{locale}/g/{game_id}/replay",
        "download": f"/g/{game_id}/game.json", "locale_prefix": f"/{locale}/g/",
        "share": f"{link}/replay",
        # reloading after the rematch started without us: watch it, never "join"
        "rematch_late": rematch is not None and rematch.status != "lobby"
        and seat_of(rematch, request.cookies) is None,
    }
    creator = table.creator
    inviter = table.record.seats[creator].nickname if creator is not None else None
    response = render(
        request, "play/game.html", locale, page=page_of(table.variant),
        table=table, seat=seat, can_join=can_join, default_nickname=default_nickname,
        inviter=inviter,
        link=link, variant=table.variant, active=table.variant.name,
        page_strings=client_strings(locale, table.variant.name),
        page_config=config,
        show_alternates=False, preview=game_preview(request, table),
        device_link=device_link(request, locale, game_id, secret) if seat is not None and secret
        else None,
    )
    response.headers["Cache-Control"] = "no-store"  # the page may hold the device link
    return response


@router.post("/{locale}/g/{game_id}/join", include_in_schema=False)
async def join_game(
    request: Request, locale: str, game_id: str, nickname: str = Form("")
) -> Response:
    """Take the first free seat with ``nickname``; back to the game page.

    A bad or taken nickname comes back as ``?error=nickname`` / ``?error=taken``
    with ``&name=`` what was typed; a full or started table as ``?error=full``.
    """
    check_locale(locale)
    if not same_origin(request):
        raise forbidden()
    tables = service(request)
    table = await live_table(request, game_id)
    back = RedirectResponse(f"/{locale}/g/{game_id}", status_code=303)
    if seat_of(table, request.cookies) is not None:
        return back
    full = RedirectResponse(f"/{locale}/g/{game_id}?error=full", status_code=303)
    if table.status != "lobby" or not table.open_seats():
        return full  # no seat to take, whatever the nickname
    await guard(request).check(request, "join")
    typed = urlencode({"name": form_echo(nickname)})
    try:
        name = clean_nickname(nickname)
    except NicknameError as exc:
        why = "computer" if exc.code == "computer" else "nickname"
        return RedirectResponse(f"/{locale}/g/{game_id}?error={why}&{typed}", status_code=303)
    try:
        _, secret = await tables.join(game_id, name)
    except TableError as exc:
        if exc.code == "name_taken":
            return RedirectResponse(f"/{locale}/g/{game_id}?error=taken&{typed}",
                                    status_code=303)
        return full if exc.code in ("no_seat", "not_lobby") else back
    set_seat_cookie(back, request, game_id, secret)
    return back


# -- the socket ---------------------------------------------------------------
@router.websocket("/ws/g/{game_id}")
async def game_socket(ws: WebSocket, game_id: str) -> None:
    """Live play for one connection (protocol in the module docstring)."""
    if not same_origin(ws):
        await ws.close(code=1008)
        return
    tables = service(ws)
    table = await tables.get(game_id)
    if table is None or await tables.lobby_expired(table):
        await ws.close(code=1008)
        return
    secret = ws.cookies.get(cookie_name(game_id))
    seat = table.seat_of(hash_secret(secret)) if secret else None
    seated = seat is not None
    slot = await guard(ws).open_socket(ws, game_id, seated=seated)
    if slot is None:  # too many
        await ws.close(code=1008)
        return
    connection_opened()
    try:  # catch-up, heartbeats, validated messages: cardwar.web.socket (issue 5)
        await socket.serve(ws, tables, table, seat, secret, tables.settings.heartbeat,
                           ws.app.state.sockets)
    finally:
        connection_closed()
        await guard(ws).close_socket(ws, game_id, slot, seated=seated)
