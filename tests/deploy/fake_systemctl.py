"""``systemctl`` for the guide test, on a machine without systemd.

Runs the guide's units the way systemd would, as far as they use it: a
``[Service]`` section's ``Environment``, ``User`` (as the test's user; the
PostgreSQL role follows, see ``roles``), ``WorkingDirectory``, ``UMask``,
``RuntimeDirectory``, ``ExecStartPre`` (run first; a failure fails the
start), ``ExecStart`` (``Type=exec``: started in the background, output to
``<state>/journal/<unit>.log``; ``Type=oneshot``: run to the end),
``ExecStartPost``, ``TimeoutStopSec``, and the specifiers ``%i`` and ``%%``.
Unit files are read from the guide's (moved) ``/etc/systemd/system``, where
the guide's ``install`` put them (through the guide's text map). ``nginx`` is started, reloaded
(waiting until new workers run the new configuration) and stopped with its
own signals. Other units (journald, timers) are reported as not run here.

Configuration: ``$CARDWAR_GUIDE_STATE``, a JSON file written by
:mod:`tests.deploy.guide` (``map``, ``units``, ``state``, ``nginx``,
``roles``, ``run``).
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from guide import apply_map

CONFIG = json.loads(Path(os.environ["CARDWAR_GUIDE_STATE"]).read_text())
STATE = Path(CONFIG["state"])
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def mapped(text: str) -> str:
    return apply_map(CONFIG["map"], text)


def say(message: str) -> None:
    print(f"[fake systemctl] {message}", file=sys.stderr)


def unit_file(unit: str) -> tuple[Path, str]:
    """The file of ``unit`` (``cardwar@8001`` -> ``cardwar@.service``) and its instance."""
    name = unit if "." in unit else f"{unit}.service"
    stem, _, kind = name.rpartition(".")
    instance = ""
    if "@" in stem:
        prefix, _, instance = stem.partition("@")
        name = f"{prefix}@.{kind}"
    path = Path(CONFIG["units"]) / name
    if not path.is_file():
        sys.exit(f"Unit {unit} not found (no {path}).")
    return path, instance


def service(unit: str) -> tuple[dict[str, list[str]], str]:
    """The ``[Service]`` settings of ``unit`` (key -> values, specifiers applied)."""
    path, instance = unit_file(unit)
    settings: dict[str, list[str]] = {}
    section = ""
    for raw in path.read_text().splitlines():  # mapped when the guide installed it
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line
            continue
        if section == "[Service]":
            key, _, value = line.partition("=")
            value = value.replace("%i", instance).replace("%%", "%")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings, instance


def environment(settings: dict[str, list[str]]) -> dict[str, str]:
    env = {"PATH": SYSTEM_PATH, "LANG": "C.UTF-8", "HOME": str(STATE)}
    for line in settings.get("Environment", []):
        for item in shlex.split(line):
            key, _, value = item.partition("=")
            env[key] = value
    user = settings.get("User", ["root"])[0]
    env["USER"] = env["LOGNAME"] = user
    if user in CONFIG["roles"]:  # peer authentication: the system user is the role
        env["PGUSER"] = CONFIG["roles"][user]
    return env


def journal(unit: str) -> Path:
    path = STATE / "journal" / f"{unit}.log"
    path.parent.mkdir(parents=True, exist_ok=True)
    return path


def pid_file(unit: str) -> Path:
    return STATE / "pids" / f"{unit}.pid"


def running(unit: str) -> int | None:
    path = pid_file(unit)
    if not path.is_file():
        return None
    pid = int(path.read_text())
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None
    with open(f"/proc/{pid}/stat") as fh:  # a zombie is not running
        if fh.read().rsplit(")", 1)[1].split()[0] == "Z":
            return None
    return pid


def run_line(unit: str, line: str, env: dict[str, str], cwd: str, umask: int) -> int:
    with journal(unit).open("ab") as out:
        return subprocess.run(shlex.split(line), env=env, cwd=cwd, stdout=out,
                              stderr=subprocess.STDOUT, preexec_fn=lambda: os.umask(umask),
                              timeout=120).returncode


def start(unit: str) -> None:
    if unit.startswith("nginx"):
        return nginx_reload()
    if unit.endswith(".timer"):
        return say(f"{unit}: no timers here (its service is started by hand in the guide)")
    if running(unit):
        return
    settings, _ = service(unit)
    env = environment(settings)
    cwd = settings.get("WorkingDirectory", ["/"])[0]
    umask = int(settings.get("UMask", ["0022"])[0], 8)
    for line in settings.get("RuntimeDirectory", []):
        for name in line.split():
            Path(mapped(f"/run/{name}")).mkdir(parents=True, exist_ok=True)
    for line in settings.get("ExecStartPre", []):
        if run_line(unit, line, env, cwd, umask) != 0:
            tail = journal(unit).read_text(errors="replace")[-1500:]
            sys.exit(f"Job for {unit} failed because the control process exited with "
                     f"error code.\n{tail}")
    kind = settings.get("Type", ["simple"])[0]
    for line in settings.get("ExecStart", []):
        if kind == "oneshot":
            if run_line(unit, line, env, cwd, umask) != 0:
                sys.exit(f"Job for {unit} failed.\n{journal(unit).read_text()[-1500:]}")
            continue
        out = journal(unit).open("ab")
        proc = subprocess.Popen(shlex.split(line), env=env, cwd=cwd, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True,
                                preexec_fn=lambda: os.umask(umask))
        pid_file(unit).parent.mkdir(parents=True, exist_ok=True)
        pid_file(unit).write_text(str(proc.pid))
    for line in settings.get("ExecStartPost", []):
        if run_line(unit, line, env, cwd, umask) != 0:
            sys.exit(f"Job for {unit} failed (ExecStartPost).")


def stop(unit: str) -> None:
    pid = running(unit)
    if pid is None:
        return
    settings, _ = service(unit)
    timeout = float(settings.get("TimeoutStopSec", ["90s"])[0].rstrip("s"))
    os.killpg(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    while running(unit) and time.monotonic() < deadline:
        time.sleep(0.05)
    if running(unit):
        os.killpg(pid, signal.SIGKILL)
    pid_file(unit).unlink()


def _workers(master: int) -> set[int]:
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == master:
                found.add(int(entry.name))
    return found


def nginx_reload() -> None:
    """Start nginx, or reload it and wait until workers with the new configuration run."""
    command = CONFIG["nginx"]
    pid_path = Path(CONFIG["run"]) / "nginx.pid"
    text = pid_path.read_text().strip() if pid_path.is_file() else ""
    master = int(text) if text.isdigit() else None  # `nginx -t` leaves an empty file
    if master is not None:
        try:
            os.kill(master, 0)
        except ProcessLookupError:
            master = None
    if master is None:
        subprocess.run(command, check=True, timeout=30)
        return
    before = _workers(master)
    subprocess.run([*command, "-s", "reload"], check=True, timeout=30)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not (_workers(master) - before):
        time.sleep(0.05)
    if not _workers(master) - before:
        sys.exit("nginx did not start new workers after the reload")
    # the old workers stop accepting only as they shut down: until they are
    # gone, a new connection may still be served by the old configuration
    while time.monotonic() < deadline and _workers(master) & before:
        time.sleep(0.05)


def main(argv: list[str]) -> None:
    args = [a for a in argv if not a.startswith("-")]
    now = "--now" in argv
    if not args:
        sys.exit("usage: systemctl COMMAND UNIT...")
    command, units = args[0], args[1:]
    if command == "daemon-reload":
        return
    for unit in units:
        if unit.startswith("systemd-"):
            say(f"{command} {unit}: not run here (the machine has no systemd)")
        elif command == "enable":
            if now:
                start(unit)
        elif command == "start":
            start(unit)
        elif command == "stop":
            stop(unit)
        elif command == "restart":
            stop(unit)
            start(unit)
        elif command == "reload" and unit.startswith("nginx"):
            nginx_reload()
        else:
            sys.exit(f"fake systemctl: {command} {unit} is not supported")


if __name__ == "__main__":
    main(sys.argv[1:])
