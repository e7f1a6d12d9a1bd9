"""One game, two real server processes (PostgreSQL + Redis), players on different ones.

Each player talks to a different ``python -m cardwar.cli serve`` process over
the real HTTP routes and WebSocket. Both see every event once, in ``seq``
order; flips race across processes; then one process is SIGKILLed in the
middle of the game, its player reconnects to the other, and play carries on.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
from typing import Any

import httpx2 as httpx
from websockets.asyncio.client import connect


def _create(base: str) -> tuple[str, str]:
    r = httpx.post(f"{base}/en/play", headers={"Origin": base}, data={
        "variant": "peace", "players": "2", "seat1": "friend", "nickname": "Ann"})
    assert r.status_code == 303, r.text
    gid = r.headers["location"].rsplit("/", 1)[1]
    return gid, r.cookies[f"cw_{gid}"]


def _join(base: str, gid: str) -> str:
    r = httpx.post(f"{base}/en/g/{gid}/join", headers={"Origin": base},
                   data={"nickname": "Bob"})
    assert r.status_code == 303, r.text
    return r.cookies[f"cw_{gid}"]


class Player:
    """One browser: a WebSocket to one server, checking that events come in seq order."""

    def __init__(self, base: str, gid: str, secret: str) -> None:
        self.base, self.gid, self.secret = base, gid, secret
        self.seq = 0
        self.battles: list[int] = []
        self.ws: Any = None
        self.log: list[dict] = []

    async def connect(self, base: str | None = None, since: bool = False,
                      request_id: str | None = None) -> dict:
        """Open the socket (to ``base``, else the last one) and read its ``state``;
        ``since``: as a page reconnecting, ``?since=`` the last event read, and
        return at once (the missed events come next, read by :meth:`until`);
        ``request_id``: the handshake's ``X-Request-ID`` (the servers log it)."""
        self.base = base or self.base
        url = self.base.replace("http://", "ws://") + f"/ws/g/{self.gid}"
        if since:
            url += f"?since={self.seq}"
        headers = {"Origin": self.base, "Cookie": f"cw_{self.gid}={self.secret}"}
        if request_id is not None:
            headers["X-Request-ID"] = request_id
        self.ws = await connect(url, additional_headers=headers)
        if since:
            return {}
        while True:
            message = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
            if message["type"] == "state":
                assert message["seq"] >= self.seq  # never goes back
                self.seq = message["seq"]
                return message

    async def send(self, kind: str) -> None:
        await self.ws.send(json.dumps({"type": kind}))

    async def until(self, kind: str, **match: Any) -> dict:
        """Read until an event of ``kind`` (with ``match``); check order on the way."""
        while True:
            try:
                message = json.loads(await asyncio.wait_for(self.ws.recv(), 15))
            except TimeoutError:
                raise AssertionError(
                    f"no {kind} {match} at {self.base}; got {self.log[-6:]}") from None
            self.log.append(message)
            if message["type"] == "ping":  # as a page does: a silent socket is closed
                await self.ws.send(json.dumps({"type": "pong"}))
            seq = message.get("seq")
            if seq is not None:
                assert seq == self.seq + 1, (message, self.seq)  # once each, in order
                self.seq = seq
            if message["type"] == "battle":
                self.battles.append(message["battle"])
            if message["type"] == kind and all(message.get(k) == v for k, v in match.items()):
                return message
            if message["type"] == "over":
                return message


async def _play_battles(players: list[Player], first: int, n: int) -> int:
    """Both flip (at once) ``n`` battles from ``first``; return the next battle number."""
    battle = first
    for _ in range(n):
        await asyncio.sleep(0.3)  # within the per-connection rate limits
        await asyncio.gather(*(p.send("flip") for p in players))
        results = await asyncio.gather(*(p.until("battle", battle=battle) for p in players))
        if any(r["type"] == "over" for r in results):
            break
        battle += 1
    return battle


def test_players_on_two_processes_play_and_survive_a_killed_process(servers):
    a, b = servers(2, flip_timeout="60", presence_ttl="1.5")
    gid, secret0 = _create(a.base)
    secret1 = _join(b.base, gid)

    async def scenario() -> None:
        ann, bob = Player(a.base, gid, secret0), Player(b.base, gid, secret1)
        await ann.connect()
        state = await bob.connect()
        assert [s["nickname"] for s in state["seats"]] == ["Ann", "Bob"]
        await ann.send("start")
        started, _ = await asyncio.gather(ann.until("started"), bob.until("started"))
        seat = started.get("seating", [0, 1]).index(0)  # Ann's drawn table seat
        nxt = await _play_battles([ann, bob], 1, 4)
        assert ann.battles == bob.battles == list(range(1, nxt))

        # Ann flips, then her server dies before Bob flips
        await asyncio.sleep(0.5)
        await ann.send("flip")
        await bob.until("flipped", seat=seat)
        os.kill(a.proc.pid, signal.SIGKILL)
        a.proc.wait(10)
        # her server could not say she left: Bob's learns it when its liveness key expires
        await bob.until("presence", seat=seat, online=False)
        state = await ann.connect(b.base)  # her page reconnects through the other server
        assert state["game"]["flipped"] == [seat]
        assert state["seq"] == bob.seq
        await asyncio.sleep(0.5)
        await bob.send("flip")
        await asyncio.gather(ann.until("battle", battle=nxt), bob.until("battle", battle=nxt))
        after = await _play_battles([ann, bob], nxt + 1, 2)
        assert bob.battles == list(range(1, after))
        await ann.ws.close()
        await bob.ws.close()

    asyncio.run(scenario())


def test_both_processes_serve_the_page_and_metrics(servers):
    a, b = servers(2)
    gid, secret0 = _create(a.base)
    _join(b.base, gid)
    for s in (a, b):
        page = httpx.get(f"{s.base}/en/g/{gid}")
        assert page.status_code == 200
        # A created the game (and cached it): it must still see Bob, who joined on B
        state = asyncio.run(Player(s.base, gid, secret0).connect())
        assert [x["nickname"] for x in state["seats"]] == ["Ann", "Bob"]
        metrics = httpx.get(f"{s.base}/metrics")
        assert metrics.status_code == 200
        assert "cardwar_games_in_progress" in metrics.text
        assert "cardwar_flip_to_result_seconds" in metrics.text


def test_presence_is_shared_between_processes(servers):
    a, b = servers(2, flip_timeout="60")
    gid, secret0 = _create(a.base)
    secret1 = _join(b.base, gid)

    async def scenario() -> None:
        ann = Player(a.base, gid, secret0)
        await ann.connect()
        await asyncio.sleep(0.3)
        bob = Player(b.base, gid, secret1)
        await bob.connect()
        # Bob's server learns that Ann is connected to the other one
        for _ in range(50):
            state = await Player(b.base, gid, secret1).connect()
            if [s["online"] for s in state["seats"]] == [True, True]:
                break
            await asyncio.sleep(0.1)
        assert [s["online"] for s in state["seats"]] == [True, True]
        await ann.ws.close()
        await bob.ws.close()

    asyncio.run(scenario())
