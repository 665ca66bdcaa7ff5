"""The checkout (``manage.py setup``) and the wheel build (``setup.py``) compile the message
catalogs with one implementation, so they accept and refuse the same catalogs."""

from __future__ import annotations

import gettext
import importlib
from pathlib import Path

import pytest

import manage

CATALOG = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "Round"
msgstr "Runde"
"""


def write_catalog(folder: Path, text: str) -> Path:
    po_file = folder / "de" / "LC_MESSAGES" / "messages.po"
    po_file.parent.mkdir(parents=True)
    po_file.write_text(text, encoding="utf-8")
    return po_file


def test_importing_setup_compiles_nothing_and_builds_nothing() -> None:
    build_script = importlib.import_module("setup")
    assert callable(build_script.compile_catalogs)


def test_manage_compiles_a_catalog_beside_its_po(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    po_file = write_catalog(tmp_path, CATALOG)
    monkeypatch.setattr(manage, "TRANSLATIONS", tmp_path)
    manage.compile_translations()
    with po_file.with_suffix(".mo").open("rb") as compiled:
        assert gettext.GNUTranslations(compiled).gettext("Round") == "Runde"


def test_manage_refuses_a_fuzzy_catalog_as_the_wheel_build_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_catalog(tmp_path, "#, fuzzy\n" + CATALOG)
    monkeypatch.setattr(manage, "TRANSLATIONS", tmp_path)
    with pytest.raises(manage.StepFailed, match="compile translations"):
        manage.compile_translations()
