"""Slaps judged fairly across a real network delay (RULES.md 11.6).

One page talks to the served app directly, the other through a proxy that
holds everything 150 ms each way (heartbeats included). The delay shows as a
lower bound on the round trips (never an upper one: the machine may be slow),
the server measures the delayed seat's latency from its own heartbeats, and a
judge given those measurements lets the faster reaction win whoever's slap
arrives first. (The slaps themselves go through the socket once the slap games
are played online; until then the arrivals are those the delay makes.)
"""

from __future__ import annotations

import asyncio
import statistics
from typing import Any

import httpx2 as httpx
import orjson
import pytest
from websockets.asyncio.client import connect

from cardwar.engine import SlapRules, SlapSetup, Verdict, parse_hands
from cardwar.tables.slap_judge import WINDOW, SlapJudge
from cardwar.tables.slap_timing import LATENCY_CAP_MS, RoundTrips, SendStamps, time_slap
from cardwar.web.socket import Connection

from .conftest import DelayedApp
from .latency import DEADLINE, answer_heartbeats


def new_game(app: DelayedApp) -> tuple[str, list[str]]:
    """A two-player game created and joined over HTTP: (id, the seats' secrets)."""
    origin = {"origin": app.base}
    r = httpx.post(f"{app.base}/en/play", headers=origin, follow_redirects=False,
                   data={"variant": "peace", "players": "2", "seat1": "friend",
                         "nickname": "Ann"})
    assert r.status_code == 303, r.text
    gid = r.headers["location"].rsplit("/", 1)[1]
    first = r.cookies[f"cw_{gid}"]
    r = httpx.post(f"{app.base}/en/g/{gid}/join", headers=origin, follow_redirects=False,
                   data={"nickname": "Bea"})
    assert r.status_code == 303, r.text
    return gid, [first, r.cookies[f"cw_{gid}"]]


def socket(app: DelayedApp, gid: str, secret: str, *, delayed: bool) -> Any:
    port = app.delayed if delayed else app.port
    return connect(f"ws://127.0.0.1:{port}/ws/g/{gid}",
                   additional_headers={"Origin": f"http://127.0.0.1:{port}",
                                       "Cookie": f"cw_{gid}={secret}"})


async def page_round_trips(ws: Any, count: int) -> list[float]:
    """``count`` round trips of the page's own ``ping`` (seconds)."""
    loop = asyncio.get_running_loop()
    trips = []
    for _ in range(count):
        start = loop.time()
        await ws.send('{"type": "ping"}')
        while orjson.loads(await ws.recv())["type"] != "pong":
            pass
        trips.append(loop.time() - start)
    return trips


def test_the_proxy_delays_both_ways(delayed_app):
    gid, secrets = new_game(delayed_app)

    async def measure(delayed: bool) -> list[float]:
        async with socket(delayed_app, gid, secrets[0], delayed=delayed) as ws:
            return await page_round_trips(ws, 5)

    direct = delayed_app.loop.run(measure(False))
    through = delayed_app.loop.run(measure(True))
    assert min(through) >= 2 * delayed_app.delay  # held each way, whatever the machine
    assert statistics.median(through) > statistics.median(direct)


@pytest.mark.parametrize(("reactions", "faster"), [((320, 300), 1), ((300, 320), 0)])
def test_the_faster_reaction_wins_whoever_arrives_first(delayed_app, reactions, faster):
    """Seat 1 is 150 ms away (each way), seat 0 next to the server: the server's
    own heartbeats measure it, and the judge credits it, so 20 ms quicker wins even
    when the slap arrives some 280 ms after the other."""
    app = delayed_app
    gid, secrets = new_game(app)

    async def pages() -> None:
        stop = asyncio.Event()
        async with socket(app, gid, secrets[0], delayed=False) as near, \
                socket(app, gid, secrets[1], delayed=True) as far:
            answering = [asyncio.create_task(answer_heartbeats(ws, stop)) for ws in (near, far)]
            loop = asyncio.get_running_loop()
            deadline = loop.time() + DEADLINE
            clock = app.app.state.sockets.heartbeats(app.app.state.tables.settings.heartbeat)
            while True:  # both seats' connections, five round trips each
                measured.update({c.seat: c.trips for c in clock if isinstance(c, Connection)
                                 and c.game_id == gid and c.trips is not None})
                if len(measured) == 2 and all(len(t.trips) == 5 for t in measured.values()):
                    break
                for done in (t for t in answering if t.done()):
                    done.result()  # a socket closed under a page: say why
                assert loop.time() < deadline, "five heartbeats never came back"
                await asyncio.sleep(0.05)
            stop.set()
            await asyncio.gather(*answering)

    measured: dict[int | None, RoundTrips] = {}
    app.loop.run(pages(), timeout=2 * DEADLINE)
    near, far = measured[0], measured[1]
    assert min(far.trips) >= 2 * LATENCY_CAP_MS  # each heartbeat held 150 ms each way
    assert far.latency_ms == LATENCY_CAP_MS
    assert near.latency_ms < far.latency_ms

    # a double, sent to both pages at once; each slaps after its chosen reaction
    judge = SlapJudge(SlapSetup.from_hands(SlapRules(), parse_hands("2C 5C / 2D 6D")).new_game())
    stamps = [SendStamps(), SendStamps()]
    for t in (0.0, 1.0):
        judge.put_down(t)
        for s in stamps:
            s.sent(judge.game.cards_played, t)
    one_way = {0: near.latency_ms / 1000, 1: app.delay}
    arrivals = sorted((1.0 + 2 * one_way[seat] + reactions[seat] / 1000, seat) for seat in (0, 1))
    for at, seat in arrivals:
        judge.slap(seat, 2, at, time_slap(2, at, stamps[seat], measured[seat]))
    judge.poll(arrivals[-1][0] + WINDOW)
    assert (judge.judged[0].seat, judge.judged[0].verdict) == (faster, Verdict.VALID)
    measured_reactions = {j.seat: j.timing.reaction for j in judge.judged}
    assert all(abs(measured_reactions[s] - reactions[s]) <= 1 for s in (0, 1))
