"""A tiny ASGI app standing in for cardwar behind nginx in test_nginx_config.py.

Run as ``uvicorn backend_app:app --app-dir tests/ops``; ``BACKEND_NAME`` names
the process. Routes:

- ``GET /whoami``: JSON of what the request looked like when it arrived here
  (any path with ``/whoami`` at its end too: a game's routes, ``/en/g/X/whoami``).
- ``GET /metrics``: ``metrics from <name>`` (plain text).
- ``WS /ws/echo`` (and ``/ws/g/{id}``, a game's socket): checks ``Origin``
  against ``Host`` as cardwar does (close 1008 when they differ), sends
  ``{"backend": name, "host": ...}``, then answers each text message ``m`` with ``"<name>:<m>"``.
"""

from __future__ import annotations

import json
import os
from typing import Any
from urllib.parse import urlsplit

NAME = os.environ.get("BACKEND_NAME", "backend")


def _headers(scope: dict[str, Any]) -> dict[str, str]:
    return {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}


async def app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """The whole app (raw ASGI: HTTP and WebSocket; lifespan is acknowledged)."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    headers = _headers(scope)
    if scope["type"] == "http":
        if scope["path"].endswith("/whoami"):
            body = json.dumps({
                "backend": NAME,
                "host": headers.get("host"),
                "client": scope["client"][0] if scope.get("client") else None,
                "scheme": scope["scheme"],
                "x_forwarded_for": headers.get("x-forwarded-for"),
                "x_forwarded_proto": headers.get("x-forwarded-proto"),
                "x_request_id": headers.get("x-request-id"),
                "connection": headers.get("connection"),
            }).encode()
            kind, status = b"application/json", 200
        elif scope["path"] == "/metrics":
            body, kind, status = f"metrics from {NAME}".encode(), b"text/plain", 200
        else:
            body, kind, status = b"not here", b"text/plain", 404
        await send({"type": "http.response.start", "status": status,
                    "headers": [(b"content-type", kind)]})
        await send({"type": "http.response.body", "body": body})
        return
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        origin = headers.get("origin")
        if not (scope["path"] == "/ws/echo" or scope["path"].startswith("/ws/g/")) or (
            origin and urlsplit(origin).netloc != headers.get("host")
        ):
            await send({"type": "websocket.close", "code": 1008})
            return
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.send",
                    "text": json.dumps({"backend": NAME, "host": headers.get("host")})})
        while True:
            message = await receive()
            if message["type"] == "websocket.disconnect":
                return
            if message.get("text") is not None:
                await send({"type": "websocket.send", "text": f"{NAME}:{message['text']}"})
