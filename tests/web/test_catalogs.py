"""Every gettext catalog is complete, clean and up to date with the code.

Reads every ``cardwar/locales/*/LC_MESSAGES/*.po`` (every domain: the
site's ``messages`` and online play's ``play``) and fails on a missing,
empty (except in the English source) or fuzzy translation, a placeholder
that differs from English, a wrong number of plural forms, or a catalog that no longer matches what
extraction finds in the code (``babel.cfg`` for ``messages``,
``babel-play.cfg`` for ``play`` when it exists).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from cardwar.web.i18n import LOCALES, babel_locale

ROOT = Path(__file__).resolve().parents[2]
LOCALE_DIR = ROOT / "cardwar" / "locales"
MAPPINGS = {"messages": ROOT / "babel.cfg", "play": ROOT / "babel-play.cfg"}
PLACEHOLDER = re.compile(r"%\([A-Za-z_][A-Za-z0-9_]*\)[sd]|\{[A-Za-z_][A-Za-z0-9_]*\}")

DOMAINS = sorted({p.stem for p in LOCALE_DIR.glob("*/LC_MESSAGES/*.po")})


def _load(locale: str, domain: str) -> Catalog:
    path = LOCALE_DIR / babel_locale(locale) / "LC_MESSAGES" / f"{domain}.po"
    assert path.is_file(), f"missing catalog {path.relative_to(ROOT)}"
    with path.open("rb") as fh:
        return read_po(fh, locale=babel_locale(locale), domain=domain)


def _ids(catalog: Catalog) -> set[object]:
    return {(m.context, m.id) for m in catalog if m.id}


def _placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def test_there_is_a_messages_domain():
    assert "messages" in DOMAINS


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_catalog_has_the_languages_own_plural_rule(locale, domain):
    """Babel's CLDR rule (fr and pt_BR: 0 and 1 singular, exact millions "many"),
    not one copied from another catalog's header."""
    catalog, rule = _load(locale, domain), get_plural(babel_locale(locale))
    assert (catalog.num_plurals, catalog.plural_expr) == (rule.num_plurals, rule.plural_expr)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("locale", LOCALES)
def test_catalog_is_complete_and_clean(locale, domain):
    english = _load("en", domain)
    catalog = _load(locale, domain)
    assert _ids(catalog) == _ids(english), "msgids differ from the English catalog"
    problems = []
    for m in catalog:
        if not m.id:
            continue
        where = f"{locale}/{domain}: {m.id!r}"
        if m.fuzzy:
            problems.append(f"fuzzy: {where}")
        strings = m.string if isinstance(m.string, (tuple, list)) else (m.string,)
        if m.pluralizable and len(strings) != catalog.num_plurals:
            problems.append(f"{len(strings)} plural forms, want {catalog.num_plurals}: {where}")
        if any(not s for s in strings):
            if locale != "en":  # English is the source: an empty msgstr means the msgid
                problems.append(f"empty translation: {where}")
            continue
        sources = m.id if isinstance(m.id, (tuple, list)) else (m.id,)
        want = _placeholders(sources[-1])
        for s in strings:
            got = _placeholders(s)
            if got != want and not (m.pluralizable and set(got) <= set(want) and got):
                problems.append(f"placeholders {got} != {want}: {where}")
            if re.search(r"%(?!\()", s.replace("%%", "")):
                problems.append(f"stray % (breaks newstyle gettext): {where}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("domain", DOMAINS)
def test_catalog_matches_extraction(domain):
    mapping = MAPPINGS.get(domain)
    if mapping is None or not mapping.is_file():
        pytest.skip(f"no extraction config for the {domain!r} domain")
    with mapping.open() as fh:
        method_map, options_map = parse_mapping_cfg(fh)
    extracted = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map
    ):
        if isinstance(message, (tuple, list)):
            message = tuple(message[:2])
        extracted.add((context, message))
    in_catalog = _ids(_load("en", domain))
    assert extracted - in_catalog == set(), "strings missing from the catalogs"
    assert in_catalog - extracted == set(), "stale strings in the catalogs"
