"""The game and replay pages load their scripts as ES modules, versioned in the path.

Every module the entry imports (relative imports, followed to the end) is
served under the same ``/static/v/<version>/`` prefix as the entry, so the
browser never mixes files of two releases.
"""

from __future__ import annotations

import json
import re
from urllib.parse import urljoin

import pytest

from cardwar.web.templating import STATIC_DIR, module_url

from .helpers import create, finish, make_client, ws

STATIC = STATIC_DIR / "play"
IMPORT = re.compile(r'^\s*(?:import|export)\b[^;]*?from\s+"([^"]+)"|^\s*import\s+"([^"]+)"', re.M)


@pytest.fixture
def client(tmp_path):
    with make_client(tmp_path) as c:
        yield c


def _module_graph(client, entry: str) -> dict[str, str]:
    """Every module reachable from ``entry`` (a URL path): path -> source."""
    seen: dict[str, str] = {}
    todo = [entry]
    while todo:
        url = todo.pop()
        if url in seen:
            continue
        r = client.get(url)
        assert r.status_code == 200, url
        assert "javascript" in r.headers["content-type"], url
        seen[url] = r.text
        for a, b in IMPORT.findall(r.text):
            spec = a or b
            assert spec.startswith("./"), f"{url} imports {spec!r}: only relative imports"
            todo.append(urljoin(url, spec))
    return seen


def _module_scripts(page: str) -> list[str]:
    scripts = re.findall(r"<script\b[^>]*\bsrc=\"([^\"]+)\"[^>]*>", page)
    tags = re.findall(r"<script\b[^>]*\bsrc=\"/static/v/[^>]*>", page)
    assert all('type="module"' in tag for tag in tags)
    return [s for s in scripts if s.startswith("/static/v/")]


def test_the_game_page_loads_its_modules_under_one_version(client):
    gid, secret = create(client)
    page = client.get(f"/en/g/{gid}", headers={"cookie": f"cw_{gid}={secret}"}).text
    assert _module_scripts(page) == [module_url("play/game.js")]
    assert re.fullmatch(r"/static/v/[0-9a-f]{10}/play/game\.js", module_url("play/game.js"))
    graph = _module_graph(client, module_url("play/game.js"))
    prefix = module_url("play/game.js").rsplit("/", 1)[0] + "/"
    assert all(url.startswith(prefix) for url in graph)
    names = {url.rsplit("/", 1)[1] for url in graph}
    assert {"game.js", "state.js", "render.js", "connection.js", "cards.js",
            "words.js"} <= names
    assert "cards.js" not in page  # no classic script beside the module


def test_the_replay_page_shares_the_game_modules(client):
    gid, secret = create(client, players="2", seat1="computer")
    with ws(client, gid, secret) as sock:
        sock.receive_json()
        finish([sock])
    page = client.get(f"/en/g/{gid}/replay").text
    assert _module_scripts(page) == [module_url("play/replay.js")]
    names = {url.rsplit("/", 1)[1] for url in _module_graph(client, module_url("play/replay.js"))}
    assert {"replay.js", "state.js", "cards.js", "words.js"} <= names
    assert "connection.js" not in names  # the replay has no socket


def test_a_module_is_served_under_any_version(client):
    """A page rendered just before a release may ask for the previous version."""
    body = client.get("/static/play/state.js").text
    for version in ("0123456789", "abc"):
        r = client.get(f"/static/v/{version}/play/state.js")
        assert r.status_code == 200
        assert r.text == body
    assert client.get("/static/v/0123456789/play/nothing.js").status_code == 404


def _typedef(module: str, name: str) -> tuple[set[str], set[str]]:
    """The (required, optional) properties of the JSDoc ``@typedef {object} name``."""
    text = (STATIC / module).read_text()
    block = text.split(f"@typedef {{object}} {name}\n", 1)[1].split("*/", 1)[0]
    props = re.findall(r"@property \{[^}]*\} (\[?)(\w+)", block)
    return {p for opt, p in props if not opt}, {p for opt, p in props if opt}


def _embedded(page: str, element_id: str) -> dict:
    found = re.search(rf'<script type="application/json" id="{element_id}">(.*?)</script>',
                      page, re.S)
    assert found, element_id
    return dict(json.loads(found.group(1)))


@pytest.mark.parametrize("locale", ["en", "pl"])
def test_the_strings_and_settings_the_page_embeds_match_the_scripts_types(client, locale):
    """words.js types every string the server sends (Strings), render.js the settings
    (Config): a string added or renamed on one side only fails here, not in a browser."""
    gid, secret = create(client)
    page = client.get(f"/{locale}/g/{gid}", headers={"cookie": f"cw_{gid}={secret}"}).text
    required, optional = _typedef("words.js", "Strings")
    assert set(_embedded(page, "play-strings")) == required | optional
    required, optional = _typedef("render.js", "Config")
    assert required <= set(_embedded(page, "play-config"))
