"""The app finds its templates, static files and migrations inside the package when it is
installed from a wheel, and beside the package in a checkout."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask import Flask

from companion import resources
from companion.data import database

ROOT = Path(__file__).resolve().parents[2]


def test_the_package_copy_of_a_folder_wins_over_the_checkout(tmp_path: Path) -> None:
    package = tmp_path / "site-packages" / "companion"
    (package / "templates").mkdir(parents=True)
    (tmp_path / "site-packages" / "templates").mkdir()
    assert resources.folder("templates", package) == package / "templates"


def test_in_a_checkout_the_top_level_folder_is_used(tmp_path: Path) -> None:
    package = tmp_path / "checkout" / "companion"
    package.mkdir(parents=True)
    (tmp_path / "checkout" / "migrations").mkdir()
    assert resources.folder("migrations", package) == tmp_path / "checkout" / "migrations"


def test_a_folder_in_neither_place_is_a_clear_error(tmp_path: Path) -> None:
    package = tmp_path / "companion"
    package.mkdir()
    with pytest.raises(resources.MissingFolder, match="'static' is neither in"):
        resources.folder("static", package)


def test_this_checkout_uses_its_top_level_folders(app: Flask) -> None:
    assert Path(app.template_folder or "") == ROOT / "templates"
    assert Path(app.static_folder or "") == ROOT / "static"
    assert database.MIGRATIONS == ROOT / "migrations"
    assert app.extensions["migrate"].directory == str(ROOT / "migrations")
