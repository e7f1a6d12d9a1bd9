"""Every way of installing cardwar gives the whole site, translated (issue 10, item 1).

The release tarball, installed as deploy/README.md says, is checked by
test_guide.py (every page kind in every locale, through nginx). Here, in a
virtualenv of Debian's Python with ``requirements.lock`` (the guide's first
version's, free once the guide has upgraded the site; else a new one), in
turn: the built wheel, then an editable install of a clean source tree (the
release unpacked without its compiled catalogs: the build must make them).
Each time ``cardwar serve``, started in a folder with no source tree in it,
answers every page kind in every locale, in that language, including a game
played to its end and its replay, and ``cardwar check`` passes.

That virtualenv is the runtime-only install (issue 25): no simulator (numba,
llvmlite, numpy, tqdm) and no development tool in it, under 120 MB of
packages (their files; pip's byte-compiling adds about 40 MB where it is on),
and ``cardwar simulate`` of a battle game says in one line how to get the
compiled core, while Beggar-my-neighbour's pure-Python simulation runs.
"""

from __future__ import annotations

import json
import socket
import subprocess
import tarfile
from pathlib import Path

import pytest

from cardwar.catalogs import DOMAINS, LOCALES

from .conftest import SPARE_VENVS, Release, pip, venv
from .visit import (
    check_every_page,
    create_game,
    finish_against_computer,
    replayed,
    serving,
)

pytestmark = pytest.mark.timeout(600)
#: The runtime-only install's packages at most (issue 25; README, "Quick start").
MAX_RUNTIME_MB = 120
#: What only the sim extra and the development tools bring.
NOT_RUNTIME = ("numba", "llvmlite", "numpy", "tqdm", "pytest", "hypothesis", "playwright",
               "mypy", "ruff", "httpx2", "PIL", "uv")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def source_tree(release: Release, folder: Path) -> Path:
    """The release unpacked, without the compiled catalogs it carries."""
    with tarfile.open(release.sdist) as tar:
        tar.extractall(folder, filter="data")
    tree = folder / f"cardwar-{release.version}"
    for mo in tree.glob("cardwar/locales/*/LC_MESSAGES/*.mo"):
        mo.unlink()
    return tree


def package_megabytes(bin_dir: Path) -> float:
    """The files of the virtualenv's site-packages, bytecode caches left out, in MiB."""
    site, = bin_dir.parent.glob("lib/python3*/site-packages")
    files = (f for f in site.rglob("*") if f.is_file() and "__pycache__" not in f.parts)
    return sum(f.lstat().st_size for f in files) / 2**20


def check_runtime_only(bin_dir: Path, site: Path) -> None:
    """The virtualenv has only what the site needs, and says how to simulate."""
    found = subprocess.run(
        [str(bin_dir / "python"), "-c", "import importlib.util, sys; print([m for m in "
         "sys.argv[1:] if importlib.util.find_spec(m)])", *NOT_RUNTIME],
        capture_output=True, text=True, timeout=60, check=True, cwd=site).stdout
    assert found.strip() == "[]"
    assert package_megabytes(bin_dir) < MAX_RUNTIME_MB
    cardwar = str(bin_dir / "cardwar")
    done = subprocess.run([cardwar, "simulate", "--variant", "war", "--games", "10"], cwd=site,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout) == (1, "")
    line, = done.stderr.splitlines()
    assert "needs the compiled core" in line
    assert "pip install 'cardwar[sim]'" in line
    done = subprocess.run([cardwar, "simulate", "--variant", "beggar", "--games", "20"],
                          cwd=site, capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(done.stdout)["games"] == 20
    assert done.stderr == ""


def test_wheel_and_editable_installs_serve_the_whole_site(
        tmp_path: Path, release: Release, wheelhouse: dict[str, str]) -> None:
    bin_dir = SPARE_VENVS.get("guide") or venv(tmp_path / "venv", wheelhouse)
    cardwar = bin_dir / "cardwar"
    tree = source_tree(release, tmp_path / "src")
    for way, args in {"wheel": [str(release.wheel)], "editable": ["-e", str(tree)]}.items():
        pip(bin_dir, wheelhouse, "--no-deps", "--force-reinstall", *args)
        site = tmp_path / way
        site.mkdir()
        if way == "editable":  # compiled in place by the build
            assert len(list(tree.glob("cardwar/locales/*/LC_MESSAGES/*.mo"))) == (
                len(LOCALES) * len(DOMAINS))
        if way == "wheel":
            check_runtime_only(bin_dir, site)
        with serving(cardwar, site, free_port()) as base:
            finished, over = finish_against_computer(base)
            replay = replayed(cardwar, over["seed"])
            assert (over["battles"], over["winner"]) == (replay["battles"], replay["winner"])
            lobby, _ = create_game(base)
            assert check_every_page(base, lobby, finished) == 8 * len(LOCALES), way
            done = subprocess.run([str(cardwar), "check", "--database",
                                   f"sqlite:///{site}/cardwar.db"], cwd=site,
                                  capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, f"{way}: {done.stdout}{done.stderr}"
