"""The site's languages and their compiled gettext catalogs (Babel).

Catalogs live in ``cardwar/locales/<locale>/LC_MESSAGES/<domain>.mo``
(compiled from ``.po`` by ``make catalogs``); the domains ``messages``
(site) and ``play`` (online play) are merged into one
:class:`babel.support.Translations` per locale by :func:`translations`.
This is the one place that reads them: the web layer translates pages with
them (:mod:`cardwar.web.i18n`), and the tables ask :func:`in_every_locale`
for the labels a nickname must not take.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from babel.support import NullTranslations, Translations

LOCALES: tuple[str, ...] = ("en", "it", "de", "es", "pl", "cs")
DEFAULT_LOCALE = "en"
DOMAINS: tuple[str, ...] = ("messages", "play")
LOCALE_DIR = Path(__file__).resolve().parent / "locales"

#: Each language's own name, for the language switcher.
LANGUAGE_NAMES: dict[str, str] = {
    "en": "English",
    "it": "Italiano",
    "de": "Deutsch",
    "es": "Español",
    "pl": "Polski",
    "cs": "Čeština",
}

@cache
def translations(locale: str) -> Translations:
    """Return the merged ``messages`` + ``play`` catalogs for ``locale``.

    A missing ``.mo`` file (e.g. no ``play`` catalog yet, or catalogs not
    compiled) is skipped: its strings fall back to English.

    Raises:
        ValueError: ``locale`` is not one of :data:`LOCALES`.
    """
    if locale not in LOCALES:
        raise ValueError(f"unknown locale {locale!r}")
    merged: Translations | None = None
    for domain in DOMAINS:
        loaded = Translations.load(str(LOCALE_DIR), [locale], domain)
        if not isinstance(loaded, Translations):  # NullTranslations: no .mo file
            continue
        if merged is None:
            merged = loaded
        else:
            merged.merge(loaded)
    if merged is None:
        merged = Translations()
        merged.add_fallback(NullTranslations())
    return merged


def in_every_locale(message: str) -> set[str]:
    """``message`` translated into every one of :data:`LOCALES` (English included)."""
    return {message} | {translations(locale).ugettext(message) for locale in LOCALES}
