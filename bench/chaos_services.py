"""The chaos soak's private services and its faults (see bench/chaos.py).

Everything binds to 127.0.0.1 on free ports and lives in one folder of its
own: a PostgreSQL cluster (``initdb`` as the ``postgres`` user when run as
root, ``pg_ctl`` from /usr/lib/postgresql/*/bin), a ``redis-server`` without
persistence, and ``cardwar serve`` processes, each restarted on its own port.
The shared PostgreSQL and Redis of the machine are never touched.

:class:`Faults` draws the schedule from a seed: the same seed gives the same
faults, at the same moments (from the start of the run), on the same targets.
"""

from __future__ import annotations

import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin"))

#: Every kind of fault, in the order the summary names them.
KINDS = ("kill", "term", "stop", "redis", "pg-fast", "pg-immediate")


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_port(port: int, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.5):
            return True
        time.sleep(0.05)
    return False


class Postgres:
    """A private PostgreSQL cluster in ``folder`` (``postgres`` must reach it)."""

    def __init__(self, folder: Path) -> None:
        if not PG_BIN:
            raise SystemExit("no PostgreSQL server binaries under /usr/lib/postgresql")
        self.bin = PG_BIN[-1]
        self.port = free_port()
        self.folder = folder
        self.data = folder / "pgdata"
        self.log = folder / "postgres.log"
        self.url = f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"
        self.dsn = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"

    def _run(self, *args: str) -> None:
        cmd = ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else list(args)
        subprocess.run(cmd, check=True, capture_output=True, timeout=120)

    def pg_ctl(self, *args: str) -> None:
        """Run ``pg_ctl`` on the cluster (waiting, at most 60 s)."""
        self._run(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
                  "-w", "-t", "60", *args)

    def start(self) -> None:
        """``initdb`` and start."""
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres")
        self._run(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                  "--auth=trust", "--no-sync")
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 -c max_connections=200 "
                   f"-c unix_socket_directories={self.data} -c fsync=off")
        self.pg_ctl("-o", options, "start")

    def restart(self, mode: str) -> None:
        """``pg_ctl restart -m MODE`` (``fast`` or ``immediate``)."""
        self.pg_ctl("-m", mode, "restart")

    def stop(self) -> None:
        """Stop at once (nothing here is kept)."""
        if (self.data / "postmaster.pid").exists():
            with suppress(subprocess.SubprocessError):
                self.pg_ctl("-m", "immediate", "stop")


class Redis:
    """A private ``redis-server`` (no persistence: a restart forgets every key)."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        """Start and wait until it accepts connections."""
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if not _wait_port(self.port, 10):
            raise SystemExit("redis-server did not start")

    def stop(self) -> None:
        """Stop (SIGTERM; SIGKILL after 10 s)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)

    def pause(self) -> None:
        """SIGSTOP: the connections stay open, nothing answers (a half-open link)."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        """SIGCONT."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGCONT)


class App:
    """One ``cardwar serve`` process on a fixed port (restarted on the same one)."""

    def __init__(self, index: int, database: str, redis: str, env: dict[str, str],
                 folder: Path) -> None:
        self.index = index
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.database, self.redis, self.env, self.folder = database, redis, env, folder
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def log(self) -> Path:
        """The log of the current (or last) run of the process."""
        return self.folder / f"app{self.index}-{self.starts}.log"

    def start(self, wait: bool = True) -> None:
        """Start the process (logging to a new file); wait until /healthz answers."""
        for _ in range(10):  # a start while the database restarts may fail: again
            self.starts += 1
            out = self.log.open("wb")
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "cardwar.cli", "serve", "--host", "127.0.0.1",
                 "--port", str(self.port), "--database", self.database, "--redis", self.redis],
                cwd=ROOT, env={**os.environ, **self.env}, stdout=out, stderr=subprocess.STDOUT)
            out.close()
            if not wait:
                return
            deadline = time.monotonic() + 60
            while self.proc.poll() is None and time.monotonic() < deadline:
                if _wait_port(self.port, 0.2):
                    return
            self.wait_exit(1)
            time.sleep(1)
        raise SystemExit(f"app {self.index} did not start: see {self.log}")

    def signal(self, sig: signal.Signals) -> None:
        """Send ``sig`` to the process."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, sig)

    def wait_exit(self, seconds: float) -> None:
        """Wait for the process to end; SIGKILL it after ``seconds``."""
        if self.proc is None:
            return
        try:
            self.proc.wait(seconds)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        """SIGCONT (in case it is stopped), SIGTERM, SIGKILL after 15 s."""
        self.signal(signal.SIGCONT)
        self.signal(signal.SIGTERM)
        self.wait_exit(15)


@dataclass
class Fault:
    """One fault: ``kind`` (one of :data:`KINDS`) at ``at`` seconds from the start,
    on app ``target`` (kill, term, stop), with ``pause`` seconds of downtime."""

    at: float
    kind: str
    target: int
    pause: float
    #: filled in when it happened: (start, end) in ``time.monotonic()``
    window: tuple[float, float] | None = None


def schedule(seed: str, seconds: float, apps: int, every: tuple[float, float],
             each: int | None) -> list[Fault]:
    """The faults of a run: one every ``every`` seconds (uniform), kinds drawn from
    shuffled bags of every kind (so each kind comes once in every six); with
    ``each``, exactly ``each`` faults of every kind, spread evenly over ``seconds``."""
    rng = random.Random(f"faults/{seed}")
    kinds: list[str] = []
    if each is not None:
        kinds = [k for k in KINDS for _ in range(each)]
        rng.shuffle(kinds)
        step = seconds / (len(kinds) + 1)
        moments = [step * (i + 1) + rng.uniform(-0.2, 0.2) * step for i in range(len(kinds))]
    else:
        moments, t = [], rng.uniform(*every)
        while t < seconds:
            moments.append(t)
            t += rng.uniform(*every)
        while len(kinds) < len(moments):
            bag = list(KINDS)
            rng.shuffle(bag)
            kinds += bag
    faults = []
    for at, kind in zip(moments, kinds, strict=False):
        pause = 3.0 if kind == "stop" else rng.uniform(1.0, 3.0)
        faults.append(Fault(round(at, 2), kind, rng.randrange(apps), round(pause, 2)))
    return faults


class Services:
    """The private PostgreSQL, Redis and app processes of one run, in one folder."""

    def __init__(self, apps: int, env: dict[str, str], keep: bool = False,
                 folder: Path | None = None) -> None:
        if folder is None:
            self.folder = Path(tempfile.mkdtemp(prefix="cardwar-chaos-", dir="/tmp"))
        else:  # kept where asked (the run's logs, the timeline)
            folder.mkdir(parents=True, exist_ok=False)
            self.folder = folder
            keep = True
        os.chmod(self.folder, 0o755)
        (self.folder / "pg").mkdir()
        self.pg = Postgres(self.folder / "pg")
        self.redis = Redis(self.folder)
        self.apps = [App(i, self.pg.url, "", env, self.folder) for i in range(apps)]
        self.keep = keep

    def start(self) -> None:
        """Start PostgreSQL, Redis, then the apps (the first alone: it migrates)."""
        self.pg.start()
        self.redis.start()
        for app in self.apps:
            app.redis = self.redis.url
            app.start()

    def apply(self, fault: Fault) -> None:
        """Cause ``fault`` (blocking: run it in a thread) and bring things back."""
        app = self.apps[fault.target]
        if fault.kind == "kill":
            app.signal(signal.SIGKILL)
            app.wait_exit(10)
            time.sleep(fault.pause)
            app.start()
        elif fault.kind == "term":
            app.signal(signal.SIGTERM)
            app.wait_exit(15)
            time.sleep(fault.pause)
            app.start()
        elif fault.kind == "stop":
            app.signal(signal.SIGSTOP)
            time.sleep(fault.pause)
            app.signal(signal.SIGCONT)
        elif fault.kind == "redis":
            self.redis.stop()
            time.sleep(min(fault.pause, 1.0))
            self.redis.start()
        elif fault.kind == "pg-fast":
            self.pg.restart("fast")
        elif fault.kind == "pg-immediate":
            self.pg.restart("immediate")

    def logs(self) -> list[Path]:
        """Every app log of the run."""
        return sorted(self.folder.glob("app*.log"))

    def stop(self) -> None:
        """Stop everything; remove the folder unless ``keep`` (then only the
        database's files go: the logs stay)."""
        for app in self.apps:
            app.stop()
        self.redis.stop()
        self.pg.stop()
        if not self.keep:
            shutil.rmtree(self.folder, ignore_errors=True)
        else:
            shutil.rmtree(self.pg.data, ignore_errors=True)
