"""The modules one flip passes through, in order (the README's architecture list).

Not a test. In one process, a two-player Peace game with a spectator on
in-memory sockets (``bench/flip.py``'s), seat 0 flips, then seat 1's flip -
the one that plays the battle - is recorded with :func:`sys.setprofile`
(the asyncio tasks of the handler, the store's writer and every pump are all
in this thread; the store's SQLite thread is not, so ``store/`` shows only
its event-loop half). Prints each cardwar module as it is entered, a module
entered again right after itself collapsed into one line::

    .venv/bin/python bench/flip_path.py           # the path, module by module
    .venv/bin/python bench/flip_path.py --calls   # with the first function of each entry
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path
from types import FrameType
from typing import Any

from cardwar.bus import LocalBus
from cardwar.settings import Settings
from cardwar.store import Store
from cardwar.tables import TableService
from cardwar.web import socket
from cardwar.web.frames import SocketParts

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flip import FakeSocket

ROOT = str(Path(socket.__file__).resolve().parents[1])


def _module(frame: FrameType) -> str | None:
    path = frame.f_code.co_filename
    if not path.startswith(ROOT):
        return None
    return path[len(ROOT) + 1:]


async def record(calls: bool, max_depth: int) -> list[str]:
    """Play seat 0's flip, then record seat 1's (the battle's) until every page had it."""
    tmp = Path(tempfile.mkdtemp(prefix="cardwar-path-"))
    settings = Settings(database=f"sqlite+aiosqlite:///{tmp / 'games.db'}",
                        flip_timeout=600.0, computer_delay=600.0, gone_after=600.0,
                        heartbeat=600.0)
    store = Store(settings.database)
    await store.migrate()
    service = TableService(store, LocalBus(), settings)
    parts = SocketParts(socket.event_builder(service))
    counter, target, done = [0], [3], asyncio.Event()
    table, s0 = await service.create("peace", 2, nickname="Ann")
    _, s1 = await service.join(table.id, "Bob")
    await service.start(table.id, 0)
    socks, tasks = [], []
    for seat, secret in [(0, s0), (1, s1), (None, None)]:
        fake = FakeSocket(counter, done, target)
        socks.append(fake)
        tasks.append(asyncio.create_task(socket.serve(
            fake, service, table, seat, secret, 600.0, parts)))  # type: ignore[arg-type]
    await asyncio.sleep(0.5)  # everyone subscribed and sent the state
    socks[0].inbox.put_nowait({"type": "websocket.receive", "text": '{"type":"flip","battle":1}'})
    await asyncio.sleep(0.3)
    done.clear()
    counter[0] = 0
    path: list[str] = []
    stack: list[str | None] = []

    def profiler(frame: FrameType, event: str, _arg: Any) -> None:
        if event == "return":
            if stack:
                stack.pop()
            return
        if event != "call":
            return
        name = _module(frame)
        outer = [m for m in stack if m is not None]
        stack.append(name)
        if name is None or (outer and outer[-1] == name):
            return  # within the module that is running
        depth = len(dict.fromkeys(outer))
        entry = "  " * depth + name + (f"  {frame.f_code.co_name}" if calls else "")
        if depth <= max_depth and (not path or path[-1] != entry):
            path.append(entry)

    sys.setprofile(profiler)
    socks[1].inbox.put_nowait({"type": "websocket.receive", "text": '{"type":"flip","battle":1}'})
    await asyncio.wait_for(done.wait(), 30)
    await asyncio.sleep(0.2)  # the store's commit and the triggers after it
    sys.setprofile(None)
    for fake in socks:
        await fake.close()
    await asyncio.gather(*tasks, return_exceptions=True)
    await service.close()
    await store.close()
    return path


def main() -> None:
    """Print the path of one flip."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", action="store_true", help="name each entry's first function")
    parser.add_argument("--depth", type=int, default=1,
                        help="modules nested this deep shown (1: who hands over to whom)")
    args = parser.parse_args()
    for line in asyncio.run(record(args.calls, args.depth)):
        print(line)


if __name__ == "__main__":
    main()
