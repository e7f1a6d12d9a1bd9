"""The FastAPI application: startup wiring, frame, rules pages, online play, static files."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from cardwar.bus import open_bus
from cardwar.obs import RequestIdMiddleware, process_exiting
from cardwar.settings import Settings
from cardwar.store import Store
from cardwar.tables import TableService
from cardwar.tables.retention import Retention

from . import beggar_pages, listing, pages, play, pwa, rooms, security
from .frames import SocketParts
from .guard import install_guards
from .metrics import metrics_endpoint
from .socket import event_builder
from .templating import STATIC_DIR


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the store (running migrations), the bus and the table service.

    The service is kept on ``app.state.tables`` (a
    :class:`~cardwar.tables.TableService`, read by :func:`cardwar.web.seats.service`),
    the sockets' shared parts on ``app.state.sockets`` (:class:`~cardwar.web.frames.SocketParts`).
    """
    settings: Settings = app.state.settings
    store = Store(settings.database)
    await store.migrate()
    # Redis: several processes
    bus = open_bus(settings.redis, settings.redis_prefix, settings.presence_ttl)
    service = TableService(store, bus, settings)
    app.state.tables = service
    app.state.guard.limiter = bus.limiter  # the limits, counted by every process at once
    app.state.guard.slots = bus.slots  # sockets per address likewise
    # every socket's shared parts: frames encoded once, one heartbeat clock
    app.state.sockets = SocketParts(event_builder(service))
    service.start_background()
    sweeper = Retention(store, service.cache, settings, service.open_lobbies)
    sweeper.start()
    try:
        yield
    finally:
        await app.state.sockets.close()
        await sweeper.close()
        await service.close()
        await bus.close()
        await store.close()
        process_exiting()


def create_app(settings: Settings | None = None, bind: str | None = None) -> FastAPI:
    """Build the site.

    ``settings`` defaults to ``Settings()`` (``CARDWAR_*`` environment) and
    is kept on ``app.state.settings``. Routes, in order: ``/healthz``,
    ``/static``, online play (:data:`cardwar.web.play.router`, then
    :data:`cardwar.web.rooms.router` and the open tables,
    :data:`cardwar.web.listing.router`), ``/metrics``, then the locale pages
    (``/``, ``/{locale}/``, ``/{locale}/{variant}``); any other path is an
    HTML 404 page. Outermost, the host check and the trusted proxy's headers
    (:func:`cardwar.web.guard.install_guards`; ``bind``: the address ``serve``
    listens on, an allowed host by default).
    """
    app = FastAPI(
        title="cardwar",
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
    )
    app.state.settings = settings if settings is not None else Settings()
    # ES modules, versioned in the path (templating.module_url): before /static
    app.mount("/static/v/{version}", pwa.CachedStatic(directory=str(STATIC_DIR), versioned=True),
              name="modules")
    app.mount("/static", pwa.CachedStatic(directory=str(STATIC_DIR)), name="static")
    app.include_router(pages.system_router)
    app.include_router(pwa.router)  # /sw.js, and before the pages' "/{locale}/{slug}"
    app.include_router(play.router)
    app.include_router(rooms.router)
    app.include_router(listing.router)  # before the pages' "/{locale}/{slug}"
    app.include_router(beggar_pages.router)  # the records, below the rules page
    # before the pages router: its "/{locale}" catch-all would take /metrics
    app.add_route("/metrics", metrics_endpoint, include_in_schema=False)
    app.include_router(pages.router)
    pages.install_error_pages(app)
    security.install_error_pages(app)  # after pages': it keeps their 404 page
    app.add_middleware(security.SecurityHeadersMiddleware)
    app.add_middleware(RequestIdMiddleware)  # ids on every log line
    install_guards(app, app.state.settings, bind)  # outermost: hosts, forwarded addresses
    return app
