"""Link previews: the Open Graph and Twitter-card tags of the site's pages.

Every page gets a preview (``base.html``): its title and description, the
site's image (``static/og/site.png``) or its variant's
(``static/og/<variant>.png``, drawn by ``tools/images.py``, 1200x630) and
its address. A game's link gets a preview of its own (:func:`game_preview`),
worded in its creator's language: "Ann invites you to a game of Peace — 1
seat free". Only the creator's nickname ever appears (the seat that may start
the game), never another player's, and never a secret: the address is the
shared link ``/g/{id}`` whatever page the preview is on (the personal
"another device" link redirects to the game page, which has this preview).

Addresses are absolute, built from the request's own base URL (its
``Host``, and behind a proxy the scheme it forwards), as the shared link is.
"""

from __future__ import annotations

from pathlib import Path
from typing import TypedDict

from fastapi import Request

from cardwar.tables import Table

from . import i18n
from .templating import OG_LOCALES, static_url
from .variants import page_of

#: Where the preview images are (``static/og``).
OG_DIR = Path(__file__).parent / "static" / "og"


class Preview(TypedDict):
    """What a page's preview tags say (``base.html`` writes them)."""

    title: str
    description: str
    url: str
    image: str
    image_alt: str
    locale: str


def site_url(request: Request) -> str:
    """The site's absolute base URL as the visitor reached it, without a trailing slash."""
    return str(request.base_url).rstrip("/")


def image_name(variant: str | None) -> str:
    """The preview image of ``variant`` (``static/og/<variant>.png``), or the
    site's (``"site"``) for None or a variant without one of its own."""
    return variant if variant and (OG_DIR / f"{variant}.png").is_file() else "site"


def image_url(request: Request, variant: str | None) -> str:
    """The absolute, versioned URL of the preview image of ``variant`` (None: the site's)."""
    return site_url(request) + static_url(f"og/{image_name(variant)}.png")


def _words(table: Table) -> tuple[str, str, str]:
    """The title, description and image text of ``table``'s preview, in the current locale."""
    _ = i18n.gettext
    ngettext = i18n.ngettext
    page = page_of(table.variant)
    game = _(page.title)
    creator = table.creator
    name = table.record.seats[creator].nickname if creator is not None else None
    free = len(table.open_seats())
    if table.status == "over":
        title = _("A finished game of %(game)s: watch the replay") % {"game": game}
    elif table.status == "lobby" and free and name:
        title = ngettext(
            "%(name)s invites you to a game of %(game)s — %(num)s seat free",
            "%(name)s invites you to a game of %(game)s — %(num)s seats free", free,
        ) % {"name": name, "game": game, "num": i18n.format_number(free)}
    elif name:
        title = _("%(name)s invites you to watch a game of %(game)s") % {"name": name,
                                                                        "game": game}
    else:
        title = _("A game of %(game)s") % {"game": game}
    description = " ".join(filter(None, [
        _(page.tagline), _("Play in your browser with friends: free, no registration.")]))
    return title, description, game


def game_preview(request: Request, table: Table, replay: bool = False) -> Preview:
    """The preview of ``table``'s shared link (or, with ``replay``, of its replay),
    worded in the language of the game's creator (:attr:`GameRecord.locale`)."""
    locale = table.record.locale if table.record.locale in i18n.LOCALES else i18n.DEFAULT_LOCALE
    token = i18n.current_locale.set(locale)
    try:
        title, description, game = _words(table)
        if replay:
            _ = i18n.gettext
            title = _("The replay of a game of %(game)s") % {"game": game}
        path = f"/g/{table.id}" + ("/replay" if replay else "")
        return Preview(title=title, description=description, url=site_url(request) + path,
                       image=image_url(request, table.variant.name), image_alt=game,
                       locale=OG_LOCALES.get(locale, "en_US"))
    finally:
        i18n.current_locale.reset(token)
