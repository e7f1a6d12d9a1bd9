"""Memory benchmark: thousands of games played to their end through one process.

Not a test. One :class:`~cardwar.tables.TableService` (a real SQLite file, the
one-process bus) plays ``--games`` two-player games, ``--parallel`` at a time:
each is created, its player connects, starts it, switches auto-flip on (so
the timers play it, as an idle player's would be) and disconnects once it is
over. After every ``--every`` finished games it prints the process's RSS and
what it keeps per game (cached tables, games with clocks or presence). With
a bounded cache and per-game structures dropped at a game's end, the RSS
levels off; before issue 10 it grew with every game. Then the service's
clock (an offset on the monotonic one) jumps ``--later`` seconds (default a
minute), the cache is swept as the service's gauges sweep it, and a last
line gives what is still held per finished game (``held_kib_per_game``:
RSS over the RSS before the first game, per game; issue 23's target is at
most 20 KiB).

Example::

    .venv/bin/python bench/memory.py --games 5000 --stacked
    .venv/bin/python bench/memory.py --games 3000 --variant war --cache 500
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import tempfile
import time
from pathlib import Path

from cardwar.bus import open_bus
from cardwar.settings import Settings
from cardwar.store import Store
from cardwar.tables import TableService, hash_secret


def rss_kib() -> int:
    """This process's resident set size in KiB (Linux ``/proc``)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def play_one(service: TableService, variant: str) -> None:
    """Create, start and auto-play one game (seat 0 human, seat 1 computer) to
    its end (the caller bounds the time: ``asyncio.timeout``)."""
    table, secret = await service.create(variant, 2, computers=(1,), nickname="Ann")
    gid = table.id
    seat = table.seat_of(hash_secret(secret))
    assert seat is not None
    # the connection, passed as a socket passes its own: its disconnect is
    # uncounted at the seat the start's seating moved it to, not the lobby's
    page = object()
    await service.connect(gid, seat, page)
    try:
        async with service.bus.subscribe(gid) as events:  # until the game's "over" event
            await service.start(gid, seat)
            playing = (await service.get(gid)).seat_of(hash_secret(secret))
            assert playing is not None  # the start draws the seating (RULES.md 9)
            await service.set_auto(gid, playing, True)
            while (await events.get())["type"] != "over":
                pass
    finally:
        await service.disconnect(gid, seat, page)


def kept(service: TableService) -> dict[str, int]:
    """What the service keeps per game (0 where this version cannot say)."""
    counts = {"tables": len(list(service.cache))}
    for name, part in (("clocks", service.clocks), ("presence", service.presence)):
        games = getattr(part, "games", None)
        counts[name] = games() if callable(games) else -1
    return counts


async def main(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="cardwar-memory-"))
    settings = Settings(database=f"sqlite+aiosqlite:///{folder / 'games.db'}",
                        computer_delay=0.0, peace_show=0.0, flip_timeout=60.0,
                        gone_after=3600.0,
                        testing_stacked_deck=args.stacked,
                        **({"tables_in_memory": args.cache} if args.cache else {}))
    store = Store(settings.database)
    await store.migrate()
    bus = open_bus(None, settings.redis_prefix, settings.presence_ttl)
    offset = [0.0]
    service = TableService(store, bus, settings, lambda: time.monotonic() + offset[0])
    start = time.perf_counter()
    base = rss_kib()
    print(json.dumps({"games": 0, "rss_mib": round(base / 1024, 1), **kept(service)}))
    done = 0
    try:
        while done < args.games:
            batch = min(args.parallel, args.games - done)
            try:
                async with asyncio.timeout(args.timeout):
                    await asyncio.gather(*(play_one(service, args.variant)
                                           for _ in range(batch)))
            except TimeoutError:
                raise TimeoutError(f"a game did not end in {args.timeout} s") from None
            before = done
            done += batch
            if done // args.every != before // args.every or done == args.games:
                gc.collect()
                print(json.dumps({
                    "games": done, "rss_mib": round(rss_kib() / 1024, 1),
                    "growth_kib_per_game": round((rss_kib() - base) / done, 1),
                    "seconds": round(time.perf_counter() - start, 1), **kept(service)}),
                    flush=True)
        offset[0] += args.later  # every socket is closed: a minute passes
        len(service.cache)  # the sweep of the service's gauges (every 15 s)
        gc.collect()
        print(json.dumps({
            "games": done, "after_seconds": args.later, "rss_mib": round(rss_kib() / 1024, 1),
            "held_kib_per_game": round((rss_kib() - base) / max(1, done), 1),
            **kept(service)}), flush=True)
    finally:
        await service.close()
        await bus.close()
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--every", type=int, default=1000)
    parser.add_argument("--parallel", type=int, default=50)
    parser.add_argument("--variant", default="war", choices=("peace", "war"))
    parser.add_argument("--stacked", action="store_true",
                        help="deal the short stacked test deck (quick games)")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--later", type=float, default=60.0,
                        help="seconds the clock jumps after the last game (default: a minute)")
    parser.add_argument("--cache", type=int, default=0,
                        help="tables kept in memory (default: the setting's default)")
    parsed = parser.parse_args()
    if not 1 <= parsed.games <= 100_000 or not 1 <= parsed.parallel <= 1000:
        parser.error("--games must be 1..100000 and --parallel 1..1000")
    asyncio.run(main(parsed))
