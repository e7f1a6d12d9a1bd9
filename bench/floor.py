"""The floor of a flip: a bare Starlette WebSocket server doing the least a flip needs.

Not a test, and not cardwar. ``bench/load.py`` runs it in the same run as
the real server, under the same load, and prints cardwar's CPU per flip as a
multiple of this one's. It speaks just enough of cardwar's routes for the
load generator:

* ``POST /{locale}/play`` and ``POST /{locale}/g/{id}/join``: 303 to the game
  with a ``cw_{id}`` cookie (the seat's secret),
* ``GET /healthz``,
* ``WebSocket /ws/g/{id}``: ``{"type":"start"}`` answers ``started`` to both
  seats; each ``{"type":"flip","battle":n}`` is one insert into the same
  kind of store (a SQLite file or PostgreSQL, see :class:`_Flips`) and
  four frames of about 150 bytes, as a real flip sends: ``flipped`` to both
  seats, then ``idle`` to both (the first flip of a battle) or ``battle`` to
  both (the second).

It runs under uvicorn with the settings of ``cardwar serve`` (no
permessage-deflate, the same message cap, no uvicorn pings, the same
interpreter tuning)::

    .venv/bin/python bench/floor.py --port 8100 --database sqlite+aiosqlite:////tmp/f.db
"""

from __future__ import annotations

import argparse
import json
import secrets
import sqlite3
from contextlib import asynccontextmanager
from typing import Any

from sqlalchemy import make_url
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

#: One row per flip, about the size of a real event row.
_SCHEMA = ("CREATE TABLE IF NOT EXISTS floor_flips (id {key}, game VARCHAR(16) NOT NULL,"
           " seq INTEGER NOT NULL, body VARCHAR(200) NOT NULL)")


class _Flips:
    """The store: one insert (and commit) per flip, as lean as the driver allows.

    SQLite: the standard library's ``sqlite3`` on the event loop's thread, WAL and
    ``synchronous=NORMAL`` as cardwar's store sets them. PostgreSQL: an asyncpg
    pool (``?search_path=NAME`` keeps the table in a schema of the run's own).
    """

    def __init__(self, database: str) -> None:
        self.url = make_url(database)
        self.sqlite: sqlite3.Connection | None = None
        self.pool: Any = None

    async def open(self) -> None:
        """Connect and create the table."""
        if self.url.get_backend_name() == "sqlite":
            self.sqlite = sqlite3.connect(self.url.database or ":memory:",
                                          isolation_level=None)
            self.sqlite.execute("PRAGMA journal_mode=WAL")
            self.sqlite.execute("PRAGMA synchronous=NORMAL")
            self.sqlite.execute(_SCHEMA.format(key="INTEGER PRIMARY KEY"))
            return
        import asyncpg

        schema = self.url.query.get("search_path")
        settings = {"search_path": schema} if isinstance(schema, str) else {}
        dsn = self.url.difference_update_query(["search_path"]).set(drivername="postgresql")
        self.pool = await asyncpg.create_pool(
            dsn.render_as_string(hide_password=False), min_size=1, max_size=4,
            server_settings=settings)
        async with self.pool.acquire() as conn, conn.transaction():
            # several floor processes start at once (load.py --processes N): one
            # creates, the others wait (IF NOT EXISTS alone races)
            await conn.execute("SELECT pg_advisory_xact_lock(7283460913)")
            if settings:
                await conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
            await conn.execute(_SCHEMA.format(key="SERIAL PRIMARY KEY"))

    async def insert(self, game: str, seq: int, body: str) -> None:
        """One row, committed."""
        if self.sqlite is not None:
            self.sqlite.execute("INSERT INTO floor_flips (game, seq, body) VALUES (?, ?, ?)",
                                (game, seq, body))
        else:
            await self.pool.execute(
                "INSERT INTO floor_flips (game, seq, body) VALUES ($1, $2, $3)",
                game, seq, body)

    async def close(self) -> None:
        """Disconnect."""
        if self.sqlite is not None:
            self.sqlite.close()
        if self.pool is not None:
            await self.pool.close()


#: Pads every frame to about 150 bytes, the size of a real flip's frames.
_PAD = "x" * 80


class _Game:
    """Two seats' secrets, their sockets and the flips of the current battle."""

    def __init__(self) -> None:
        self.secrets: list[str] = [secrets.token_urlsafe(16)]
        self.sockets: dict[int, WebSocket] = {}
        self.flipped: set[int] = set()
        self.seq = 0


def create_app(database: str) -> Starlette:
    """The floor server's app: ``database`` is a SQLAlchemy async URL."""
    games: dict[str, _Game] = {}
    flips = _Flips(database)

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> Any:
        await flips.open()
        yield
        await flips.close()

    def seated(gid: str, seat: int) -> Response:
        response = RedirectResponse(f"/en/g/{gid}", status_code=303)
        response.set_cookie(f"cw_{gid}", games[gid].secrets[seat])
        return response

    async def create(_request: Request) -> Response:
        gid = secrets.token_urlsafe(8)
        games[gid] = _Game()
        return seated(gid, 0)

    async def join(request: Request) -> Response:
        gid = request.path_params["gid"]
        game = games.get(gid)
        if game is None or len(game.secrets) > 1:
            return PlainTextResponse("no such game or it is full", status_code=404)
        game.secrets.append(secrets.token_urlsafe(16))
        return seated(gid, 1)

    async def healthz(_request: Request) -> Response:
        return PlainTextResponse("ok")

    async def broadcast(game: _Game, frame: dict[str, Any]) -> None:
        text = json.dumps(frame, separators=(",", ":"))
        for ws in list(game.sockets.values()):
            await ws.send_text(text)

    async def flip(gid: str, game: _Game, seat: int, battle: int) -> None:
        game.seq += 1
        body = json.dumps({"type": "flipped", "seat": seat, "battle": battle})
        await flips.insert(gid, game.seq, body)
        game.flipped.add(seat)
        await broadcast(game, {"type": "flipped", "seq": game.seq, "seat": seat,
                               "battle": battle, "pad": _PAD})
        if len(game.flipped) < 2:
            await broadcast(game, {"type": "idle", "battle": battle, "left": 20.0,
                                   "pad": _PAD})
            return
        game.flipped.clear()
        await broadcast(game, {"type": "battle", "seq": game.seq, "battle": battle,
                               "cards": [[3, "H"], [9, "S"]], "winner": 0, "pad": _PAD})

    async def socket(ws: WebSocket) -> None:
        gid = ws.path_params["gid"]
        game = games.get(gid)
        secret = ws.cookies.get(f"cw_{gid}")
        if game is None or secret not in game.secrets:
            await ws.close(code=4404)
            return
        seat = game.secrets.index(secret)
        await ws.accept()
        game.sockets[seat] = ws
        try:
            while True:
                message = json.loads(await ws.receive_text())
                if message.get("type") == "start":
                    await broadcast(game, {"type": "started", "pad": _PAD})
                elif message.get("type") == "flip":
                    await flip(gid, game, seat, int(message["battle"]))
        except WebSocketDisconnect:
            pass
        finally:
            game.sockets.pop(seat, None)
            if not game.sockets:
                games.pop(gid, None)

    return Starlette(lifespan=lifespan, routes=[
        Route("/healthz", healthz),
        Route("/{locale}/play", create, methods=["POST"]),
        Route("/{locale}/g/{gid}/join", join, methods=["POST"]),
        WebSocketRoute("/ws/g/{gid}", socket),
    ])


def main(argv: list[str] | None = None) -> None:
    """Serve the floor on 127.0.0.1 (``--port``) with ``cardwar serve``'s uvicorn settings."""
    import uvicorn

    from cardwar.cli import WS_DEFLATE, WS_MAX_SIZE, WS_PING_INTERVAL, _tune_runtime

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--database", required=True, help="SQLAlchemy async URL")
    args = ap.parse_args(argv)
    app = create_app(args.database)
    _tune_runtime()
    uvicorn.run(app, host="127.0.0.1", port=args.port, proxy_headers=False,
                log_level="warning", access_log=False, ws_max_size=WS_MAX_SIZE,
                ws_per_message_deflate=WS_DEFLATE, ws_ping_interval=WS_PING_INTERVAL)


if __name__ == "__main__":
    main()
