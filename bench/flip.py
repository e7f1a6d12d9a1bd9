"""Microbenchmark of the flip path in one process: CPU time per flip, repeatable.

Not a test. On a shared machine wall-clock latency is noise, but the CPU a
flip costs is not. This runs the server's own code for a flip - the
socket's message handling (:func:`cardwar.web.socket.serve`), the table
service, the engine, the group commit to a real SQLite file in its writer
thread, the bus and the frames sent to every viewer - with in-memory
sockets in place of uvicorn's (so the WebSocket framing and the system calls
are left out: ``bench/load.py`` measures those), ``--games`` games of two
players and ``--spectators`` spectators each, all flipping in lockstep
rounds, and prints the process CPU time (all threads) and the event loop
thread's CPU time per flip::

    .venv/bin/python bench/flip.py --games 500 --rounds 40
    .venv/bin/python bench/flip.py --profile flip.prof   # cProfile (CPU time) too
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import inspect
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, ClassVar

from cardwar.bus import LocalBus
from cardwar.settings import Settings
from cardwar.store import Store
from cardwar.tables import TableService
from cardwar.web import socket

MAX_GAMES = 5000
#: Shortest round: flips stay under the sockets' rate limits (8/s, 60 per 10 s).
ROUND_SECONDS = 0.15


class FakeSocket:
    """Enough of Starlette's ``WebSocket`` for :func:`cardwar.web.socket.serve`."""

    query_params: ClassVar[dict[str, str]] = {}

    def __init__(self, counter: list[int], done: asyncio.Event, target: list[int]) -> None:
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.counter, self.done, self.target = counter, done, target
        self.frames = 0

    async def accept(self) -> None:
        """Nothing to do."""

    async def receive(self) -> dict[str, Any]:
        """The next message the page 'sent'."""
        return await self.inbox.get()

    async def send_text(self, text: str) -> None:
        """Count battle frames (a substring check: the same small cost for every version)."""
        self.frames += 1
        if '"type":"battle"' in text:
            self.counter[0] += 1
            if self.counter[0] >= self.target[0]:
                self.done.set()

    async def send_json(self, data: Any) -> None:
        """What Starlette's ``send_json`` does, then :meth:`send_text`."""
        await self.send_text(json.dumps(data, separators=(",", ":"), ensure_ascii=False))

    async def close(self, code: int = 1000) -> None:
        """End this socket's receive loop."""
        self.inbox.put_nowait({"type": "websocket.disconnect", "code": code})


async def run(games: int, spectators: int, rounds: int,
              profile: cProfile.Profile | None) -> dict[str, Any]:
    """Play ``rounds`` lockstep rounds of flips in ``games`` games; return the figures."""
    tmp = Path(tempfile.mkdtemp(prefix="cardwar-flip-"))
    settings = Settings(database=f"sqlite+aiosqlite:///{tmp / 'games.db'}",
                        flip_timeout=600.0, computer_delay=600.0, gone_after=600.0,
                        heartbeat=600.0)
    store = Store(settings.database)
    await store.migrate()
    bus = LocalBus()
    service = TableService(store, bus, settings)
    shared: list[Any] = []
    if "sockets" in inspect.signature(socket.serve).parameters:
        from cardwar.web.frames import SocketParts

        shared = [SocketParts(socket.event_builder(service))]
    counter, target, done = [0], [0], asyncio.Event()
    tables: list[tuple[str, list[FakeSocket]]] = []
    tasks = []
    for _ in range(games):
        table, s0 = await service.create("peace", 2, nickname="Ann")
        _, s1 = await service.join(table.id, "Bob")
        await service.start(table.id, 0)
        table = await service.get(table.id)
        assert table is not None
        socks = []
        for seat, secret in [(0, s0), (1, s1)] + [(None, None)] * spectators:
            fake = FakeSocket(counter, done, target)
            socks.append(fake)
            tasks.append(asyncio.create_task(socket.serve(
                fake, service, table, seat, secret, 600.0, *shared)))  # type: ignore[arg-type]
        tables.append((table.id, socks))
    await asyncio.sleep(0.5)  # everyone subscribed and sent the state
    flips = 0
    live = list(tables)
    cpu0, thread0, wall0 = time.process_time(), time.thread_time(), time.perf_counter()
    if profile is not None:
        profile.enable()
    for battle in range(1, rounds + 1):
        began = time.perf_counter()
        done.clear()
        counter[0] = 0
        target[0] = sum(len(socks) for _, socks in live)
        for _, socks in live:
            for seat in (0, 1):
                socks[seat].inbox.put_nowait({"type": "websocket.receive",
                                              "text": f'{{"type":"flip","battle":{battle}}}'})
                flips += 1
        await asyncio.wait_for(done.wait(), 120)
        ended = []
        for gid, _ in live:
            table = await service.get(gid)
            if table is None or table.status != "playing":
                ended.append(gid)
        live = [(g, s) for g, s in live if g not in ended]
        if not live:
            break
        # stay under the sockets' flip rate limit (8 a second): the wait costs no CPU
        await asyncio.sleep(max(0.0, ROUND_SECONDS - (time.perf_counter() - began)))
    if profile is not None:
        profile.disable()
    cpu, thread, wall = (time.process_time() - cpu0, time.thread_time() - thread0,
                         time.perf_counter() - wall0)
    for _, socks in tables:
        for fake in socks:
            await fake.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    await service.close()
    await bus.close()
    await store.close()
    return {"games": games, "spectators_per_game": spectators, "flips": flips,
            "cpu_us_per_flip": round(1e6 * cpu / flips, 1),
            "loop_thread_cpu_us_per_flip": round(1e6 * thread / flips, 1),
            "wall_seconds": round(wall, 2)}


def main(argv: list[str] | None = None) -> int:
    """Run the microbenchmark and print a JSON report (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=500)
    ap.add_argument("--spectators", type=int, default=0, help="spectators per game")
    ap.add_argument("--rounds", type=int, default=40,
                    help="battles per game (at most 50: the sockets' message rate limit)")
    ap.add_argument("--profile", default=None, help="write a CPU-time cProfile here")
    args = ap.parse_args(argv)
    games = max(1, min(args.games, MAX_GAMES))
    with_profile = cProfile.Profile(time.thread_time) if args.profile else None
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    report = asyncio.run(run(games, max(0, min(args.spectators, 50)),
                             max(1, min(args.rounds, 50)), with_profile))
    if with_profile is not None:
        with_profile.dump_stats(args.profile)
    print(json.dumps(report, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
