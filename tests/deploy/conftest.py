"""Fixtures of the install tests: the release built once, locked wheels, private services.

* :func:`release` builds the sdist and the wheel from this tree once per
  run, as ``make dist`` does (``python -m build``: the sdist, then the wheel
  from the sdist).
* :func:`wheelhouse` keeps the locked wheels (and the build requirements, at
  the development lock's versions and hashes) in a folder that outlives the
  run (``~/.cache/cardwar-tests/wheels``, or ``$CARDWAR_TEST_WHEELHOUSE``);
  every install of these tests reads them from there (``PIP_NO_INDEX``,
  ``PIP_FIND_LINKS``), so installing is fast and the same files as PyPI's,
  whatever the network does.
* :func:`services` skips the tests that need PostgreSQL and Redis on a
  developer's machine without them, and fails with ``CARDWAR_REQUIRE_SERVICES=1``
  (``.ci/run``).
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEBIAN_PYTHON = "/usr/bin/python3"
REQUIRED = os.environ.get("CARDWAR_REQUIRE_SERVICES") == "1"
#: What the build needs (pyproject.toml's build-system requires), downloaded at
#: the versions and with the hashes of requirements-dev.lock (make dist's).
BUILD_REQUIRES = ("setuptools", "babel")


#: Virtualenvs made by one test for another that can use them (the guide's
#: first version, once the upgrade moved the site to the second).
SPARE_VENVS: dict[str, Path] = {}


@dataclass(frozen=True)
class Release:
    """The built release: ``sdist`` (the tarball), ``wheel``, the build's output."""

    sdist: Path
    wheel: Path
    log: str
    version: str


def _locked(requirements: Path) -> list[tuple[str, str]]:
    """``(name, version)`` of every ``name==version`` line, names as in wheel files."""
    pins = re.findall(r"^([A-Za-z0-9_.-]+)==([^\s;]+)", requirements.read_text(), re.M)
    return [(re.sub(r"[-_.]+", "_", name).lower(), version) for name, version in pins]


def _build_lock(dev_lock: Path) -> str:
    """The entries (pin and hashes) of :data:`BUILD_REQUIRES` in ``dev_lock``, as a
    requirements file's text; fails if one is missing."""
    text = dev_lock.read_text()
    entries = []
    for name in BUILD_REQUIRES:
        found = re.search(rf"^{name}==\S+(?: \\\n\s+--hash=\S+)+", text, re.M | re.I)
        assert found, f"{name} is not pinned with hashes in {dev_lock.name}"
        entries.append(found.group(0))
    return "\n".join(entries) + "\n"


def _has_all(folder: Path, pins: list[tuple[str, str]]) -> bool:
    files = {p.name.lower() for p in folder.glob("*.whl")}
    return all(any(f.startswith(f"{n}-{v}-") for f in files) for n, v in pins)


@pytest.fixture(scope="session")
def wheelhouse(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """pip settings that install the locked wheels from a local folder (downloaded
    once; later runs only check that every locked version is there)."""
    folder = Path(os.environ.get("CARDWAR_TEST_WHEELHOUSE",
                                 Path.home() / ".cache" / "cardwar-tests" / "wheels"))
    folder.mkdir(parents=True, exist_ok=True)
    lock = ROOT / "requirements.lock"
    build_lock = tmp_path_factory.mktemp("build-lock") / "requirements.txt"
    build_lock.write_text(_build_lock(ROOT / "requirements-dev.lock"))
    # the sdist's build takes the newest setuptools and Babel in the folder: only
    # the locked ones may be there (an older run may have left others)
    for name, version in _locked(build_lock):
        for stale in folder.glob(f"{name}-*.whl"):
            if not stale.name.lower().startswith(f"{name}-{version}-"):
                stale.unlink(missing_ok=True)
    if not _has_all(folder, _locked(lock) + _locked(build_lock)):
        # both hash-checked (each file's every requirement pinned with hashes)
        for wanted in (lock, build_lock):
            done = subprocess.run(
                [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
                 "--require-hashes", "--only-binary", ":all:", "-d", str(folder),
                 "-r", str(wanted)],
                capture_output=True, text=True, timeout=600)
            assert done.returncode == 0, f"pip download failed:\n{done.stdout}{done.stderr}"
    # No byte-compiling: the installs take half the time, the processes compile on import.
    return {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(folder), "PIP_NO_COMPILE": "1",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_WARN_SCRIPT_LOCATION": "1"}


@pytest.fixture(scope="session")
def release(tmp_path_factory: pytest.TempPathFactory) -> Release:
    """The sdist and the wheel of this tree, built once as ``make dist`` does
    (the locked setuptools and Babel of the development environment)."""
    out = tmp_path_factory.mktemp("dist")
    # one build at a time in the source tree (xdist workers each build their own)
    with open(ROOT / "build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        done = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir",
                               str(out), str(ROOT)], capture_output=True, text=True,
                              timeout=600)
    log = done.stdout + done.stderr
    assert done.returncode == 0, f"python -m build failed:\n{log[-4000:]}"
    sdist, = out.glob("cardwar-*.tar.gz")
    wheel, = out.glob("cardwar-*.whl")
    version = sdist.name.removeprefix("cardwar-").removesuffix(".tar.gz")
    return Release(sdist, wheel, log, version)


def venv(path: Path, wheelhouse: dict[str, str]) -> Path:
    """A fresh virtualenv of Debian's Python at ``path`` with requirements.lock
    installed (as the guide does); returns its ``bin`` folder."""
    subprocess.run([DEBIAN_PYTHON, "-m", "venv", str(path)], check=True, timeout=300)
    pip(path / "bin", wheelhouse, "-r", str(ROOT / "requirements.lock"))
    return path / "bin"


def pip(bin_dir: Path, wheelhouse: dict[str, str], *args: str) -> str:
    """``pip install -q ARGS`` in a virtualenv; returns pip's output; fails loudly."""
    done = subprocess.run([str(bin_dir / "pip"), "install", "-q", *args],
                          capture_output=True, text=True, timeout=600,
                          env={"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": str(Path.home()),
                               **wheelhouse})
    assert done.returncode == 0, f"pip install {' '.join(args)} failed:\n{done.stderr}"
    return done.stdout + done.stderr


def _services_missing() -> str | None:
    """Why the guide test cannot run here, or None."""
    for tool in ("psql", "redis-cli", "nginx", "openssl", "curl"):
        if not shutil.which(tool, path=os.environ.get("PATH", "") + ":/usr/sbin"):
            return f"{tool} is not installed"
    if not Path(DEBIAN_PYTHON).is_file():
        return f"{DEBIAN_PYTHON} (Debian's python3) is missing"
    pg = subprocess.run(["psql", "-h", "/run/postgresql", "-U", "postgres", "-d", "postgres",
                         "-Atc", "select 1"], capture_output=True, text=True, timeout=20)
    if pg.returncode != 0:
        return f"PostgreSQL does not answer on /run/postgresql as postgres: {pg.stderr.strip()}"
    redis = subprocess.run(["redis-cli", "-h", "127.0.0.1", "ping"], capture_output=True,
                           text=True, timeout=20)
    if redis.stdout.strip() != "PONG":
        return "Redis does not answer on 127.0.0.1:6379"
    if os.geteuid() != 0:
        return "the guide runs as root (install -o www-data, nginx's user)"
    return None


@pytest.fixture(scope="session")
def services() -> None:
    """Skip (developer machine) or fail (CI) when the guide cannot run here."""
    missing = _services_missing()
    if missing and REQUIRED:
        pytest.fail(f"CARDWAR_REQUIRE_SERVICES=1 but {missing}")
    if missing:
        pytest.skip(f"the self-hosting guide test needs this machine's services: {missing}")
