"""The open tables page: public games waiting for players, listed live.

Routes:

* ``GET /{locale}/tables`` - the page (the list as it is now, embedded as
  JSON, drawn by ``static/play/tables.js``).
* ``WS /ws/tables`` - the live list: first ``tables`` (every open table),
  then ``listed`` and ``unlisted`` as tables open, fill, start or go, from
  every server process (:mod:`cardwar.tables.listing`, the bus), and a
  ``ping`` every heartbeat. What the page sends is read and ignored (a page
  that sends more than :data:`cardwar.web.socket.MESSAGE_RATE` allows is
  disconnected, code 1008).

Joining goes through the game page and its join form (the usual routes,
with their checks and limits); nothing here creates or changes a game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from aiolimiter import AsyncLimiter
from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import Response
from starlette.websockets import WebSocketDisconnected

from cardwar.bus import Subscription
from cardwar.obs import connection_closed, connection_opened
from cardwar.tables.listing import CHANNEL, Tables

from .guard import guard
from .seats import check_locale, same_origin, service
from .socket import MESSAGE_RATE, hit
from .strings import listing_strings
from .templating import render

router = APIRouter()
log = logging.getLogger("cardwar.web.listing")


@router.get("/{locale}/tables", include_in_schema=False)
async def open_tables_page(request: Request, locale: str) -> Response:
    """The open tables, in ``locale``."""
    check_locale(locale)
    tables = service(request)
    config = {"locale": locale, "socket": "/ws/tables", "game": f"/{locale}/g/",
              "heartbeat": tables.settings.heartbeat,
              "tables": await tables.open_tables.current()}
    response = render(request, "play/tables.html", locale, active="tables",
                      page_strings=listing_strings(locale),
                      page_config=config)
    response.headers["Cache-Control"] = "no-cache"
    return response


@router.websocket("/ws/tables")
async def open_tables_socket(ws: WebSocket) -> None:
    """The live list of open tables (see the module docstring)."""
    slot = await guard(ws).open_socket(ws, None) if same_origin(ws) else None
    if slot is None:  # a foreign page, or too many
        await ws.close(code=1008)
        return
    connection_opened()
    try:
        await ws.accept()
        await asyncio.create_task(_serve(ws), name="ws-open-tables")
    finally:
        connection_closed()
        await guard(ws).close_socket(ws, None, slot)


async def _serve(ws: WebSocket) -> None:
    tables = service(ws)
    heartbeat = tables.settings.heartbeat

    async def forward(sub: Subscription) -> None:
        async for message in sub:
            if message.get("type") in ("listed", "unlisted"):
                await ws.send_json(dict(message))

    async def beat() -> None:
        while True:
            await asyncio.sleep(heartbeat)
            await ws.send_json({"type": "ping", "seq": None})

    def failed(task: asyncio.Task[None]) -> None:
        """A sending task that fails closes the socket (1011), said in the log:
        the page connects again and reads the whole list afresh."""
        if task.cancelled() or task.exception() is None:
            return
        if isinstance(task.exception(), WebSocketDisconnect | WebSocketDisconnected):
            return  # the page left
        log.error("open tables socket could not send: closing it (1011)",
                  exc_info=task.exception())
        closing.append(asyncio.create_task(ws.close(code=1011)))

    closing: list[asyncio.Task[None]] = []

    async with tables.bus.subscribe(CHANNEL) as sub:
        tasks: list[asyncio.Task[None]] = []
        try:  # subscribed first: a change while the list is read is sent after it
            await ws.send_json(Tables(type="tables", seq=None,
                                      tables=await tables.open_tables.current()))
            tasks = [asyncio.create_task(forward(sub)), asyncio.create_task(beat())]
            for task in tasks:
                task.add_done_callback(failed)
            heard = AsyncLimiter(*MESSAGE_RATE)
            while (await ws.receive())["type"] != "websocket.disconnect":
                if not await hit(heard):
                    await ws.close(code=1008)
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        except Exception:  # never let one connection take the server down
            log.exception("open tables socket error")
        finally:
            for task in tasks:
                task.cancel()
            for task in [*tasks, *closing]:  # failures were logged by ``failed``
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await task
