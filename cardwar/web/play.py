"""Online play over HTTP and WebSocket: create, join, the game page, the socket.

Routes (``{locale}`` is one of :data:`cardwar.web.i18n.LOCALES`):

* ``POST /{locale}/play`` - form ``variant, players, seat1..seat3 (friend|computer),
  face_down, nickname`` -> 303 to ``/{locale}/g/{id}``; sets the seat cookie.
* ``GET /{locale}/play?variant=peace`` -> 303 to the variant page's form.
* ``GET /g/{id}`` - the shared link: 307 to the game page in the visitor's language.
* ``GET /{locale}/g/{id}`` - the game page (lobby, table, end screen).
* ``POST /{locale}/g/{id}/join`` - form ``nickname`` -> 303 back; sets the seat cookie
  (refused: back with ``?error=nickname``, ``taken`` or ``full``).
* ``GET /g/{id}/qr.svg`` - the shared link as a QR code (SVG).
* ``WS /ws/g/{id}[?since=N]`` - live play, served by :mod:`cardwar.web.socket`
  (catch-up from event ``N``, heartbeats, rate limits). Client -> server
  messages are validated by :mod:`cardwar.web.protocol` (``flip``, ``auto``,
  ``start``, ``hand_over``, ``ping``, ``pong``). Server -> client: messages
  built by :func:`cardwar.tables.view_message` only (``state`` or the missed
  events first, then numbered events; ``error`` frames ``{"type": "error",
  "code": ...}``).

Device links, rematch, replay and download: :mod:`cardwar.web.rooms`.

Seat secrets live in an HttpOnly, SameSite=Lax cookie named ``cw_<game id>``.
State-changing POSTs and the WebSocket handshake must come from this site
(``Origin`` matching ``Host``, or ``Sec-Fetch-Site: same-origin``).
"""

from __future__ import annotations

import io
import json
import unicodedata
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlencode, urlsplit

import segno
from fastapi import APIRouter, FastAPI, Form, Request, WebSocket
from fastapi.responses import RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardwar.bus import open_bus
from cardwar.engine import VARIANTS, OptionError
from cardwar.obs import connection_closed, connection_opened, process_exiting
from cardwar.settings import Settings
from cardwar.store import Store
from cardwar.tables import (
    NicknameError,
    Table,
    TableError,
    TableService,
    clean_nickname,
    hash_secret,
)

from . import i18n, socket
from .i18n import LOCALES, negotiate
from .templating import render

router = APIRouter()

COOKIE_MAX_AGE = 60 * 60 * 24 * 60  # 60 days
MAX_MESSAGE = socket.MAX_MESSAGE  # bytes of one WebSocket message (protocol.py)


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the store (running migrations), the bus and the table service.

    Kept on ``app.state.tables`` (a :class:`~cardwar.tables.TableService`).
    """
    settings: Settings = getattr(app.state, "settings", None) or Settings()
    store = Store(settings.database)
    await store.migrate()
    # Redis: several processes
    bus = open_bus(settings.redis, settings.redis_prefix, settings.presence_ttl)
    service = TableService(store, bus, settings)
    app.state.tables = service
    service.start_gauges()
    service.start_presence_checks()
    try:
        yield
    finally:
        await service.close()
        await bus.close()
        await store.close()
        process_exiting()


def _service(request: Request | WebSocket) -> TableService:
    service: TableService = request.app.state.tables
    return service


def cookie_name(game_id: str) -> str:
    """The name of the seat cookie of ``game_id``."""
    return f"cw_{game_id}"


def same_origin(headers: Any) -> bool:
    """True when a request comes from this site (CSRF and WebSocket Origin check).

    ``Origin`` must name the ``Host`` the request was sent to; without an
    ``Origin``, ``Sec-Fetch-Site`` must be ``same-origin`` (or ``none``: typed
    by the user). A request with neither header is refused.
    """
    origin = headers.get("origin")
    if origin:
        return bool(urlsplit(origin).netloc.lower() == (headers.get("host") or "").lower())
    return bool(headers.get("sec-fetch-site") in ("same-origin", "none"))


def _check_locale(locale: str) -> None:
    if locale not in LOCALES:
        raise StarletteHTTPException(404)


def _forbidden() -> Response:
    raise StarletteHTTPException(403, "cross-site request")  # the translated error page


def _set_seat_cookie(response: Response, request: Request, game_id: str, secret: str) -> None:
    response.set_cookie(
        cookie_name(game_id), secret, max_age=COOKIE_MAX_AGE, path="/", httponly=True,
        samesite="lax", secure=request.url.scheme == "https",
    )


def form_echo(typed: str, limit: int = 100) -> str:
    """``typed`` made fit to show again in a form field: control characters
    (C0, C1: category Cc) removed, cut to ``limit`` characters."""
    return "".join(ch for ch in typed if unicodedata.category(ch) != "Cc")[:limit]


def _seat_of(table: Table, cookies: Any) -> int | None:
    secret = cookies.get(cookie_name(table.id))
    return table.seat_of(hash_secret(secret)) if secret else None


# -- translated strings for the browser --------------------------------------
def _plural(pick: Any, locale: str) -> dict[str, str]:
    """One form per CLDR plural category (the browser picks with Intl.PluralRules).

    ``pick(n)`` is an ``ngettext`` call; Babel's CLDR categories match the
    browser's ``Intl.PluralRules`` categories for whole numbers.
    """
    from babel import Locale

    loc = Locale.parse(locale)
    forms: dict[str, str] = {}
    for n in (*range(0, 30), 100, 101, 102, 105, 1000, 1001, 1_000_000):
        forms.setdefault(loc.plural_form(n), pick(n))
    return forms


def nickname_error(locale: str, code: str = "bad_char") -> str:
    """Why a nickname was refused (``code`` of the :class:`NicknameError`), in
    ``locale``; the same texts on creating and joining."""
    token = i18n.current_locale.set(locale)
    try:
        if code == "computer":
            return i18n.gettext(
                "That is how computer seats are named. Please choose another nickname.")
        return i18n.gettext(
            "Please choose a nickname of 1 to 24 letters, without invisible characters.")
    finally:
        i18n.current_locale.reset(token)


def client_strings(locale: str, variant: str = "peace") -> dict[str, Any]:
    """Every string the game script shows, in ``locale`` (placeholders in braces);
    the tie wording follows ``variant`` (a war in War, a peace in Peace).

    Plural entries are dicts keyed by CLDR category (``one``, ``few``, ``many``,
    ``other``).
    """
    token = i18n.current_locale.set(locale)
    try:
        _ = i18n.gettext
        ngettext = i18n.ngettext
        war = variant == "war"
        return {
            "seat": _("Seat {n}"),
            "open_seat": _("Waiting for a player…"),
            # TRANSLATORS: a rematch seat nobody else may take; {name} is the nickname
            # of the player of the last game it is waiting for
            "reserved_seat": _("Kept for {name}"),
            "computer": _("the computer"),
            "computer_name": _("Computer {n}"),
            "copied": _("Link copied."),
            "you": _("you"),
            "online": _("online"),
            "offline": _("offline"),
            # TRANSLATORS: a player's presence while our own connection is down
            "presence_unknown": _("status unknown"),
            "creator": _("starts the game"),
            "start": _("Start the game"),
            "start_fill": _("Fill the empty seats with the computer and start"),
            "wait_start": _("Waiting for {name} to start the game."),
            "watching": _("You are watching this game."),
            "battle_of": _("Battle {n} of {limit}"),
            "battle": _("Battle {n}"),
            "flip": _("Flip"),
            "flip_help": _plural(lambda n: ngettext(
                "Click or tap your pile, or press Space or Enter, to flip. Once another "
                "player has flipped, you have {count} second before the game flips for you.",
                "Click or tap your pile, or press Space or Enter, to flip. Once another "
                "player has flipped, you have {count} seconds before the game flips for you.",
                n), locale),
            "idle_you": _("Flipping for you in {n} s"),
            "idle_wait": _("Waiting for {names}… {n} s"),
            "placings": _("Placings"),
            "out_in_battle": _("{name} went out in battle {n}."),
            "set_aside": _("With three players one card was set aside at the deal: "
                           "52 cards do not split evenly three ways."),
            "flipped": _("ready"),
            "waiting": _("to flip"),
            "out": _("out"),
            # TRANSLATORS: the letters on the five face-down cards of a peace;
            # exactly five letters (Polish: POKÓJ). Keep PEACE if your word is shorter.
            "tie_word": "" if war else _("PEACE"),
            "cards": _plural(lambda n: ngettext("{count} card", "{count} cards", n), locale),
            "pile": _plural(lambda n: ngettext(
                "{name}'s pile: {count} card", "{name}'s pile: {count} cards", n), locale),
            "takes": _plural(lambda n: ngettext(
                "{name} takes {count} card.", "{name} takes {count} cards.", n), locale),
            "face_down_count": _plural(lambda n: ngettext(
                "{count} face down", "{count} face down", n), locale),
            "tie_peace": _("A tie: peace!"),
            "tie_war": _("A tie: war!"),
            "nobody": _("Nobody can turn a card: the pot stays on the table."),
            "went_out": _("{name} is out of the game."),
            "game_over": _("Game over"),
            "wins": _("{name} wins the game!"),
            "win_why": _("{name} holds every card."),
            "draw": _("It is a draw."),
            "reason_battle_limit": _("The game reached its limit of {limit} battles."),
            "reason_unresolvable": _("A war nobody could decide: no cards were left to turn.")
            if war else _("A peace nobody could decide: no cards were left to turn."),
            "reason_cycle": _("This War would repeat itself forever."),
            "seed": _("The seed of this deal:"),
            "replay": _("Replay this game on your computer with:"),
            "play_again": _("Play again"),
            "connecting": _("Connecting…"),
            "disconnected": _("The connection was lost. Reload the page to carry on."),
            "reconnecting": _("The connection was lost. Reconnecting…"),
            "gone": _("away: played for"),
            "hand_over": _("Let the computer play for {name}"),
            "watching_count": _plural(lambda n: ngettext(
                "{count} person is watching", "{count} people are watching", n), locale),
            "watch_replay": _("Watch the replay"),
            "watch_rematch": _("Watch the rematch"),
            "download": _("Download the game"),
            "rematch": _("Rematch"),
            "rematch_join": _("Join the rematch"),
            "rematch_offer": _("{name} offers a rematch with the same seats."),
            "rematch_ready": _("A rematch with the same seats is waiting for you."),
            "replay_step": _("Battle {n} of {total}"),
            "replay_start": _("The cards are dealt."),
            # TRANSLATORS: a card's name for screen readers, e.g. "queen of hearts".
            "card": _("{rank} of {suit}"),
            "ranks": {
                "2": _("two"), "3": _("three"), "4": _("four"), "5": _("five"),
                "6": _("six"), "7": _("seven"), "8": _("eight"), "9": _("nine"),
                "T": _("ten"), "J": _("jack"), "Q": _("queen"), "K": _("king"), "A": _("ace"),
            },
            "suits": {"C": _("clubs"), "D": _("diamonds"), "H": _("hearts"), "S": _("spades")},
            "errors": {
                "not_creator": _("Only the player who created the game can start it."),
                "not_seated": _("You are not seated at this table."),
                "not_playing": _("The game is not being played right now."),
                "out": _("You are out of this game."),
                "bad_message": _("The server did not understand that."),
                "not_lobby": _("The game has already started."),
                "rate_limited": _("Slow down a little: too many moves at once."),
                "not_gone": _("That player is not away."),
                "not_over": _("The game is not over yet."),
                "seat_taken": _("That seat is already taken."),
                "no_seat": _("Every seat is taken."),
                "already_seated": _("You already have a seat at this table."),
                "no_game": _("This game does not exist."),
            },
        }
    finally:
        i18n.current_locale.reset(token)


def _json_script(data: Any) -> str:
    """JSON safe inside ``<script type="application/json">``."""
    return (json.dumps(data, ensure_ascii=False)
            .replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026"))


# -- pages --------------------------------------------------------------------
@router.get("/{locale}/play", include_in_schema=False)
async def play_redirect(locale: str, variant: str = "peace") -> Response:
    """``/{locale}/play?variant=war`` -> the variant page's start form."""
    _check_locale(locale)
    name = variant if variant in VARIANTS else "peace"
    return RedirectResponse(f"/{locale}/{name}#play", status_code=303)


@router.post("/{locale}/play", include_in_schema=False)
async def create_game(
    request: Request,
    locale: str,
    variant: str = Form("peace"),
    players: int = Form(2),
    seat1: str = Form("friend"),
    seat2: str = Form("friend"),
    seat3: str = Form("friend"),
    face_down: int | None = Form(None),
    nickname: str = Form(""),
) -> Response:
    """Create a game from the start form; the creator sits in seat 0."""
    _check_locale(locale)
    if not same_origin(request.headers):
        return _forbidden()
    if variant not in VARIANTS:
        raise StarletteHTTPException(400, "unknown variant")
    computers = tuple(s for s, kind in ((1, seat1), (2, seat2), (3, seat3))
                      if s < players and kind == "computer")
    try:
        name = clean_nickname(nickname)
    except NicknameError as exc:  # the form again, with what was typed and why it was refused
        from .pages import variant_response

        return variant_response(request, locale, variant, status_code=400,
                                start_error=nickname_error(locale, exc.code),
                                start_nickname=form_echo(nickname))
    try:
        table, secret = await _service(request).create(
            variant, players, face_down=face_down, computers=computers, nickname=name)
    except (OptionError, ValueError) as exc:
        raise StarletteHTTPException(400, str(exc)) from None
    response = RedirectResponse(f"/{locale}/g/{table.id}", status_code=303)
    _set_seat_cookie(response, request, table.id, secret)
    return response


@router.get("/g/{game_id}", include_in_schema=False)
async def shared_link(request: Request, game_id: str) -> Response:
    """The link people share: the game page in the visitor's own language."""
    locale = negotiate(request.headers.get("accept-language"))
    return RedirectResponse(f"/{locale}/g/{game_id}", status_code=307,
                            headers={"Vary": "Accept-Language"})


@router.get("/g/{game_id}/qr.svg", include_in_schema=False)
async def qr_code(request: Request, game_id: str) -> Response:
    """The shared link as an SVG QR code."""
    if await _service(request).get(game_id) is None:
        raise StarletteHTTPException(404)
    link = str(request.base_url).rstrip("/") + f"/g/{game_id}"
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="svg", scale=5, border=2, xmldecl=False,
                                     dark="#000", light="#fff")
    return Response(out.getvalue(), media_type="image/svg+xml",
                    headers={"Cache-Control": "public, max-age=86400"})


@router.get("/{locale}/g/{game_id}", include_in_schema=False)
async def game_page(request: Request, locale: str, game_id: str) -> Response:
    """The game page: lobby, table and end screen, driven by game.js."""
    _check_locale(locale)
    table = await _service(request).get(game_id)
    if table is None:
        raise StarletteHTTPException(404)
    seat = _seat_of(table, request.cookies)
    free = table.open_seats()
    can_join = seat is None and table.status == "lobby" and bool(free)
    token = i18n.current_locale.set(locale)
    try:
        default_nickname = i18n.gettext("Player {n}").format(n=(free[0] + 1) if free else 1)
        if request.query_params.get("error") in ("nickname", "taken"):
            default_nickname = form_echo(request.query_params.get("name", default_nickname))
    finally:
        i18n.current_locale.reset(token)
    link = str(request.base_url).rstrip("/") + f"/g/{game_id}"
    from cardwar.tables.rematch import known_rematch

    from .rooms import device_link  # issue 5: personal link, rematch, replay

    await known_rematch(_service(request), table)
    secret = request.cookies.get(cookie_name(game_id))
    config = {
        "id": game_id, "locale": locale, "socket": f"/ws/g/{game_id}", "link": link,
        "variant_page": f"/{locale}/{table.variant.name}#play",
        "heartbeat": getattr(_service(request).settings, "heartbeat", 20.0),
        "flip_timeout": _service(request).settings.flip_timeout,
        "rematch": f"/{locale}/g/{game_id}/rematch", "replay": f"/{locale}/g/{game_id}/replay",
        "download": f"/g/{game_id}/game.json", "locale_prefix": f"/{locale}/g/",
    }
    response = render(
        request, "game.html", locale,
        table=table, seat=seat, can_join=can_join, default_nickname=default_nickname,
        link=link, variant=table.variant, active=table.variant.name,
        strings_json=_json_script(client_strings(locale, table.variant.name)),
        config_json=_json_script(config),
        show_alternates=False,
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
    _check_locale(locale)
    if not same_origin(request.headers):
        return _forbidden()
    service = _service(request)
    table = await service.get(game_id)
    if table is None:
        raise StarletteHTTPException(404)
    back = RedirectResponse(f"/{locale}/g/{game_id}", status_code=303)
    if _seat_of(table, request.cookies) is not None:
        return back
    full = RedirectResponse(f"/{locale}/g/{game_id}?error=full", status_code=303)
    if table.status != "lobby" or not table.open_seats():
        return full  # no seat to take, whatever the nickname
    typed = urlencode({"name": form_echo(nickname)})
    try:
        name = clean_nickname(nickname)
    except NicknameError as exc:
        why = "computer" if exc.code == "computer" else "nickname"
        return RedirectResponse(f"/{locale}/g/{game_id}?error={why}&{typed}", status_code=303)
    try:
        _, secret = await service.join(game_id, name)
    except TableError as exc:
        if exc.code == "name_taken":
            return RedirectResponse(f"/{locale}/g/{game_id}?error=taken&{typed}",
                                    status_code=303)
        return full if exc.code in ("no_seat", "not_lobby") else back
    _set_seat_cookie(back, request, game_id, secret)
    return back


# -- the socket ---------------------------------------------------------------
@router.websocket("/ws/g/{game_id}")
async def game_socket(ws: WebSocket, game_id: str) -> None:
    """Live play for one connection (protocol in the module docstring)."""
    if not same_origin(ws.headers):
        await ws.close(code=1008)
        return
    service = _service(ws)
    table = await service.get(game_id)
    if table is None:
        await ws.close(code=1008)
        return
    secret = ws.cookies.get(cookie_name(game_id))
    seat = table.seat_of(hash_secret(secret)) if secret else None
    connection_opened()
    try:  # catch-up, heartbeats, validated messages: cardwar.web.socket (issue 5)
        await socket.serve(ws, service, table, seat, secret,
                           getattr(service.settings, "heartbeat", socket.DEFAULT_HEARTBEAT))
    finally:
        connection_closed()
