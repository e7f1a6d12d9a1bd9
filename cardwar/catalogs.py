"""The site's languages and their compiled gettext catalogs (Babel).

A locale is a BCP 47 tag, as URLs, ``hreflang`` and the browser's ``Intl``
write it (``pt-BR``); Babel and gettext write it with an underscore
(:func:`babel_locale`: ``pt_BR``). Catalogs live in
``cardwar/locales/<babel_locale>/LC_MESSAGES/<domain>.mo``,
compiled from the ``.po`` by every install (the build step in setup.py;
``make catalogs`` after editing a ``.po``); the domains ``messages``
(site) and ``play`` (online play) are merged into one
:class:`babel.support.Translations` per locale by :func:`translations`.
This is the one place that reads them: the web layer translates pages with
them (:mod:`cardwar.web.i18n`), and the tables ask :func:`in_every_locale`
for the labels a nickname must not take.

A site whose ``.mo`` files are missing or stale would quietly show English,
so :func:`catalog_problems` compares each ``.mo`` with its ``.po`` by content
(the messages the ``.po`` compiles to, as ``pybabel compile`` keeps them:
translated, fuzzy ones left out; and the plural rule), never by file times,
which pip does not keep: ``cardwar serve`` refuses to start and ``cardwar
check`` reports them.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from babel.support import NullTranslations, Translations

LOCALES: tuple[str, ...] = (
    "en", "it", "de", "es", "pl", "cs",
    "fr",
    "pt-BR",
    "nl",
    "uk",
)
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
    "fr": "Français",
    "pt-BR": "Português (Brasil)",
    "nl": "Nederlands",
    "uk": "Українська",
}


def babel_locale(locale: str) -> str:
    """``locale`` (a BCP 47 tag of :data:`LOCALES`) as Babel and gettext write
    it, which is also its catalog's directory: ``pt-BR`` -> ``pt_BR``."""
    return locale.replace("-", "_")

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
        loaded = Translations.load(str(LOCALE_DIR), [babel_locale(locale)], domain)
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


def _key(value: Any) -> Any:
    """A message id or string as a hashable, comparable value (plurals are lists)."""
    return tuple(value) if isinstance(value, list | tuple) else value


def _messages(catalog: Any, *, compiled: bool) -> dict[tuple[Any, Any], Any]:
    """``{(context, id): string}`` of the entries a ``.mo`` holds, or for a ``.po``
    would hold once compiled: translated, not fuzzy, and an empty plural form
    filled with the English one (as Babel's ``write_mo`` does)."""
    found = {}
    for m in catalog:
        if not m.id or not (compiled or (m.string and not m.fuzzy)):
            continue
        string = m.string
        if not compiled and isinstance(string, list | tuple):
            string = [s or m.id[min(i, 1)] for i, s in enumerate(string)]
        found[(m.context, _key(m.id))] = _key(string)
    return found


def catalog_problem(locale: str, domain: str, locale_dir: Path | None = None) -> str | None:
    """What is wrong with ``locale``'s ``domain`` catalog (in ``locale_dir``, by
    default the package's), or None when its ``.mo`` matches its ``.po``.

    Returns a short text such as ``"pl/play.mo is missing"`` or
    ``"de/messages.mo does not match its .po (3 messages differ)"``.
    """
    po = (locale_dir or LOCALE_DIR) / babel_locale(locale) / "LC_MESSAGES" / f"{domain}.po"
    mo = po.with_suffix(".mo")
    name = f"{babel_locale(locale)}/{domain}"
    if not po.is_file():
        return f"{name}.po is missing"
    if not mo.is_file():
        return f"{name}.mo is missing"
    from babel.messages.mofile import read_mo
    from babel.messages.pofile import read_po

    try:
        with po.open("rb") as fh:
            source = read_po(fh, locale=babel_locale(locale), domain=domain)
        with mo.open("rb") as fh:
            compiled = read_mo(fh)
    except Exception as exc:  # noqa: BLE001 - unreadable or corrupt: say which
        return f"{name} cannot be read: {exc}"
    want, got = _messages(source, compiled=False), _messages(compiled, compiled=True)
    if want != got:
        differ = len(set(want.items()) ^ set(got.items()))
        return f"{name}.mo does not match its .po ({differ} messages differ)"
    if source.plural_forms != compiled.plural_forms:
        return f"{name}.mo does not match its .po (plural rule)"
    return None


def catalog_problems(locale_dir: Path | None = None) -> list[str]:
    """:func:`catalog_problem` for every locale and domain of the site; empty when
    all are compiled and up to date."""
    found = (catalog_problem(loc, dom, locale_dir) for loc in LOCALES for dom in DOMAINS)
    return [p for p in found if p]


def catalogs_summary() -> str:
    """One line saying what was checked, e.g. ``"6 locales x 2 domains"``."""
    return f"{len(LOCALES)} locales x {len(DOMAINS)} domains"
