"""deploy/nginx/: `nginx -t` accepts it, and it really proxies HTTP and WebSockets.

Needs the nginx binary (Debian package ``nginx``); without it these tests
FAIL on purpose. The live test runs nginx in the foreground on a free
loopback port in front of two uvicorn processes (tests/ops/backend_app.py),
everything bound to 127.0.0.1, bounded in time and killed at the end.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path

import httpx2 as httpx
import pytest
from websockets.sync.client import connect

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
NGINX = ROOT / "deploy" / "nginx"
CONFIG = NGINX / "nginx.conf"
UNIT = ROOT / "deploy" / "cardwar@.service"
STARTUP_S = 20.0


def nginx_binary() -> str:
    """The nginx executable; fails the test (never skips) when there is none."""
    found = shutil.which("nginx") or shutil.which(
        "nginx", path="/usr/sbin:/usr/local/sbin:/sbin"
    )
    if found is None:
        pytest.fail("nginx is not installed (Debian/Ubuntu: apt-get install -y nginx)")
    return found


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def swap(text: str, old: str, new: str) -> str:
    """Replace ``old`` (which must be in the config) by ``new``."""
    assert old in text, f"deploy/nginx.conf no longer contains {old!r}: update this test"
    return text.replace(old, new)


def local_config(tmp: Path, port: int, backends: tuple[int, int]) -> Path:
    """deploy/nginx/ as installed (nginx.conf, cardwar/locations.conf, cardwar/site.conf
    from http.conf) with every path under ``tmp`` and loopback ports."""
    for sub in ("logs", "temp", "static/latest", "static/0123456789", "static/v/abcdef0123/play",
                "cardwar"):
        (tmp / sub).mkdir(parents=True, exist_ok=True)
    (tmp / "static" / "latest" / "site.css").write_text("body { color: black; }\n")
    (tmp / "static" / "0123456789" / "site.css").write_text("body { color: blue; }\n")
    (tmp / "static" / "v" / "abcdef0123" / "play" / "game.js").write_text("import './x.js';\n")
    shutil.copy("/etc/nginx/mime.types", tmp / "mime.types")
    locations = swap((NGINX / "locations.conf").read_text(), "root /srv/cardwar/static;",
                     f"root {tmp}/static;")
    (tmp / "cardwar" / "locations.conf").write_text(locations)
    site = swap((NGINX / "http.conf").read_text(), "listen 80 default_server;",
                f"listen 127.0.0.1:{port} default_server;")
    site = swap(site, "listen [::]:80 default_server;", f"listen [::1]:{port} default_server;")
    (tmp / "cardwar" / "site.conf").write_text(site)
    text = CONFIG.read_text()
    user = "user root;" if os.geteuid() == 0 else ""  # workers must read tmp
    text = swap(text, "user www-data;", user)
    text = swap(text, "worker_processes auto;", "worker_processes 1;")
    text = swap(text, "pid /run/nginx.pid;", f"pid {tmp}/nginx.pid;")
    text = swap(text, "error_log /var/log/nginx/error.log warn;",
                f"error_log {tmp}/logs/error.log info;")
    text = swap(text, "access_log /var/log/nginx/cardwar.access.log cardwar_json;",
                f"access_log {tmp}/logs/access.log cardwar_json;")
    text = swap(text, "server 127.0.0.1:8001 ", f"server 127.0.0.1:{backends[0]} ")
    text = swap(text, "server 127.0.0.1:8002 ", f"server 127.0.0.1:{backends[1]} ")
    temp_paths = "".join(
        f"    {kind}_temp_path {tmp}/temp/{kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    text = swap(text, "http {\n", "http {\n" + temp_paths)
    path = tmp / "nginx.conf"
    path.write_text(text)
    return path


def nginx_command(nginx: str, conf: Path, *extra: str) -> list[str]:
    tmp = conf.parent
    return [nginx, "-p", f"{tmp}/", "-e", f"{tmp}/logs/error.log", "-c", str(conf), *extra]


def test_config_passes_nginx_t(tmp_path: Path) -> None:
    nginx = nginx_binary()
    conf = local_config(tmp_path, free_port(), (free_port(), free_port()))
    done = subprocess.run(
        nginx_command(nginx, conf, "-t"), capture_output=True, text=True, timeout=30
    )
    assert done.returncode == 0, done.stderr
    assert "syntax is ok" in done.stderr
    assert "test is successful" in done.stderr


def test_config_has_what_websockets_need() -> None:
    text = CONFIG.read_text() + (NGINX / "locations.conf").read_text()
    assert "proxy_set_header Upgrade $http_upgrade;" in text
    assert "proxy_set_header Connection $connection_upgrade;" in text
    assert "proxy_http_version 1.1;" in text
    timeouts = [int(t) for t in re.findall(r"proxy_read_timeout (\d+)s;", text)]
    assert max(timeouts) >= 60  # well over the 20 s WebSocket ping interval
    # Every listen of the HTTP site is edited by the test: none is left unchecked.
    listens = re.findall(r"^\s*listen\b.*$", (NGINX / "http.conf").read_text(), re.M)
    assert [line.strip() for line in listens] == ["listen 80 default_server;",
                                                  "listen [::]:80 default_server;"]
    assert "listen" not in CONFIG.read_text().replace("# ", "")


def test_systemd_unit_checks_then_serves_per_port() -> None:
    text = UNIT.read_text()
    assert re.search(r"^ExecStartPre=\S+/cardwar check --env-file /etc/cardwar/env$", text, re.M)
    assert re.search(r"^ExecStart=\S+/cardwar serve --env-file /etc/cardwar/env "
                     r".*--port %i$", text, re.M)
    assert "Environment=PROMETHEUS_MULTIPROC_DIR=/run/cardwar/metrics" in text


# --- the live round trip ---


def wait_http(url: str, proc: subprocess.Popen[bytes], deadline: float) -> None:
    """Poll ``url`` until it answers; fail when ``proc`` exits or time runs out."""
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"{proc.args!r} exited with {proc.returncode} before serving {url}")
        try:
            httpx.get(url, timeout=1.0)
            return
        except httpx.TransportError:
            time.sleep(0.1)
    pytest.fail(f"{url} did not answer within {STARTUP_S} s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop ``proc`` and its process group (nginx's workers); never leave it running."""
    if proc.poll() is None:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
            return
        except subprocess.TimeoutExpired:
            pass
    # Still running, or the leader died early and may have left workers behind.
    with suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)


@contextmanager
def site(tmp: Path) -> Iterator[tuple[int, Path]]:
    """Two backends and nginx in front; yields (nginx port, tmp)."""
    nginx = nginx_binary()
    port, a, b = free_port(), free_port(), free_port()
    conf = local_config(tmp, port, (a, b))
    procs: list[subprocess.Popen[bytes]] = []
    logs = tmp / "logs"
    try:
        deadline = time.monotonic() + STARTUP_S
        for name, backend_port in (("a", a), ("b", b)):
            # the child writes to its own copy of the file: ours closes at once
            with open(logs / f"backend-{name}.log", "wb") as out:
                procs.append(subprocess.Popen(
                    [sys.executable, "-m", "uvicorn", "backend_app:app", "--app-dir",
                     str(HERE), "--host", "127.0.0.1", "--port", str(backend_port),
                     "--log-level", "warning", "--no-access-log"],
                    env={**os.environ, "BACKEND_NAME": name}, stdout=out, stderr=out,
                    start_new_session=True,
                ))
            out.close()
        for backend_port, proc in zip((a, b), procs, strict=True):
            wait_http(f"http://127.0.0.1:{backend_port}/whoami", proc, deadline)
        with open(logs / "nginx.stderr", "wb") as err:
            procs.append(subprocess.Popen(
                nginx_command(nginx, conf, "-g", "daemon off;"),
                stdout=subprocess.DEVNULL, stderr=err, start_new_session=True,
            ))
        wait_http(f"http://127.0.0.1:{port}/static/site.css", procs[-1], deadline)
        yield port, tmp
    except BaseException:
        for log in sorted(logs.glob("*")):
            sys.stderr.write(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}\n")
        raise
    finally:
        for proc in reversed(procs):
            stop(proc)


@pytest.mark.timeout(90)
def test_http_and_websockets_through_nginx_to_both_backends(tmp_path: Path) -> None:
    with site(tmp_path) as (port, tmp):
        base = f"http://127.0.0.1:{port}"
        with httpx.Client(base_url=base, timeout=5.0) as client:
            # HTTP reaches both backends, with the headers the app relies on.
            seen = set()
            for _ in range(20):
                got = client.get("/whoami", headers={"X-Forwarded-For": "6.6.6.6"}).json()
                seen.add(got["backend"])
                assert got["host"] == f"127.0.0.1:{port}"  # port kept for the Origin check
                assert got["x_forwarded_for"] == "127.0.0.1"  # the client's value is not trusted
                assert got["x_forwarded_proto"] == "http"
                assert got["client"] == "127.0.0.1"
                assert got["scheme"] == "http"
                assert got["connection"] in (None, "")  # no "upgrade" on plain HTTP
            assert seen == {"a", "b"}

            # X-Request-ID: passed through when valid, else nginx's own.
            got = client.get("/whoami", headers={"X-Request-ID": "trace-42_x"}).json()
            assert got["x_request_id"] == "trace-42_x"
            generated = client.get("/whoami").json()["x_request_id"]
            assert re.fullmatch(r"[0-9a-f]{32}", generated)
            replaced = client.get("/whoami", headers={"X-Request-ID": "bad id!"}).json()
            assert re.fullmatch(r"[0-9a-f]{32}", replaced["x_request_id"])

            # Static files come from disk: a version's own copy, cached for a year;
            # without a version the newest copy, for an hour; nothing else.
            versioned = client.get("/static/site.css?v=0123456789")
            assert versioned.status_code == 200
            assert "color: blue" in versioned.text
            assert versioned.headers["cache-control"] == "public, max-age=31536000, immutable"
            assert versioned.headers["content-type"].startswith("text/css")
            plain = client.get("/static/site.css")
            assert plain.status_code == 200
            assert "color: black" in plain.text
            assert plain.headers["cache-control"] == "public, max-age=3600"
            assert client.get("/static/site.css?v=../../etc").text == plain.text
            missing = client.get("/static/site.css?v=9999999999")
            assert missing.status_code == 404
            assert "cache-control" not in missing.headers
            assert client.get("/static/missing.css").status_code == 404
            # ES modules: the version of their folder is in the path (module_url);
            # `cardwar static` keeps each version's copy, and only those are served.
            module = client.get("/static/v/abcdef0123/play/game.js")
            assert module.status_code == 200
            assert "import './x.js'" in module.text
            assert module.headers["cache-control"] == "public, max-age=31536000, immutable"
            assert module.headers["content-type"].startswith(("application/javascript",
                                                              "text/javascript"))
            for other in ("/static/v/abcdef0123/play/x.js", "/static/v/9999999999/play/game.js",
                          "/static/v/abc/play/game.js"):
                missing = client.get(other)
                assert missing.status_code == 404
                assert "cache-control" not in missing.headers

            # /metrics is served to loopback.
            metrics = client.get("/metrics")
            assert metrics.status_code == 200
            assert metrics.text.startswith("metrics from ")

            # A "continue on another device" link: proxied, its key never logged.
            client.get("/pl/g/Abc123/continue/s3cr3t-KEY?x=1")

        # WebSockets: two at once land on different backends (least_conn), and
        # messages go both ways through nginx.
        url = f"ws://127.0.0.1:{port}/ws/echo"
        origin = {"Origin": f"http://127.0.0.1:{port}"}
        with connect(url, additional_headers=origin, open_timeout=5, close_timeout=2) as one, \
                connect(url, additional_headers=origin, open_timeout=5, close_timeout=2) as two:
            hello = [json.loads(ws.recv(timeout=5)) for ws in (one, two)]
            assert {h["backend"] for h in hello} == {"a", "b"}
            assert all(h["host"] == f"127.0.0.1:{port}" for h in hello)
            for ws, h in ((one, hello[0]), (two, hello[1])):
                for n in range(3):
                    ws.send(f"flip {n}")
                    assert ws.recv(timeout=5) == f"{h['backend']}:flip {n}"

        # One owner per game: every page and socket of a game reaches one backend
        # (the hash of its id), whatever the locale; of many games, both backends.
        owners = {}
        with httpx.Client(base_url=base, timeout=5.0) as client:
            for n in range(12):
                gid = f"Game{n:02d}xyz"
                seen = {client.get(path).json()["backend"] for path in (
                    f"/g/{gid}/whoami", f"/en/g/{gid}/whoami", f"/pt_BR/g/{gid}/whoami",
                    f"/uk/g/{gid}/replay/whoami")}
                for _ in range(2):
                    with connect(f"ws://127.0.0.1:{port}/ws/g/{gid}", additional_headers=origin,
                                 open_timeout=5, close_timeout=2) as game_ws:
                        seen.add(json.loads(game_ws.recv(timeout=5))["backend"])
                assert len(seen) == 1, (gid, seen)
                owners[gid] = seen.pop()
        assert set(owners.values()) == {"a", "b"}, owners

        # The access log is JSON lines with the request id.
        lines = (tmp / "logs" / "access.log").read_text().splitlines()
        records = [json.loads(line) for line in lines]
        assert any(r["request_id"] == "trace-42_x" and r["status"] == 200 for r in records)
        assert any(r["uri"] == "/ws/echo" and r["status"] == 101 for r in records)
        assert any(r["uri"] == "/pl/g/Abc123/continue/-?x=1" for r in records)
        assert "s3cr3t-KEY" not in "\n".join(lines)
