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
    used = {"requirements.lock", "requirements-dev.lock", "deploy/README.md",
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
    return {re.sub(r"[-_.]+", "-", n).lower(): v
            for n, v in re.findall(r"^([A-Za-z0-9_.-]+)==(\S+)", text, re.M)}


def _names(requirements: list[str]) -> set[str]:
    return {re.sub(r"[-_.]+", "-", re.split(r"[\[<>=!~ ;]", r, maxsplit=1)[0]).lower()
            for r in requirements}


def test_locks_split_what_the_site_needs_from_development() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    runtime, dev = _pins("requirements.lock"), _pins("requirements-dev.lock")
    needed, development = _names(project["dependencies"]), _names(
        project["optional-dependencies"]["dev"])
    assert needed <= set(runtime), "runtime dependencies missing from requirements.lock"
    assert not development & set(runtime), "development tools in requirements.lock"
    assert development <= set(dev) and set(runtime) <= set(dev)
    assert {name: dev[name] for name in runtime} == runtime, "the locks disagree"
