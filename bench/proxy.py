"""The shipped nginx config (deploy/nginx/), run by a benchmark on loopback.

Used by ``bench/load.py --processes N``: the same nginx.conf, locations.conf
and http.conf a self-hoster installs, with only what must change for a
private run changed (the listen port, the upstream servers, every path under
a temporary folder, one worker per core as shipped). Needs the nginx binary
(Debian package ``nginx``).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from contextlib import suppress
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NGINX = ROOT / "deploy" / "nginx"
#: The upstream's server lines in deploy/nginx/nginx.conf (replaced by the backends).
_SERVERS = re.compile(r"^(\s*)server 127\.0\.0\.1:\d+ (max_fails=.*)$", re.M)


def die_with_parent() -> None:
    """For ``subprocess.Popen(preexec_fn=...)``: the child gets SIGTERM when the
    benchmark that started it dies, even by SIGKILL (Linux ``PR_SET_PDEATHSIG``),
    so no server or nginx of a killed benchmark keeps running and skews the next
    run's figures. Does nothing where ``prctl`` is missing."""
    import ctypes

    with suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # 1: PR_SET_PDEATHSIG


def nginx_binary() -> str:
    """The nginx executable; SystemExit with one line when there is none."""
    found = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")
    if not found:
        raise SystemExit("nginx is not installed (Debian/Ubuntu: apt-get install -y nginx)")
    return found


def _swap(text: str, old: str, new: str) -> str:
    if old not in text:
        raise SystemExit(f"deploy/nginx no longer contains {old!r}: update bench/proxy.py")
    return text.replace(old, new)


def local_config(tmp: Path, port: int, backends: list[int]) -> Path:
    """Write deploy/nginx/ under ``tmp`` listening on 127.0.0.1:``port`` in front of
    127.0.0.1:``backends``; returns the nginx.conf to run."""
    for sub in ("logs", "temp", "static", "cardwar"):
        (tmp / sub).mkdir(parents=True, exist_ok=True)
    shutil.copy("/etc/nginx/mime.types", tmp / "mime.types")
    locations = _swap((NGINX / "locations.conf").read_text(), "root /srv/cardwar/static;",
                      f"root {tmp}/static;")
    (tmp / "cardwar" / "locations.conf").write_text(locations)
    site = _swap((NGINX / "http.conf").read_text(), "listen 80 default_server;",
                 f"listen 127.0.0.1:{port} default_server;")
    site = _swap(site, "listen [::]:80 default_server;", "")
    (tmp / "cardwar" / "site.conf").write_text(site)
    text = (NGINX / "nginx.conf").read_text()
    text = _swap(text, "user www-data;", "user root;" if os.geteuid() == 0 else "")
    text = _swap(text, "pid /run/nginx.pid;", f"pid {tmp}/nginx.pid;")
    text = _swap(text, "error_log /var/log/nginx/error.log warn;",
                 f"error_log {tmp}/logs/error.log warn;")
    text = _swap(text, "access_log /var/log/nginx/cardwar.access.log cardwar_json;",
                 f"access_log {tmp}/logs/access.log cardwar_json;")
    lines = _SERVERS.findall(text)
    if not lines:
        raise SystemExit("deploy/nginx/nginx.conf has no upstream servers: update bench/proxy.py")
    indent, options = lines[0]
    servers = "".join(f"{indent}server 127.0.0.1:{p} {options}\n" for p in backends)
    text = re.sub(r"(?m)^\s*server 127\.0\.0\.1:\d+ max_fails=.*\n", "", text)
    for upstream in ("cardwar_game", "cardwar"):  # every upstream: the same processes
        head = f"    upstream {upstream} {{\n"
        text = _swap(text, head, head + servers)
    temp_paths = "".join(f"    {kind}_temp_path {tmp}/temp/{kind};\n"
                         for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    text = _swap(text, "http {\n", "http {\n" + temp_paths)
    path = tmp / "nginx.conf"
    path.write_text(text)
    return path


def start(tmp: Path, port: int, backends: list[int]) -> subprocess.Popen[bytes]:
    """Run nginx in the foreground (its own process group) until it answers on ``port``."""
    import httpx2 as httpx

    conf = local_config(tmp, port, backends)
    with (tmp / "logs" / "nginx.stderr").open("wb") as err:
        proc = subprocess.Popen(
            [nginx_binary(), "-p", f"{tmp}/", "-e", f"{tmp}/logs/error.log", "-c", str(conf),
             "-g", "daemon off;"],
            stdout=subprocess.DEVNULL, stderr=err, start_new_session=True,
            preexec_fn=die_with_parent)
    deadline = time.monotonic() + 60
    while True:
        if proc.poll() is not None:
            raise SystemExit(f"nginx exited; see {tmp / 'logs'}")
        with suppress(httpx.HTTPError):
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        if time.monotonic() > deadline:
            stop(proc)
            raise SystemExit(f"nginx did not answer in 60 s; see {tmp / 'logs'}")
        time.sleep(0.1)


def group_pids(proc: subprocess.Popen[bytes]) -> list[int]:
    """nginx's master and its workers (the process group ``proc`` leads)."""
    pids = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == proc.pid:  # the process group id
                pids.append(int(stat.parent.name))
    return pids


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop nginx and its workers (its process group); never leave them running."""
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
