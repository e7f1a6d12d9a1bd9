"""A real ``cardwar serve`` process for the internet tests, its log kept in a file."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx2 as httpx

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serving(folder: Path, *args: str, **env: str) -> Iterator[tuple[str, Path]]:
    """``cardwar serve`` on 127.0.0.1 (a free port) with ``CARDWAR_*`` from ``env``;
    yields (base URL, log file). Stopped (SIGTERM, then SIGKILL) at the end."""
    port = free_port()
    log = folder / f"serve-{port}.log"
    environ = {**os.environ, "PYTHONPATH": str(ROOT),
               **{f"CARDWAR_{k.upper()}": v for k, v in env.items()}}
    environ.setdefault("CARDWAR_DATABASE", f"sqlite:///{folder}/cardwar.db")
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-c", "from cardwar.cli import main; main()", "serve",
             "--host", "127.0.0.1", "--port", str(port), *args],
            cwd=folder, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
            env=environ)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, log.read_text()[-3000:]
            with suppress(httpx.HTTPError):
                if httpx.get(f"{base}/healthz", timeout=2).status_code == 200:
                    break
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.2)
        yield base, log
    finally:
        stop(proc)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a process started in its own session."""
    if proc.poll() is None:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
