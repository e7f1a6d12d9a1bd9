"""Slaps judged by reaction across a real network delay, end to end (RULES.md 11.6).

The served app (uvicorn), a proxy holding everything 150 ms each way
(heartbeats included) and two pages, all real sockets: one page talks to the
app directly, the other through the proxy. The server measures each seat's
latency from its own numbered heartbeats (a burst of five on connecting),
stamps when it sent each card to each seat, and its judge decides by
reaction. Each page slaps the double after a chosen reaction (the time it
models a player taking to see it): the quicker reaction takes the pile
whoever's slap arrives first, and a page that answers its heartbeats 1 s late
is credited at most the latency cap each way.

Every test prints its row of the table (delay each way, reaction chosen,
reaction measured by the server, latency credited, arrival, winner).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx2 as httpx
import orjson
import pytest
from websockets.asyncio.client import connect

from cardwar.settings import Settings
from cardwar.tables.slap_timing import LATENCY_CAP_MS
from cardwar.web.app import create_app
from cardwar.web.socket import Connection

from .latency import DEADLINE, DelayProxy, Loop, serve

#: Seconds the proxy holds traffic each way: the latency cap.
DELAY = LATENCY_CAP_MS / 1000
#: Seconds between two regular heartbeats (the burst on connecting comes first).
HEARTBEAT = 0.5
#: The double: card 2 of the stacked deal (2D on 2C).
DOUBLE = 2
#: Most a measured reaction may be over the chosen one, in ms: the pages, the proxy
#: and the server share one loop on a busy machine (the cap is never exceeded below).
SLOW_BY = 40


@dataclass
class Served:
    app: Any
    loop: Loop
    port: int
    delayed: int

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def served(tmp_path: Any) -> Iterator[Served]:
    """The real app (slap games allowed online, the stacked deal) and a delaying proxy."""
    app = create_app(Settings(database=f"sqlite+aiosqlite:///{tmp_path / 'games.db'}",
                              heartbeat=HEARTBEAT, flip_timeout=60.0,
                              testing_stacked_deck=True, testing_slap_online=True))
    loop = Loop()
    server, task, port = loop.run(serve(app))
    proxy = DelayProxy(port, DELAY)
    delayed = loop.run(proxy.start())
    try:
        yield Served(app, loop, port, delayed)
    finally:
        loop.run(proxy.close())
        server.should_exit = True
        loop.run(asyncio.wait_for(task, DEADLINE))
        loop.close()


def new_game(app: Served) -> tuple[str, list[str]]:
    """A two-player Egyptian Ratscrew table created and joined over HTTP."""
    origin = {"origin": app.base}
    r = httpx.post(f"{app.base}/en/play", headers=origin, follow_redirects=False,
                   data={"variant": "ers", "players": "2", "seat1": "friend",
                         "nickname": "Ann"})
    assert r.status_code == 303, r.text
    gid = r.headers["location"].rsplit("/", 1)[1]
    first = r.cookies[f"cw_{gid}"]
    r = httpx.post(f"{app.base}/en/g/{gid}/join", headers=origin, follow_redirects=False,
                   data={"nickname": "Bea"})
    assert r.status_code == 303, r.text
    return gid, [first, r.cookies[f"cw_{gid}"]]


@dataclass
class Page:
    """One player's page: answers heartbeats (``pong_delay`` s late), puts down when
    told, and slaps the double ``reaction`` s after its card arrived."""

    ws: Any
    seat: int
    reaction: float
    pong_delay: float = 0.0
    moves: list[dict[str, Any]] = field(default_factory=list)
    got_double: float | None = None
    slapped_at: float | None = None
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def _later(self, delay: float, message: dict[str, Any]) -> None:
        await asyncio.sleep(delay)  # the page's slowness being modelled, not a test's wait
        await self.ws.send(orjson.dumps(message).decode())
        if message["type"] == "slap":
            self.slapped_at = asyncio.get_running_loop().time()

    def _send(self, delay: float, message: dict[str, Any]) -> None:
        task = asyncio.create_task(self._later(delay, message))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def run(self, stop: asyncio.Event) -> None:
        loop = asyncio.get_running_loop()
        while not stop.is_set():
            try:
                raw = await asyncio.wait_for(self.ws.recv(), 0.05)
            except TimeoutError:
                continue
            message = orjson.loads(raw)
            if message["type"] == "ping" and "id" in message:
                self._send(self.pong_delay, {"type": "pong", "id": message["id"]})
            elif message["type"] == "move":
                self.moves.append(message)
                if any(e["event"] == "card" and e["number"] == DOUBLE
                       for e in message["events"]):
                    self.got_double = loop.time()
                    self._send(self.reaction, {"type": "slap", "pile": DOUBLE})
                elif message["cards_played"] == 1 and self.seat == 1:
                    self._send(0.0, {"type": "put", "card": 2})  # seat 1 puts the double
        for task in list(self._tasks):
            task.cancel()


@dataclass(frozen=True)
class Row:
    """One slap as the server judged it, for the printed table."""

    seat: int
    delay_ms: int
    chosen_ms: int
    measured_ms: int
    latency_ms: int
    arrived_ms: int
    verdict: str


def play_double(app: Served, reactions: dict[int, float], *, delayed: set[int],
                pong_delay: dict[int, float] | None = None) -> list[Row]:
    """Seat 0 puts down 2C, seat 1 the double; each page slaps it after its reaction.

    Returns each seat's slap as judged (the server's figures)."""
    gid, secrets = new_game(app)
    pong_delay = pong_delay or {}

    async def pages() -> list[dict[str, Any]]:
        socks = []
        for seat in (0, 1):
            port = app.delayed if seat in delayed else app.port
            socks.append(connect(f"ws://127.0.0.1:{port}/ws/g/{gid}", additional_headers={
                "Origin": f"http://127.0.0.1:{port}", "Cookie": f"cw_{gid}={secrets[seat]}"}))
        stop = asyncio.Event()
        async with socks[0] as ws0, socks[1] as ws1:
            players = [Page(ws, seat, reactions[seat], pong_delay.get(seat, 0.0))
                       for seat, ws in ((0, ws0), (1, ws1))]
            running = [asyncio.create_task(p.run(stop)) for p in players]
            loop = asyncio.get_running_loop()
            deadline = loop.time() + DEADLINE
            await ws0.send('{"type": "start"}')
            sockets = app.app.state.sockets
            while True:  # five round trips of each seat (the burst on connecting)
                conns = [c for c in sockets.heartbeats(HEARTBEAT)
                         if isinstance(c, Connection) and c.game_id == gid]
                trips = {c.seat: c.trips for c in conns if c.trips is not None}
                if len(trips) == 2 and all(len(t.trips) >= 5 for t in trips.values()):
                    break
                for done in (t for t in running if t.done()):
                    done.result()
                assert loop.time() < deadline, "five heartbeats never came back"
                await asyncio.sleep(0.05)
            await ws0.send('{"type": "put", "card": 1}')
            while sum(1 for m in players[0].moves for x in m["moves"]
                      if x["move"][0] == "slap") < 2:  # both slaps decided
                for done in (t for t in running if t.done()):
                    done.result()
                assert loop.time() < deadline, "the slaps were never decided"
                await asyncio.sleep(0.05)
            stop.set()
            await asyncio.gather(*running)
            return players[0].moves

    moves = app.loop.run(pages(), timeout=2 * DEADLINE)
    rows = []
    for event in moves:
        verdicts = iter(e for e in event["events"] if e["event"] == "slap")
        for item in event["moves"]:
            if item["move"][0] != "slap":
                continue
            seat, timing, verdict = item["move"][1], item["timing"], next(verdicts)
            assert verdict["seat"] == seat
            rows.append(Row(seat, round(DELAY * 1000) if seat in delayed else 0,
                            round(reactions[seat] * 1000), timing["reaction"],
                            timing["latency"], timing["arrived"] - timing["sent"],
                            verdict["verdict"]))
    for row in rows:
        print(f"slap row: seat {row.seat} delay {row.delay_ms} ms each way, reaction chosen "
              f"{row.chosen_ms} ms, measured {row.measured_ms} ms (latency credited "
              f"{row.latency_ms} ms, arrived {row.arrived_ms} ms after its card was sent): "
              f"{row.verdict}")
    return rows


def winner(rows: list[Row]) -> int:
    (valid,) = [r.seat for r in rows if r.verdict == "valid"]
    return valid


@pytest.mark.parametrize(("reactions", "faster"), [({0: 0.340, 1: 0.300}, 1),
                                                   ({0: 0.300, 1: 0.340}, 0)])
def test_the_quicker_reaction_wins_though_its_slap_arrives_later(served, reactions, faster):
    """Seat 1 is 150 ms away each way: its slap on the double arrives some 260 ms
    after seat 0's when it reacts 40 ms quicker, and it still takes the pile; with
    the reactions swapped seat 0 does."""
    rows = play_double(served, reactions, delayed={1})
    assert winner(rows) == faster
    by_seat = {r.seat: r for r in rows}
    assert by_seat[1].latency_ms == LATENCY_CAP_MS  # measured, 150 ms each way, capped
    assert by_seat[0].latency_ms < 30
    assert by_seat[1].arrived_ms >= round(2 * DELAY * 1000 + reactions[1] * 1000)
    for row in rows:  # never credited more than it was held; the machine only adds
        assert row.chosen_ms - 10 <= row.measured_ms <= row.chosen_ms + SLOW_BY, row
    if faster == 1:
        assert by_seat[1].arrived_ms > by_seat[0].arrived_ms  # arrived later, won anyway


def test_answering_heartbeats_late_gains_at_most_the_cap(served):
    """Seat 0, next to the server, answers every heartbeat 1 s late: its latency is
    taken as the cap (150 ms), not 500 ms, so it is credited at most 150 ms each way;
    its slap 340 ms after the card then beats an honest 300 ms, by no more than that."""
    rows = play_double(served, {0: 0.340, 1: 0.300}, delayed=set(), pong_delay={0: 1.0})
    by_seat = {r.seat: r for r in rows}
    cheat, honest = by_seat[0], by_seat[1]
    assert cheat.latency_ms == LATENCY_CAP_MS
    gained = cheat.chosen_ms - cheat.measured_ms
    assert gained <= 2 * LATENCY_CAP_MS  # the cap each way, whatever the delay
    assert honest.latency_ms < 30
    assert honest.chosen_ms - 10 <= honest.measured_ms <= honest.chosen_ms + SLOW_BY
    print(f"slap row: late heartbeats (1 s) gained {gained} ms "
          f"(at most {2 * LATENCY_CAP_MS} ms: {LATENCY_CAP_MS} ms each way)")
