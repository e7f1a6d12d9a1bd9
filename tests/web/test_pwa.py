"""Install as an app: the manifest per language, the service worker, the offline
page, the icons, and the images the project draws (tools/images.py)."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from cardwar.web.i18n import LOCALES

ROOT = Path(__file__).resolve().parents[2]
OFFLINE = {"en": "You are offline", "it": "Sei offline", "de": "Sie sind offline",
           "es": "Estás sin conexión", "pl": "Jesteś offline", "cs": "Jste offline",
           "fr": "Vous êtes hors ligne",
           "pt-BR": "Você está offline", "nl": "Je bent offline", "uk": "Ви офлайн"}


@pytest.mark.parametrize("locale", LOCALES)
def test_the_manifest_is_in_the_visitors_language(client, locale):
    page = client.get(f"/{locale}/").text
    assert f'<link rel="manifest" href="/{locale}/manifest.webmanifest">' in page
    r = client.get(f"/{locale}/manifest.webmanifest")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("application/manifest+json")
    m = json.loads(r.text)
    assert (m["lang"], m["start_url"], m["scope"]) == (locale, f"/{locale}/", f"/{locale}/")
    assert m["display"] == "standalone"
    assert m["short_name"] == "cardwar"
    assert m["name"].startswith("cardwar")
    assert m["description"]
    assert re.fullmatch(r"#[0-9a-f]{6}", m["theme_color"])
    sizes = {(i["sizes"], i["purpose"]) for i in m["icons"] if i["type"] == "image/png"}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for icon in m["icons"]:
        got = client.get(icon["src"])
        assert got.status_code == 200
        assert "immutable" in got.headers["cache-control"]
        if icon["type"] == "image/png":
            side = int(icon["sizes"].split("x")[0])
            assert Image.open(io.BytesIO(got.content)).size == (side, side)
    if locale != "en":
        assert m["description"] != json.loads(
            client.get("/en/manifest.webmanifest").text)["description"]


def test_light_and_dark_theme_colours_and_the_apple_icon(client):
    page = client.get("/en/peace").text
    assert '<meta name="theme-color" content="#17694b" media="(prefers-color-scheme: light)">' \
        in page
    assert 'media="(prefers-color-scheme: dark)"' in page
    icon = re.search(r'<link rel="apple-touch-icon" href="([^"]+)">', page)
    assert icon
    assert Image.open(io.BytesIO(client.get(icon.group(1)).content)).size == (180, 180)


def test_the_service_worker_keeps_only_static_assets(client):
    r = client.get("/sw.js")
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/javascript")
    assert r.headers["cache-control"] == "no-cache"
    assets = json.loads(re.search(r"const ASSETS = (\[.*?\]);", r.text).group(1))
    offline = json.loads(re.search(r"const OFFLINE = (\{.*?\});", r.text).group(1))
    assert set(offline) == set(LOCALES)
    # a browser set to a language finds its offline page by the language alone
    by_language = json.loads(re.search(r"const BY_LANGUAGE = (\{.*?\});", r.text).group(1))
    assert by_language["pt"] == "/pt-BR/offline"
    assert by_language["fr"] == "/fr/offline"
    assert set(by_language.values()) == set(offline.values())
    assert any(a.endswith("/play/game.js") for a in assets)
    # every language's manifest is kept, so the offline app keeps its name and icons
    manifests = json.loads(re.search(r"const MANIFESTS = (\[.*?\]);", r.text).group(1))
    assert sorted(manifests) == sorted(f"/{locale}/manifest.webmanifest" for locale in LOCALES)
    for url in [*assets, *offline.values(), *manifests]:
        assert client.get(url).status_code == 200, url
        assert "/g/" not in url
        assert "/ws/" not in url
        assert "/api/" not in url
    assert all("/static/v/" in a or "?v=" in a for a in assets)  # versioned: never stale


@pytest.mark.parametrize("locale", LOCALES)
def test_the_offline_page_is_translated(client, locale):
    r = client.get(f"/{locale}/offline")
    assert r.status_code == 200
    assert f"<h1 id=\"offline-title\">{OFFLINE[locale]}</h1>" in r.text
    assert 'id="offline-retry"' in r.text


def test_the_committed_images_are_what_the_script_draws():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "images.py"), "--check"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
