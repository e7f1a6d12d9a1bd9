"""A tiny Starlette app for test_logs.py, served by a real uvicorn process.

``python tests/ops/logged_app.py PORT`` serves it on 127.0.0.1:PORT with
``uvicorn.run(..., log_config=cardwar.obs.logs.logging_config())``, the way
``cardwar serve`` is meant to. ``GET /hello`` logs one line and answers "hello".
"""

from __future__ import annotations

import logging
import sys

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from cardwar.obs.logs import RequestIdMiddleware, logging_config


async def hello(request: Request) -> PlainTextResponse:
    logging.getLogger("cardwar.test").info("saying hello", extra={"game": "k3x9"})
    return PlainTextResponse("hello")


app = Starlette(routes=[Route("/hello", hello)])
app.add_middleware(RequestIdMiddleware)

if __name__ == "__main__":
    uvicorn.run(app, host="127.0.0.1", port=int(sys.argv[1]), log_config=logging_config("INFO"))
