"""The obs module wired into the site: /metrics counts real play, ids on every response."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from cardwar.obs import metrics
from cardwar.settings import Settings
from cardwar.web.app import create_app

ORIGIN = {"origin": "http://testserver"}

pytestmark = pytest.mark.skipif(
    metrics.MULTIPROCESS, reason="PROMETHEUS_MULTIPROC_DIR is set for the test run")


def _sample(text: str, name: str, **labels: str) -> float:
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            if s.name == name and all(s.labels.get(k) == v for k, v in labels.items()):
                return float(s.value)
    return 0.0


def test_metrics_count_battles_connections_and_games(tmp_path):
    settings = Settings(database=f"sqlite+aiosqlite:///{tmp_path / 'g.db'}",
                        testing_stacked_deck=True, flip_timeout=60.0)
    with TestClient(create_app(settings)) as c:
        before = c.get("/metrics").text
        r = c.post("/en/play", data={"variant": "peace", "players": "2", "seat1": "friend",
                                     "nickname": "Ann"}, headers=ORIGIN, follow_redirects=False)
        gid = r.headers["location"].rsplit("/", 1)[1]
        s0 = r.cookies[f"cw_{gid}"]
        c.cookies.clear()
        r = c.post(f"/en/g/{gid}/join", data={"nickname": "Bob"}, headers=ORIGIN,
                   follow_redirects=False)
        s1 = r.cookies[f"cw_{gid}"]
        c.cookies.clear()
        h0 = {**ORIGIN, "cookie": f"cw_{gid}={s0}"}
        h1 = {**ORIGIN, "cookie": f"cw_{gid}={s1}"}
        with c.websocket_connect(f"/ws/g/{gid}", headers=h0) as ws0, \
                c.websocket_connect(f"/ws/g/{gid}", headers=h1) as ws1:
            ws0.receive_json()
            ws1.receive_json()
            during = c.get("/metrics")
            ws0.send_json({"type": "start"})
            while ws0.receive_json()["type"] != "started":
                pass
            ws0.send_json({"type": "flip"})
            ws1.send_json({"type": "flip"})
            while ws0.receive_json()["type"] != "battle":
                pass
            after = c.get("/metrics").text
    assert during.status_code == 200
    assert "text/plain" in during.headers["content-type"]
    assert during.headers.get("x-request-id")  # RequestIdMiddleware is installed
    opened = _sample(during.text, "cardwar_open_connections")
    assert opened - _sample(before, "cardwar_open_connections") == 2
    assert (_sample(after, "cardwar_battles_total", variant="peace")
            - _sample(before, "cardwar_battles_total", variant="peace")) == 1
    assert (_sample(after, "cardwar_flip_to_result_seconds_count")
            - _sample(before, "cardwar_flip_to_result_seconds_count")) == 1
    assert _sample(after, "cardwar_games_in_progress") >= 1


def test_metrics_count_the_cards_of_a_beggar_game(tmp_path):
    settings = Settings(database=f"sqlite+aiosqlite:///{tmp_path / 'g.db'}",
                        testing_stacked_deck=True, flip_timeout=60.0)
    with TestClient(create_app(settings)) as c:
        before = c.get("/metrics").text
        r = c.post("/en/play", data={"variant": "beggar", "players": "2", "seat1": "friend",
                                     "nickname": "Ann"}, headers=ORIGIN, follow_redirects=False)
        gid = r.headers["location"].rsplit("/", 1)[1]
        s0 = r.cookies[f"cw_{gid}"]
        c.cookies.clear()
        r = c.post(f"/en/g/{gid}/join", data={"nickname": "Bob"}, headers=ORIGIN,
                   follow_redirects=False)
        c.cookies.clear()
        h0 = {**ORIGIN, "cookie": f"cw_{gid}={s0}"}
        with c.websocket_connect(f"/ws/g/{gid}", headers=h0) as ws0:
            ws0.receive_json()
            ws0.send_json({"type": "start"})
            while ws0.receive_json()["type"] != "started":
                pass
            ws0.send_json({"type": "flip"})  # the first player's turn: one card
            while ws0.receive_json()["type"] != "card":
                pass
            after = c.get("/metrics").text
    assert (_sample(after, "cardwar_cards_put_down_total", variant="beggar")
            - _sample(before, "cardwar_cards_put_down_total", variant="beggar")) == 1
    assert (_sample(after, "cardwar_flip_to_result_seconds_count")
            - _sample(before, "cardwar_flip_to_result_seconds_count")) == 1
    assert _sample(after, "cardwar_battles_total", variant="beggar") == 0
