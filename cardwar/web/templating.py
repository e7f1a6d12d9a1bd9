"""Jinja2 rendering in the request's language.

One :data:`env` serves every locale at once: the i18n extension is
installed with callables that read :data:`cardwar.web.i18n.current_locale`
(``newstyle=True``), never with one locale's translations baked in.
"""

from __future__ import annotations

import hashlib
import subprocess
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from babel.core import get_global, parse_locale
from fastapi import Request
from fastapi.responses import HTMLResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape

import cardwar
from cardwar.tables.nicknames import MAX_NICKNAME, MAX_NICKNAME_CODE_POINTS

from . import i18n
from .variants import pages

TEMPLATES_DIR = Path(__file__).resolve().parent / "templates"


def _og_locale(locale: str) -> str:
    """``locale`` as ``language_TERRITORY``; a locale without a territory gets
    CLDR's likely one (``fr`` -> ``fr_FR``, ``cs`` -> ``cs_CZ``)."""
    language, territory = parse_locale(i18n.babel_locale(locale))[:2]
    if not territory:
        language, territory = parse_locale(get_global("likely_subtags")[language])[:2]
    return f"{language}_{territory}"


#: ``og:locale`` of each of the site's languages (language_TERRITORY), for link previews.
OG_LOCALES: dict[str, str] = {locale: _og_locale(locale) for locale in i18n.LOCALES}
STATIC_DIR = Path(__file__).resolve().parent / "static"

env = Environment(
    loader=FileSystemLoader(str(TEMPLATES_DIR)),
    autoescape=select_autoescape(["html", "xml", "svg"], default_for_string=True),
    extensions=["jinja2.ext.i18n"],
    trim_blocks=True,
    lstrip_blocks=True,
)
env.policies["ext.i18n.trimmed"] = True
# ``|tojson`` (the data pages embed in <script type="application/json">, which
# it makes safe there: <, >, & and ' escaped) keeps non-ASCII text as it is,
# as the pages' UTF-8 allows, and the keys in their order (what json.dumps does).
env.policies["json.dumps_kwargs"] = {"ensure_ascii": False}
env.install_gettext_callables(  # type: ignore[attr-defined]
    i18n.gettext,
    i18n.ngettext,
    newstyle=True,
    pgettext=i18n.pgettext,
    npgettext=i18n.npgettext,
)


@cache
def _static_version(path: str) -> str:
    try:
        return hashlib.sha256((STATIC_DIR / path).read_bytes()).hexdigest()[:10]
    except OSError:
        return "0"


def static_url(path: str) -> str:
    """URL of a file under ``static/``, with a content hash for caching.

    ``static_url("site.css")`` -> ``"/static/site.css?v=1a2b3c4d5e"``.
    """
    return f"/static/{path}?v={_static_version(path)}"


@cache
def _folder_version(folder: str) -> str:
    digest = hashlib.sha256()
    root = STATIC_DIR / folder
    for file in sorted(p for p in root.rglob("*") if p.is_file()):
        digest.update(file.relative_to(STATIC_DIR).as_posix().encode() + b"\0")
        digest.update(file.read_bytes())
    return digest.hexdigest()[:10]


def module_url(path: str) -> str:
    """URL of an ES module under ``static/``, versioned in its path.

    The version is a hash of every file in the module's folder, so the
    relative imports of the modules beside it (``import "./state.js"``)
    resolve to URLs of that same version: a new release never mixes cached
    old modules with new ones, and every module may be cached for a year.
    ``module_url("play/game.js")`` -> ``"/static/v/1a2b3c4d5e/play/game.js"``;
    the app (:func:`cardwar.web.app.create_app`) serves
    ``/static/v/<any version>/<path>`` as ``static/<path>``; behind nginx,
    ``cardwar static`` keeps each version's own copy (deploy/nginx/locations.conf).
    """
    folder = path.rpartition("/")[0]
    return f"/static/v/{_folder_version(folder)}/{path}"


@cache
def _git_commit() -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
            check=True,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def commit(settings: Any = None) -> str:
    """The short commit for the footer: git, else ``Settings.commit``
    (``CARDWAR_COMMIT``), else ``"unknown"``."""
    configured = getattr(settings, "commit", None)
    return _git_commit() or configured or "unknown"


def _path(request: Request) -> str:
    """The request's path as it goes in a link: percent-encoded again (a decoded
    ``%00`` or space never reaches the page raw)."""
    return quote(request.url.path, safe="/-._~!$&'()*+,;=:@")


def alternates(request: Request, locale: str) -> list[tuple[str, str]]:
    """``(hreflang, absolute URL)`` for the current page in every locale,
    then ``x-default`` (``/`` on the home page, else the English page)."""
    base = str(request.base_url).rstrip("/")
    path = _path(request)
    rest = path[len(locale) + 1 :] if path.startswith(f"/{locale}") else path
    rest = rest or "/"
    links = [(loc, f"{base}/{loc}{rest}") for loc in i18n.LOCALES]
    default = f"{base}/" if rest == "/" else f"{base}/{i18n.DEFAULT_LOCALE}{rest}"
    links.append(("x-default", default))
    return links


def page_path(request: Request, locale: str, target: str) -> str:
    """The current page's path in locale ``target`` (for the switcher)."""
    path = _path(request)
    rest = path[len(locale) + 1 :] if path.startswith(f"/{locale}") else "/"
    return f"/{target}{rest or '/'}"


def render(
    request: Request,
    template_name: str,
    locale: str,
    status_code: int = 200,
    **context: Any,
) -> HTMLResponse:
    """Render ``template_name`` in ``locale`` as an HTML response.

    Every template gets ``request``, ``locale``, ``locales``,
    ``language_names``, ``alternates``, ``switch_url(target)``, ``version``,
    ``commit``, ``format_number``, ``format_percent``, ``static_url``,
    ``module_url``, ``variant_pages`` (every variant with its presentation),
    ``site_url`` (the absolute base URL) and ``og_locale`` (for link previews:
    :mod:`cardwar.web.previews`), plus ``context``.

    Raises:
        ValueError: ``locale`` is not one of :data:`i18n.LOCALES`.
        jinja2.TemplateNotFound: no such template.
    """
    if locale not in i18n.LOCALES:
        raise ValueError(f"unknown locale {locale!r}")
    settings = getattr(request.app.state, "settings", None)
    token = i18n.current_locale.set(locale)
    try:
        values: dict[str, Any] = {
            "request": request,
            "locale": locale,
            "locales": i18n.LOCALES,
            "language_names": i18n.LANGUAGE_NAMES,
            "alternates": alternates(request, locale),
            "switch_url": lambda target: page_path(request, locale, target),
            "version": cardwar.__version__,
            "commit": commit(settings),
            "format_number": lambda n: i18n.format_number(n, locale),
            "format_percent": lambda s, decimals=None: i18n.format_percent(s, locale, decimals),
            "static_url": static_url,
            "module_url": module_url,
            "variant_pages": pages(),
            "site_url": str(request.base_url).rstrip("/"),
            "og_locale": OG_LOCALES.get(locale, "en_US"),
            # nickname fields: the server counts visible characters (and at most 64
            # code points); maxlength counts UTF-16 units (two for an emoji), so it
            # only bounds the code points; site.js counts what the field shows
            "nickname_units": 2 * MAX_NICKNAME_CODE_POINTS,
            "nickname_visible": MAX_NICKNAME,
        }
        values.update(context)
        html = env.get_template(template_name).render(values)
    finally:
        i18n.current_locale.reset(token)
    return HTMLResponse(html, status_code=status_code)
