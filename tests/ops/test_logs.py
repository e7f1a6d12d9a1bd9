"""cardwar.obs.logs: JSON lines, readable text, uvicorn's loggers, the request-id middleware."""

from __future__ import annotations

import io
import json
import logging
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.testclient import TestClient
from starlette.websockets import WebSocket

from cardwar.obs import logs
from cardwar.obs.logs import RequestIdMiddleware, configure_logging, request_id

LOGGERS = ("", "uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi", "cardwar")


@pytest.fixture(autouse=True)
def restore_logging() -> Iterator[None]:
    """Put the logging tree back as it was (pytest's own handlers included)."""
    saved = {
        name: (lg.handlers[:], lg.level, lg.propagate, lg.filters[:])
        for name in LOGGERS
        for lg in [logging.getLogger(name)]
    }
    yield
    for name, (handlers, level, propagate, filters) in saved.items():
        lg = logging.getLogger(name)
        lg.handlers[:] = handlers
        lg.setLevel(level)
        lg.propagate = propagate
        lg.filters[:] = filters


def json_lines(err: str) -> list[dict[str, Any]]:
    lines = [line for line in err.splitlines() if line.strip()]
    return [json.loads(line) for line in lines]


async def hello(request: Request) -> JSONResponse:
    logging.getLogger("cardwar.test").info("hello from %s", "the app", extra={"game": "k3x9"})
    return JSONResponse({"state": request.state.request_id, "context": request_id.get()})


async def echo(ws: WebSocket) -> None:
    await ws.accept()
    text = await ws.receive_text()
    await ws.send_json({"echo": text, "context": request_id.get()})
    await ws.close()


def app() -> Starlette:
    application = Starlette(routes=[Route("/hello", hello), WebSocketRoute("/ws", echo)])
    application.add_middleware(RequestIdMiddleware)
    return application


# --- formatting ---


def test_json_lines_shape(capsys: pytest.CaptureFixture[str]) -> None:
    configure_logging("INFO", json_lines=True)
    log = logging.getLogger("cardwar.test")
    log.debug("not shown at INFO")
    log.info("battle %d played", 12, extra={"game": "k3x9", "when": object()})
    token = request_id.set("req-1")
    try:
        log.warning("inside a request")
        try:
            raise ZeroDivisionError("boom")
        except ZeroDivisionError:
            log.exception("it failed")
    finally:
        request_id.reset(token)

    first, second, third = json_lines(capsys.readouterr().err)
    assert set(first) == {"time", "level", "logger", "message", "game", "when"}
    assert first["level"] == "INFO"
    assert first["logger"] == "cardwar.test"
    assert first["message"] == "battle 12 played"
    assert first["game"] == "k3x9"
    assert first["time"].endswith("Z")
    assert first["time"][10] == "T"
    assert first["when"].startswith("<object")  # not JSON: written with str()
    assert "request_id" not in first
    assert second["request_id"] == "req-1"
    assert second["level"] == "WARNING"
    assert third["request_id"] == "req-1"
    assert third["level"] == "ERROR"
    assert "ZeroDivisionError: boom" in third["exc_info"]


def test_uvicorn_loggers_go_through_the_same_formatter(
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name in ("uvicorn.error", "uvicorn.access"):  # what uvicorn's own config leaves
        logging.getLogger(name).addHandler(logging.StreamHandler(io.StringIO()))
        logging.getLogger(name).propagate = False
    configure_logging(json_lines=True)
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        assert logging.getLogger(name).handlers == []
        assert logging.getLogger(name).propagate is True
    logging.getLogger("uvicorn.error").info(
        "Started server process [%d]", 42, extra={"color_message": "\x1b[36m42\x1b[0m"}
    )
    logging.getLogger("uvicorn.access").info(
        '%s - "%s %s HTTP/%s" %d', "127.0.0.1:5000", "GET", "/hello", "1.1", 200
    )
    started, access = json_lines(capsys.readouterr().err)
    assert started == {
        "time": started["time"], "level": "INFO", "logger": "uvicorn.error",
        "message": "Started server process [42]",
    }
    assert access["message"] == '127.0.0.1:5000 - "GET /hello HTTP/1.1" 200'
    assert (access["method"], access["path"], access["status"]) == ("GET", "/hello", 200)


def test_text_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    configure_logging()  # json_lines=None: decided by stderr
    token = request_id.set("abc")
    try:
        logging.getLogger("cardwar.test").info("hello", extra={"game": "k3x9"})
    finally:
        request_id.reset(token)
    line = terminal.getvalue().strip()
    assert not line.startswith("{")
    assert line.endswith("INFO cardwar.test [abc] hello game=k3x9")


def test_json_when_stderr_is_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    pipe = io.StringIO()
    monkeypatch.setattr("sys.stderr", pipe)
    configure_logging()
    logging.getLogger("cardwar.test").info("hello")
    assert json.loads(pipe.getvalue())["message"] == "hello"


def test_bad_level_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown log level 'LOUD'"):
        configure_logging("LOUD")


def test_logging_config_is_a_dictconfig_for_uvicorn() -> None:
    config = logs.logging_config("debug", json_lines=True)
    assert config["version"] == 1
    assert config["disable_existing_loggers"] is False
    assert config["root"] == {"level": "DEBUG", "handlers": ["stderr"]}
    assert config["handlers"]["stderr"]["formatter"] == "json"
    assert config["loggers"]["uvicorn.access"]["propagate"] is True


# --- the middleware ---


@pytest.mark.parametrize(
    "incoming", ["abc", "A-b_9", "x" * 64, "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0"]
)
def test_valid_incoming_id_is_used_and_echoed(
    incoming: str, capsys: pytest.CaptureFixture[str]
) -> None:
    configure_logging(json_lines=True)
    with TestClient(app()) as client:
        response = client.get("/hello", headers={"X-Request-ID": incoming})
    assert response.status_code == 200
    assert response.headers["x-request-id"] == incoming
    assert response.json() == {"state": incoming, "context": incoming}
    line = next(r for r in json_lines(capsys.readouterr().err) if r["logger"] == "cardwar.test")
    assert line["request_id"] == incoming
    assert line["game"] == "k3x9"
    assert request_id.get() is None  # reset after the request


def test_missing_id_is_generated() -> None:
    with TestClient(app()) as client:
        first = client.get("/hello")
        second = client.get("/hello")
    rid = first.headers["x-request-id"]
    assert len(rid) == 32
    assert all(c in "0123456789abcdef" for c in rid)
    assert first.json() == {"state": rid, "context": rid}
    assert second.headers["x-request-id"] != rid


@pytest.mark.parametrize(
    "incoming", ["", "x" * 65, "has space", "a/b", "<script>", "caf\u00e9", "a.b", "a\tb"]
)
def test_invalid_incoming_id_is_replaced(incoming: str) -> None:
    with TestClient(app()) as client:
        response = client.get("/hello", headers=[(b"X-Request-ID", incoming.encode())])
    rid = response.headers["x-request-id"]
    assert rid != incoming
    assert logs.valid_request_id(rid)
    assert len(rid) == 32
    assert response.json()["context"] == rid


def test_only_one_header_in_the_response() -> None:
    async def sets_its_own(request: Request) -> JSONResponse:
        return JSONResponse({}, headers={"X-Request-ID": "from-the-app"})

    application = Starlette(routes=[Route("/", sets_its_own)])
    application.add_middleware(RequestIdMiddleware)
    with TestClient(application) as client:
        response = client.get("/", headers={"X-Request-ID": "mine"})
    assert response.headers.get_list("x-request-id") == ["mine"]


def test_websocket_gets_an_id_in_context_and_handshake() -> None:
    with TestClient(app()) as client:
        with client.websocket_connect("/ws", headers={"X-Request-ID": "ws-1"}) as ws:
            ws.send_text("hi")
            assert ws.receive_json() == {"echo": "hi", "context": "ws-1"}
            assert (b"x-request-id", b"ws-1") in (ws.extra_headers or [])
        with client.websocket_connect("/ws", headers={"X-Request-ID": "bad id"}) as ws:
            ws.send_text("hi")
            rid = ws.receive_json()["context"]
            assert rid != "bad id"
            assert len(rid) == 32


def test_request_id_validation() -> None:
    assert logs.valid_request_id("a")
    assert logs.valid_request_id("Z" * 64)
    assert not logs.valid_request_id(None)
    assert not logs.valid_request_id("")
    assert not logs.valid_request_id("a\n")
    assert logs.valid_request_id(logs.new_request_id())


# --- a real uvicorn process, configured the way `cardwar serve` should be ---


@pytest.mark.timeout(60)
def test_uvicorn_process_writes_only_json_lines_with_request_ids() -> None:
    here = Path(__file__).resolve().parent
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONPATH": str(here.parents[1])}
    proc = subprocess.Popen(
        [sys.executable, str(here / "logged_app.py"), str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                response = httpx.get(
                    f"http://127.0.0.1:{port}/hello", headers={"X-Request-ID": "up-1"}, timeout=2
                )
                break
            except httpx.TransportError:
                assert proc.poll() is None, "uvicorn did not start"
                assert time.monotonic() < deadline, "uvicorn did not start"
                time.sleep(0.1)
        assert response.headers["x-request-id"] == "up-1"
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=20)
    records = json_lines(err.decode())  # every line is JSON: nothing else on stderr
    by_logger = {r["logger"] for r in records}
    assert {"uvicorn.error", "uvicorn.access", "cardwar.test"} <= by_logger
    hello_line = next(r for r in records if r["logger"] == "cardwar.test")
    assert hello_line["request_id"] == "up-1"
    assert hello_line["game"] == "k3x9"
    access = next(r for r in records if r["logger"] == "uvicorn.access")
    assert access["request_id"] == "up-1"
    assert access["status"] == 200
    assert access["path"] == "/hello"
