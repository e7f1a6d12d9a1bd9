"""Install as an app: the web app manifest, the service worker and the offline page.

Routes:

* ``GET /{locale}/manifest.webmanifest`` - the manifest in ``locale``: name,
  description, icons (``static/icons``, drawn by ``tools/images.py``: 192 and
  512 pixels, plain and maskable), theme colours, and ``start_url`` and
  ``scope`` in that language (``/{locale}/``).
* ``GET /sw.js`` - the service worker (scope ``/``), rendered from
  ``templates/sw.js`` with the versioned URLs of the static assets and the
  offline pages it keeps. It answers versioned static assets from its cache
  and lets every other request go to the network untouched: pages, game
  state, the API, QR codes and WebSockets are never cached. When a page
  cannot be reached it shows the offline page in the language of the
  address (else the browser's, else English).
* ``GET /{locale}/offline`` - "you are offline", translated.

:class:`CachedStatic` serves ``/static``: versioned URLs (``?v=`` or
``/static/v/<hash>/``) may be cached for a year, the rest for an hour.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.types import Scope

from . import i18n
from .seats import check_locale
from .templating import STATIC_DIR, env, module_url, render, static_url

router = APIRouter()

#: The theme colour (the felt green) and the background of the installed app.
THEME_LIGHT = "#17694b"  # base.html: the same, and #121513 for dark pages
BACKGROUND = "#f8f5ef"
#: The static files every page may need offline (besides the game's modules).
SHELL = ("site.css", "site.js", "favicon.svg", "play/play.css", "play/table.css")
ICONS = ((192, "any"), (512, "any"), (192, "maskable"), (512, "maskable"))


class CachedStatic(StaticFiles):
    """:class:`StaticFiles` with ``Cache-Control``: a year (immutable) for a
    versioned URL (``versioned=True``, or a ``v`` in the query), an hour otherwise."""

    def __init__(self, *args: object, versioned: bool = False, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.versioned = versioned

    async def get_response(self, path: str, scope: Scope) -> Response:
        """The file's response, with its caching header."""
        response = await super().get_response(path, scope)
        if response.status_code in (200, 304):
            query = scope.get("query_string", b"")
            forever = self.versioned or query.startswith(b"v=") or b"&v=" in query
            response.headers["Cache-Control"] = (
                "public, max-age=31536000, immutable" if forever else "public, max-age=3600")
        return response


def _manifest(locale: str) -> dict[str, object]:
    token = i18n.current_locale.set(locale)
    try:
        _ = i18n.gettext
        icons: list[dict[str, str]] = [
            {"src": static_url(f"icons/{'icon' if purpose == 'any' else purpose}-{size}.png"),
             "sizes": f"{size}x{size}", "type": "image/png", "purpose": purpose}
            for size, purpose in ICONS]
        icons.append({"src": static_url("favicon.svg"), "sizes": "any", "type": "image/svg+xml",
                      "purpose": "any"})
        return {
            "id": "/",
            "name": _("cardwar: Peace and War"),
            "short_name": "cardwar",
            "description": _("Play Peace, War, Beggar-my-neighbour, Egyptian Ratscrew and Slapjack "
                             "online with friends through a shared link. No registration."),
            "lang": locale,
            "dir": "ltr",
            "start_url": f"/{locale}/",
            "scope": f"/{locale}/",
            "display": "standalone",
            "orientation": "any",
            "background_color": BACKGROUND,
            "theme_color": THEME_LIGHT,
            "categories": ["games", "entertainment"],
            "icons": icons,
        }
    finally:
        i18n.current_locale.reset(token)


@router.get("/{locale}/manifest.webmanifest", include_in_schema=False)
async def manifest(locale: str) -> Response:
    """The web app manifest in ``locale``."""
    check_locale(locale)
    return JSONResponse(_manifest(locale), media_type="application/manifest+json",
                        headers={"Cache-Control": "public, max-age=86400"})


@cache
def _worker() -> tuple[str, str]:
    """The service worker's source and its version (a hash of what it keeps)."""
    play = sorted(p.relative_to(STATIC_DIR).as_posix()
                  for p in (STATIC_DIR / "play").glob("*.js"))
    assets = [static_url(name) for name in SHELL] + [module_url(p) for p in play]
    offline = {locale: f"/{locale}/offline" for locale in i18n.LOCALES}
    manifests = [f"/{locale}/manifest.webmanifest" for locale in i18n.LOCALES]
    by_language = {language: offline[locale]
                   for language, locale in i18n.locale_of_language().items()}
    version = hashlib.sha256(json.dumps([assets, offline, manifests]).encode()).hexdigest()[:12]
    source = env.get_template("sw.js").render(version=version, assets=assets, offline=offline,
                                              manifests=manifests,
                                              by_language=by_language,
                                              default=i18n.DEFAULT_LOCALE)
    return source, version


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> Response:
    """The service worker (see the module docstring); browsers check it for updates."""
    source, _version = _worker()
    return Response(source, media_type="text/javascript",
                    headers={"Cache-Control": "no-cache"})


@router.get("/{locale}/offline", include_in_schema=False)
async def offline(request: Request, locale: str) -> Response:
    """The page the service worker shows when a page cannot be reached."""
    check_locale(locale)
    response = render(request, "offline.html", locale, show_alternates=False, no_preview=True)
    response.headers["Cache-Control"] = "no-cache"
    return response
