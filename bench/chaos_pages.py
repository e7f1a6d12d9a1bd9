"""The chaos soak's people: pages that behave like the game page (see bench/chaos.py).

A :class:`Page` is one browser tab of a game, a player's (with the seat
cookie) or a spectator's, always on the same app process. It does what
``static/play/connection.js`` and ``state.js`` do: answers heartbeats,
takes a socket silent for three heartbeats for dead, reconnects with
backoff saying the last event it saw (``?since=N``), reconnects on a gap in
``seq``, follows the seating when the game starts. A player flips by hand
2-4 times a second (the coming battle, when its seat has not flipped yet,
or to take its seat back when it is shown away).

Everything a check needs is recorded as it happens: ``seq`` gaps and
repeats, battles seen twice, the seat shown, flips sent and answered, who
is shown offline since when, whether the end was seen.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import httpx2 as httpx
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus, WebSocketException

#: Seconds a page waits before reconnection attempt 1, 2, ... (doubling, at most 4 s).
BACKOFF = (0.5, 4.0)
#: Seconds a person waits for the answer to a tap before tapping the pile again.
TAP_AGAIN = 2.0


class Counters:
    """What went wrong, counted over the run (every page adds to one of these)."""

    def __init__(self) -> None:
        self.seq_gaps = 0
        self.seq_repeats = 0
        self.doubled = 0
        self.wrong_seat = 0
        self.http_5xx = 0
        self.unavailable = 0
        self.offline_shown = 0
        #: each 5xx: (when, wall clock; what was asked; its status)
        self.failures: list[tuple[float, str, int]] = []
        self.errors: dict[str, int] = {}


class Game:
    """One game of the run: its id, its pages and what they learnt."""

    def __init__(self, index: int, serial: int) -> None:
        self.index, self.serial = index, serial
        self.id = ""
        self.seating: list[int] | None = None
        self.pages: list[Page] = []
        self.over: dict[str, Any] | None = None
        self.started_at: float | None = None

    def table_seat(self, lobby: int) -> int | None:
        """The table seat of the player who came ``lobby``-th (None before the start)."""
        return self.seating.index(lobby) if self.seating is not None else None

    @property
    def players(self) -> list[Page]:
        """The players' pages (creator first)."""
        return [p for p in self.pages if p.lobby is not None]

    def all_saw_end(self) -> bool:
        """True once every page of the game saw ``over``."""
        return all(p.saw_end for p in self.pages)


class Page:
    """One tab of ``game`` on ``base``; ``secret`` and ``lobby`` for a player."""

    def __init__(self, run: Any, game: Game, base: str, secret: str | None,
                 lobby: int | None) -> None:
        self.run, self.game, self.base = run, game, base
        self.secret, self.lobby = secret, lobby
        self.rng = random.Random(f"{run.seed}/page/{game.serial}/{lobby}")
        self.ws: Any = None
        self.seq: int | None = None
        self.you: int | None = None
        self.status = "lobby"
        self.flipped: set[int] = set()
        self.battle = 0
        self.humans: set[int] = set()
        self.online: dict[int, bool] = {}
        self.offline_since: dict[int, float] = {}
        self.gone: set[int] = set()
        self.seen: dict[int, tuple[Any, Any, Any]] = {}
        self.sent: set[int] = set()
        self.answered: set[int] = set()
        self.saw_end = False
        self.connected_since: float | None = None
        self.reported: set[tuple[int, float]] = set()
        self.wrong = False
        self.done = False
        self.auto = False
        self.joined = False
        self.tapped, self.tapped_at = 0, 0.0

    @property
    def name(self) -> str:
        """``port/lobby N`` or ``port/spectator``: who the page is, in the timeline."""
        who = "spectator" if self.lobby is None else f"lobby {self.lobby}"
        return f"{self.base[-5:]}/{who}"

    def note(self, what: str, **data: Any) -> None:
        """Add a line to the run's timeline (with ``--logs``): wall clock, game, page."""
        timeline = getattr(self.run, "timeline", None)
        if timeline is not None:
            timeline.append({"t": round(time.time(), 3), "game": self.game.id,
                             "page": self.name, "what": what, **data})

    # -- the socket --------------------------------------------------------------
    async def run_socket(self) -> None:
        """Connect, read, reconnect with backoff, until the run lets the page go."""
        attempt = 0
        url = self.base.replace("http://", "ws://") + f"/ws/g/{self.game.id}"
        headers = {"Origin": self.base}
        if self.secret:
            headers["Cookie"] = f"cw_{self.game.id}={self.secret}"
        while not self.done:
            since = "" if self.seq is None else f"?since={self.seq}"
            try:
                async with connect(url + since, additional_headers=headers, open_timeout=5,
                                   ping_interval=None, close_timeout=1) as ws:
                    self.ws = ws
                    self.note("open", since=self.seq)
                    await self._read(ws)
                    self.note("closed", code=ws.close_code)
                attempt = 0
            except InvalidStatus as exc:
                if exc.response.status_code >= 500:
                    self.run.counters.http_5xx += 1
                    self.run.counters.failures.append((time.time(), url,
                                                       exc.response.status_code))
            except (OSError, TimeoutError, WebSocketException) as exc:
                self.note("cut", error=type(exc).__name__)
            finally:
                self.ws = None
                self.connected_since = None
            if self.done:
                return
            attempt += 1
            low, high = BACKOFF
            await asyncio.sleep(min(high, low * 2 ** (attempt - 1)) * self.rng.uniform(0.5, 1))

    async def _read(self, ws: Any) -> None:
        silent = 3 * self.run.heartbeat
        while not self.done:
            try:
                raw = await asyncio.wait_for(ws.recv(), silent)
            except TimeoutError:
                self.note("silent")
                return  # silent for three heartbeats: dead, start again
            if self.connected_since is None:
                self.connected_since = time.monotonic()
            message = json.loads(raw)
            if message["type"] == "ping":
                await ws.send('{"type":"pong"}')
            if not self.take(message):
                return  # a gap: reconnect with ?since=

    async def send(self, message: dict[str, Any]) -> bool:
        """Send ``message`` if the socket is open; True if it was."""
        ws = self.ws
        if ws is None or self.connected_since is None:
            return False
        try:
            await ws.send(json.dumps(message))
        except WebSocketException:
            return False
        return True

    # -- what the page knows ---------------------------------------------------------
    def take(self, m: dict[str, Any]) -> bool:
        """Apply one message as the page's reducer would; False: reconnect (a gap)."""
        kind, seq = m["type"], m.get("seq")
        counters = self.run.counters
        if kind in ("presence", "gone", "started"):
            self.note(kind, **{k: v for k, v in m.items() if k != "type"})
        if kind == "state":
            self._snapshot(m)
            return True
        if seq is not None:
            if self.seq is not None and seq <= self.seq:
                counters.seq_repeats += 1
                return True
            if self.seq is not None and seq != self.seq + 1:
                counters.seq_gaps += 1
                return False
            self.seq = seq
        if kind == "started":
            self.status = "playing"
            seating = m.get("seating") or [0, 1]
            self.game.seating = self.game.seating or list(seating)
            if self.you is not None:
                self.you = seating.index(self.you)
            self.humans = {seating.index(s) for s in self.humans if s in seating}
            self.online = {seating.index(s): v for s, v in self.online.items() if s in seating}
            self.offline_since = {seating.index(s): v for s, v in self.offline_since.items()
                                  if s in seating}
            self.flipped = set()
            self._check_seat()
        elif kind == "joined":
            if m.get("kind") == "human":
                self.humans.add(m["seat"])
                self._presence(m["seat"], self.online.get(m["seat"], False))
        elif kind == "flipped":
            self.flipped.add(m["seat"])
            mine = self.lobby is not None and self.game.table_seat(self.lobby) == m["seat"]
            if mine and m["by"] == "player":
                self.answered.add(m["battle"])
        elif kind == "battle":
            number = m["battle"]
            if number in self.seen:
                counters.doubled += 1
            self.seen[number] = (m["face_up"], m["winner"], m["counts"])
            self.battle = number
            self.flipped = set()
        elif kind == "over":
            self._end(m)
        elif kind == "presence":
            self._presence(m["seat"], bool(m["online"]))
        elif kind == "gone":
            (self.gone.add if m["gone"] else self.gone.discard)(m["seat"])
        elif kind == "error":
            code = str(m.get("code"))
            counters.errors[code] = counters.errors.get(code, 0) + 1
        return True

    def _snapshot(self, m: dict[str, Any]) -> None:
        game = m["game"]
        self.seq = m["seq"]
        self.you = m["you"]
        self.status = game["status"]
        if game.get("seating") is not None:
            self.game.seating = self.game.seating or list(game["seating"])
        self.flipped = set(game["flipped"])
        self.battle = int(game.get("battle") or 0)
        self.humans = {s["seat"] for s in m["seats"] if s["kind"] == "human"}
        if self.lobby is not None and self.lobby in self.humans:
            self.joined = True
        for s in m["seats"]:
            if s["kind"] == "human":
                self._presence(s["seat"], bool(s["online"]))
        self.gone = {s["seat"] for s in m["seats"] if s["gone"]}
        self.note("state", seq=m["seq"], you=m["you"], status=self.status,
                  online=[s["seat"] for s in m["seats"] if s.get("online")],
                  gone=sorted(self.gone))
        if self.status != "lobby":
            self._check_seat()
        if self.status == "over" and m.get("result"):
            self._end(m["result"])

    def _end(self, over: dict[str, Any]) -> None:
        self.saw_end = True
        self.status = "over"
        if self.game.over is None:
            self.game.over = dict(over)

    def _presence(self, seat: int, online: bool) -> None:
        self.online[seat] = online
        if online:
            self.offline_since.pop(seat, None)
        else:
            self.offline_since.setdefault(seat, time.monotonic())

    def _check_seat(self) -> None:
        """A player's page must show its table seat (counted once per page)."""
        if self.lobby is None or self.game.seating is None:
            return
        if self.you != self.game.table_seat(self.lobby) and not self.wrong:
            self.wrong = True
            self.run.counters.wrong_seat += 1

    # -- the person ------------------------------------------------------------------
    async def flip_by_hand(self) -> None:
        """Flip 2-4 times a second while the game is played (auto-flip once draining,
        at the normal pace: the computer delay of the run)."""
        while not self.done and self.status != "over":
            await asyncio.sleep(self.rng.uniform(0.25, 0.5))
            if self.status != "playing" or self.you is None:
                continue
            if self.run.draining:
                if not self.auto:
                    self.auto = await self.send({"type": "auto", "on": True})
                continue
            coming = self.battle + 1
            if self.tapped == coming and time.monotonic() - self.tapped_at < TAP_AGAIN:
                continue  # tapped already: the answer is on its way
            wanted = self.you not in self.flipped or self.you in self.gone
            if wanted and await self.send({"type": "flip", "battle": coming}):
                self.sent.add(coming)
                self.tapped, self.tapped_at = coming, time.monotonic()


async def http(run: Any, method: str, url: str, **kwargs: Any) -> httpx.Response | None:
    """One request, tried again (every 0.5 s) while the server is down; None when
    the run ends first. A 5xx is counted, and tried again too. Each request is a
    client of its own: nobody's cookies go to another person's request."""
    while not run.finished():
        try:
            async with httpx.AsyncClient(timeout=10) as client:
                response = await client.request(method, url, **kwargs)
        except httpx.HTTPError:
            await asyncio.sleep(0.5)
            continue
        if response.status_code >= 500:
            run.counters.http_5xx += 1
            run.counters.failures.append((time.time(), f"{method} {url}",
                                          response.status_code))
            await asyncio.sleep(0.5)
            continue
        return response
    return None
