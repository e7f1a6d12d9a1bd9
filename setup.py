"""The one build step pyproject.toml cannot express: compiling the catalogs.

Every ``cardwar/locales/<locale>/LC_MESSAGES/<domain>.po`` is compiled into its
``.mo`` with Babel (a build requirement, see pyproject.toml), so every way of
installing gives the translated site:

* a wheel, ``pip install .`` and ``pip install <sdist>``: ``build_py`` writes
  the ``.mo`` files into the build tree, next to the copied ``.po`` files;
* ``pip install -e .``: ``build_py`` runs in editable mode and compiles in
  place, into the source tree (``*.mo`` is ignored by git);
* the sdist (the release tarball) carries them too, compiled into the
  release tree, so an unpacked tarball is a complete site as well.

Fuzzy entries are left out, as ``pybabel compile`` does by default.
``cardwar serve`` and ``cardwar check`` refuse catalogs that do not match
their ``.po`` (cardwar/catalogs.py).
"""

from __future__ import annotations

from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.command.sdist import sdist

PACKAGE = "cardwar"
CATALOGS = "locales/*/LC_MESSAGES/*.po"


def compile_catalogs(source: Path, target: Path) -> list[str]:
    """Compile every ``.po`` under package folder ``source`` into ``target``
    (the same relative path, ``.mo``); return the files written."""
    written = []
    for po in sorted(source.glob(CATALOGS)):
        with po.open("rb") as fh:
            catalog = read_po(fh, locale=po.parent.parent.name, domain=po.stem)
        mo = target / po.relative_to(source).with_suffix(".mo")
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as fh:
            write_mo(fh, catalog)
        written.append(str(mo))
    return written


class BuildPy(build_py):
    """``build_py`` that also compiles the catalogs (in place when editable)."""

    def run(self) -> None:
        super().run()
        source = Path(self.get_package_dir(PACKAGE))
        target = source if self.editable_mode else Path(self.build_lib, PACKAGE)
        self._catalogs = compile_catalogs(source, target)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:  # type: ignore[override]
        return [*super().get_outputs(include_bytecode), *getattr(self, "_catalogs", [])]


class Sdist(sdist):
    """``sdist`` whose tarball carries the compiled catalogs."""

    def make_release_tree(self, base_dir: str, files: list[str]) -> None:
        super().make_release_tree(base_dir, files)
        package = Path(base_dir, PACKAGE)
        compile_catalogs(package, package)


setup(cmdclass={"build_py": BuildPy, "sdist": Sdist})
