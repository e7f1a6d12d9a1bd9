"""What the release carries: every file the site reads, compiled catalogs, locks.

Reads the sdist and the wheel built once for the run (``release``): the
wheel holds every file of ``cardwar/`` that git tracks and the twelve
compiled catalogs, each matching its ``.po`` (and no bytecode); the sdist
holds the same plus what deploy/README.md uses next to the package (the
locks, the deploy files). The build prints no warning about our
configuration. The locks split what the site needs from what development
needs.
"""

from __future__ import annotations

import re
import subprocess
import tarfile
import tomllib
import zipfile
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.version import Version

from cardwar.catalogs import LOCALES, babel_locale, catalog_problems

from .conftest import ROOT, Release

CATALOGS = {f"cardwar/locales/{babel_locale(loc)}/LC_MESSAGES/{dom}.mo"
            for loc in LOCALES for dom in ("messages", "play")}


def package_files() -> set[str]:
    """Every file of cardwar/ under version control."""
    listed = subprocess.run(["git", "ls-files", "cardwar"], cwd=ROOT, capture_output=True,
                            text=True, timeout=30, check=True).stdout.split()
    assert "cardwar/web/stats.json" in listed
    return set(listed)


def test_wheel_has_every_package_file_and_the_compiled_catalogs(release: Release) -> None:
    with zipfile.ZipFile(release.wheel) as wheel:
        names = {n for n in wheel.namelist() if not n.startswith("cardwar-")}
    assert names - package_files() == CATALOGS
    assert package_files() <= names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]


def test_wheel_catalogs_match_their_po(release: Release, tmp_path: Path) -> None:
    with zipfile.ZipFile(release.wheel) as wheel:
        wheel.extractall(tmp_path, [n for n in wheel.namelist() if "/locales/" in n])
    assert catalog_problems(tmp_path / "cardwar" / "locales") == []


def test_sdist_is_the_package_plus_what_the_guide_uses(release: Release) -> None:
    top = f"cardwar-{release.version}/"
    with tarfile.open(release.sdist) as sdist:
        names = {n.removeprefix(top) for n in sdist.getnames()}
    assert package_files() | CATALOGS <= names
    used = {*LOCKS, "LICENSE", "CHANGELOG.md", "deploy/README.md",
            "deploy/cardwar@.service", "deploy/cardwar-backup.service",
            "deploy/cardwar-backup.timer", "deploy/nginx/nginx.conf",
            "deploy/nginx/locations.conf", "deploy/nginx/http.conf", "deploy/nginx/https.conf"}
    assert used <= names
    deploy = subprocess.run(["git", "ls-files", "deploy"], cwd=ROOT, capture_output=True,
                            text=True, timeout=30, check=True).stdout.split()
    assert set(deploy) <= names


def test_the_build_warns_about_nothing_of_ours(release: Release) -> None:
    # setuptools says when byte-compiling is off: that is its own default, not ours.
    lines = [line for line in release.log.splitlines()
             if re.search(r"warn|deprecat", line, re.I)
             and "byte-compiling is disabled" not in line]
    assert lines == []


def _pins(lock: str) -> dict[str, str]:
    text = (ROOT / lock).read_text()
    return {_norm(n): v for n, v in re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", text, re.M)}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _names(requirements: list[str]) -> set[str]:
    return {_norm(Requirement(r).name) for r in requirements} - {"cardwar"}


PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
EXTRAS = PROJECT["optional-dependencies"]
LOCKS = ("requirements.lock", "requirements-sim.lock", "requirements-dev.lock",
         "requirements-lowest.lock")


def test_each_lock_holds_the_one_before_it_and_no_more_than_its_install_needs() -> None:
    runtime, sim, dev = (_pins(lock) for lock in LOCKS[:3])
    needed = _names(PROJECT["dependencies"])
    # anyio is the site's too (starlette's); the test extra names it for its pytest plugin
    extras_only = _names(EXTRAS["sim"] + EXTRAS["test"] + EXTRAS["dev"]) - needed - {"anyio"}
    assert needed <= set(runtime), "runtime dependencies missing from requirements.lock"
    assert not extras_only & set(runtime), "simulator or development packages in the site's lock"
    assert {"numba", "numpy", "llvmlite", "tqdm"} <= set(sim) - set(runtime)
    assert not (_names(EXTRAS["test"] + EXTRAS["dev"]) - needed - {"anyio"}) & set(sim)
    assert extras_only <= set(dev)
    for smaller, larger in ((runtime, sim), (sim, dev)):
        assert {name: larger.get(name) for name in smaller} == smaller, "the locks disagree"


@pytest.mark.parametrize("lock", LOCKS)
def test_every_pin_of_every_lock_has_its_hashes(lock: str) -> None:
    """``pip install --require-hashes`` (deploy/README.md, the Makefile) needs a
    hash for every file of every pinned version."""
    entries = re.split(r"\n(?=[A-Za-z0-9])", (ROOT / lock).read_text().split("\n", 2)[2])
    assert entries, lock
    assert all(re.match(r"[A-Za-z0-9_.-]+==\S+ \\\n\s+--hash=sha256:[0-9a-f]{64}", e)
               for e in entries), lock


def test_pyproject_gives_ranges_and_the_locks_pin_versions_inside_them() -> None:
    requirements = [r for r in map(Requirement, PROJECT["dependencies"] + EXTRAS["sim"]
                                   + EXTRAS["test"] + EXTRAS["dev"]) if r.name != "cardwar"]
    assert not [str(r) for r in requirements if any(s.operator in ("==", "===")
                                                    for s in r.specifier)]
    dev = _pins("requirements-dev.lock")
    for r in requirements:
        pinned = dev[_norm(r.name)]
        assert r.specifier.contains(pinned), f"{r} but requirements-dev.lock has {pinned}"


def test_the_lowest_lock_pins_each_direct_dependency_at_its_lower_bound() -> None:
    """requirements-lowest.lock (``make locks``, uv's lowest-direct resolution) is
    what ``make test-lowest`` runs the web tests on: each runtime and test
    dependency at the lowest version pyproject.toml allows, so a lower bound
    that is not true fails there, and a stale lock fails here."""
    lowest = _pins("requirements-lowest.lock")
    floors = {}
    for r in map(Requirement, PROJECT["dependencies"] + EXTRAS["test"]):
        floors[r.name] = next((s.version for s in r.specifier if s.operator == ">="), None)
    assert None not in floors.values(), "a dependency without a lower bound"
    assert {name: lowest[_norm(name)] for name, floor in floors.items()
            if Version(lowest[_norm(name)]) != Version(floor)} == {}
