"""A third variant is a row of data: registered here (and nowhere else), it is
offered by the command line, gets a rules page and is played online."""

from __future__ import annotations

import json

import pytest

from cardwar.cli import main
from cardwar.engine import VARIANTS, Variant, register, unregister

from .helpers import create, finish, join, make_client, ws

TOY = Variant(name="quick", low_wins=False, face_down=2, face_down_options=(2,),
              battle_limit=300, players=(2, 3), default_players=2, cycle_draw=True)


@pytest.fixture
def toy():
    register(TOY)
    try:
        yield TOY
    finally:
        unregister(TOY.name)
    assert TOY.name not in VARIANTS


def test_the_command_line_plays_it(toy, capsys):
    assert main(["play", "--variant", "quick", "--seed", "toy", "--json"]) == 0
    record = json.loads(capsys.readouterr().out)
    assert record["variant"] == "quick"
    assert record["face_down"] == 2
    assert record["battles"] <= 300
    assert main(["play", "--variant", "quick", "--players", "4", "--seed", "x"]) == 2
    assert "quick is played by 2 or 3 players" in capsys.readouterr().err


def test_it_has_a_rules_page_and_a_place_in_the_menus(toy, tmp_path):
    with make_client(tmp_path) as c:
        page = c.get("/de/quick")
        assert page.status_code == 200
        assert "Quick" in page.text
        assert 'name="variant" value="quick"' in page.text
        assert "2 Karten von jedem Spieler." in page.text  # its rule-changes row, in German
        assert 'href="/de/quick"' in c.get("/de/").text  # home page and navigation
        assert c.get("/en/play?variant=quick", follow_redirects=False).headers[
            "location"] == "/en/quick#play"


def test_it_is_played_online_to_the_end(toy, tmp_path):
    with make_client(tmp_path) as c:
        gid, ann = create(c, variant="quick")
        bob = join(c, gid, "Bob")
        with ws(c, gid, ann) as a, ws(c, gid, bob) as b:
            state = a.receive_json()
            b.receive_json()
            assert state["game"]["variant"] == "quick"
            assert state["game"]["face_down"] == 2
            over = finish([a, b])
        assert over["outcome"] in ("win", "draw")
        assert over["command"].startswith("cardwar play --variant quick")
        page = c.get(f"/en/g/{gid}")
        assert page.status_code == 200
        assert "A game of Quick" in page.text
        assert c.get(f"/en/g/{gid}/replay").status_code == 200
        metrics = c.get("/metrics").text
        assert 'cardwar_battles_total{variant="quick"}' in metrics
