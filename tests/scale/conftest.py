"""Real PostgreSQL and Redis for the scale-out tests (issue 6).

The services are checked once, at collection. Without them every test here
is SKIPPED with the reason shown; with ``CARDWAR_REQUIRE_SERVICES=1`` (set
by ``.ci/run``) they FAIL instead. Each test run keeps its tables in its
own PostgreSQL schema (dropped at the end) and its own Redis channel
prefix, so runs never see each other.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
import secrets
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

PG_URL = os.environ.get("CARDWAR_TEST_POSTGRES",
                        "postgresql+asyncpg://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("CARDWAR_TEST_REDIS", "redis://127.0.0.1:6379/0")
REQUIRED = os.environ.get("CARDWAR_REQUIRE_SERVICES") == "1"
ROOT = Path(__file__).resolve().parents[2]

# bench/proxy.py: the shipped nginx config on a loopback port (as
# ``bench/load.py --processes 2`` runs it)
_spec = importlib.util.spec_from_file_location("cardwar_bench_proxy", ROOT / "bench" / "proxy.py")
assert _spec is not None
assert _spec.loader is not None
proxy = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(proxy)


def require_nginx() -> None:
    """Skip the test when nginx is not installed (FAIL under
    ``CARDWAR_REQUIRE_SERVICES=1``: CI installs it, .ci/run)."""
    try:
        proxy.nginx_binary()
    except SystemExit as exc:
        if REQUIRED:
            pytest.fail(str(exc))
        pytest.skip(str(exc))


def _check() -> str | None:
    """None when PostgreSQL and Redis answer, else why not."""

    async def probe() -> str | None:
        import redis.asyncio as aioredis
        from sqlalchemy import text
        from sqlalchemy.ext.asyncio import create_async_engine

        try:
            engine = create_async_engine(PG_URL)
            async with engine.connect() as conn:
                await asyncio.wait_for(conn.execute(text("select 1")), 3)
            await engine.dispose()
        except Exception as exc:  # noqa: BLE001
            return f"PostgreSQL at {PG_URL} does not answer: {exc!r}"[:300]
        try:
            client = aioredis.from_url(REDIS_URL, socket_connect_timeout=3)
            await client.ping()
            await client.aclose()
        except Exception as exc:  # noqa: BLE001
            return f"Redis at {REDIS_URL} does not answer: {exc!r}"[:300]
        return None

    return asyncio.run(probe())


MISSING = _check()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test of this folder ``scale``; skip (or fail) without the services."""
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.scale)
            if MISSING and not REQUIRED:
                item.add_marker(pytest.mark.skip(reason=f"scale test skipped: {MISSING}"))


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Say at the end of the run, in plain sight, why the scale tests did not run."""
    if MISSING and not REQUIRED:
        terminalreporter.write_line(
            f"NOTE: the scale-out tests (tests/scale, tests/bus Redis) were SKIPPED: {MISSING}",
            yellow=True, bold=True)


@pytest.fixture(scope="session")
def services() -> None:
    """Fail when the services are missing but required (CI)."""
    if MISSING:
        pytest.fail(f"CARDWAR_REQUIRE_SERVICES=1 but {MISSING}")


@pytest.fixture
def pg_url(services: None) -> Iterator[str]:
    """A PostgreSQL URL whose tables live in a fresh schema, dropped afterwards."""
    schema = f"cw_test_{secrets.token_hex(6)}"
    yield f"{PG_URL}?search_path={schema}"
    from cardwar.store.store import drop_schema

    asyncio.run(drop_schema(PG_URL, schema))


@pytest.fixture
def redis_prefix(services: None) -> str:
    """A Redis channel prefix no other test run uses."""
    return f"cwtest-{secrets.token_hex(6)}:"


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """One ``python -m cardwar.cli serve`` process on 127.0.0.1 (on ``port``, or a
    free one: a process started again on its port is a new ``Server``)."""

    def __init__(self, database: str, redis: str, env: dict[str, str], log: Path,
                 port: int | None = None) -> None:
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = log
        self._out = log.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "cardwar.cli", "serve", "--port", str(self.port),
             "--database", database, "--redis", redis],
            cwd=ROOT, env={**os.environ, **env}, stdout=self._out, stderr=subprocess.STDOUT,
        )

    def wait_ready(self, seconds: float = 90.0) -> None:
        """Wait until ``/healthz`` answers (fails if the process died); a bound:
        on a loaded CI machine a server took over 30 s to start."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited: {self.log.read_text()[-2000:]}")
            with suppress(httpx.HTTPError):
                if httpx.get(self.base + "/healthz", timeout=1).status_code == 200:
                    return
            time.sleep(0.1)
        raise AssertionError(f"server not ready: {self.log.read_text()[-2000:]}")

    def stop(self) -> None:
        """Terminate (or kill) the process."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        self._out.close()


@pytest.fixture
def servers(pg_url: str, redis_prefix: str, tmp_path: Path):
    """Start ``n`` server processes on the same PostgreSQL schema and Redis prefix."""
    started: list[Server] = []

    def start(n: int = 2, **env: str) -> list[Server]:
        base_env = {"CARDWAR_REDIS_PREFIX": redis_prefix, "CARDWAR_COMPUTER_DELAY": "0.05",
                    "PYTHONUNBUFFERED": "1"}
        base_env.update({f"CARDWAR_{k.upper()}": v for k, v in env.items()})
        new = [Server(pg_url, REDIS_URL, base_env, tmp_path / f"server{len(started) + i}.log")
               for i in range(n)]
        for s in new:
            s.wait_ready()
        started.extend(new)
        return new

    yield start
    for s in started:
        s.stop()
