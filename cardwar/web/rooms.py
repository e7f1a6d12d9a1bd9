"""Around a game: another device, rematch, replay and download (issue 5).

Routes:

* ``GET /{locale}/g/{id}/continue/{key}`` - the personal "continue on another
  device" link, shown only to its seat: ``key`` is the seat's secret; the
  visitor gets the seat cookie and lands on the game page. A wrong key is
  the same 404 as a game that does not exist.
* ``POST /{locale}/g/{id}/link`` - replace that link: the seat gets a new
  secret (old links and other devices lose the seat); this browser keeps it.
* ``POST /{locale}/g/{id}/rematch`` - offer the rematch, or join the one
  offered (:func:`cardwar.tables.rematch.rematch`); 303 to the new game.
* ``GET /{locale}/g/{id}/replay`` - a finished game, battle by battle.
* ``GET /g/{id}/game.json`` - the finished game's record, exactly as
  ``cardwar play --log --json`` prints it.

Before the end, replay and download are the same 404 as an unknown game:
the record names every card of every pile.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from cardwar.tables import Table, TableError, hash_secret
from cardwar.tables.rematch import known_rematch, rematch
from cardwar.tables.replay import game_record, game_record_text, start_counts

from .guard import guard
from .previews import game_preview
from .seats import (
    NO_SUCH_GAME,
    check_locale,
    forbidden,
    live_table,
    same_origin,
    seat_of,
    service,
    set_seat_cookie,
)
from .strings import client_strings
from .templating import render
from .variants import page_of

router = APIRouter()


def _not_found() -> StarletteHTTPException:
    """The same 404 as a game that does not exist (nobody learns that it does)."""
    return StarletteHTTPException(404, NO_SUCH_GAME)


async def _table(request: Request, locale: str | None, game_id: str) -> Table:
    check_locale(locale)
    return await live_table(request, game_id)


async def _posted_seat(request: Request, locale: str, game_id: str) -> tuple[Table, int | None]:
    """A same-origin POST about ``game_id``: the table and the sender's seat (None: none)."""
    if not same_origin(request):
        raise forbidden()
    table = await _table(request, locale, game_id)
    return table, seat_of(table, request.cookies)


def _seated_redirect(request: Request, url: str, game_id: str, secret: str,
                     headers: dict[str, str] | None = None) -> Response:
    """303 to ``url``, giving this browser the seat of ``secret`` in ``game_id``."""
    response = RedirectResponse(url, status_code=303, headers=headers)
    set_seat_cookie(response, request, game_id, secret)
    return response


def device_link(request: Request, locale: str, game_id: str, secret: str) -> str:
    """The personal link that gives ``secret``'s seat to another device."""
    return str(request.base_url).rstrip("/") + f"/{locale}/g/{game_id}/continue/{secret}"


@router.get("/{locale}/g/{game_id}/continue/{key}", include_in_schema=False)
async def continue_here(request: Request, locale: str, game_id: str, key: str) -> Response:
    """Take one's own seat on this device (the personal link)."""
    table = await _table(request, locale, game_id)
    if len(key) > 100 or table.seat_of(hash_secret(key)) is None:
        raise _not_found()
    return _seated_redirect(request, f"/{locale}/g/{game_id}", game_id, key,
                            headers={"Cache-Control": "no-store",
                                     "Referrer-Policy": "no-referrer"})


@router.post("/{locale}/g/{game_id}/link", include_in_schema=False)
async def new_link(request: Request, locale: str, game_id: str) -> Response:
    """Replace this seat's personal link (a new seat secret)."""
    _, seat = await _posted_seat(request, locale, game_id)
    if seat is None:
        raise StarletteHTTPException(403, "not seated")
    secret = await service(request).relink(game_id, seat)
    return _seated_redirect(request, f"/{locale}/g/{game_id}#device", game_id, secret)


@router.post("/{locale}/g/{game_id}/rematch", include_in_schema=False)
async def rematch_game(request: Request, locale: str, game_id: str) -> Response:
    """Offer the rematch, or join the one offered, in one's own seat."""
    table, seat = await _posted_seat(request, locale, game_id)
    await guard(request).check(request, "rematch")
    offered = await known_rematch(service(request), table)
    if offered is not None:
        new = await service(request).get(offered)
        if new is not None and seat_of(new, request.cookies) is not None:  # in it already
            return RedirectResponse(f"/{locale}/g/{offered}", status_code=303)
    try:
        new_id, secret = await rematch(service(request), game_id, seat)
    except TableError:
        offered = await known_rematch(service(request), table)
        if offered is not None and table.rematch_by == seat:  # asked twice: the same game
            return RedirectResponse(f"/{locale}/g/{offered}", status_code=303)
        return RedirectResponse(f"/{locale}/g/{game_id}?error=rematch", status_code=303)
    return _seated_redirect(request, f"/{locale}/g/{new_id}", new_id, secret)


@router.get("/{locale}/g/{game_id}/replay", include_in_schema=False)
async def replay_page(request: Request, locale: str, game_id: str) -> Response:
    """The replay of a finished game: every battle, with buttons and arrow keys."""
    table = await _table(request, locale, game_id)
    if table.status != "over":
        raise _not_found()
    record = game_record(table)
    lobby = table.seating()  # a computer keeps the number of its lobby seat
    names = []
    for s in table.record.seats:
        names.append({"seat": s.seat, "kind": s.kind, "nickname": s.nickname,
                      "number": lobby[s.seat] + 1})
    turns = table.variant.play == "turns"
    slaps = table.variant.play == "slaps"  # the log holds events, a step per card
    data = {"record": record, "seats": names, "tie_word": table.variant.tie_word, "turns": turns,
            "slaps": slaps,
            "start_counts": start_counts(table),
            "battle_limit": table.variant.battle_limit, "locale": locale,
            "game_page": f"/{locale}/g/{game_id}", "download": f"/g/{game_id}/game.json"}
    return render(request, "play/replay.html", locale, table=table, variant=table.variant,
                  page=page_of(table.variant),
                  active=table.variant.name, show_alternates=False,
                  preview=game_preview(request, table, replay=True),
                  page_strings=client_strings(locale, table.variant.name),
                  replay_data=data, download=data["download"],
                  game_page=data["game_page"], turns=turns, slaps=slaps)


@router.get("/g/{game_id}/game.json", include_in_schema=False)
async def download(request: Request, game_id: str) -> Response:
    """The finished game's record as a download (``cardwar play --log --json``)."""
    table = await _table(request, None, game_id)
    if table.status != "over":
        raise _not_found()
    return Response(game_record_text(table), media_type="application/json",
                    headers={"Content-Disposition":
                             f'attachment; filename="cardwar-{game_id}.json"'})


__all__ = ["device_link", "router"]
