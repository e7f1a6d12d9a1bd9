"""deploy/README.md, followed literally: every shell block, in order, on this machine.

The guide's blocks run with bash under a temporary folder (see
:mod:`tests.deploy.guide` for the map and the shims, and the guide's own
section "How this guide is tested"): Debian 12's python3, pip from the
release's ``requirements.lock``, the release tarball built from this tree,
the shared PostgreSQL with a role and database of a unique name (dropped at
the end), the shared Redis with a channel prefix of its own, nginx 1.22 on
private ports. Between the blocks the test checks what a self-hoster
would: a game across the two processes through nginx while one of them is
stopped and started, every page in every language, HTTPS and its redirect,
``/metrics`` for loopback only, the logs' modes and contents, a restored
backup, and an upgrade with a game going on.
"""

from __future__ import annotations

import io
import json
import os
import re
import secrets
import signal
import socket
import ssl
import subprocess
import tarfile
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path

import httpx2 as httpx
import pytest

from cardwar.catalogs import LOCALES

from .conftest import SPARE_VENVS, Release
from .guide import Block, Guide, blocks, copy_etc_nginx
from .visit import (
    Player,
    Socket,
    check_every_page,
    create_game,
    finish_against_computer,
    join_game,
    replayed,
    wait_healthy,
)

pytestmark = pytest.mark.timeout(900)
UPGRADE = "0.2.0"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Run:
    """The state of one run of the guide: folders, ports, names, the guide."""

    def __init__(self, base: Path, release: Release, pip_env: dict[str, str]) -> None:
        self.t = base / "root"
        self.downloads = base / "downloads"
        self.release = release
        self.http, self.https, self.p1, self.p2 = (free_port() for _ in range(4))
        token = secrets.token_hex(5)
        self.role = self.db = f"cw_guide_{token}"
        self.prefix = f"cwguide-{token}:"
        self.guide = Guide(self.t, {"cardwar": self.role, "postgres": "postgres"}, pip_env)
        self.secure = False
        self.upgrade = UPGRADE if release.version != UPGRADE else f"{UPGRADE}.post1"
        self._map()
        for folder in ("etc/systemd/system", "var/log/nginx", "var/lib/nginx", "var/www/html",
                       "var/backups", "run", "srv"):
            (self.t / folder).mkdir(parents=True, exist_ok=True)
        copy_etc_nginx(self.t / "etc" / "nginx")
        self.downloads.mkdir()
        nginx = ["/usr/sbin/nginx", "-p", f"{self.t}/etc/nginx/",
                 "-c", f"{self.t}/etc/nginx/nginx.conf",
                 "-e", f"{self.t}/var/log/nginx/error.log"]
        self.guide.write_shims(nginx, self.t / "run", self.t / "etc" / "systemd" / "system")

    def _map(self) -> None:
        t, add = self.t, self.guide.add
        for path in ("/srv/cardwar", "/etc/cardwar", "/etc/nginx", "/etc/systemd",
                     "/var/backups/cardwar", "/var/log/nginx", "/run/cardwar",
                     "/run/nginx.pid", "/var/www/html"):
            add(path, f"{t}{path}")
        add("user www-data;", "user root;")
        temp = "".join(f"    {kind}_temp_path {t}/var/lib/nginx/{kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        add("http {\n", "http {\n" + temp)
        for port, mine in ((8001, self.p1), (8002, self.p2)):
            add(f"cardwar@{port}", f"cardwar@{mine}")
            add(f"127.0.0.1:{port}", f"127.0.0.1:{mine}")
        for listen, port in (("80", self.http), ("443 ssl http2", self.https)):
            mine = listen.replace(listen.split()[0], str(port), 1)
            add(f"listen {listen} default_server;", f"listen 127.0.0.1:{mine} default_server;")
            add(f"listen [::]:{listen} default_server;", f"listen [::1]:{mine} default_server;")
        add("https://$host$request_uri", f"https://$host:{self.https}$request_uri")
        add("http://127.0.0.1/", f"http://127.0.0.1:{self.http}/")
        add("'Origin: http://127.0.0.1'", f"'Origin: http://127.0.0.1:{self.http}'")
        add("https://cards.example.org/", f"--cacert {t}/etc/nginx/cardwar/fullchain.pem "
                                          f"https://localhost:{self.https}/")
        add("http://cards.example.org/", f"http://localhost:{self.http}/")
        add("cards.example.org", "localhost")
        add("createuser cardwar", f"createuser {self.role}")
        add("--owner=cardwar cardwar", f"--owner={self.role} {self.db}")
        add("cardwar@/cardwar?host=", f"{self.role}@/{self.db}?host=")
        add("--dbname=cardwar", f"--dbname={self.db}")
        add("ALTER ROLE cardwar", f"ALTER ROLE {self.role}")
        add("cardwar:$PASSWORD@127.0.0.1:5432/cardwar",
            f"{self.role}:$PASSWORD@127.0.0.1:5432/{self.db}")
        # Redis channels of its own; computer seats that flip at once and peaces
        # that do not wait to be seen (a game to its end in seconds).
        add("CARDWAR_REDIS=redis://127.0.0.1:6379/0\n",
            f"CARDWAR_REDIS=redis://127.0.0.1:6379/0\nCARDWAR_REDIS_PREFIX={self.prefix}\n"
            "CARDWAR_COMPUTER_DELAY=0.001\nCARDWAR_PEACE_SHOW=0.001\n")
        if self.release.version != "0.1.0":
            add("0.1.0", self.release.version)
        if self.upgrade != UPGRADE:
            add(UPGRADE, self.upgrade)

    # -- helpers used between the blocks --

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.http}"

    @property
    def tls_base(self) -> str:
        return f"https://localhost:{self.https}"

    @property
    def tls(self) -> ssl.SSLContext:
        """Trusts the guide's self-signed certificate."""
        return ssl.create_default_context(cafile=f"{self.t}/etc/nginx/cardwar/fullchain.pem")

    @property
    def site(self) -> tuple[str, ssl.SSLContext | None]:
        """The site's address as the guide has it so far (https after section 12)."""
        return (self.tls_base, self.tls) if self.secure else (self.base, None)

    def systemctl(self, *args: str) -> None:
        done = subprocess.run(["systemctl", *args], env=self.guide.env(), capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr

    def cardwar(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([f"{self.t}/srv/cardwar/current/bin/cardwar", *args,
                               "--env-file", f"{self.t}/etc/cardwar/env"],
                              capture_output=True, text=True, timeout=120,
                              cwd=f"{self.t}/srv/cardwar")

    def access_log(self, until: str = "") -> str:
        """nginx's access log, once it has ``until`` (nginx writes a line just after
        the response: wait up to 10 s)."""
        path = self.t / "var/log/nginx/cardwar.access.log"
        deadline = time.monotonic() + 10
        while until not in (text := path.read_text()) and time.monotonic() < deadline:
            time.sleep(0.05)
        return text

    def upgrade_tarball(self) -> None:
        """The release repacked as version ``self.upgrade``, with a changed style sheet."""
        old, new = self.release.version, self.upgrade
        out = self.downloads / f"cardwar-{new}.tar.gz"
        with tarfile.open(self.release.sdist) as src, tarfile.open(out, "w:gz") as dst:
            for member in src.getmembers():
                data = src.extractfile(member).read() if member.isfile() else None
                name = member.name.replace(f"cardwar-{old}", f"cardwar-{new}", 1)
                if data is not None and name.endswith(("pyproject.toml", "PKG-INFO")):
                    data = re.sub(rf"(?m)^(version = \"|Version: ){re.escape(old)}",
                                  rf"\g<1>{new}", data.decode()).encode()
                if data is not None and name.endswith(("web/static/site.css",
                                                       "web/static/play/state.js")):
                    data += f"\n/* {new} */\n".encode()
                member.name = name
                if data is not None:
                    member.size = len(data)
                dst.addfile(member, io.BytesIO(data) if data is not None else None)

    def teardown(self) -> None:
        for pid_file in (self.t / "state" / "pids").glob("*.pid"):
            with suppress(ProcessLookupError, ValueError):
                os.killpg(int(pid_file.read_text()), signal.SIGKILL)
        nginx_pid = self.t / "run" / "nginx.pid"
        if nginx_pid.is_file():
            with suppress(ProcessLookupError, ValueError):
                os.kill(int(nginx_pid.read_text()), signal.SIGTERM)
        for sql in (f'DROP DATABASE IF EXISTS "{self.db}" WITH (FORCE)',
                    f'DROP ROLE IF EXISTS "{self.role}"'):
            subprocess.run(["psql", "-h", "/run/postgresql", "-U", "postgres", "-d", "postgres",
                            "-qc", sql], capture_output=True, timeout=60)
        keys = subprocess.run(["redis-cli", "--scan", "--pattern", f"{self.prefix}*"],
                              capture_output=True, text=True, timeout=30).stdout.split()
        if keys:
            subprocess.run(["redis-cli", "del", *keys], capture_output=True, timeout=30)

    def logs(self) -> Iterator[str]:
        journal = sorted((self.t / "state" / "journal").glob("*.log"))
        for log in [*journal, self.t / "var/log/nginx/error.log"]:
            if log.is_file():
                yield f"--- {log.name}\n{log.read_text(errors='replace')[-2500:]}"


@pytest.fixture
def run(tmp_path: Path, release: Release, services: None, wheelhouse: dict[str, str]):
    """A run of the guide, cleaned up afterwards (processes, nginx, database, Redis keys).
    The blocks' pip installs the locked wheels from the wheelhouse."""
    state = Run(tmp_path, release, wheelhouse)
    try:
        yield state
    finally:
        state.teardown()


# -- the checks made between the blocks --


def two_players(run: Run) -> tuple[Player, Player, str]:
    """A 2-player game through nginx, Ann and Bob each on their own socket."""
    base, tls = run.site
    gid, ann_secret = create_game(base, verify=tls or True)
    bob_secret = join_game(base, gid, verify=tls or True)
    ann, bob = Player(base, gid, ann_secret, tls), Player(base, gid, bob_secret, tls)
    ann.connect()
    bob.connect()
    ann.send("start")
    ann.until("started")
    bob.until("started")
    return ann, bob, gid


def play(players: list[Player], battles: int) -> None:
    """Both flip ``battles`` battles (paced under the socket's message limit)."""
    for _ in range(battles):
        nxt = max(max(p.battles, default=0) for p in players) + 1
        for p in players:
            p.send("flip", battle=nxt)
        for p in players:
            p.until("battle", battle=nxt)
        time.sleep(0.2)


def _socket_upstreams(run: Run, gid: str, count: int = 0) -> list[str]:
    """The processes that served ``gid``'s sockets, in the order they closed
    (nginx logs a socket's line when it closes), once there are ``count``. The
    log lists every process nginx tried ("owner, other" while the owner is
    down): the last one served."""
    deadline = time.monotonic() + 10
    while True:
        found = [re.search(r'"upstream":"([^"]*)"', line).group(1).split(", ")[-1]
                 for line in run.access_log().splitlines()
                 if f'"uri":"/ws/g/{gid}"' in line and '"status":101' in line]
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def check_game_across_processes(run: Run) -> None:
    """One owner per game: nginx sends every socket of a game to one process
    (the hash of its id); the owner stopped in the middle, the game goes on at
    the other, and back at the owner once it is up again; every event reaches
    both players once, in order."""
    ann, bob, gid = two_players(run)
    play([ann, bob], 3)
    for p in (ann, bob):
        p.close()
    first = _socket_upstreams(run, gid, 2)
    assert len(first) == 2, first  # both players on the owner
    assert len(set(first)) == 1, first
    owner = int(first[0].rsplit(":", 1)[1])
    other = run.p2 if owner == run.p1 else run.p1
    run.systemctl("stop", f"cardwar@{owner}")
    for p in (ann, bob):  # the page reconnects; nginx sends it to the process still up
        p.connect()
    play([ann, bob], 3)
    for p in (ann, bob):
        p.close()
    while_down = _socket_upstreams(run, gid, 4)[2:]
    assert while_down == [f"127.0.0.1:{other}"] * 2, while_down
    run.systemctl("start", f"cardwar@{owner}")
    wait_healthy(f"http://127.0.0.1:{owner}")
    # nginx never takes a process for down (max_fails=0): the pages' next
    # sockets go back to the owner at once
    for p in (ann, bob):
        p.connect()
        p.close()
    back = _socket_upstreams(run, gid, 6)[-2:]
    assert back == [f"127.0.0.1:{owner}"] * 2, back
    for p in (ann, bob):
        p.connect()
    play([ann, bob], 3)
    assert ann.battles == bob.battles
    assert sorted(ann.battles) == list(range(1, 10))
    for p in (ann, bob):
        p.close()
    assert _socket_upstreams(run, gid, 8)[-2:] == [f"127.0.0.1:{owner}"] * 2


def check_acme_challenge(run: Run, base: str) -> None:
    """Let's Encrypt's HTTP challenge is answered from /var/www/html on port 80."""
    folder = run.t / "var/www/html/.well-known/acme-challenge"
    folder.mkdir(parents=True, exist_ok=True)
    token = secrets.token_urlsafe(16)
    (folder / token).write_text(f"{token}.key")
    r = httpx.get(f"{base}/.well-known/acme-challenge/{token}")
    assert r.status_code == 200
    assert r.text == f"{token}.key"


def check_metrics_loopback_only(run: Run, healthz: int = 200) -> None:
    """``/metrics`` on port 80: 200 from 127.0.0.1 and ::1, 403 from any other
    address, whose other requests get ``healthz`` (200, or 301 to https)."""
    assert httpx.get(f"{run.base}/metrics").status_code == 200
    assert httpx.get(f"http://[::1]:{run.http}/metrics").status_code == 200
    other = httpx.HTTPTransport(local_address="127.0.0.2")
    with httpx.Client(transport=other) as client:
        assert client.get(f"{run.base}/metrics").status_code == 403
        assert client.get(f"{run.base}/healthz").status_code == healthz


def check_static_files(run: Run) -> dict[str, str]:
    """Static files from /srv/cardwar/static: a versioned URL is cached for a year,
    an unversioned one for an hour, an unknown version is a 404 nobody caches.
    Returns {path: versioned URL} of the current pages."""
    page = httpx.get(f"{run.base}/en/").text
    urls = {path: url for url, path in
            re.findall(r'"(/static/([^"?]+)\?v=[0-9a-f]{10})"', page)}
    assert "site.css" in urls, page[:500]
    for url in urls.values():
        r = httpx.get(run.base + url)
        assert r.status_code == 200, url
        assert r.headers["cache-control"].endswith("immutable"), url
        assert r.headers["x-content-type-options"] == "nosniff"
    plain = httpx.get(f"{run.base}/static/site.css")
    assert plain.status_code == 200
    assert plain.headers["cache-control"] == "public, max-age=3600"
    unknown = httpx.get(f"{run.base}/static/site.css?v=0123456789")
    assert unknown.status_code == 404
    assert "cache-control" not in unknown.headers
    # The game's ES modules: versioned in the path, their relative imports too.
    gid, _ = create_game(run.base)
    game = re.search(r'src="(/static/v/[0-9a-f]{10}/play/)game\.js"',
                     httpx.get(f"{run.base}/en/g/{gid}").text).group(1)
    for module in ("game.js", "state.js"):
        r = httpx.get(run.base + game + module)
        assert r.status_code == 200
        assert r.headers["cache-control"].endswith("immutable")
    urls["play/"] = game
    return urls


def check_no_seat_key_in_access_log(run: Run) -> None:
    """The "continue on another device" link works through nginx; its key is not logged."""
    gid, secret = create_game(run.base)
    r = httpx.get(f"{run.base}/en/g/{gid}/continue/{secret}")
    assert r.status_code in (302, 303, 307), r.status_code
    log = run.access_log(until=f"/en/g/{gid}/continue/-")
    assert f"/en/g/{gid}/continue/-" in log
    assert secret not in log


def check_modes(run: Run) -> None:
    """The env file, the access log and the backups folder are not for everyone."""
    def mode(path: str) -> int:
        return (run.t / path).stat().st_mode & 0o777

    assert mode("etc/cardwar/env") == 0o640
    assert mode("etc/cardwar") == 0o750
    assert mode("var/log/nginx/cardwar.access.log") == 0o640
    assert mode("var/backups/cardwar") == 0o700
    # Debian's rotation of nginx's logs, which the guide relies on for the access log
    rotation = Path("/etc/logrotate.d/nginx").read_text()
    for line in ("/var/log/nginx/*.log {", "daily", "rotate 14", "create 0640 www-data adm"):
        assert line in rotation, line


def check_https(run: Run) -> None:
    """HTTPS: pages and WebSockets over TLS, Secure cookies, HSTS, the redirect."""
    gid, _ = create_game(run.tls_base, verify=run.tls)
    with httpx.Client(verify=run.tls) as client:
        r = client.post(f"{run.tls_base}/en/play", headers={"Origin": run.tls_base},
                        data={"variant": "war", "players": "2", "nickname": "Tls"})
        assert r.status_code == 303
        assert "secure" in r.headers["set-cookie"].lower()
        page = client.get(f"{run.tls_base}/en/g/{gid}")
        assert page.status_code == 200
        assert page.headers["strict-transport-security"] == "max-age=31536000"
        # static files (their locations add headers of their own) keep HSTS too
        for path in re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text)[:4]:
            asset = client.get(f"{run.tls_base}{path}")
            assert asset.status_code == 200, path
            assert asset.headers["strict-transport-security"] == "max-age=31536000", path
    with httpx.Client(verify=run.tls) as client:
        redirect = client.get(f"http://localhost:{run.http}/pl/war?x=1")
        assert redirect.status_code == 301
        assert redirect.headers["location"] == f"{run.tls_base}/pl/war?x=1"
    context = run.tls

    with Socket(f"wss://localhost:{run.https}/ws/g/{gid}", tls=context,
                headers={"Origin": run.tls_base}) as ws:
        assert json.loads(ws.recv(timeout=10))["type"] == "state"
    # the TLS handshake offers HTTP/2 (listen ... ssl http2)
    context.set_alpn_protocols(["h2", "http/1.1"])
    with socket.create_connection(("127.0.0.1", run.https)) as raw, \
            context.wrap_socket(raw, server_hostname="localhost") as tls:
        assert tls.selected_alpn_protocol() == "h2"


def verify_units(run: Run, *names: str) -> None:
    """``systemd-analyze verify`` accepts the installed units (their commands exist)."""
    units = run.t / "etc/systemd/system"
    done = subprocess.run(["systemd-analyze", "verify", *(str(units / n) for n in names)],
                          capture_output=True, text=True, timeout=60)
    output = (done.stdout + done.stderr).strip()
    assert done.returncode == 0, output
    assert not output, output


def test_the_guide_literally(run: Run) -> None:
    guide = run.guide
    found = blocks()
    hooks: dict[str, Callable[[Block, str], None]] = {}
    state: dict[str, object] = {}

    def hook(marker: str) -> Callable[[Callable[[Block, str], None]],
                                      Callable[[Block, str], None]]:
        def register(fn: Callable[[Block, str], None]) -> Callable[[Block, str], None]:
            matching = [b for b in found if marker in b.text]
            assert len(matching) == 1, f"{len(matching)} guide blocks contain {marker!r}"
            hooks[marker] = fn
            return fn
        return register

    skips = {"certbot certonly": "needs a public domain name and Let's Encrypt",
             "ufw --force enable": "would change this machine's firewall"}

    @hook("cardwar check --env-file")
    def after_check(block: Block, output: str) -> None:
        lines = output.strip().splitlines()[-5:]
        assert [line.split()[:2] for line in lines] == [
            ["settings", "ok"], ["database", "ok"], ["redis", "ok"], ["catalogs", "ok"],
            ["directories", "ok"]], output
        assert "schema at revision" in output
        assert run.prefix in output

    @hook("openssl rand -hex 24")
    def password(block: Block, output: str) -> None:
        # The tables come in the next section: here, check that the URL connects.
        done = run.cardwar("check")
        assert f"{run.role}:***@127.0.0.1:5432/{run.db}" in done.stdout
        assert "cannot use the database" not in done.stdout
        assert re.search(r"^database .*(the newest|run `cardwar migrate`)$", done.stdout, re.M)
        password = re.search(rf"{run.role}:([0-9a-f]{{48}})@",
                             (run.t / "etc/cardwar/env").read_text()).group(1)
        assert password not in done.stdout
        (run.t / "etc/cardwar/env").write_text(str(state.pop("env")))

    @hook("systemctl enable --now cardwar@8001")
    def service(block: Block, output: str) -> None:
        verify_units(run, f"cardwar@{run.p1}.service")
        for port in (run.p1, run.p2):
            health = wait_healthy(f"http://127.0.0.1:{port}")
            assert health["version"] == run.release.version

    @hook("http://127.0.0.1/healthz")
    def smoke(block: Block, output: str) -> None:
        assert '"status":"ok"' in output, output
        assert '<html lang="pl">' in output, output
        assert re.search(r"^303 http://127\.0\.0\.1:\d+/en/g/[\w-]+$", output, re.M), output
        assert re.search(r"^cardwar_games_in_progress", output, re.M), output
        check_game_across_processes(run)
        lobby, _ = create_game(run.base)
        state["lobby"] = lobby
        finished, over = finish_against_computer(run.base)
        replay = replayed(Path(f"{run.t}/srv/cardwar/current/bin/cardwar"), over["seed"])
        assert (over["battles"], over["winner"]) == (replay["battles"], replay["winner"])
        assert check_every_page(run.base, lobby, finished) == 8 * len(LOCALES)
        check_metrics_loopback_only(run)
        check_acme_challenge(run, run.base)
        state["static"] = check_static_files(run)
        check_no_seat_key_in_access_log(run)
        check_modes(run)

    @hook("deploy/nginx/https.conf /etc/nginx/cardwar/site.conf")
    def https(block: Block, output: str) -> None:
        assert '"status":"ok"' in output, output
        assert f"301 https://localhost:{run.https}/en/" in output, output
        assert re.search(r"^cardwar_open_connections", output, re.M), output
        check_https(run)
        check_acme_challenge(run, run.base)  # port 80 still answers it
        check_metrics_loopback_only(run, healthz=301)  # and /metrics to this machine only
        run.secure = True

    @hook("systemctl start cardwar-backup.service\nls -l")
    def backup(block: Block, output: str) -> None:
        verify_units(run, "cardwar-backup.service", "cardwar-backup.timer")
        dumps = list((run.t / "var/backups/cardwar").glob("cardwar-*.dump"))
        assert len(dumps) == 1, dumps
        assert dumps[0].stat().st_mode & 0o777 == 0o600, dumps
        state["after_backup"], _ = create_game(run.tls_base, verify=run.tls)

    @hook("pg_restore --clean")
    def restore(block: Block, output: str) -> None:
        for port in (run.p1, run.p2):
            wait_healthy(f"http://127.0.0.1:{port}")
        with httpx.Client(verify=run.tls) as client:
            assert client.get(f"{run.tls_base}/en/g/{state['lobby']}").status_code == 200
            assert client.get(f"{run.tls_base}/en/g/{state['after_backup']}").status_code == 404

    @hook(f"cardwar-{UPGRADE}.tar.gz /srv/cardwar/releases/")
    def upgraded(block: Block, output: str) -> None:
        for port in (run.p1, run.p2):
            assert wait_healthy(f"http://127.0.0.1:{port}")["version"] == run.upgrade
        assert "upgraded from" not in output  # no new migration in this test's "upgrade"
        old_css = dict(state["static"])["site.css"]  # type: ignore[call-overload]
        with httpx.Client(verify=run.tls) as client:
            page = client.get(f"{run.tls_base}/en/").text
            new_css = re.search(r'"(/static/site\.css\?v=[0-9a-f]{10})"', page).group(1)
            assert new_css != old_css
            old, new = client.get(run.tls_base + old_css), client.get(run.tls_base + new_css)
            assert old.status_code == new.status_code == 200
            assert f"/* {run.upgrade} */" in new.text
            assert f"/* {run.upgrade} */" not in old.text
            # the old version's modules, as its pages import them, and the new ones
            old_play = dict(state["static"])["play/"]  # type: ignore[call-overload]
            gid, _ = create_game(run.tls_base, verify=run.tls)
            new_play = re.search(r'src="(/static/v/[0-9a-f]{10}/play/)game\.js"',
                                 client.get(f"{run.tls_base}/en/g/{gid}").text).group(1)
            assert new_play != old_play
            old, new = (client.get(f"{run.tls_base}{folder}state.js")
                        for folder in (old_play, new_play))
            assert old.status_code == new.status_code == 200
            assert f"/* {run.upgrade} */" in new.text
            assert f"/* {run.upgrade} */" not in old.text
        ann, bob = state["players"]  # type: ignore[misc]
        for p in (ann, bob):
            p.close()
            p.connect()
        play([ann, bob], 2)
        assert ann.battles == bob.battles
        for p in (ann, bob):
            p.close()

    def before(block: Block) -> None:
        if "install -o cardwar -g cardwar -m 644 cardwar-0.1.0.tar.gz" in block.text:
            (run.downloads / run.release.sdist.name).write_bytes(run.release.sdist.read_bytes())
        if "openssl rand -hex 24" in block.text:
            state["env"] = (run.t / "etc/cardwar/env").read_text()
        if f"cardwar-{UPGRADE}.tar.gz /srv/cardwar/releases/" in block.text:
            run.upgrade_tarball()
            ann, bob, _ = two_players(run)
            play([ann, bob], 2)
            state["players"] = (ann, bob)

    try:
        for block in found:
            reason = next((why for marker, why in skips.items() if marker in block.text), None)
            if reason:
                guide.skip(block, reason)
                continue
            before(block)
            output = guide.run(block, cwd=run.downloads, timeout=600)
            for marker, fn in hooks.items():
                if marker in block.text:
                    fn(block, output)
    except BaseException:
        print("\n".join([*guide.report(), *run.logs()]))
        raise
    assert guide.unused() == [], "map entries the guide no longer uses"
    assert len(guide.skipped) == len(skips)
    print("\n".join(guide.report()))
    SPARE_VENVS["guide"] = run.t / "srv" / "cardwar" / "venvs" / run.release.version / "bin"
