"""Fuzzing the socket: several clients send random valid and invalid messages
to one game. The server never crashes, the game changes only through legal
flips (every battle is the engine's own next battle, after every seat still
in play flipped once), and the number of cards stays constant after every
battle. No client is ever told a card before it is turned.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from cardwar.engine import Setup, battle_json, get_variant
from cardwar.web import socket

from .helpers import cards_named, create, join, make_client, sync, ws

VALID = st.one_of(
    st.builds(lambda: {"type": "flip"}),
    st.builds(lambda n: {"type": "flip", "battle": n}, st.integers(1, 8)),
    st.builds(lambda on: {"type": "auto", "on": on}, st.booleans()),
    st.just({"type": "start"}),
    st.just({"type": "ping"}),
    st.just({"type": "pong"}),
    st.builds(lambda s: {"type": "hand_over", "seat": s}, st.integers(0, 3)),
).map(json.dumps)

JSONISH = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                   max_size=4),
    max_leaves=10,
)
INVALID = st.one_of(
    st.text(max_size=40),
    JSONISH.map(json.dumps),
    st.builds(lambda k, v: json.dumps({"type": k, "on": v}),
              st.sampled_from(["flip", "auto", "start", "hand_over", "FLIP", "move", ""]),
              JSONISH),
    st.builds(lambda n: json.dumps({"type": "flip", "battle": n}),
              st.one_of(st.integers(-5, 0), st.just("1"), st.just(True), st.floats(1, 2))),
    st.builds(lambda n: '{"type": "flip", "pad": "' + "x" * n + '"}', st.integers(1000, 3000)),
    st.binary(max_size=20),
)

FLIPS = st.sampled_from(['{"type": "flip"}'] * 3 + ['{"type": "flip", "battle": 1}'])
#: (client, message, then both players flip: moves the game along between random messages)
ACTIONS = st.lists(st.tuples(st.integers(0, 3), st.one_of(FLIPS, VALID, INVALID), st.booleans()),
                   min_size=4, max_size=60)


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    # the rate limits have their own test; here they would only slow the game down
    saved = socket.FLIP_RATE, socket.MESSAGE_RATE
    socket.FLIP_RATE = socket.MESSAGE_RATE = (100000, 1.0)
    with make_client(tmp_path_factory.mktemp("fuzz"), testing_stacked_deck=False,
                     computer_delay=0.02, heartbeat=60.0, gone_after=600.0) as c:
        yield c
    socket.FLIP_RATE, socket.MESSAGE_RATE = saved


def _events(c: Any, gid: str) -> list[dict[str, Any]]:
    store = c.app.state.tables.store
    stored = c.portal.call(store.events_since, gid, 0)
    return [{"type": e.type, "seq": e.seq, **e.data} for e in stored]


def _check_legal(c: Any, gid: str) -> None:
    table = c.app.state.tables.cache.get(gid)
    record = table.record
    for _ in range(100):  # a computer seat may still be flipping: wait until it rests
        events = _events(c, gid)
        if events and events[-1]["seq"] == table.seq:
            time.sleep(0.05)
            if events[-1]["seq"] == table.seq:
                break
        time.sleep(0.02)
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    setup = Setup.from_seed(get_variant(record.variant), record.players, record.seed,
                            record.face_down)
    engine = setup.new_game()
    in_play_cards = sum(len(p) for p in setup.piles)
    flipped: set[int] = set()
    started = False
    for e in events:
        kind = e["type"]
        if kind == "started":
            started = True
        elif kind == "flipped":
            assert started
            assert e["battle"] == engine.battles + 1
            assert e["seat"] in engine.in_play()
            assert e["seat"] not in flipped
            flipped.add(e["seat"])
        elif kind == "battle":
            assert flipped == set(engine.in_play())  # every seat in play flipped, once
            result = engine.play_battle()
            expected = {"type": "battle", "seq": e["seq"], **battle_json(result),
                        "in_play": [s not in engine.eliminated for s in range(engine.players)]}
            assert e == expected  # the engine's own next battle, nothing else
            held = sum(e["counts"])
            if e.get("reason") == "unresolvable":
                held += e["pot"]
            assert held == in_play_cards  # no card made or lost
            flipped = set()
        else:
            assert kind in ("joined", "auto_flip", "over"), kind
    assert engine.battles == table.game.battles == record.steps
    event(f"battles: {min(engine.battles, 5)}{'+' if engine.battles > 5 else ''}")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(actions=ACTIONS, start_first=st.sampled_from([True, True, True, False]))
def test_random_messages_from_several_clients_never_break_the_game(client, actions,
                                                                   start_first):
    c = client
    gid, s0 = create(c, players="2", seat1="friend")
    s1 = join(c, gid, "Bob")
    secrets = [s0, s1, s1, None]  # Ann, Bob in two tabs, a spectator
    seen: list[list[dict[str, Any]]] = [[] for _ in secrets]
    revealed: set[str]
    with ws(c, gid, s0) as a, ws(c, gid, s1) as b1, ws(c, gid, s1) as b2, ws(c, gid) as spy:
        socks = [a, b1, b2, spy]
        for i, sock in enumerate(socks):
            seen[i].append(sock.receive_json())
        if start_first:
            a.send_json({"type": "start"})
        for who, raw, both_flip in actions:
            if isinstance(raw, bytes):
                socks[who].send_bytes(raw)
            else:
                socks[who].send_text(raw)
            sync(socks[who], seen[who])
            if both_flip:
                for i in (0, 1):
                    socks[i].send_text('{"type": "flip"}')
                    sync(socks[i], seen[i])
        for i, sock in enumerate(socks):
            if secrets[i] is not None:
                sock.send_json({"type": "auto", "on": False})
            sync(sock, seen[i])
    # the server is still there and answers a new connection
    with ws(c, gid, s0) as again:
        assert again.receive_json()["type"] == "state"
    _check_legal(c, gid)
    for stream in seen:
        revealed = set()
        numbered = [m["seq"] for m in stream if m.get("seq") is not None]
        assert numbered == sorted(set(numbered))  # in order, never twice
        over = False
        for m in stream:
            if m["type"] == "battle":
                revealed |= cards_named(m)
            over = over or m["type"] == "over" or m.get("game", {}).get("status") == "over"
            if not over:
                assert cards_named(m) <= revealed, m
            if m["type"] == "error":
                assert set(m) == {"type", "seq", "code"}
                assert isinstance(m["code"], str)


