"""Locales, numbers by CLDR, plural forms, negotiation, merged catalogs."""

from __future__ import annotations

import pytest

from cardwar.web import i18n
from cardwar.web.strings import client_strings


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en", "1,000"), ("it", "1.000"), ("de", "1.000"), ("es", "1000"), ("pl", "1000"),
     ("cs", "1\u00a0000"), ("fr", "1\u202f000"), ("pt-BR", "1.000"), ("nl", "1.000"),
     ("uk", "1\u00a0000")],
)
def test_format_number_1000(locale, expected):
    assert i18n.format_number(1000, locale) == expected


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("en", "12,345"), ("it", "12.345"), ("es", "12.345"), ("pl", "12\u00a0345"),
     ("cs", "12\u00a0345"), ("fr", "12\u202f345"), ("pt-BR", "12.345"), ("nl", "12.345"),
     ("uk", "12\u00a0345")],
)
def test_format_number_groups_five_digits_everywhere(locale, expected):
    assert i18n.format_number(12345, locale) == expected


def test_format_number_uses_the_current_locale():
    token = i18n.current_locale.set("de")
    try:
        assert i18n.format_number(2000) == "2.000"
    finally:
        i18n.current_locale.reset(token)


@pytest.mark.parametrize(
    ("header", "expected"),
    [(None, "en"), ("", "en"), ("de", "de"), ("pl-PL,pl;q=0.9", "pl"), ("da, cs;q=0.8", "cs"),
     ("it;q=0.2, es;q=0.9", "es"), ("en;q=0, de;q=0.1", "de"), ("*", "en"), ("x;q=abc", "en"),
     ("fr-BE", "fr"), ("pt-BR", "pt-BR"), ("pt-br", "pt-BR"), ("pt", "pt-BR"), ("pt-PT", "pt-BR"),
     ("es;q=0.5, pt-BR", "pt-BR"), ("nl-BE,nl;q=0.9,en;q=0.5", "nl"), ("en;q=0.5, nl", "nl"),
     ("uk-UA,uk;q=0.9,ru;q=0.8,en;q=0.7", "uk"), ("ru, uk;q=0.5", "uk")],
)
def test_negotiate(header, expected):
    assert i18n.negotiate(header) == expected


@pytest.mark.parametrize(
    ("locale", "forms"),
    [("en", ["1 player", "2 players", "5 players"]),
     ("pl", ["1 gracz", "2 graczy", "5 graczy"]),
     ("cs", ["1 hráč", "2 hráči", "5 hráčů"]),
     ("fr", ["1 joueur", "2 joueurs", "5 joueurs"]),
     ("pt-BR", ["1 jogador", "2 jogadores", "5 jogadores"]),
     ("nl", ["1 speler", "2 spelers", "5 spelers"]),
     ("uk", ["1 гравець", "2 гравці", "5 гравців"])],
)
def test_plural_forms(locale, forms):
    token = i18n.current_locale.set(locale)
    try:
        got = [i18n.ngettext("%(num)s player", "%(num)s players", n) % {"num": n}
               for n in (1, 2, 5)]
    finally:
        i18n.current_locale.reset(token)
    assert got == forms


def test_polish_and_czech_have_three_card_forms():
    for locale, words in (("pl", ("karta", "karty", "kart")), ("cs", ("karta", "karty", "karet"))):
        token = i18n.current_locale.set(locale)
        try:
            got = [i18n.ngettext("%(num)s card from each player.",
                                 "%(num)s cards from each player.", n) % {"num": n}
                   for n in (1, 3, 5)]
        finally:
            i18n.current_locale.reset(token)
        assert [g.split()[1].rstrip(".") for g in got] == list(words)


@pytest.mark.parametrize("locale", ["fr", "pt-BR"])
def test_zero_is_singular_and_millions_take_de(locale):
    """CLDR's French and Portuguese: 0 and 1 are "one", exact millions "many"."""
    token = i18n.current_locale.set(locale)
    try:
        got = {n: i18n.ngettext("%(num)s player", "%(num)s players", n) % {"num": n}
               for n in (0, 1, 2, 1_000_000)}
    finally:
        i18n.current_locale.reset(token)
    assert got[0].split()[1] == got[1].split()[1] != got[2].split()[1]
    assert got[1_000_000].split()[1] == "de"
    forms = client_strings(locale)["cards"]
    assert sorted(forms) == ["many", "one", "other"]
    assert " de " in forms["many"]
    assert " de " not in forms["other"]


def test_translations_merge_domains_and_tolerate_a_missing_play_catalog():
    for locale in i18n.LOCALES:
        t = i18n.translations(locale)
        assert t.ugettext("Skip to main content")
    assert i18n.translations("de").ugettext("Skip to main content") == "Zum Inhalt springen"
    with pytest.raises(ValueError, match="unknown locale 'xx'"):
        i18n.translations("xx")


def test_gettext_follows_the_context_variable():
    assert i18n.gettext("History") == "History"
    token = i18n.current_locale.set("it")
    try:
        assert i18n.gettext("History") == "Storia"
        assert i18n.pgettext("nothing", "History") == "History"
    finally:
        i18n.current_locale.reset(token)


@pytest.mark.parametrize(("n", "form"), [
    (1, "1 карта"), (2, "2 карти"), (4, "4 карти"), (5, "5 карт"), (11, "11 карт"),
    (12, "12 карт"), (21, "21 карта"), (22, "22 карти"), (25, "25 карт"), (111, "111 карт"),
])
def test_ukrainian_card_forms(n, form):
    token = i18n.current_locale.set("uk")
    try:
        assert i18n.ngettext("{count} card", "{count} cards", n).format(count=n) == form
    finally:
        i18n.current_locale.reset(token)


@pytest.mark.parametrize("locale", i18n.LOCALES)
def test_every_plural_category_the_browser_can_pick_has_a_text(locale):
    from babel import Locale

    from cardwar.web.strings import client_strings

    rule = Locale.parse(i18n.babel_locale(locale)).plural_form
    cards = client_strings(locale, "peace")["cards"]
    assert set(cards) == set(rule.tags) | {"other"}
    # a fraction (CLDR "other" in Ukrainian and Polish, "many" in Czech) has its own text
    assert cards[rule(1.5)]


def test_ukrainian_has_four_categories_and_a_fraction_takes_the_genitive_singular():
    from babel import Locale

    from cardwar.web.strings import client_strings

    rule = Locale.parse("uk").plural_form
    assert [rule(n) for n in (1, 2, 5, 21, 1.5)] == ["one", "few", "many", "one", "other"]
    cards = client_strings("uk", "peace")["cards"]
    assert [cards[rule(n)].format(count=n) for n in (1, 2, 5, 21)] == [
        "1 карта", "2 карти", "5 карт", "21 карта"]
    assert cards["other"] == "{count} карти"  # 1,5 карти
