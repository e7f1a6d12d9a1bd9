"""Run deploy/README.md's shell blocks on this machine, moved under a folder.

:class:`Guide` reads every fenced ``sh`` block of the guide, in order, and
runs each with ``bash -euo pipefail`` after a text map (:meth:`Guide.add`):
system paths to a temporary folder, the well-known ports to private ones,
the database role and database to unique names, the Redis settings to a
channel prefix of their own. Every map entry must be used, so a guide
that changes makes this test change with it.

Commands that would change the machine, or that need what it does not have,
are shims on ``PATH`` (``<root>/shims``):

* ``systemctl``: :mod:`tests.deploy.fake_systemctl`;
* ``apt-get``: ``update`` does nothing, ``install`` checks that the packages
  are installed (CI installs them) and skips certbot and ufw;
* ``adduser``: makes the home folder only;
* ``runuser -u USER -- ...``: runs as the test's user, with ``PGUSER`` set to
  the role that peer authentication would give ``USER``;
* ``install``, ``chown``: ``cardwar`` as owner or group keeps the test's user;
  a text file installed under the moved ``/etc`` goes through the map too
  (the nginx configuration, the units), as the guide's commands do;
* ``nginx``: the real one, with the moved prefix, configuration and error log;
* ``certbot``, ``ufw``: refuse to run (their blocks are skipped).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
GUIDE = ROOT / "deploy" / "README.md"
SYSTEM_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
BLOCK = re.compile(r"^```sh\n(.*?)^```$", re.M | re.S)
HEADING = re.compile(r"^## (.+)$", re.M)


def apply_map(entries: list[tuple[str, str]] | list[list[str]], text: str) -> str:
    """Replace every ``old`` of ``entries`` by its ``new`` in one pass (the
    longest match wins; replaced text is not looked at again)."""
    if not entries:
        return text
    table = {old: new for old, new in entries}
    pattern = re.compile("|".join(re.escape(o) for o in sorted(table, key=len, reverse=True)))
    return pattern.sub(lambda m: table[m.group(0)], text)


@dataclass
class Block:
    """One ``sh`` block: the section it is in, its text as written, as run."""

    section: str
    text: str
    mapped: str = ""
    seconds: float = 0.0


def blocks(text: str | None = None) -> list[Block]:
    """The ``sh`` blocks of the guide, in order, each with its section heading."""
    text = GUIDE.read_text() if text is None else text
    headings = [(m.start(), m.group(1)) for m in HEADING.finditer(text)]
    found = []
    for match in BLOCK.finditer(text):
        section = [h for start, h in headings if start < match.start()][-1]
        found.append(Block(section, match.group(1)))
    return found


_INSTALL = r'''
import os, subprocess, sys
args, out, i = sys.argv[1:], [], 0
mine = os.geteuid() != 0
while i < len(args):
    if args[i] in ("-o", "-g") and (args[i + 1] == "cardwar" or mine):
        i += 2
        continue
    out.append(args[i])
    i += 1
done = subprocess.run(["/usr/bin/install", *out])
if done.returncode or "-d" in out:
    sys.exit(done.returncode)
paths, i = [], 0
while i < len(out):
    if out[i] in ("-m", "-o", "-g"):
        i += 2
        continue
    if not out[i].startswith("-"):
        paths.append(out[i])
    i += 1
sys.path.insert(0, {here!r})
from guide import map_installed
map_installed(paths)
'''


@dataclass
class Guide:
    """The guide's blocks run under ``root`` (see the module docstring)."""

    root: Path
    roles: dict[str, str]
    extra_env: dict[str, str] = field(default_factory=dict)
    entries: list[tuple[str, str]] = field(default_factory=list)
    ran: list[Block] = field(default_factory=list)
    skipped: list[tuple[Block, str]] = field(default_factory=list)

    def add(self, old: str, new: str) -> None:
        """Map ``old`` to ``new`` in every block and installed file (applied in order)."""
        self.entries.append((old, new))

    def map(self, text: str) -> str:
        return apply_map(self.entries, text)

    def unused(self) -> list[str]:
        """Map entries that neither a block nor a deploy file uses."""
        texts = [b.text for b in blocks()] + [
            p.read_text() for p in (ROOT / "deploy").rglob("*") if p.is_file()]
        marked = [apply_map([(old, f"\0{i}\0") for i, (old, _) in enumerate(self.entries)], t)
                  for t in texts]
        return [old for i, (old, _) in enumerate(self.entries)
                if not any(f"\0{i}\0" in t for t in marked)]

    @property
    def shims(self) -> Path:
        return self.root / "shims"

    def env(self) -> dict[str, str]:
        """The environment of a block: root's, with the shims first on PATH."""
        keep = {k: v for k, v in os.environ.items()
                if k.startswith(("PIP_", "LANG", "LC_", "TERM", "HOME", "USER", "PYTHONDONTWRITE"))}
        return {**keep, **self.extra_env, "PATH": f"{self.shims}:{SYSTEM_PATH}",
                "CARDWAR_GUIDE_STATE": str(self.root / "state.json")}

    def write_shims(self, nginx: list[str], run_dir: Path, units: Path) -> None:
        """Write the shims and the state file the fake systemctl reads."""
        self.shims.mkdir(parents=True, exist_ok=True)
        state = {"map": self.entries, "units": str(units), "state": str(self.root / "state"),
                 "nginx": nginx, "roles": self.roles, "run": str(run_dir)}
        (self.root / "state.json").write_text(json.dumps(state))
        py = sys.executable
        roles = " ".join(f"{k}={v}" for k, v in self.roles.items())
        scripts = {
            "systemctl": f'exec {py} {HERE / "fake_systemctl.py"} "$@"',
            "nginx": "exec /usr/sbin/nginx " + " ".join(nginx[1:]) + ' "$@"',
            "apt-get": '''
[ "$1" = update ] && exit 0
[ "$1" = install ] || { echo "apt-get $1: not run here" >&2; exit 1; }
shift
for p in "$@"; do
  case "$p" in
    -*) ;;
    certbot|ufw) echo "apt-get: $p is not installed here (its block is not run)" >&2 ;;
    *) dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \\
         || { echo "apt-get: package $p is not installed on this machine" >&2; exit 1; } ;;
  esac
done''',
            "adduser": 'while [ $# -gt 1 ]; do [ "$1" = --home ] && mkdir -p "$2"; shift; done',
            "runuser": f'''
[ "$1" = -u ] && [ "$3" = -- ] || {{ echo "runuser: only -u USER -- COMMAND" >&2; exit 1; }}
for pair in {roles}; do [ "${{pair%%=*}}" = "$2" ] && export PGUSER="${{pair#*=}}"; done
shift 3
exec "$@"''',
            "install": f"exec {py} -c {_quote(_INSTALL.format(here=str(HERE)))} \"$@\"",
            "chown": 'exec /bin/chown "$(echo "$1" | sed "s/cardwar/$(id -un)/; '
                     's/:$(id -un)/:$(id -gn)/")" "${@:2}"',
            "certbot": 'echo "certbot: not run here" >&2; exit 1',
            "ufw": 'echo "ufw: not run here" >&2; exit 1',
        }
        for name, body in scripts.items():
            path = self.shims / name
            path.write_text(f"#!/bin/bash\n{body.strip()}\n")
            path.chmod(0o755)
        (self.shims / "map.json").write_text(json.dumps(
            {"entries": self.entries, "etc": str(self.root / "etc")}))

    def run(self, block: Block, cwd: Path, timeout: float = 300) -> str:
        """Run ``block`` (mapped) with bash; return its output; fail on an error."""
        block.mapped = self.map(block.text)
        start = time.monotonic()
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", block.mapped], cwd=cwd,
                              env=self.env(), capture_output=True, text=True, timeout=timeout)
        block.seconds = time.monotonic() - start
        self.ran.append(block)
        output = done.stdout + done.stderr
        if done.returncode != 0:
            raise AssertionError(f"guide block in '{block.section}' failed "
                                 f"({done.returncode}):\n{block.mapped}\n--- output\n{output}")
        return output

    def skip(self, block: Block, reason: str) -> None:
        """Record that ``block`` is not run here, and why."""
        self.skipped.append((block, reason))

    def report(self) -> Iterator[str]:
        """Lines saying what ran and what did not."""
        for block in self.ran:
            yield (f"ran     {block.section}: {block.text.splitlines()[0]} "
                   f"({block.seconds:.1f} s)")
        for block, reason in self.skipped:
            yield f"skipped {block.section}: {block.text.splitlines()[0]} ({reason})"


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def map_installed(paths: list[str]) -> None:
    """Apply the guide's map to text files installed under the moved ``/etc``
    (called by the ``install`` shim with its arguments)."""
    config = json.loads(_shim_map())
    etc = Path(config["etc"])
    targets = [Path(p) for p in paths]
    if len(targets) > 1 and targets[-1].is_dir():
        targets = [targets[-1] / Path(p).name for p in paths[:-1]]
    else:
        targets = targets[-1:]
    for target in targets:
        if etc in target.resolve().parents and target.is_file():
            try:
                text = target.read_text()
            except UnicodeDecodeError:
                continue
            target.write_text(apply_map(config["entries"], text))


def _shim_map() -> str:
    state = Path(os.environ["CARDWAR_GUIDE_STATE"])
    return (state.parent / "shims" / "map.json").read_text()


def copy_etc_nginx(target: Path) -> None:
    """The machine's /etc/nginx as Debian installs it (mime.types, nginx.conf)."""
    target.mkdir(parents=True, exist_ok=True)
    for name in ("nginx.conf", "mime.types"):
        shutil.copy(f"/etc/nginx/{name}", target / name)
