"""Every page in every locale, redirects, 404s, healthz and the frame."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest

import cardwar
from cardwar.web.i18n import LOCALES

PAGES = ("", "peace", "war")
TITLES = {
    "en": ("Peace, War, Beggar-my-neighbour, Egyptian Ratscrew and Slapjack",
           "Peace: rules", "War: rules"),
    "it": ("Pace, Guerra, Beggar-my-neighbour, Egyptian Ratscrew e Slapjack",
           "Pace: regole", "Guerra: regole"),
    "de": ("Frieden, Krieg, Beggar-my-neighbour, Egyptian Ratscrew und Slapjack",
           "Frieden: Regeln", "Krieg: Regeln"),
    "es": ("Paz, Guerra, Beggar-my-neighbour, Egyptian Ratscrew y Slapjack",
           "Paz: reglas", "Guerra: reglas"),
    "pl": ("Pokój, Wojna, Beggar-my-neighbour, Egyptian Ratscrew i Slapjack",
           "Pokój: zasady", "Wojna: zasady"),
    "cs": ("Mír, Válka, Beggar-my-neighbour, Egyptian Ratscrew a Slapjack",
           "Mír: pravidla", "Válka: pravidla"),
    "fr": ("La Paix, la Bataille, Beggar-my-neighbour, la Bataille corse et Slapjack",
           "Paix\u00a0: règles", "Bataille\u00a0: règles"),
    "pt-BR": ("Paz, Guerra, Beggar-my-neighbour, Egyptian Ratscrew e Slapjack",
              "Paz: regras", "Guerra: regras"),
    "nl": ("Vrede, Oorlogje, Beggar-my-neighbour, Egyptian Ratscrew en Slapjack",
           "Vrede: spelregels", "Oorlogje: spelregels"),
    "uk": ("Мир, Війна, Beggar-my-neighbour, Egyptian Ratscrew і Slapjack",
           "Мир: правила", "Війна: правила"),
}
THOUSAND = {"en": "1,000", "it": "1.000", "de": "1.000", "es": "1000", "pl": "1000",
            "cs": "1\u00a0000",
            "fr": "1\u202f000",
            "pt-BR": "1.000", "nl": "1.000", "uk": "1\u00a0000"}
SKIP = {"en": "Skip to main content", "it": "Vai al contenuto", "de": "Zum Inhalt springen",
        "es": "Saltar al contenido", "pl": "Przejdź do treści", "cs": "Přejít na obsah",
        "fr": "Aller au contenu principal",
        "pt-BR": "Pular para o conteúdo", "nl": "Naar de inhoud", "uk": "Перейти до змісту"}
FOOTER = {"en": "No registration needed. Share a link and start playing.",
          "it": "Nessuna registrazione richiesta.", "de": "Keine Anmeldung nötig.",
          "es": "Sin registro.", "pl": "Bez rejestracji.", "cs": "Bez registrace.",
          "fr": "Pas besoin de s'inscrire.",
          "pt-BR": "Sem cadastro.", "nl": "Geen registratie nodig.",
          "uk": "Реєстрація не потрібна."}


class _Outline(HTMLParser):
    """Collects tags, ids, headings, scripts and attributes of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.headings: list[int] = []
        self.inline_scripts = 0
        self._in_script: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        if tag == "script":
            self._in_script = a

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._in_script = None

    def handle_data(self, data: str) -> None:
        s = self._in_script
        is_data = s is not None and s.get("type") == "application/json"
        if s is not None and data.strip() and "src" not in s and not is_data:
            self.inline_scripts += 1


def outline(html: str) -> _Outline:
    p = _Outline()
    p.feed(html)
    return p


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize(("index", "page"), list(enumerate(PAGES)))
def test_every_page_in_every_locale(client, locale, index, page):
    r = client.get(f"/{locale}/{page}")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/html")
    html = r.text
    assert f'<html lang="{locale}">' in html
    title = re.search(r"<title>(.*?)</title>", html, re.S).group(1)
    assert TITLES[locale][index] in title
    assert SKIP[locale] in html
    assert FOOTER[locale] in html
    assert f"v{cardwar.__version__} · " in html
    o = outline(html)
    assert o.headings[0] == 1
    assert o.headings.count(1) == 1
    for before, after in zip(o.headings, o.headings[1:], strict=False):
        assert after <= before + 1, f"heading level jumps from h{before} to h{after}"
    assert o.inline_scripts == 0
    assert not any(k.startswith("on") for _t, a in o.tags for k in a)
    assert not re.search(r'(src|href)="(https?:)?//(?!testserver)', html), "external request"
    # the skip link comes first and points at <main>
    first_link = next(a for t, a in o.tags if t == "a")
    assert first_link["href"] == "#main"
    assert ("main", {"id": "main", "tabindex": "-1"}) in o.tags


@pytest.mark.parametrize("locale", LOCALES)
def test_rules_pages_have_their_sections(client, locale):
    peace = client.get(f"/{locale}/peace").text
    war = client.get(f"/{locale}/war").text
    for html in (peace, war):
        for section in ("play", "what", "history", "details", "length"):
            assert f'id="{section}"' in html
        assert "<svg" in html
        assert 'class="stats"' in html
    assert 'class="changes"' in peace
    assert peace.count('scope="row"') >= 5 + 3
    assert 'class="changes"' not in war
    assert THOUSAND[locale] in peace
    assert 'data-label=' in peace


@pytest.mark.parametrize("locale", LOCALES)
def test_alternates_and_switcher_keep_the_page(client, locale):
    html = client.get(f"/{locale}/war").text
    for other in LOCALES:
        assert f'hreflang="{other}" href="http://testserver/{other}/war"' in html
        assert f'href="/{other}/war" hreflang="{other}"' in html
    assert 'hreflang="x-default" href="http://testserver/en/war"' in html
    home = client.get(f"/{locale}/").text
    assert 'hreflang="x-default" href="http://testserver/"' in home


def test_home_lists_variants_with_play_buttons(client):
    html = client.get("/en/").text
    assert "War turned upside down" in html
    assert "The classic card game for two to four players" in html
    assert 'href="/en/peace#play"' in html
    assert 'href="/en/war#play"' in html


@pytest.mark.parametrize(
    ("header", "target"),
    [(None, "/en/"), ("de-AT,de;q=0.9,en;q=0.5", "/de/"), ("da-DK, pl;q=0.4", "/pl/"),
     ("xx", "/en/"), ("cs", "/cs/"), ("es;q=0, it;q=0.1", "/it/"),
     ("fr-CA,fr;q=0.9,en;q=0.8", "/fr/"),
     ("pt-BR,pt;q=0.9", "/pt-BR/"), ("pt-PT", "/pt-BR/"), ("pt_br", "/pt-BR/"),
     ("nl-BE,nl;q=0.9,fr;q=0.8", "/nl/"), ("uk-UA,uk;q=0.9,ru;q=0.8,en;q=0.7", "/uk/")],
)
def test_root_redirects_by_accept_language(client, header, target):
    headers = {"accept-language": header} if header else {}
    r = client.get("/", headers=headers, follow_redirects=False)
    assert r.status_code in (302, 307)
    assert r.headers["location"] == target
    assert "accept-language" in r.headers.get("vary", "").lower()


def test_locale_without_slash_redirects(client):
    r = client.get("/it", follow_redirects=False)
    assert r.status_code in (301, 308)
    assert r.headers["location"] == "/it/"


@pytest.mark.parametrize("path", ["/da/", "/da/peace", "/xx", "/en-US/war", "/nothing/here/x"])
def test_unknown_locale_is_an_english_404_with_language_links(client, path):
    r = client.get(path)
    assert r.status_code == 404
    assert '<html lang="en">' in r.text
    assert "Page not found" in r.text
    for locale in LOCALES:
        assert f'href="/{locale}/"' in r.text


def test_unknown_page_in_a_known_locale_is_a_localized_404(client):
    r = client.get("/de/nothing")
    assert r.status_code == 404
    assert '<html lang="de">' in r.text
    assert "Seite nicht gefunden" in r.text


def test_healthz(client):
    r = client.get("/healthz")
    assert r.status_code == 200
    body = r.json()
    assert body["status"] == "ok"
    assert body["version"] == cardwar.__version__
    assert re.fullmatch(r"[0-9a-f]{7,12}|abc1234", body["commit"])


def test_static_files_are_served(client):
    html = client.get("/en/peace").text
    css = re.search(r'href="(/static/site\.css\?v=[0-9a-f]+)"', html).group(1)
    r = client.get(css)
    assert r.status_code == 200
    assert "prefers-color-scheme: dark" in r.text
    assert "prefers-reduced-motion" in r.text


@pytest.mark.parametrize("locale", LOCALES)
@pytest.mark.parametrize("page", ["peace", "war"])
def test_rules_page_weighs_under_60_kb(client, locale, page):
    html = client.get(f"/{locale}/{page}").content
    total = len(html)
    # what a browser loads with the page: not the home-screen icon (rel
    # apple-touch-icon), which is fetched only when the site is added there
    loaded = re.findall(rb'<(?:link|script)\b(?![^>]*rel="apple-touch-icon")[^>]*'
                        rb'(?:href|src)="(/static/[^"]+)"', html)
    assert loaded, "no static files found"
    for ref in loaded:
        r = client.get(ref.decode())
        assert r.status_code == 200, ref
        total += len(r.content)
    assert total < 60 * 1024, f"{page} in {locale}: {total} bytes"


def test_head_requests_work(client):
    assert client.head("/en/peace").status_code == 200
    assert client.head("/healthz").status_code == 200
    assert client.head("/", follow_redirects=False).status_code == 307


def test_short_of_cards_is_true_for_both_war_options(client):
    war = client.get("/en/war").text
    assert "A war needs 3 face-down cards and one more to turn up." in war
    assert "with the one-card option, a player who has one card left just turns it" in war
    assert "3 cards or fewer" not in war
    assert "5 cards or fewer" in client.get("/en/peace").text


def test_english_wording_fixes(client):
    home = client.get("/en/").text
    assert "a tie starts a peace" in home
    assert "calls a peace" not in home
    assert "two-pile duel" not in home
    war = client.get("/en/war").text
    assert "The whole pack is dealt out" not in war
    assert "as evenly as it goes" in war


@pytest.mark.parametrize(("locale", "good", "bad"), [
    ("it", "apre una pace", "chiama una pace"),
    ("de", "reine Zufallsspiele", "Glücksspiele"),
    ("pl", "gracz, którego karta przegrała", "czyja karta"),
    ("cs", "Otočte kartu", "Otoč kartu"),
])
def test_translation_fixes(client, locale, good, bad):
    text = client.get(f"/{locale}/").text + client.get(f"/{locale}/peace").text
    assert good in text
    assert bad not in text
