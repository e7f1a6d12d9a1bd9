"""WebSocket load benchmark: N simultaneous 2-player games against real server processes.

Not a test. It starts the server (one process on SQLite, or several on
PostgreSQL + Redis), creates ``--games`` games through the real HTTP routes,
connects two players per game over loopback WebSockets and has both flip
``--rate`` times a second for ``--warmup`` seconds (not counted: connecting
thousands of players leaves the server a full garbage collection or two to
do) and then ``--seconds`` measured seconds. It reports:

* flips per second sent and answered (each battle needs both players' flips),
* p50/p99/max flip-to-result latency: from a game's second flip being sent to
  each of its players receiving that battle's result (players flip at random
  moments of each period; ``--together``: at the same instant),
* errors (error frames, timeouts > 5 s, closed sockets),
* server CPU per flip: the server processes' CPU seconds (user + system, all
  threads) during the measured seconds / flips answered in them,
* with ``--spectators N``: N more sockets, mostly idle (spectators of tables
  left in the lobby, ``--per-table`` each, answering the heartbeats),
* server memory per connection: (RSS with everyone connected - RSS before)
  / connections, summed over the server processes.
* per flip, what the CPU goes to: PostgreSQL commits (``pg_commits_per_flip``,
  the database's ``xact_commit``), Redis ``PUBLISH`` commands
  (``redis_publishes_per_flip``), and the server processes' main threads'
  waits (voluntary context switches: the event loop slept) and preemptions
  (involuntary ones: another process took the core).

In the same run, after cardwar, the same load is played against the floor
(``bench/floor.py``: a bare Starlette WebSocket endpoint under the same uvicorn
settings, the same frames and one insert per flip into the same kind of
store), and each run's CPU per flip is printed as a multiple of the floor's
(``cpu_vs_floor``; ``--no-floor`` skips it). With ``--processes N`` (N > 1)
the shipped nginx config (deploy/nginx/, ``bench/proxy.py``) runs in front on
a loopback port, and 1 process then N processes are played behind it at the
same total load, side by side (``vs_one_process``: the ratios of CPU per flip
and p99; nginx's own CPU is ``nginx_cpu_ms_per_flip``, not counted as the
server's); the floor then runs on N processes too, each game's players
connected to one of them (``floor_vs_one_process``: what N processes at the
same total load cost a server that does almost nothing per flip, the control
for cardwar's ratio). A line per run comes first (with the load average when it was
measured: figures from a loaded machine are comparable only within a run),
then the JSON report of the last cardwar run.

Players run in ``--clients`` worker processes (the load generator needs CPU
too; on a small machine it shares the cores with the server, so figures are
conservative). Everything binds to 127.0.0.1; counts and duration are capped.

Examples::

    .venv/bin/python bench/load.py --games 1000 --seconds 60
    .venv/bin/python bench/load.py --processes 2 --postgres --games 400 --rate 2 --seconds 60
    .venv/bin/python bench/load.py --processes 2 --postgres --direct --games 400  # no nginx
    .venv/bin/python bench/load.py --games 1000 --spectators 17900 --seconds 60
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import random
import re
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import suppress
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
MAX_GAMES = 3000
MAX_SECONDS = 600
#: Most idle spectator sockets (one process may open 20,000 files here: ulimit -n).
MAX_SPECTATORS = 19_000
PG_URL = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
REDIS_URL = "redis://127.0.0.1:6379/0"
#: A message's type, read without parsing the whole message.
_KIND = re.compile(r'\{\s*"type"\s*:\s*"(\w+)"')


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def cpu_seconds(pid: int) -> float:
    """User + system CPU time process ``pid`` has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    """Resident memory of process ``pid`` in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def switches(pid: int) -> tuple[int, int]:
    """(voluntary, involuntary) context switches of process ``pid``'s main
    thread so far: a voluntary one is a wait (the event loop found nothing to
    do and slept), an involuntary one a preemption (another process took the core)."""
    counts = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
            counts[line.split(":")[0]] = int(line.split()[1])
    return counts["voluntary_ctxt_switches"], counts["nonvoluntary_ctxt_switches"]


def pg_commits() -> int | None:
    """Transactions committed so far in the benchmark's PostgreSQL database
    (``pg_stat_database.xact_commit``; every connection's, the benchmark's
    own few included); None when it cannot be read."""
    import asyncpg

    async def read() -> int:
        conn = await asyncpg.connect(PG_URL.replace("+asyncpg", ""))
        try:
            return int(await conn.fetchval(
                "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()"))
        finally:
            await conn.close()

    try:
        return asyncio.run(read())
    except Exception:  # noqa: BLE001 - a figure of the report, not the benchmark
        return None


def redis_publishes() -> int | None:
    """``PUBLISH`` commands Redis has run so far (``INFO commandstats``; every
    client's); None when it cannot be read."""
    import redis

    try:
        client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2)
        try:
            stats = client.info("commandstats")
        finally:
            client.close()
    except Exception:  # noqa: BLE001 - a figure of the report, not the benchmark
        return None
    return int(stats.get("cmdstat_publish", {}).get("calls", 0))


def start_servers(n: int, database: str, redis: str | None, env: dict[str, str],
                  logdir: Path, profile: bool = False, floor: bool = False,
                  ) -> list[tuple[subprocess.Popen[bytes], str]]:
    """Start ``n`` ``cardwar serve`` processes; wait until each answers /healthz.

    ``profile``: run each under ``bench/cpuprof.py`` (a CPU-time cProfile switched
    on by SIGUSR1, off by SIGUSR2), writing ``logdir/serverN.prof`` at exit.
    ``floor``: ``bench/floor.py`` instead of cardwar (``redis`` unused).
    """
    import httpx2 as httpx
    from proxy import die_with_parent

    servers = []
    for i in range(n):
        port = free_port()
        if floor:
            cmd = [sys.executable, str(ROOT / "bench" / "floor.py"), "--port", str(port),
                   "--database", database]
        else:
            entry = ([str(ROOT / "bench" / "cpuprof.py"), str(logdir / f"server{i}.prof")]
                     if profile else ["-m", "cardwar.cli"])
            cmd = [sys.executable, *entry, "serve", "--port", str(port), "--database", database]
            if redis:
                cmd += ["--redis", redis]
        log = (logdir / f"{'floor' if floor else 'server'}{i}.log").open("wb")
        proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **env}, stdout=log,
                                stderr=subprocess.STDOUT, preexec_fn=die_with_parent)
        servers.append((proc, f"http://127.0.0.1:{port}"))
    for proc, base in servers:
        deadline = time.monotonic() + 120  # a loaded machine starts slowly
        while True:
            if proc.poll() is not None:
                raise SystemExit(f"server {base} exited; see {logdir}")
            with suppress(httpx.HTTPError):
                if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise SystemExit(f"server {base} not ready in 120 s; see {logdir}")
            time.sleep(0.1)
    return servers


# -- the load generator (one worker process) ---------------------------------
async def _create_game(client: Any, base0: str, base1: str) -> tuple[str, str, str]:
    r = await client.post(f"{base0}/en/play", headers={"Origin": base0}, data={
        "variant": "peace", "players": "2", "seat1": "friend", "nickname": "Ann"})
    if r.status_code != 303:
        raise RuntimeError(f"create: {r.status_code}")
    gid = r.headers["location"].rsplit("/", 1)[1]
    s0 = r.cookies[f"cw_{gid}"]
    r = await client.post(f"{base1}/en/g/{gid}/join", headers={"Origin": base1},
                          data={"nickname": "Bob"})
    if r.status_code != 303:
        raise RuntimeError(f"join: {r.status_code}")
    return gid, s0, r.cookies[f"cw_{gid}"]


class _Player:
    def __init__(self, base: str, gid: str, secret: str) -> None:
        self.base, self.gid, self.secret = base, gid, secret
        self.ws: Any = None
        self.battles: asyncio.Queue[tuple[int, float, bool]] = asyncio.Queue()
        self.errors = 0
        self.over = False
        self.started = asyncio.Event()
        self.reader: asyncio.Task[None] | None = None

    async def connect(self) -> None:
        from websockets.asyncio.client import connect

        url = self.base.replace("http://", "ws://") + f"/ws/g/{self.gid}"
        self.ws = await connect(url, additional_headers={
            "Origin": self.base, "Cookie": f"cw_{self.gid}={self.secret}"},
            ping_interval=None, max_queue=None)
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                # the generator shares the cores with the server: parse only what it needs
                head = _KIND.match(raw)
                kind = head.group(1) if head else None
                if kind not in ("battle", "over", "ping", "error", "started", "state"):
                    continue
                m = json.loads(raw)
                kind = m.get("type")
                if kind == "started" or (kind == "state" and m.get("status") != "lobby"):
                    # a page that connects while the game starts may get it already
                    # started in its snapshot (with two processes, often)
                    self.started.set()
                elif kind == "battle":
                    self.battles.put_nowait((m["battle"], time.perf_counter(), False))
                elif kind == "over":
                    self.over = True
                    self.battles.put_nowait((-1, time.perf_counter(), True))
                elif kind == "ping":
                    await self.ws.send('{"type":"pong"}')
                elif kind == "error" and not self.over:
                    # a flip that crossed the game's end is answered with an
                    # error frame: expected, not an error of the run
                    self.errors += 1
        except Exception:  # noqa: BLE001 - a closed socket is an error of the run
            self.errors += 1
            self.battles.put_nowait((-2, time.perf_counter(), True))


async def _open_game(bases: tuple[str, str], client: Any) -> list[_Player]:
    """Create a game, seat and connect both players, start it."""
    gid, s0, s1 = await _create_game(client, *bases)
    players = [_Player(bases[0], gid, s0), _Player(bases[1], gid, s1)]
    for p in players:
        await p.connect()
    await players[0].ws.send('{"type":"start"}')
    for p in players:  # nobody flips before their page knows the game started
        await asyncio.wait_for(p.started.wait(), 10)
    return players


async def _close_game(players: list[_Player], stats: dict[str, Any]) -> None:
    stats["errors"] += sum(p.errors for p in players)
    for p in players:
        with suppress(Exception):
            await p.ws.close()


async def _game(bases: tuple[str, str], client: Any, rate: float, schedule: dict[str, float],
                stats: dict[str, Any], ready: asyncio.Event, connected: list[int],
                together: bool = False, opened: asyncio.Event | None = None) -> None:
    """One table of the run: two players flipping until the end of the run.

    A game that ends before the run does is replaced by a new one at once, so
    the number of games being played stays ``--games`` throughout.
    """
    try:
        players = await _open_game(bases, client)
        connected[0] += 2
    except Exception as exc:  # noqa: BLE001
        stats["setup_errors"] += 1
        stats["last_error"] = repr(exc)
        return
    if opened is not None:
        opened.set()
    await ready.wait()
    start, stop, measure = schedule["start"], schedule["stop"], schedule["measure"]
    period = 1.0 / rate
    tick = start + random.random() * period
    battle = 1
    while True:
        now = time.perf_counter()
        if tick > stop:
            break
        if tick > now:
            await asyncio.sleep(tick - now)
        # the two players flip independently within the period (or together)
        second = 0.0 if together else random.random() * period * 0.8
        try:
            await players[0].ws.send(json.dumps({"type": "flip", "battle": battle}))
            if second:
                await asyncio.sleep(second)
            await players[1].ws.send(json.dumps({"type": "flip", "battle": battle}))
        except Exception:  # noqa: BLE001
            stats["errors"] += 1
            break
        sent = time.perf_counter()
        counted = sent >= measure  # flips of the warm-up are not counted
        stats["flips"] += 2 * counted
        over = failed = False
        newest = battle
        for p in players:
            try:
                while True:
                    number, at, end = await asyncio.wait_for(p.battles.get(), 5)
                    if end or number >= battle:
                        break
            except TimeoutError:
                stats["errors"] += 1
                stats["last_error"] = f"timeout waiting for battle {battle}"
                failed = True
                break
            if end:
                over, failed = True, number == -2
                break
            if number == battle:
                if counted:
                    stats["latencies"].append(at - sent)
            else:  # the server's idle timer played it without us: too slow
                stats["timer_played"] += 1
            newest = max(newest, number)
        if failed:
            break
        tick += period
        if tick < time.perf_counter() - period:  # fell behind: do not burst
            tick = time.perf_counter()
        if not over:
            stats["battles"] += counted
            battle = newest + 1
            continue
        stats["finished"] += 1  # the game is over: the same two players start another
        await _close_game(players, stats)
        try:
            players = await _open_game(bases, client)
        except Exception as exc:  # noqa: BLE001
            stats["setup_errors"] += 1
            stats["last_error"] = repr(exc)
            return
        battle = 1
    await _close_game(players, stats)


async def _watch(base: str, gid: str, stats: dict[str, Any], stop: asyncio.Event) -> Any:
    """Connect one spectator to ``gid``: it answers pings and reads everything else."""
    from websockets.asyncio.client import connect

    ws = await connect(base.replace("http://", "ws://") + f"/ws/g/{gid}",
                       additional_headers={"Origin": base}, ping_interval=None,
                       max_queue=None, open_timeout=120)

    async def read() -> None:
        try:
            async for raw in ws:
                if raw.startswith('{"type":"ping"'):
                    await ws.send('{"type":"pong"}')
        except Exception:  # noqa: BLE001 - reported below
            pass
        if not stop.is_set():
            stats["errors"] += 1
            stats["last_error"] = "a spectator's socket closed"

    return ws, asyncio.create_task(read())


async def _spectators(bases: list[str], count: int, per_table: int, client: Any,
                      stats: dict[str, Any], stop: asyncio.Event) -> list[Any]:
    """``count`` spectators on tables of their own, ``per_table`` each: tables
    created and left in the lobby, so the sockets are idle but for heartbeats."""
    sem = asyncio.Semaphore(50)
    tables = []
    for i in range(-(-count // per_table)):
        base = bases[i % len(bases)]
        r = await client.post(f"{base}/en/play", headers={"Origin": base}, data={
            "variant": "peace", "players": "2", "seat1": "friend", "nickname": "Ann"})
        if r.status_code != 303:
            raise RuntimeError(f"create: {r.status_code}")
        tables.append((base, r.headers["location"].rsplit("/", 1)[1]))

    async def one(i: int) -> Any:
        base, gid = tables[i // per_table]
        async with sem:
            try:
                return await _watch(base, gid, stats, stop)
            except Exception as exc:  # noqa: BLE001
                stats["setup_errors"] += 1
                stats["last_error"] = repr(exc)
                return None

    return [w for w in await asyncio.gather(*(one(i) for i in range(count))) if w]


async def _worker_main(games: list[tuple[str, str]], rate: float, seconds: float,
                       warmup: float, go: Any, ready_flag: Any,
                       together: bool, spectators: int = 0, per_table: int = 18,
                       servers: list[str] | None = None) -> dict[str, Any]:
    import httpx2 as httpx

    stats: dict[str, Any] = {"flips": 0, "battles": 0, "errors": 0, "setup_errors": 0,
                             "timer_played": 0,
                             "finished": 0, "latencies": [], "last_error": None}
    ready = asyncio.Event()
    connected = [0]
    limits = httpx.Limits(max_connections=20)
    from http.cookiejar import CookieJar, DefaultCookiePolicy

    keep_none = CookieJar(policy=DefaultCookiePolicy(allowed_domains=[]))  # each player its own
    async with httpx.AsyncClient(limits=limits, timeout=30, cookies=keep_none) as client:
        sem = asyncio.Semaphore(20)
        schedule: dict[str, float] = {}
        tasks: list[asyncio.Task[None]] = []

        async def launch(bases: tuple[str, str]) -> None:
            async with sem:  # until this game is connected (or failed to)
                opened = asyncio.Event()
                task = asyncio.create_task(
                    _game(bases, client, rate, schedule, stats, ready, connected, together,
                          opened))
                tasks.append(task)
                waiting = asyncio.create_task(opened.wait())
                await asyncio.wait([task, waiting], timeout=120,
                                   return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()

        await asyncio.gather(*(launch(b) for b in games))
        stop = asyncio.Event()
        watching = []
        if spectators and servers:
            watching = await _spectators(servers, spectators, per_table, client, stats, stop)
            connected[0] += len(watching)
        ready_flag.set()  # tell the parent everyone is connected
        await asyncio.to_thread(go.wait)  # the parent's go (a process's Event)
        schedule["start"] = time.perf_counter()
        schedule["measure"] = schedule["start"] + warmup
        schedule["stop"] = schedule["measure"] + seconds
        ready.set()
        await asyncio.gather(*tasks)
        stop.set()
        for ws, reader in watching:
            with suppress(Exception):
                await ws.close()
            reader.cancel()
        stats["connected"] = connected[0]
    return stats


def _worker(games: list[tuple[str, str]], rate: float, seconds: float, warmup: float,
            go: Any, ready_flag: Any, out: Any, together: bool, spectators: int,
            per_table: int, servers: list[str]) -> None:
    with suppress(ImportError):
        import uvloop

        uvloop.install()
    stats = asyncio.run(_worker_main(games, rate, seconds, warmup, go, ready_flag, together,
                                     spectators, per_table, servers))
    out.put(stats)


class _Run:
    """One measured run: ``processes`` servers (cardwar or the floor), optionally
    behind the shipped nginx, under the load ``args`` describes."""

    def __init__(self, args: argparse.Namespace, processes: int, *, floor: bool = False,
                 proxy: bool = False, same_process: bool = False) -> None:
        self.args, self.processes, self.floor, self.proxy = args, processes, floor, proxy
        #: both players of a game on one process, whatever ``args`` says
        self.same_process = same_process or args.same_process

    @property
    def label(self) -> str:
        """What ran, e.g. ``cardwar, 2 process(es) behind nginx, PostgreSQL + Redis``."""
        store = "PostgreSQL + Redis" if self.args.postgres else "SQLite"
        if self.floor:
            store = "PostgreSQL" if self.args.postgres else "SQLite"
        where = " behind nginx" if self.proxy else ""
        name = "floor (bench/floor.py)" if self.floor else "cardwar"
        return f"{name}, {self.processes} process(es){where}, {store}"

    def go(self) -> dict[str, Any]:
        """Start everything, play, stop everything; the run's report."""
        args = self.args
        tmp = Path(tempfile.mkdtemp(prefix="cardwar-load-"))
        schema = None
        # Every simulated player comes from 127.0.0.1: lift the per-address limits
        # (web/guard.py) that protect a public site from one client.
        env = {"PYTHONUNBUFFERED": "1",
               "CARDWAR_CREATES_PER_MINUTE": "1000000", "CARDWAR_JOINS_PER_MINUTE": "1000000",
               "CARDWAR_REMATCHES_PER_MINUTE": "1000000",
               "CARDWAR_SOCKETS_PER_ADDRESS": "1000000"}
        if args.postgres:
            _drop_left_schemas()  # a killed run's (SIGKILL skips the finally below)
            schema = f"cw_load_{os.getpid()}_{secrets.token_hex(4)}"
            database = f"{PG_URL}?search_path={schema}"
            redis: str | None = REDIS_URL
            env["CARDWAR_REDIS_PREFIX"] = f"cwload-{schema}:"
        else:
            database = f"sqlite+aiosqlite:///{tmp / 'games.db'}"
            redis = None
        nginx = None
        servers = start_servers(self.processes, database, redis, env, tmp,
                                args.profile and not self.floor, self.floor)
        try:
            bases = [b for _, b in servers]
            if self.proxy:
                from proxy import start as start_nginx

                port = free_port()
                nginx = start_nginx(tmp / "nginx", port,
                                    [int(b.rsplit(":", 1)[1]) for b in bases])
                bases = [f"http://127.0.0.1:{port}"]
            report = self._play(servers, bases, nginx)
        finally:
            if nginx is not None:
                from proxy import stop as stop_nginx

                stop_nginx(nginx)
            for proc, _ in servers:
                proc.send_signal(signal.SIGINT)  # lets cProfile write its file
            for proc, _ in servers:
                with suppress(Exception):
                    proc.wait(15)
            if schema:
                _drop_schema(schema)
        report["server_logs"] = str(tmp)
        return report

    def _play(self, servers: list[tuple[subprocess.Popen[bytes], str]], bases: list[str],
              nginx: subprocess.Popen[bytes] | None) -> dict[str, Any]:
        args = self.args
        games = max(1, min(args.games, MAX_GAMES))
        spectators = 0 if self.floor else max(0, min(args.spectators, MAX_SPECTATORS))
        seconds = max(1.0, min(args.seconds, MAX_SECONDS))
        warmup = max(0.0, min(args.warmup, 60.0))
        pairs = []
        for i in range(games):
            a = bases[i % len(bases)]
            b = a if self.same_process else bases[(i + 1) % len(bases)]
            pairs.append((a, b))
        rss0 = sum(rss_kib(p.pid) for p, _ in servers)
        ctx = mp.get_context("spawn")
        go, out = ctx.Event(), ctx.Queue()
        workers, flags = [], []
        k = max(1, args.clients)
        for w in range(k):
            flag = ctx.Event()
            share = spectators // k + (w < spectators % k)
            proc = ctx.Process(target=_worker, args=(pairs[w::k], args.rate, seconds, warmup,
                                                     go, flag, out, args.together, share,
                                                     args.per_table, bases))
            proc.start()
            workers.append(proc)
            flags.append(flag)
        t_setup = time.perf_counter()
        for flag in flags:
            if not flag.wait(timeout=600):
                raise SystemExit("players did not connect in 600 s")
        setup_s = time.perf_counter() - t_setup
        time.sleep(1.0)
        rss1 = sum(rss_kib(p.pid) for p, _ in servers)
        go.set()
        time.sleep(warmup)
        if args.profile and not self.floor:
            for p, _ in servers:
                p.send_signal(signal.SIGUSR1)
        from proxy import group_pids

        proxies = group_pids(nginx) if nginx is not None else []
        load0 = os.getloadavg()
        cpu0 = [cpu_seconds(p.pid) for p, _ in servers]
        sw0 = [switches(p.pid) for p, _ in servers]
        tx0 = pg_commits() if args.postgres else None
        pub0 = redis_publishes() if args.postgres and not self.floor else None
        pcpu0 = [cpu_seconds(pid) for pid in proxies]
        wcpu0 = [cpu_seconds(w.pid) for w in workers]
        time.sleep(seconds)
        cpu1 = [cpu_seconds(p.pid) for p, _ in servers]
        sw1 = [switches(p.pid) for p, _ in servers]
        tx1 = pg_commits() if args.postgres else None
        pub1 = redis_publishes() if args.postgres and not self.floor else None
        pcpu1 = [cpu_seconds(pid) for pid in proxies]
        if args.profile and not self.floor:
            for p, _ in servers:
                p.send_signal(signal.SIGUSR2)
        wcpu1 = [cpu_seconds(w.pid) for w in workers]
        results = [out.get(timeout=120) for _ in workers]
        for proc in workers:
            proc.join(10)
        rss2 = sum(rss_kib(p.pid) for p, _ in servers)
        lat = sorted(x for r in results for x in r["latencies"])
        flips = sum(r["flips"] for r in results)

        def pct(q: float) -> float | None:
            return round(lat[min(len(lat) - 1, int(q * len(lat)))] * 1000, 2) if lat else None

        def per_flip(a: list[float], b: list[float]) -> float:
            return round(1000 * sum(y - x for x, y in zip(a, b, strict=True)) / max(1, flips), 3)

        return {
            "setup": self.label
                     + (", same" if self.same_process or len(bases) == 1 else ", different")
                     + " address(es) per game's players",
            "games": games, "spectators": spectators,
            "connections": sum(r.get("connected", 0) for r in results),
            "seconds": seconds, "warmup": warmup,
            "load_average": [round(x, 2) for x in load0],
            "target_flips_per_s": round(2 * games * args.rate, 1),
            "flips_per_s": round(flips / seconds, 1),
            "battles_per_s": round(sum(r["battles"] for r in results) / seconds, 1),
            "latency_ms": {"p50": pct(0.50), "p90": pct(0.90), "p99": pct(0.99),
                           "max": round(lat[-1] * 1000, 2) if lat else None,
                           "mean": round(statistics.fmean(lat) * 1000, 2) if lat else None},
            "errors": sum(r["errors"] for r in results),
            "setup_errors": sum(r["setup_errors"] for r in results),
            "games_ended_and_replaced": sum(r["finished"] for r in results),
            "battles_played_by_idle_timer": sum(r["timer_played"] for r in results),
            "last_error": next((r["last_error"] for r in results if r["last_error"]), None),
            "server_rss_mib": {"before": round(rss0 / 1024, 1),
                               "connected": round(rss1 / 1024, 1),
                               "after": round(rss2 / 1024, 1)},
            "server_cpu_percent": [round(100 * (b - a) / seconds)
                                   for a, b in zip(cpu0, cpu1, strict=True)],
            "server_cpu_ms_per_flip": per_flip(cpu0, cpu1),
            **({"pg_commits_per_flip": round((tx1 - tx0) / max(1, flips), 3)}
               if tx0 is not None and tx1 is not None else {}),
            **({"redis_publishes_per_flip": round((pub1 - pub0) / max(1, flips), 3)}
               if pub0 is not None and pub1 is not None else {}),
            "server_waits_per_flip": round(sum(b[0] - a[0] for a, b in zip(sw0, sw1, strict=True))
                                           / max(1, flips), 2),
            "server_preemptions_per_flip": round(sum(b[1] - a[1] for a, b in zip(
                sw0, sw1, strict=True)) / max(1, flips), 2),
            **({"nginx_cpu_ms_per_flip": per_flip(pcpu0, pcpu1)} if proxies else {}),
            "client_cpu_percent": [round(100 * (b - a) / seconds)
                                   for a, b in zip(wcpu0, wcpu1, strict=True)],
            "kib_per_connection": round((rss1 - rss0) / max(1, sum(
                r.get("connected", 0) for r in results)), 1),
            "connect_seconds": round(setup_s, 1),
        }


def _ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a and b else None


def _table(rows: list[dict[str, Any]]) -> str:
    """The runs side by side, one line each (no braces: the JSON report follows)."""
    lines = ["setup | server CPU ms/flip | x floor | p99 ms | max ms | flips/s | load avg"]
    for r in rows:
        lines.append(" | ".join(str(x) for x in (
            r["setup"], r["server_cpu_ms_per_flip"], r.get("cpu_vs_floor", "-"),
            r["latency_ms"]["p99"], r["latency_ms"]["max"], r["flips_per_s"],
            " ".join(str(x) for x in r["load_average"]))))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark: side-by-side lines, then a JSON report (see the module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seconds", type=float, default=30.0, help="measured seconds")
    ap.add_argument("--warmup", type=float, default=5.0,
                    help="seconds of play before measuring (not counted)")
    ap.add_argument("--rate", type=float, default=1.0, help="flips per player per second")
    ap.add_argument("--processes", type=int, default=1,
                    help="server processes; more than 1: behind the shipped nginx, "
                         "run after 1 process behind the same nginx at the same load")
    ap.add_argument("--postgres", action="store_true",
                    help=f"PostgreSQL ({PG_URL}) + Redis ({REDIS_URL}) instead of SQLite")
    ap.add_argument("--clients", type=int, default=2, help="load generator processes")
    ap.add_argument("--same-process", action="store_true",
                    help="without nginx: both players of a game on one server "
                         "(default: across servers)")
    ap.add_argument("--direct", action="store_true",
                    help="several processes without nginx: players connect to the "
                         "processes themselves (no side-by-side run)")
    ap.add_argument("--together", action="store_true",
                    help="both players of a game flip at the same instant (worst case); "
                         "default: each at its own random moment of the period")
    ap.add_argument("--spectators", type=int, default=0,
                    help="idle sockets too: spectators of tables waiting in the lobby "
                         f"(at most {MAX_SPECTATORS}), answering heartbeats")
    ap.add_argument("--per-table", type=int, default=18, help="spectators per waiting table")
    ap.add_argument("--no-floor", action="store_true",
                    help="skip the floor run (bench/floor.py under the same load)")
    ap.add_argument("--profile", action="store_true",
                    help="profile the servers' CPU time during the measured seconds "
                         "(slower; .prof files in the log folder)")
    args = ap.parse_args(argv)
    # SIGTERM (timeout, kill): stop nginx and the servers on the way out (finally)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    args.per_table = max(1, min(args.per_table, 1000))
    if args.processes > 1 and not args.postgres:
        ap.error("several processes need --postgres (and Redis)")
    processes = max(1, min(args.processes, 8))
    runs = []
    if processes > 1 and not args.direct:
        runs.append(_Run(args, 1, proxy=True))
    runs.append(_Run(args, processes, proxy=processes > 1 and not args.direct))
    reports = [run.go() for run in runs]
    main_report = reports[-1]
    if not args.no_floor:
        floor = _Run(args, 1, floor=True).go()
        for r in reports:
            r["cpu_vs_floor"] = _ratio(r["server_cpu_ms_per_flip"],
                                       floor["server_cpu_ms_per_flip"])
        main_report["floor"] = floor
        reports.append(floor)
        if len(runs) > 1:
            # the control: the floor too on N processes at the same total load (each
            # game's players on one process, connected to it: the floor keeps its
            # games in memory, so nginx's hash cannot route them), as cardwar's
            # owner model does; what N processes cost the floor is the machine's
            floor_n = _Run(args, processes, floor=True, same_process=True).go()
            main_report["floor_processes"] = floor_n
            main_report["floor_vs_one_process"] = _ratio(floor_n["server_cpu_ms_per_flip"],
                                                         floor["server_cpu_ms_per_flip"])
            reports.append(floor_n)
    if len(runs) > 1:
        one = reports[0]
        main_report["one_process"] = one
        main_report["vs_one_process"] = {
            "server_cpu_ms_per_flip": _ratio(main_report["server_cpu_ms_per_flip"],
                                             one["server_cpu_ms_per_flip"]),
            "p99": _ratio(main_report["latency_ms"]["p99"], one["latency_ms"]["p99"])}
    print(_table(reports))
    print(json.dumps(main_report, indent=2))
    return 0


def _drop_schema(schema: str) -> None:
    from cardwar.store.store import drop_schema

    asyncio.run(drop_schema(PG_URL, schema))


def _left_schemas(names: list[str]) -> list[str]:
    """The ``cw_load_<pid>_<hex>`` schemas among ``names`` whose run is gone (no
    process ``pid`` on this machine): what a killed run left."""
    left = []
    for name in names:
        match = re.fullmatch(r"cw_load_(\d+)_[0-9a-f]+", name)
        if match is None:
            continue
        try:
            os.kill(int(match.group(1)), 0)
        except ProcessLookupError:
            left.append(name)
        except PermissionError:  # another user's live process
            pass
    return left


def _drop_left_schemas() -> None:
    """Drop the schemas of earlier runs that were killed before their cleanup."""
    from sqlalchemy import text
    from sqlalchemy.ext.asyncio import create_async_engine

    async def names() -> list[str]:
        engine = create_async_engine(PG_URL)
        try:
            async with engine.connect() as conn:
                found = await conn.execute(text(
                    "SELECT nspname FROM pg_namespace WHERE nspname LIKE 'cw_load_%'"))
                return list(found.scalars())
        finally:
            await engine.dispose()

    for name in _left_schemas(asyncio.run(names())):
        _drop_schema(name)


if __name__ == "__main__":
    sys.exit(main())
