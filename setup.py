"""The build step that makes an installed app the same app as the checkout.

The templates, static files and migrations sit at the top of the checkout, beside the
package; a wheel carries them inside it (``companion/templates`` and so on), where
``companion.resources`` looks first. The message catalogs are compiled from the .po files
into the build, since compiled catalogs are never committed. Everything else about the
project is in pyproject.toml.

``compile_catalogs`` is the one way catalogs are compiled: ``manage.py setup`` calls it on
the checkout (through the virtualenv's Python, since babel is not there before setup), so
a checkout and a wheel carry .mo files made by the same code. That is why ``setup()`` runs
only as a script (setuptools runs this file as ``__main__``): importing it must not build.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from setuptools import setup
from setuptools.command.build_py import build_py

PACKAGE = "companion"
BUNDLED_FOLDERS = ("templates", "static", "migrations")
TRANSLATIONS = Path(PACKAGE) / "translations"
LEFT_OUT = shutil.ignore_patterns("__pycache__", "*.py[cod]")


class CatalogError(Exception):
    """A catalog that cannot be compiled as it stands; the message says which and why."""


def bundle_folder(source: Path, target: Path) -> None:
    """Copy ``source`` to ``target``, replacing whatever an earlier build left there (so a
    file deleted from the checkout never lingers in the wheel)."""
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(source, target, ignore=LEFT_OUT)


def compile_catalog(po_file: Path, mo_file: Path) -> None:
    """Compile one catalog as ``pybabel compile`` does, fuzzy entries left out; refuse a
    catalog marked fuzzy as a whole, or with broken entries, rather than ship it."""
    with po_file.open("rb") as source:
        catalog = read_po(source, locale=po_file.parent.parent.name)
    if catalog.fuzzy:
        raise CatalogError(f"{po_file} is marked fuzzy as a whole: review it before building")
    problems = [f"{message.id!r}: {errors}" for message, errors in catalog.check()]
    if problems:
        raise CatalogError(f"{po_file} has broken entries: " + "; ".join(problems))
    mo_file.parent.mkdir(parents=True, exist_ok=True)
    with mo_file.open("wb") as target:
        write_mo(target, catalog, use_fuzzy=False)


def compile_catalogs(source: Path, target: Path) -> list[Path]:
    """Compile every ``<language>/LC_MESSAGES/<domain>.po`` under ``source`` into the same
    place under ``target``; return the .mo files written."""
    written = []
    for po_file in sorted(source.glob("*/LC_MESSAGES/*.po")):
        mo_file = target / po_file.relative_to(source).with_suffix(".mo")
        compile_catalog(po_file, mo_file)
        written.append(mo_file)
    return written


class BuildWithBundle(build_py):
    """``build_py``, then the top-level folders and the compiled catalogs into the package."""

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return  # an editable install reads the checkout, which has all of it
        package = Path(self.build_lib) / PACKAGE
        for folder in BUNDLED_FOLDERS:
            bundle_folder(Path(folder), package / folder)
        compile_catalogs(TRANSLATIONS, package / "translations")


if __name__ == "__main__":
    setup(cmdclass={"build_py": BuildWithBundle})
