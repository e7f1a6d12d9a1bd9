"""The site's HTML pages: home, one rules page per variant, 404, healthz.

The rule-changes table is built from :class:`cardwar.engine.Variant` data
against :data:`cardwar.engine.STANDARD`, so a new variant gets its table
without new code; its name, tagline, route and template come from
:mod:`cardwar.web.variants`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from babel.lists import format_list
from fastapi import APIRouter, FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.responses import JSONResponse, RedirectResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

import cardwar
from cardwar.engine import STANDARD, Variant

from . import beggar_stats, slap_stats, stats
from .i18n import (
    DEFAULT_LOCALE,
    LOCALES,
    babel_locale,
    canonical_locale,
    current_locale,
    format_number,
    gettext,
    negotiate,
    ngettext,
)
from .seats import NO_SUCH_GAME
from .templating import TEMPLATES_DIR, commit, render
from .variants import by_path, page_of, pages

router = APIRouter()
system_router = APIRouter()


@dataclass(frozen=True)
class RuleRow:
    """One row of a rule-changes table: what the rule is in each game."""

    label: str
    standard: str
    variant: str


def _players_text(v: Variant, locale: str) -> str:
    counts = format_list([format_number(p, locale) for p in v.players], style="or",
                         locale=babel_locale(locale))
    return gettext("For %(players)s players; %(default)s by default.") % {
        "players": counts,
        "default": format_number(v.default_players, locale),
    }


def describe(v: Variant, locale: str) -> dict[str, str]:
    """The five rule-change aspects of ``v`` in words, in the current locale
    (numbers formatted for ``locale``; set :data:`current_locale` to match).

    Returns:
        ``{"battle", "tie", "face_down", "long", "options"}`` -> sentence(s).
    """
    if v.low_wins:
        battle = gettext("The lowest card: 2s are the best cards and aces the worst.")
        tie = gettext(
            "everyone still in play lays cards face down and turns one up; "
            "the lowest face-up card takes everything on the table."
        )
    else:
        battle = gettext("The highest card: aces are high and 2s are low.")
        tie = gettext(
            "everyone still in play lays cards face down and turns one up; "
            "the highest face-up card takes everything on the table."
        )
    tie = f"{gettext(page_of(v).title)}: {tie}"
    face_down = ngettext(
        "%(num)s card from each player.", "%(num)s cards from each player.", v.face_down
    ) % {"num": format_number(v.face_down, locale)}
    if v.tie_word:
        spelled = "-".join(v.tie_word.upper())
        face_down += " " + gettext(
            "One for each letter of the English word %(word)s."
        ) % {"word": spelled}
    for option in v.face_down_options:
        if option != v.face_down:
            face_down += " " + ngettext(
                "Option: %(num)s face-down card instead.",
                "Option: %(num)s face-down cards instead.",
                option,
            ) % {"num": format_number(option, locale)}
    if v.battle_limit is None:
        long = gettext("No limit: the game goes on until one player holds all the cards.")
        if v.cycle_draw:
            long += " " + gettext(
                "A game that comes back to an earlier position would repeat forever, "
                "so it ends in a draw."
            )
    else:
        long = gettext(
            "A game still going after %(limit)s battles is a draw, "
            "even if one player holds more cards."
        ) % {"limit": format_number(v.battle_limit, locale)}
    options = _players_text(v, locale)
    if max(v.players) > 2:
        options += " " + gettext(
            "With more than two players, a tie for the winning card brings in "
            "every player still in play, not only the tied ones."
        )
    for option in STANDARD.face_down_options:
        if option != STANDARD.face_down and option not in v.face_down_options:
            options += " " + ngettext(
                "Standard War's option of %(num)s face-down card does not apply here.",
                "Standard War's option of %(num)s face-down cards does not apply here.",
                option,
            ) % {"num": format_number(option, locale)}
    return {"battle": battle, "tie": tie, "face_down": face_down, "long": long,
            "options": options}


def rule_changes(v: Variant, locale: str, standard: Variant = STANDARD) -> list[RuleRow]:
    """The rule-changes table of ``v`` against ``standard`` (five rows),
    worded in ``locale``."""
    token = current_locale.set(locale)
    try:
        return _rule_changes(v, locale, standard)
    finally:
        current_locale.reset(token)


def _rule_changes(v: Variant, locale: str, standard: Variant) -> list[RuleRow]:
    labels = {
        "battle": gettext("Who wins a battle"),
        "tie": gettext("A tie"),
        "face_down": gettext("Face-down cards before the deciding card"),
        "long": gettext("Very long games"),
        "options": gettext("Other options"),
    }
    ours, theirs = describe(v, locale), describe(standard, locale)
    return [RuleRow(labels[k], theirs[k], ours[k]) for k in labels]


def stats_rows(v: Variant) -> list[dict[str, Any]]:
    """The precomputed statistics of ``v`` (:mod:`.stats`) shaped for the template.

    Each row: ``players``, ``games``, ``mean`` and ``median`` (battles, with
    ``mean_ci``/``median_ci`` as ``(low, high)``), ``draw_share``,
    ``limit_share``, ``cycle_share`` (0..1, each with its ``*_ci``),
    ``bar_mean`` and ``bar_median`` (0..1 of the longest bar), ``hist``
    (:func:`hist_bars`) and ``seats``/``lobby`` (per table seat / lobby
    position: ``{"share", "ci"}`` among the games won).
    """
    rows = stats.for_variant(v.name)
    top = max((r["mean_battles"] for r in rows), default=1) or 1
    top = max(top, max((r["median_battles"] for r in rows), default=1))
    out = []
    for r in rows:
        out.append({
            "players": r["players"],
            "games": r["games"],
            "mean": round(r["mean_battles"], 1),
            "mean_ci": tuple(round(x, 1) for x in r["mean_ci"]),
            "median": r["median_battles"],
            "median_ci": tuple(r["median_ci"]),
            "draw_share": r["draw_share"],
            "draw_ci": tuple(r["draw_ci"]),
            "limit_share": r["limit_share"],
            "limit_ci": tuple(r["limit_ci"]),
            "cycle_share": r["cycle_share"],
            "cycle_ci": tuple(r["cycle_ci"]),
            "bar_mean": r["mean_battles"] / top,
            "bar_median": r["median_battles"] / top,
            "hist": hist_bars(r["histogram"], r["games"]),
            "seats": r["seats"],
            "lobby": r["lobby"],
        })
    return out


def hist_bars(hist: dict[str, Any], games: int) -> dict[str, Any]:
    """A histogram of :mod:`.stats` as bars: ``{"width", "top", "limit",
    "bars"}``, each bar ``{"low", "high"`` (battles; ``high`` is None for the
    open last bar of a variant without a battle limit), ``"share"`` (0..1)
    and ``"height"`` (0..1 of the tallest bar)}``."""
    counts = hist["counts"]
    width = hist["width"]
    tallest = max(counts) or 1
    out = []
    for i, c in enumerate(counts):
        last = i == len(counts) - 1
        high = None if last and not hist["limit"] else min((i + 1) * width, hist["top"])
        out.append({"low": i * width + 1, "high": high, "share": c / games,
                    "height": c / tallest})
    return {"width": width, "top": hist["top"], "limit": hist["limit"], "bars": out}


def _template_exists(name: str) -> bool:
    return (TEMPLATES_DIR / name).is_file()


@system_router.api_route("/healthz", methods=["GET", "HEAD"], include_in_schema=False)
async def healthz(request: Request) -> JSONResponse:
    """``{"status": "ok", "version": "0.1.0", "commit": "a1b2c3d"}``."""
    settings = getattr(request.app.state, "settings", None)
    return JSONResponse(
        {"status": "ok", "version": cardwar.__version__, "commit": commit(settings)}
    )


@system_router.api_route("/favicon.ico", methods=["GET", "HEAD"], include_in_schema=False)
async def favicon() -> Response:
    """Browsers ask for ``/favicon.ico``: send them to the SVG icon."""
    from .templating import static_url

    return RedirectResponse(static_url("favicon.svg"), status_code=301)


@router.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
async def root(request: Request) -> Response:
    """Redirect to the home page in the language the browser asks for."""
    locale = negotiate(request.headers.get("accept-language"))
    return RedirectResponse(f"/{locale}/", status_code=307, headers={"Vary": "Accept-Language"})


@router.api_route("/{locale}", methods=["GET", "HEAD"], include_in_schema=False)
async def locale_root(request: Request, locale: str) -> Response:
    """``/it`` -> ``/it/``; an unknown first segment is a 404."""
    if locale not in LOCALES:
        raise StarletteHTTPException(404)
    return RedirectResponse(f"/{locale}/", status_code=308)


@router.api_route("/{locale}/", methods=["GET", "HEAD"], include_in_schema=False)
async def home(request: Request, locale: str) -> Response:
    """The home page: what the site is and the variants, each with Play."""
    if locale not in LOCALES:
        raise StarletteHTTPException(404)
    variants = [{"name": v.name, "title": p.title, "tagline": p.tagline, "path": p.path,
                 "variant": v} for v, p in pages()]
    return render(request, "home.html", locale, variants=variants)


@router.api_route("/{locale}/{slug}", methods=["GET", "HEAD"], include_in_schema=False)
async def variant_page(request: Request, locale: str, slug: str) -> Response:
    """The rules page of one variant, e.g. ``/de/peace`` (its path: :mod:`.variants`)."""
    v = by_path(slug)
    if locale not in LOCALES or v is None:
        raise StarletteHTTPException(404)
    return variant_response(request, locale, v)


def variant_response(request: Request, locale: str, v: Variant, *, status_code: int = 200,
                     start_error: str | None = None, start_nickname: str | None = None
                     ) -> Response:
    """The rules page of ``v``; ``start_error`` (translated) and the
    typed ``start_nickname`` re-show the start form after a refused nickname."""
    page = page_of(v)
    context: dict[str, Any] = {
        "variant": v,
        "page": page,
        "variant_title": page.title,
        "tagline": page.tagline,
        "stats": stats_rows(v),
        "stats_games": stats.load()["games"],
        "has_start_form": _template_exists("play/start_form.html"),
        # a game in turns has its own statistics: cards and tricks, a histogram
        "turns_stats": beggar_stats.load() if v.play == "turns" else None,
        # the slap games': lengths and win shares by the computers' skill
        "slap_stats": slap_stats.load()["variants"].get(v.name) if v.play == "slaps" else None,
    }
    # the rule-changes table compares battle games; a game in turns has its own
    compared = v.play == STANDARD.play and v.name != STANDARD.name
    context["rule_changes"] = rule_changes(v, locale) if compared else []
    return render(request, page.template, locale, active=v.name, status_code=status_code,
                  preview_image=v.name,
                  start_error=start_error, start_nickname=start_nickname, **context)


def _locale_of(request: Request) -> str:
    first = request.url.path.strip("/").split("/", 1)[0]
    return first if first in LOCALES else DEFAULT_LOCALE


def install_error_pages(app: FastAPI) -> None:
    """Serve 404s as an HTML page (English unless the path starts with a
    known locale) with links to each language; a game that does not exist
    (:data:`~cardwar.web.seats.NO_SUCH_GAME`: a mistyped link) says so and
    offers a new game; ``/api/`` paths keep JSON."""

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code != 404 or request.url.path.startswith("/api/"):
            return await http_exception_handler(request, exc)
        first, sep, rest = request.url.path.lstrip("/").partition("/")
        canonical = canonical_locale(first)
        if request.method in ("GET", "HEAD") and canonical not in (None, first):
            target = f"/{canonical}{sep}{rest}"
            if request.url.query:
                target += "?" + request.url.query
            return RedirectResponse(target, status_code=308)
        return render(
            request, "404.html", _locale_of(request), status_code=404, show_alternates=False,
            no_preview=True, no_game=exc.detail == NO_SUCH_GAME)
