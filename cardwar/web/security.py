"""HTTP security: response headers (CSP and friends) and error pages.

* :class:`SecurityHeadersMiddleware` adds to every HTTP response a
  Content-Security-Policy with no inline script (``script-src 'self'``),
  ``X-Content-Type-Options``, ``Referrer-Policy``, ``X-Frame-Options`` (and
  ``frame-ancestors``) and ``Permissions-Policy``.
* :func:`install_error_pages` serves every error other than 404 as a
  translated HTML page with the request id, logs the failure with that id,
  and never shows a traceback.
"""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardwar.obs.logs import new_request_id, request_id

from .i18n import DEFAULT_LOCALE, LOCALES
from .templating import render

log = logging.getLogger("cardwar.web")

#: The Content-Security-Policy of every page: no inline script, nothing from elsewhere.
CSP = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])

SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"permissions-policy",
     b"camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


class SecurityHeadersMiddleware:
    """Pure ASGI middleware adding :data:`SECURITY_HEADERS` to HTTP responses.

    Headers the application set itself are kept.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one request, adding the headers to its response start."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {k.lower() for k, _ in headers}
                headers += [(k, v) for k, v in SECURITY_HEADERS if k not in present]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _locale_of(request: Request) -> str:
    first = request.url.path.strip("/").split("/", 1)[0]
    return first if first in LOCALES else DEFAULT_LOCALE


def _rid(request: Request) -> str:
    rid = request_id.get() or getattr(request.state, "request_id", None)
    if not rid:
        rid = new_request_id()
    return str(rid)


def error_page(request: Request, status: int, rid: str) -> Response:
    """The translated error page for ``status`` (400, 403, 405, 500, ...)."""
    return render(request, "play/error.html", _locale_of(request), status_code=status,
                  status=status, request_id=rid, show_alternates=False, no_preview=True)


def install_error_pages(app: FastAPI) -> None:
    """Serve HTTP errors other than 404 (kept by the handler installed before)
    and unexpected exceptions as the translated ``error.html`` page, logged
    with the request id. ``/api/`` paths keep their JSON errors."""
    previous: Any = app.exception_handlers.get(StarletteHTTPException)

    async def http_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        if previous is not None and (
                exc.status_code == 404 or request.url.path.startswith("/api/")):
            response: Response = await previous(request, exc)
            return response
        rid = _rid(request)
        log.info("http error %s on %s: %s", exc.status_code, request.url.path, exc.detail,
                 extra={"request_id": rid, "status": exc.status_code})
        try:
            page = error_page(request, exc.status_code, rid)
        except Exception:  # never fail while failing, but say why
            log.exception("the %s page could not be drawn", exc.status_code,
                          extra={"request_id": rid})
            page = HTMLResponse("Error", status_code=exc.status_code)
        page.headers.update(exc.headers or {})  # e.g. a 429's Retry-After
        return page

    async def server_error(request: Request, exc: Exception) -> Response:
        rid = _rid(request)
        log.error("unhandled error on %s", request.url.path, exc_info=exc,
                  extra={"request_id": rid})
        try:
            return error_page(request, 500, rid)
        except Exception:  # never fail while failing, but say why
            log.exception("the error page could not be drawn", extra={"request_id": rid})
            return HTMLResponse(f"Internal error. Request id: {rid}", status_code=500)

    async def invalid_request(request: Request, exc: Exception) -> Response:
        if request.url.path.startswith("/api/"):
            from fastapi.exception_handlers import request_validation_exception_handler

            assert isinstance(exc, RequestValidationError)
            return await request_validation_exception_handler(request, exc)
        return await http_error(request, StarletteHTTPException(400, "invalid form"))

    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(Exception, server_error)
