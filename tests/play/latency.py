"""Real latency for the fairness tests: a delaying TCP proxy and a served app beside it.

* :class:`DelayProxy`: an asyncio TCP proxy on 127.0.0.1 that holds every
  chunk ``delay`` seconds in each direction (order kept), so a WebSocket
  through it has a real round trip of at least ``2 * delay`` (heartbeats
  included).
* :class:`Loop`: one asyncio loop in a daemon thread, where the served app
  (uvicorn), the proxies and the test's WebSocket clients all run; the test's
  thread hands it coroutines (:meth:`Loop.run`).
* :func:`answer_heartbeats`: a page that answers the server's heartbeats at
  once, echoing their ids (as connection.js does), until told to stop.

The fixture ``delayed_app`` (tests/play/conftest.py) puts them together.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

import orjson
import uvicorn

from cardwar.cli import WS_MAX_SIZE

T = TypeVar("T")
#: Seconds any one call into the loop may take before the test fails.
DEADLINE = 30.0


class Loop:
    """An asyncio loop in a daemon thread; :meth:`run` a coroutine in it from the test."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self._thread.start()

    def run(self, coro: Coroutine[Any, Any, T], timeout: float = DEADLINE) -> T:
        """Run ``coro`` in the loop and return its result (at most ``timeout`` s)."""
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    def close(self) -> None:
        """Stop the loop and its thread."""
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(timeout=10)


class DelayProxy:
    """A TCP proxy 127.0.0.1:``port`` -> 127.0.0.1:``upstream``, ``delay`` s each way.

    Every chunk read on one side is written on the other ``delay`` seconds
    after it was read, in order; a side that closes closes the other after
    what it sent has gone through.
    """

    def __init__(self, upstream: int, delay: float) -> None:
        self.upstream = upstream
        self.delay = delay
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        """Listen on a free port of 127.0.0.1; returns it."""
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = int(self._server.sockets[0].getsockname()[1])
        return self.port

    async def close(self) -> None:
        """Stop listening and drop every connection (each ends as its sockets close)."""
        if self._server is not None:
            self._server.close()
        for writer in list(self._writers):
            writer.close()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=DEADLINE)

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        self._writers.add(writer)
        try:
            up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream)
            self._writers.add(up_writer)
            await asyncio.gather(self._pipe(reader, up_writer), self._pipe(up_reader, writer))
            self._writers.discard(up_writer)
        finally:
            self._tasks.discard(task)
            self._writers.discard(writer)
            writer.close()

    async def _pipe(self, src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
        loop = asyncio.get_running_loop()
        held: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

        async def deliver() -> None:
            while True:
                due, data = await held.get()
                wait = due - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)  # the delay being modelled, not a test's wait
                if not data:
                    break
                dst.write(data)
                await dst.drain()

        sender = asyncio.create_task(deliver())
        try:
            with contextlib.suppress(ConnectionError):
                while data := await src.read(65536):
                    held.put_nowait((loop.time() + self.delay, data))
            held.put_nowait((loop.time() + self.delay, b""))
            with contextlib.suppress(ConnectionError):
                await sender
        finally:
            sender.cancel()
            with contextlib.suppress(BaseException):
                dst.close()


async def serve(app: Any) -> tuple[uvicorn.Server, asyncio.Task[None], int]:
    """Serve ``app`` with uvicorn on a free port of 127.0.0.1 in the running loop;
    returns (server, its task, port) once it accepts connections."""
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning",
                            lifespan="on", ws="auto", ws_max_size=WS_MAX_SIZE)
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve())
    loop = asyncio.get_running_loop()
    deadline = loop.time() + DEADLINE
    while not server.started:
        if task.done() or loop.time() > deadline:
            raise RuntimeError("the test server did not start")
        await asyncio.sleep(0.02)
    port = int(server.servers[0].sockets[0].getsockname()[1])
    return server, task, port


async def answer_heartbeats(ws: Any, stop: asyncio.Event) -> list[dict[str, Any]]:
    """Answer every ``ping`` of the server at once (echoing its ``id``) until ``stop``;
    returns the other messages received."""
    others: list[dict[str, Any]] = []
    while not stop.is_set():
        try:
            raw = await asyncio.wait_for(ws.recv(), 0.05)
        except TimeoutError:
            continue
        message = orjson.loads(raw)
        if message["type"] == "ping":
            answer = {"type": "pong", **({"id": message["id"]} if "id" in message else {})}
            await ws.send(orjson.dumps(answer).decode())
        else:
            others.append(message)
    return others
