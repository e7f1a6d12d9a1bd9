"""Chaos soak: two app processes under kills, pauses and restarts (issue 24). Not a test.

A self-hoster's bad week, in minutes: two ``cardwar serve`` processes on a
private PostgreSQL and a private Redis (bench/chaos_services.py: a
temporary cluster and ``redis-server`` on free loopback ports, never the
machine's shared ones), ``--games`` games of 2-player Peace at once, each
with one player on each process and a spectator, the players flipping by
hand 2-4 times a second (bench/chaos_pages.py: pages that behave like the
game page). A finished game is replaced by a new one until ``--seconds``
are up. Meanwhile one fault every ``--every`` seconds (10-25), drawn from
``--seed``: SIGKILL or SIGTERM of an app process (restarted on the same port
after 1-3 s), SIGSTOP for 3 s, a Redis restart, ``pg_ctl restart -m fast``
and ``-m immediate``; each kind comes once in every six faults
(``--each K``: exactly K of each kind, evenly spread). Then the faults stop
and the games still running are finished by auto-flip
(``--drain`` seconds at most).

It prints one line (and, with ``--json FILE``, writes the figures)::

    chaos seed=… games=24 seconds=300 faults=17 (kill 3, …): finished 70 = replay 70,
    seq gaps 0, doubled battles 0, lost flips 0 (+2 sent unanswered at faults),
    unsent stored flips 0, shown offline >5s 0, wrong seat 0, never saw end 0, stuck 0,
    lobbies left 0, 5xx 0 (+1 handshakes cut by SIGTERM), tracebacks outside faults 0

* ``= replay``: the stored battles and result equal ``cardwar play --seed`` of
  the revealed seed, and so does every battle each page saw;
* ``seq gaps`` / ``doubled battles``: a page saw an event number skipped (or
  repeated) or a battle twice; the store holds a battle twice or misses a number;
* ``lost flips``: a flip by hand a page sent and saw answered that the store
  lacks; apart from them, ``sent unanswered at faults``: flips a page sent
  that got no answer and are not stored (on their way when a socket or a
  process died: the server may never have had them; the person taps again);
  ``unsent stored flips``: a flip by hand stored that its page never sent;
* ``shown offline``: a page showing a player offline for more than ``--grace``
  seconds while both had been connected all that time;
* ``wrong seat``: a player's page shown another seat than its table seat;
* ``never saw end``: a page (player or spectator) of a finished game that
  never got ``over``; ``stuck``: a game not over at the end; ``lobbies
  left``: a game not over whose lobby a player left before the start (here
  nobody sits down again: counted apart from stuck);
* ``5xx``: HTTP answers (and refused handshakes) of 500 and more; apart from
  them, the handshakes uvicorn answers 500 because SIGTERM came while they
  were on their way (its graceful shutdown does so; the page connects again);
* ``tracebacks outside faults``: logged errors and tracebacks of the app
  processes from outside every fault's window (its start to 10 s after it).

Examples::

    .venv/bin/python bench/chaos.py                       # 24 games, 5 minutes
    .venv/bin/python bench/chaos.py --seconds 1800        # half an hour
    .venv/bin/python bench/chaos.py --games 6 --seconds 60 --each 2 --seed short
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from chaos_checks import check_games, stored_events, tracebacks
from chaos_pages import Counters, Game, Page, http
from chaos_services import KINDS, Fault, Services, schedule

MAX_GAMES = 200
MAX_SECONDS = 4 * 3600


class Run:
    """One soak: its options, services, games and counters."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.seed: str = args.seed
        self.heartbeat = args.heartbeat
        self.counters = Counters()
        self.games: list[Game] = []
        self.draining = False
        self.deadline = 0.0
        self.faults: list[Fault] = schedule(args.seed, args.seconds, 2, tuple(args.every),
                                            args.each)
        env = {
            "CARDWAR_REDIS_PREFIX": "chaos:", "PYTHONUNBUFFERED": "1",
            "CARDWAR_HEARTBEAT": str(args.heartbeat), "CARDWAR_PRESENCE_TTL": "9",
            "CARDWAR_GONE_AFTER": "10", "CARDWAR_FLIP_TIMEOUT": "10",
            "CARDWAR_COMPUTER_DELAY": str(args.computer_delay),
            "CARDWAR_PEACE_SHOW": str(args.peace_show),
            # every person here is 127.0.0.1: lift the per-address limits
            "CARDWAR_CREATES_PER_MINUTE": "100000", "CARDWAR_JOINS_PER_MINUTE": "100000",
            "CARDWAR_REMATCHES_PER_MINUTE": "100000", "CARDWAR_SOCKETS_PER_ADDRESS": "100000",
        }
        folder = None
        if args.logs is not None:  # kept there, with the presence trace of every app
            env["CARDWAR_DEBUG_LOGS"] = "cardwar.presence"
            folder = args.logs / args.seed
        self.services = Services(2, env, keep=args.keep, folder=folder)
        #: with ``--logs``: what every page was told of presence, and its socket's life
        self.timeline: list[dict[str, Any]] | None = [] if args.logs is not None else None
        self.started = 0.0
        #: each episode of a connected player shown offline (what, where, when)
        self.offline: list[dict[str, Any]] = []

    def finished(self) -> bool:
        """True once the run is over (nothing more to wait for)."""
        return time.monotonic() > self.deadline

    # -- the games ---------------------------------------------------------------------
    async def play(self, index: int) -> None:
        """Play game after game in slot ``index`` until the soak's seconds are up."""
        serial = index
        while not self.draining:
            game = Game(index, serial)
            self.games.append(game)
            await self.one_game(game)
            serial += self.args.games

    async def one_game(self, game: Game) -> None:
        apps = self.services.apps
        first, second = apps[game.serial % 2], apps[(game.serial + 1) % 2]
        created = await http(self, "POST", f"{first.base}/en/play",
                             headers={"Origin": first.base},
                             data={"variant": "peace", "players": "2", "seat1": "friend",
                                   "nickname": "Ann"})
        if created is None or created.status_code != 303:
            return
        game.id = created.headers["location"].rsplit("/", 1)[1]
        creator = Page(self, game, first.base, created.cookies[f"cw_{game.id}"], 0)
        tasks = [asyncio.create_task(self.page(creator))]
        joined = await http(self, "POST", f"{second.base}/en/g/{game.id}/join",
                            headers={"Origin": second.base}, data={"nickname": "Bob"})
        if joined is not None and joined.status_code == 303 and f"cw_{game.id}" in joined.cookies:
            joiner = Page(self, game, second.base, joined.cookies[f"cw_{game.id}"], 1)
            tasks.append(asyncio.create_task(self.page(joiner)))
        watcher = apps[game.serial // 2 % 2]
        spectator = Page(self, game, watcher.base, None, None)
        tasks.append(asyncio.create_task(self.page(spectator)))
        tasks.append(asyncio.create_task(self.start(creator)))
        while not self.finished() and not (game.over is not None and game.all_saw_end()):  # noqa: ASYNC110 - polls its tallies
            await asyncio.sleep(0.5)
        for page in game.pages:
            page.done = True
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def page(self, page: Page) -> None:
        """Open the game page like a browser, then its socket (and flip, for a player)."""
        page.game.pages.append(page)
        headers = {"Cookie": f"cw_{page.game.id}={page.secret}"} if page.secret else None
        await http(self, "GET", f"{page.base}/en/g/{page.game.id}", headers=headers)
        jobs = [page.run_socket()]
        if page.lobby is not None:
            jobs.append(page.flip_by_hand())
        await asyncio.gather(*jobs)

    async def start(self, creator: Page) -> None:
        """The creator starts once the second player sat down (and taps again after 5 s)."""
        while not self.finished() and creator.status == "lobby":
            if len(creator.humans) >= 2 and await creator.send({"type": "start"}):
                await asyncio.sleep(5.0)
            else:
                await asyncio.sleep(0.2)

    # -- the faults and the watch ------------------------------------------------------
    async def cause_faults(self) -> None:
        for fault in self.faults:
            wait = self.started + fault.at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            begun = time.time()
            print(f"  {time.monotonic() - self.started:6.1f}s fault {fault.kind} "
                  f"app{fault.target} ({fault.pause:.1f}s) at {begun:.3f}",
                  file=sys.stderr, flush=True)
            try:
                await asyncio.to_thread(self.services.apply, fault)
            except Exception as exc:  # noqa: BLE001 - say so, and go on with the next
                print(f"  fault {fault.kind} failed: {exc!r}", file=sys.stderr, flush=True)
            fault.window = (begun, time.time())

    async def watch_presence(self) -> None:
        """Count each episode of a page showing a connected player offline too long."""
        grace = self.args.grace
        while not self.finished():
            await asyncio.sleep(0.5)
            now = time.monotonic()
            for game in self.games:
                if game.seating is None or game.over is not None:
                    continue
                for page in game.pages:
                    if page.connected_since is None or page.status != "playing":
                        continue
                    for player in game.players:
                        seat = game.table_seat(player.lobby) if player.lobby is not None else None
                        since = page.offline_since.get(seat) if seat is not None else None
                        if since is None or player.connected_since is None or seat is None:
                            continue
                        shown = now - max(since, player.connected_since, page.connected_since)
                        if shown > grace and (seat, since) not in page.reported:
                            page.reported.add((seat, since))
                            self.counters.offline_shown += 1
                            self.offline.append({
                                "at": round(since - self.started, 1), "game": game.id,
                                "wall": round(time.time() - (now - since), 3),
                                "page": page.name, "player": f"{player.name} seat {seat}"})

    async def main(self) -> dict[str, Any]:
        args = self.args
        self.services.start()
        self.started = time.monotonic()
        self.deadline = self.started + args.seconds + args.drain
        slots = [asyncio.create_task(self.play(i)) for i in range(args.games)]
        faults = asyncio.create_task(self.cause_faults())
        watch = asyncio.create_task(self.watch_presence())
        await asyncio.sleep(args.seconds)
        self.draining = True
        print(f"  {time.monotonic() - self.started:6.1f}s draining", file=sys.stderr,
              flush=True)
        await faults
        await asyncio.gather(*slots)
        watch.cancel()
        events = await stored_events(self.services.pg.dsn, [g.id for g in self.games if g.id])
        return self.summary(check_games([g for g in self.games if g.id], events))

    def summary(self, checked: dict[str, int]) -> dict[str, Any]:
        total, outside, sample = tracebacks(self.services.logs(), self.faults)
        c = self.counters
        kinds = Counter(f.kind for f in self.faults if f.window)
        # uvicorn answers a WebSocket handshake still in progress when SIGTERM comes
        # with 500 (its shutdown): counted apart, not as the site's 5xx
        stops = [f.window for f in self.faults if f.kind == "term" and f.window]
        at_stop = [x for x in c.failures if x[1].startswith("ws://") and x[2] == 500
                   and any(lo <= x[0] <= hi for lo, hi in stops)]
        server_errors = c.http_5xx - len(at_stop)
        figures: dict[str, Any] = {
            **checked, "seq_gaps": c.seq_gaps + c.seq_repeats + checked["store_gaps"],
            "doubled_battles": c.doubled + checked["store_doubled"],
            "shown_offline": c.offline_shown, "wrong_seat": c.wrong_seat,
            "http_5xx": server_errors, "handshakes_cut_by_sigterm": len(at_stop),
            "tracebacks": total, "tracebacks_outside_faults": outside, "sample": sample,
            "faults": dict(kinds), "errors": c.errors, "logs": str(self.services.folder),
            "offline": self.offline, "failures": c.failures,
            "timeline": [(f.at, f.kind, f.target, f.window) for f in self.faults],
            "apps": [a.base for a in self.services.apps],
            "not_over": [{"game": g.id, "pages": [
                {"base": p.base[-5:], "lobby": p.lobby, "seq": p.seq, "status": p.status,
                 "connected": p.connected_since is not None, "saw_end": p.saw_end}
                for p in g.pages]} for g in self.games if g.id and not g.all_saw_end()]}
        faults = ", ".join(f"{k} {kinds.get(k, 0)}" for k in KINDS)
        a = self.args
        figures["line"] = (
            f"chaos seed={a.seed} games={a.games} seconds={a.seconds:g}"
            f" faults={sum(kinds.values())} ({faults}):"
            f" finished {checked['finished']} = replay {checked['replay']},"
            f" seq gaps {figures['seq_gaps']}, doubled battles {figures['doubled_battles']},"
            f" lost flips {checked['lost_flips']}"
            f" (+{checked['unanswered_flips']} sent unanswered at faults),"
            f" unsent stored flips {checked['unsent_flips']},"
            f" shown offline >{a.grace:g}s {c.offline_shown}, wrong seat {c.wrong_seat},"
            f" never saw end {checked['never_saw_end']}, stuck {checked['stuck']},"
            f" lobbies left {checked['lobbies_left']},"
            f" 5xx {server_errors} (+{len(at_stop)} handshakes cut by SIGTERM),"
            f" tracebacks outside faults {outside}")
        return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=24, help="games at once (24)")
    parser.add_argument("--seconds", type=float, default=300, help="seconds of faults (300)")
    parser.add_argument("--every", type=float, nargs=2, default=(10.0, 25.0),
                        metavar=("LOW", "HIGH"), help="seconds between faults (10 25)")
    parser.add_argument("--each", type=int, default=None,
                        help="exactly this many faults of each kind, evenly spread")
    parser.add_argument("--seed", default=None, help="replays the same faults (random)")
    parser.add_argument("--drain", type=float, default=400,
                        help="most seconds to finish the games after the faults (400)")
    parser.add_argument("--grace", type=float, default=5.0,
                        help="seconds a connected player may be shown offline (5)")
    parser.add_argument("--heartbeat", type=float, default=5.0, help="server heartbeat (5 s)")
    parser.add_argument("--computer-delay", type=float, default=0.25,
                        help="CARDWAR_COMPUTER_DELAY of the apps: the pace of the auto"
                        " flips that finish the games (0.25 s)")
    parser.add_argument("--peace-show", type=float, default=0.5,
                        help="CARDWAR_PEACE_SHOW of the apps: how long an automatic flip"
                        " waits after a peace (0.5 s; 0 drains the games sooner)")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    parser.add_argument("--keep", action="store_true", help="keep the logs folder")
    parser.add_argument("--logs", type=Path, default=None,
                        help="keep everything in LOGS/SEED/: the apps' logs (with the presence"
                        " trace, cardwar.presence at DEBUG), timeline.jsonl (what each page"
                        " was told of presence, and its sockets) and figures.json")
    args = parser.parse_args(argv)
    if not 1 <= args.games <= MAX_GAMES or not 0 < args.seconds <= MAX_SECONDS:
        parser.error(f"--games 1..{MAX_GAMES}, --seconds up to {MAX_SECONDS}")
    args.seed = args.seed or secrets.token_hex(4)
    run = Run(args)
    try:
        figures = asyncio.run(run.main())
    finally:
        run.services.stop()
    if args.json is not None:
        args.json.write_text(json.dumps(figures, indent=1))
    if run.timeline is not None:
        folder = run.services.folder
        (folder / "figures.json").write_text(json.dumps(figures, indent=1))
        with (folder / "timeline.jsonl").open("w") as out:
            for entry in run.timeline:
                out.write(json.dumps(entry) + "\n")
        print(f"  logs: {folder}", file=sys.stderr)
    for line in figures["sample"]:
        print("  outside a fault:", line, file=sys.stderr)
    print(figures["line"], flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
