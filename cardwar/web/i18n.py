"""Languages of the site: locales, gettext catalogs, numbers and negotiation.

Every request sets :data:`current_locale`; the module-level :func:`gettext`,
:func:`ngettext` and :func:`pgettext` translate into it, with the catalogs
of :mod:`cardwar.catalogs` (the languages are listed there).
"""

from __future__ import annotations

import copy
from contextvars import ContextVar
from decimal import ROUND_HALF_UP, Decimal

from babel import Locale
from babel.numbers import format_decimal, get_group_symbol, get_minus_sign_symbol
from babel.support import Translations

from cardwar.catalogs import (
    DEFAULT_LOCALE,
    DOMAINS,
    LANGUAGE_NAMES,
    LOCALE_DIR,
    LOCALES,
    babel_locale,
    translations,
)

__all__ = [
    "DEFAULT_LOCALE",
    "DOMAINS",
    "LANGUAGE_NAMES",
    "LOCALES",
    "LOCALE_DIR",
    "babel_locale",
    "canonical_locale",
    "current_locale",
    "format_number",
    "format_percent",
    "gettext",
    "locale_of_language",
    "negotiate",
    "ngettext",
    "npgettext",
    "number_words",
    "pgettext",
    "translations",
]

#: CLDR ``minimumGroupingDigits`` where it is not 1 (Babel does not apply it):
#: Spanish and Polish write 1000 but 10 000 / 10.000.
_MIN_GROUPING: dict[str, int] = {"es": 2, "pl": 2}

current_locale: ContextVar[str] = ContextVar("current_locale", default=DEFAULT_LOCALE)


def _current() -> Translations:
    return translations(current_locale.get())


def gettext(message: str) -> str:
    """Translate ``message`` into the current locale."""
    return _current().ugettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """Pick and translate the plural form for ``n`` in the current locale."""
    return _current().ungettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` in ``context`` into the current locale."""
    return _current().upgettext(context, message)


def npgettext(context: str, singular: str, plural: str, n: int) -> str:
    """Plural-aware :func:`pgettext`."""
    return _current().unpgettext(context, singular, plural, n)


def format_number(n: float | int, locale: str | None = None) -> str:
    """Format ``n`` by CLDR for ``locale`` (default: the current locale).

    ``1000`` gives ``1,000`` (en), ``1.000`` (it, de), ``1000`` (es, pl) and
    ``1\u00a0000`` (cs), ``1\u202f000`` (fr): Babel's patterns plus CLDR's
    minimum grouping digits.
    """
    loc = locale or current_locale.get()
    min_grouping = _MIN_GROUPING.get(loc, 1)
    group = abs(int(n)) >= 10 ** (2 + min_grouping)
    return format_decimal(n, locale=babel_locale(loc), group_separator=group)


def number_words(locale: str) -> dict[str, str | int]:
    """How ``locale`` writes whole numbers, for the pages' scripts to write them
    as :func:`format_number` does: ``{"group": "." , "min_grouping": 1, "minus": "-"}``
    (CLDR by Babel: the grouping separator, the minimum grouping digits, the minus sign)."""
    loc = babel_locale(locale)
    return {"group": get_group_symbol(loc), "min_grouping": _MIN_GROUPING.get(locale, 1),
            "minus": get_minus_sign_symbol(loc)}


def format_percent(share: float | Decimal, locale: str | None = None,
                   decimals: int | None = None) -> str:
    """Format a share in 0..1 as a percentage by CLDR, to at most two decimals
    of a percent, halves rounded up (``0.115`` -> ``11.5%``, 175 of 2,000 =
    ``0.0875`` -> ``8.75%``, never the float's ``8.7%``).

    ``decimals``: exactly that many decimals of a percent instead (a table's
    column of figures: ``0.276`` -> ``27.60%`` beside ``18.65%``).
    """
    from babel.numbers import format_percent as _fp

    exact = share if isinstance(share, Decimal) else Decimal(repr(share))
    loc = babel_locale(locale or current_locale.get())
    if decimals is not None:
        pattern = copy.copy(Locale.parse(loc).percent_formats[None])
        pattern.frac_prec = (decimals, decimals)
        step = Decimal(1).scaleb(-(decimals + 2))
        return str(pattern.apply(exact.quantize(step, ROUND_HALF_UP), loc))
    return _fp(exact.quantize(Decimal("0.0001"), ROUND_HALF_UP),
               locale=loc, decimal_quantization=False)


def locale_of_language() -> dict[str, str]:
    """The locale of each language the site has, by its language code alone:
    ``{"en": "en", ..., "pt": "pt-BR"}`` (the first of :data:`LOCALES` wins)."""
    return {babel_locale(loc).split("_")[0]: loc for loc in reversed(LOCALES)}


def canonical_locale(tag: str) -> str | None:
    """The locale of :data:`LOCALES` that ``tag`` names, ignoring case and
    ``-``/``_`` (``PT_br`` -> ``pt-BR``), or None."""
    wanted = tag.lower().replace("_", "-")
    return next((loc for loc in LOCALES if loc.lower() == wanted), None)


def negotiate(accept_language: str | None) -> str:
    """Pick the best of :data:`LOCALES` for an ``Accept-Language`` header.

    Quality values are honoured (``q=0`` excludes); a tag matches a locale
    whatever its case (``pt-br`` -> ``pt-BR``), and a region falls back to
    its language (``de-AT`` -> ``de``) or to the one locale of that language
    (``pt``, ``pt-PT`` -> ``pt-BR``). Returns :data:`DEFAULT_LOCALE` when
    nothing matches or the header is empty or malformed.
    """
    if not accept_language:
        return DEFAULT_LOCALE
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate(accept_language.split(",")):
        fields = part.strip().split(";")
        tag = fields[0].strip().lower()
        quality = 1.0
        for param in fields[1:]:
            key, _, value = param.strip().partition("=")
            if key.strip() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if tag and quality > 0:
            ranked.append((-quality, index, tag))
    by_language = locale_of_language()
    for _q, _i, tag in sorted(ranked):
        exact = canonical_locale(tag)
        if exact is not None:
            return exact
        language = tag.replace("_", "-").split("-")[0]
        if language in by_language:
            return by_language[language]
    return DEFAULT_LOCALE
