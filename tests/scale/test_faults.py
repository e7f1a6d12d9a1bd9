"""Issue 10, item 6: faults lose nothing and stay visible.

* Redis stopped and started again in the middle of a game whose two players
  are on two server processes (a private ``redis-server`` on a port of its
  own, never the shared one);
* PostgreSQL restarted (``pg_ctl restart -m fast``) in the middle of a game,
  then stopped for longer than the retries and started again (a private
  cluster in a folder of its own under /tmp, run as ``postgres``): a flip
  that cannot be saved gets an ``unavailable`` error frame, the socket stays.

While the service is down every flip gets an answer; after it, the game is
played to its end by auto-flip, and every page has seen every event once,
in order, with each battle exactly as ``cardwar play --seed`` plays it.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest

from .conftest import ROOT, Server, free_port
from .test_two_processes import Player, _create, _join

PG_BIN = sorted(Path("/usr/lib/postgresql").glob("*/bin"))


def replayed(seed: str) -> dict[str, Any]:
    """``cardwar play --seed SEED --log --json`` (a two-player Peace game)."""
    done = subprocess.run(
        [sys.executable, "-m", "cardwar.cli", "play", "--variant", "peace", "--players", "2",
         "--seed", seed, "--log", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    return dict(json.loads(done.stdout))


def check_against_replay(players: list[Player], over: dict[str, Any]) -> None:
    """Every page saw each battle once, exactly as the seed plays it."""
    expected = replayed(over["seed"])
    assert over["battles"] == expected["battles"]
    assert over["winner"] == expected["winner"]
    for player in players:
        battles = [m for m in player.log if m["type"] == "battle"]
        assert [b["battle"] for b in battles] == list(range(1, expected["battles"] + 1))
        for seen, played in zip(battles, expected["log"], strict=True):
            assert (seen["face_up"], seen["winner"], seen["counts"]) == (
                played["face_up"], played["winner"], played["counts"])


async def start_and_play_two_battles(ann: Player, bob: Player) -> int:
    """Both connect, Ann starts, both flip battles 1 and 2; Ann's drawn table seat."""
    await ann.connect()
    await bob.connect()
    await ann.send("start")
    started, _ = await asyncio.gather(ann.until("started"), bob.until("started"))
    seat = int(started.get("seating", [0, 1]).index(0))
    for battle in (1, 2):
        await asyncio.sleep(0.3)
        await asyncio.gather(ann.send("flip"), bob.send("flip"))
        await asyncio.gather(ann.until("battle", battle=battle),
                             bob.until("battle", battle=battle))
    return seat


async def auto_to_the_end(players: list[Player]) -> dict[str, Any]:
    """Both switch auto-flip on; read until the game is over; the ``over`` message."""
    for p in players:
        await p.ws.send(json.dumps({"type": "auto", "on": True}))
    results = await asyncio.gather(*(p.until("over") for p in players))  # both read
    assert all(r["type"] == "over" for r in results)
    return results[0]


# -- Redis ----------------------------------------------------------------------------
class PrivateRedis:
    """A ``redis-server`` of this test only, on 127.0.0.1 and a free port, no persistence."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while subprocess.run(["redis-cli", "-p", str(self.port), "ping"],
                             capture_output=True, text=True).stdout.strip() != "PONG":
            assert time.monotonic() < deadline, "redis-server did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)


@pytest.mark.timeout(240)
@pytest.mark.skipif(shutil.which("redis-server") is None, reason="no redis-server")
def test_redis_stopped_and_started_mid_game_across_two_processes(pg_url, redis_prefix,
                                                                 tmp_path):
    redis = PrivateRedis(tmp_path)
    redis.start()
    env = {"CARDWAR_REDIS_PREFIX": redis_prefix, "CARDWAR_COMPUTER_DELAY": "0.02",
           "CARDWAR_FLIP_TIMEOUT": "120", "PYTHONUNBUFFERED": "1", "CARDWAR_PEACE_SHOW": "0"}
    servers = [Server(pg_url, redis.url, env, tmp_path / f"server{i}.log") for i in range(2)]
    try:
        for s in servers:
            s.wait_ready()
        a, b = servers
        gid, secret0 = _create(a.base)
        secret1 = _join(b.base, gid)

        async def scenario() -> None:
            ann, bob = Player(a.base, gid, secret0), Player(b.base, gid, secret1)
            seat = await start_and_play_two_battles(ann, bob)

            redis.stop()
            await asyncio.sleep(1.0)  # both listeners have noticed
            # every flip is answered though the processes cannot hear each other
            await ann.send("flip")
            assert (await ann.until("flipped", seat=seat))["battle"] == 3
            await asyncio.sleep(0.3)
            await bob.send("flip")  # his process reads Ann's flip from the store
            assert (await bob.until("battle", battle=3))["winner"] is not None
            # her page hears battle 3 without sending anything: while Redis is
            # down her process reads the store for what its pages missed
            await ann.until("battle", battle=3)
            await asyncio.sleep(0.3)
            await ann.send("flip")
            assert (await ann.until("flipped", seat=seat))["battle"] == 4

            redis.start()
            await asyncio.sleep(2.0)  # the listeners are back and resynced
            await asyncio.sleep(0.3)
            await bob.send("flip")
            await asyncio.gather(ann.until("battle", battle=4), bob.until("battle", battle=4))
            over = await auto_to_the_end([ann, bob])
            check_against_replay([ann, bob], over)
            await ann.ws.close()
            await bob.ws.close()

        asyncio.run(scenario())
    finally:
        for s in servers:
            s.stop()
        redis.stop()


# -- PostgreSQL -------------------------------------------------------------------------
class PrivateCluster:
    """A PostgreSQL cluster of this test only (``initdb`` as ``postgres``, trust
    on 127.0.0.1, a free port), in a folder of its own under /tmp (``postgres``
    must reach it); ``pg_ctl`` runs it; :meth:`stop` removes it."""

    def __init__(self) -> None:
        self.bin = PG_BIN[-1]
        self.port = free_port()
        self.folder = Path(tempfile.mkdtemp(prefix="cardwar-pg-", dir="/tmp"))
        shutil.chown(self.folder, "postgres")
        folder = self.folder
        self.data = folder / "pgdata"
        self.log = folder / "postgres.log"
        self.url = f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def _as_postgres(self, *args: str) -> None:
        subprocess.run(["runuser", "-u", "postgres", "--", *args], check=True,
                       capture_output=True, timeout=120)

    def pg_ctl(self, *args: str) -> None:
        self._as_postgres(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l", str(self.log),
                          "-w", "-t", "60", *args)

    def start(self) -> None:
        self._as_postgres(str(self.bin / "initdb"), "-D", str(self.data), "-U", "postgres",
                          "--auth=trust", "--no-sync")
        self.run()

    def run(self) -> None:
        options = (f"-p {self.port} -c listen_addresses=127.0.0.1 "
                   f"-c unix_socket_directories={self.data} -c fsync=off")
        self.pg_ctl("-o", options, "start")

    def stop(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self.pg_ctl("-m", "immediate", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)


@pytest.mark.timeout(240)
@pytest.mark.skipif(not PG_BIN, reason="no PostgreSQL server binaries")
def test_postgres_restarted_mid_game_loses_no_flip(tmp_path):
    cluster = PrivateCluster()
    cluster.start()
    env = {"CARDWAR_COMPUTER_DELAY": "0.02", "CARDWAR_FLIP_TIMEOUT": "120",
           "PYTHONUNBUFFERED": "1", "CARDWAR_PEACE_SHOW": "0"}
    server = None
    try:
        server = Server(cluster.url, "", env, tmp_path / "server.log")
        server.wait_ready()
        gid, secret0 = _create(server.base)
        secret1 = _join(server.base, gid)

        async def scenario() -> None:
            ann, bob = Player(server.base, gid, secret0), Player(server.base, gid, secret1)
            seat = await start_and_play_two_battles(ann, bob)

            cluster.pg_ctl("-m", "fast", "restart")  # every pooled connection dies
            await asyncio.sleep(0.3)
            await ann.send("flip")  # saved on a new connection; her socket stays open
            assert (await ann.until("flipped", seat=seat))["battle"] == 3
            await asyncio.sleep(0.3)
            await bob.send("flip")
            await asyncio.gather(ann.until("battle", battle=3), bob.until("battle", battle=3))

            # down for longer than the retries: the flip is refused out loud, the
            # socket stays open, and the same flip counts once the database is back
            cluster.pg_ctl("-m", "fast", "stop")
            await asyncio.sleep(0.3)
            await ann.send("flip")
            assert (await ann.until("error"))["code"] == "unavailable"
            cluster.run()
            await asyncio.sleep(0.3)
            await ann.send("flip")
            assert (await ann.until("flipped", seat=seat))["battle"] == 4
            await asyncio.sleep(0.3)
            await bob.send("flip")
            await asyncio.gather(ann.until("battle", battle=4), bob.until("battle", battle=4))
            over = await auto_to_the_end([ann, bob])
            check_against_replay([ann, bob], over)
            await ann.ws.close()
            await bob.ws.close()

        asyncio.run(scenario())
        assert httpx.get(f"{server.base}/g/{gid}/game.json").status_code == 200
    finally:
        if server is not None:
            server.stop()
        cluster.stop()
