"""Structured logs: one JSON object per line, tagged with the request's id.

- :func:`configure_logging` sends every logger (``cardwar.*``, ``uvicorn``,
  ``uvicorn.error``, ``uvicorn.access``, libraries) to stderr through one
  formatter: JSON lines when stderr is not a terminal, readable text when it is.
  No line holds a seat's secret: the key of a continue link is written as
  ``-`` (:class:`SecretFilter`).
- :data:`request_id` is a :class:`~contextvars.ContextVar` holding the id of
  the request or WebSocket being served (``None`` outside one); every log
  line written while it is set carries it.
- :class:`RequestIdMiddleware` (pure ASGI: HTTP and WebSocket) sets it from
  the incoming ``X-Request-ID`` header, when valid, or makes a new one, and
  echoes it in the response headers.

A JSON line looks like::

    {"time": "2026-11-29T23:40:01.123Z", "level": "INFO", "logger": "cardwar.web",
     "message": "game started", "request_id": "5f2b...", "game": "k3x9"}

``request_id`` appears only when set; every ``extra={...}`` field is added
at the top level (values JSON can't hold are written with ``str()``);
``exc_info`` holds the formatted traceback when there is one.
"""

from __future__ import annotations

import json
import logging
import logging.config
import re
import sys
import uuid
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from contextvars import ContextVar
from datetime import UTC, datetime
from typing import Any

__all__ = [
    "HumanFormatter",
    "JsonFormatter",
    "RequestIdFilter",
    "RequestIdMiddleware",
    "SecretFilter",
    "configure_logging",
    "logging_config",
    "new_request_id",
    "redact",
    "request_id",
    "valid_request_id",
]

#: The id of the request being served in this context, or None.
request_id: ContextVar[str | None] = ContextVar("request_id", default=None)

_VALID_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

# Attributes every LogRecord has; anything else on a record came from ``extra``.
_RECORD_FIELDS = frozenset(
    logging.LogRecord("x", logging.INFO, "x", 0, "x", None, None).__dict__
) | {"message", "asctime", "request_id", "taskName", "color_message"}

_UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi")


def valid_request_id(value: str | None) -> bool:
    """True when ``value`` is 1-64 characters of ``A-Z a-z 0-9 - _``."""
    return value is not None and _VALID_ID.fullmatch(value) is not None


def new_request_id() -> str:
    """A fresh request id: 32 lowercase hex digits (a random UUID)."""
    return uuid.uuid4().hex


#: The key of a "continue on another device" link (``/<locale>/g/<id>/continue/<key>``):
#: a seat's secret, never written to a log.
#: However it is spelt (``Continue``, ``continue//key``, ``continue/%2Fkey``), the
#: rest of the path after ``continue`` goes.
_CONTINUE_KEY = re.compile(r"(/continue)(?:/|%2f)[^?#\s\"']*", re.IGNORECASE)


def redact(text: str) -> str:
    """``text`` with every continue-link key replaced by ``-`` (as nginx logs it):
    ``/en/g/abc/continue/KEY?x`` becomes ``/en/g/abc/continue/-?x``."""
    return _CONTINUE_KEY.sub(r"\1/-", text) if "continue" in text.lower() else text


def _redacted(value: Any) -> Any:
    return redact(value) if isinstance(value, str) else value


class SecretFilter(logging.Filter):
    """Redact seat secrets (:func:`redact`) from a record's message, arguments and
    extras, e.g. the path of uvicorn's access line; never filters out."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Rewrite ``record`` without secrets; always True."""
        record.msg = _redacted(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redacted(a) for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {k: _redacted(v) for k, v in record.args.items()}
        for key, value in list(record.__dict__.items()):
            if key not in _RECORD_FIELDS and isinstance(value, str):
                setattr(record, key, redact(value))
        return True


class RequestIdFilter(logging.Filter):
    """Copy :data:`request_id` onto each record as ``record.request_id`` (never filters out)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Tag ``record`` unless it already has a ``request_id``; always True."""
        if getattr(record, "request_id", None) is None:
            record.request_id = request_id.get()
        return True


def _extras(record: logging.LogRecord) -> dict[str, Any]:
    fields = {k: v for k, v in record.__dict__.items() if k not in _RECORD_FIELDS}
    if record.name == "uvicorn.access" and isinstance(record.args, tuple) and len(
        record.args
    ) == 5:
        client, method, path, _http_version, status = record.args
        fields.update(client=client, method=method, path=path, status=status)
    return fields


class JsonFormatter(logging.Formatter):
    """Format a record as one line of JSON (shape in the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        """Return the record as a single-line JSON object (no trailing newline)."""
        data: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"
            ).replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        rid = getattr(record, "request_id", None) or request_id.get()
        if rid is not None:
            data["request_id"] = rid
        for key, value in _extras(record).items():
            data.setdefault(key, value)
        if record.exc_info:
            data["exc_info"] = self.formatException(record.exc_info)
        if record.stack_info:
            data["stack_info"] = self.formatStack(record.stack_info)
        return json.dumps(data, default=str, ensure_ascii=False)


class HumanFormatter(logging.Formatter):
    """``2026-11-29 23:40:01,123 INFO cardwar.web [5f2b…] game started game=k3x9``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        """Return the record as readable text, request id and extras included."""
        text = super().format(record)
        head, sep, rest = text.partition(f" {record.name} ")
        rid = getattr(record, "request_id", None) or request_id.get()
        if rid is not None and sep:
            text = f"{head}{sep}[{rid}] {rest}"
        extras = {
            k: v for k, v in _extras(record).items()
            if record.name != "uvicorn.access"
        }
        if extras:
            first, newline, trace = text.partition("\n")
            pairs = " ".join(f"{k}={v}" for k, v in extras.items())
            text = f"{first} {pairs}{newline}{trace}"
        return text


def logging_config(level: str | int = "INFO", json_lines: bool | None = None,
                   debug: Sequence[str] = ()) -> dict[str, Any]:
    """The :func:`logging.config.dictConfig` dict behind :func:`configure_logging`.

    Also the right ``log_config=`` for :func:`uvicorn.run`: uvicorn applies it in
    every worker process instead of its own, so its loggers use our formatter.

    Args:
        level: the root level, a name (``"INFO"``, ``"debug"``) or a number.
        json_lines: JSON lines when True, readable text when False; ``None``
            chooses JSON unless stderr is a terminal.
        debug: loggers written at DEBUG level too (e.g. ``cardwar.presence``).

    Returns:
        A dictConfig dict (version 1): one stderr handler on the root logger;
        uvicorn's loggers keep no handler of their own and propagate to it.

    Raises:
        ValueError: ``level`` is not a logging level.
    """
    if isinstance(level, str):
        name = level.upper()
        if not isinstance(logging.getLevelName(name), int):
            raise ValueError(f"unknown log level {level!r}")
        level_value: str | int = name
    else:
        level_value = level
    if json_lines is None:
        json_lines = not _isatty(sys.stderr)
    formatter = "json" if json_lines else "human"
    loggers: dict[str, Any] = {
        name: {"handlers": [], "propagate": True, "level": level_value}
        for name in _UVICORN_LOGGERS
    }
    for name in debug:
        loggers[name] = {"handlers": [], "propagate": True, "level": "DEBUG"}
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"request_id": {"()": f"{__name__}.RequestIdFilter"},
                    "secrets": {"()": f"{__name__}.SecretFilter"}},
        "formatters": {
            "json": {"()": f"{__name__}.JsonFormatter"},
            "human": {"()": f"{__name__}.HumanFormatter"},
        },
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "stream": "ext://sys.stderr",
                "formatter": formatter,
                "filters": ["request_id", "secrets"],
            }
        },
        "root": {"level": level_value, "handlers": ["stderr"]},
        "loggers": loggers,
    }


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def configure_logging(level: str | int = "INFO", json_lines: bool | None = None,
                      debug: Sequence[str] = ()) -> None:
    """Send all logging to stderr, as JSON lines or readable text (see module docstring).

    Safe to call more than once: the root logger's handlers are replaced, and
    uvicorn's loggers lose their own handlers and propagate to the root.

    Args:
        level: the root level, a name (``"INFO"``) or a number.
        json_lines: force JSON (True) or text (False); ``None`` = JSON unless
            stderr is a terminal.
        debug: loggers written at DEBUG level too.

    Raises:
        ValueError: ``level`` is not a logging level.
    """
    logging.config.dictConfig(logging_config(level, json_lines, debug))


Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class RequestIdMiddleware:
    """ASGI middleware giving each HTTP request and WebSocket a request id.

    The id is the incoming ``X-Request-ID`` header when it is 1-64 characters
    of ``A-Z a-z 0-9 - _`` (nginx passes its own or the client's), else a new
    :func:`new_request_id`. While the app runs, :data:`request_id` holds it and
    ``scope["state"]["request_id"]`` too (``request.state.request_id``); it is
    set as the ``X-Request-ID`` header of the HTTP response (replacing any the
    app set) and of the WebSocket handshake response. Lifespan events pass through.

    Usage: ``app.add_middleware(RequestIdMiddleware)``.
    """

    def __init__(self, app: ASGIApp, header_name: str = "X-Request-ID") -> None:
        """Wrap ``app``; ``header_name`` is matched case-insensitively."""
        self.app = app
        self.header = header_name.lower().encode("latin-1")

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one connection with :data:`request_id` set."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        incoming = None
        for name, value in scope.get("headers", ()):
            if name.lower() == self.header:
                incoming = value.decode("latin-1")
                break
        rid = incoming if incoming is not None and valid_request_id(incoming) else None
        rid = rid or new_request_id()
        state = scope.setdefault("state", {})
        if isinstance(state, dict):
            state["request_id"] = rid
        raw = rid.encode("latin-1")
        start = "http.response.start" if scope["type"] == "http" else "websocket.accept"

        async def send_with_id(message: Message) -> None:
            if message["type"] == start:
                headers = [
                    (k, v) for k, v in message.get("headers", ()) if k.lower() != self.header
                ]
                headers.append((self.header, raw))
                message["headers"] = headers
            await send(message)

        token = request_id.set(rid)
        try:
            await self.app(scope, receive, send_with_id)
        finally:
            request_id.reset(token)
