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
"""

from __future__ import annotations

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
