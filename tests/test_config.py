"""Configuration layers, the generated secret key and the database URL."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from companion import create_app
from companion.config import environment_config, normalize_database_url

INSTANCE_CONFIG = """
SECRET_KEY = "from-file"
SQLALCHEMY_DATABASE_URI = "sqlite:////tmp/from-file.sqlite3"
GREETING = "from-file"
"""


@pytest.fixture
def instance_with_config(instance_path: Path) -> Path:
    """An instance folder holding a config.py that sets three values."""
    instance_path.mkdir()
    (instance_path / "config.py").write_text(INSTANCE_CONFIG)
    return instance_path


def test_defaults_put_sqlite_in_the_instance_folder(instance_path: Path) -> None:
    app = create_app(instance_path=str(instance_path))
    assert app.config["SQLALCHEMY_DATABASE_URI"] == (
        f"sqlite:///{instance_path / 'companion.sqlite3'}"
    )
    assert app.config["MAX_CONTENT_LENGTH"] == 64 * 1024
    assert app.config["LANGUAGES"] == ["en", "de", "it", "fr", "hu"]


def test_instance_config_file_overrides_defaults(instance_with_config: Path) -> None:
    app = create_app(instance_path=str(instance_with_config))
    assert app.config["SECRET_KEY"] == "from-file"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:////tmp/from-file.sqlite3"
    assert app.config["GREETING"] == "from-file"


def test_environment_overrides_instance_config_file(
    instance_with_config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET_KEY", "from-env")
    monkeypatch.setenv("DATABASE_URL", "postgresql+psycopg://ann@db/sticheln")
    app = create_app(instance_path=str(instance_with_config))
    assert app.config["SECRET_KEY"] == "from-env"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://ann@db/sticheln"
    assert app.config["GREETING"] == "from-file"


def test_test_config_overrides_environment_and_file(
    instance_with_config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET_KEY", "from-env")
    monkeypatch.setenv("DATABASE_URL", "postgresql://ann@db/sticheln")
    app = create_app(
        {"SECRET_KEY": "from-test", "SQLALCHEMY_DATABASE_URI": "sqlite://"},
        instance_path=str(instance_with_config),
    )
    assert app.config["SECRET_KEY"] == "from-test"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite://"
    assert app.config["GREETING"] == "from-file"


def test_empty_environment_variables_are_ignored(
    instance_with_config: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET_KEY", "")
    monkeypatch.setenv("DATABASE_URL", "")
    app = create_app(instance_path=str(instance_with_config))
    assert app.config["SECRET_KEY"] == "from-file"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite:////tmp/from-file.sqlite3"


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgres://ann:pw@db:5432/sticheln", "postgresql+psycopg://ann:pw@db:5432/sticheln"),
        ("postgresql://ann:pw@db/sticheln", "postgresql+psycopg://ann:pw@db/sticheln"),
        ("postgresql+psycopg://ann:pw@db/sticheln", "postgresql+psycopg://ann:pw@db/sticheln"),
        ("sqlite:////srv/sticheln.sqlite3", "sqlite:////srv/sticheln.sqlite3"),
    ],
)
def test_database_url_uses_the_psycopg_3_driver_for_postgresql(given: str, expected: str) -> None:
    assert normalize_database_url(given) == expected
    assert environment_config({"DATABASE_URL": given}) == {"SQLALCHEMY_DATABASE_URI": expected}


def test_database_url_from_environment_reaches_the_app(
    instance_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres://ann@db/sticheln")
    app = create_app(instance_path=str(instance_path))
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://ann@db/sticheln"


def test_secret_key_is_generated_once_then_reused(instance_path: Path) -> None:
    first = create_app(instance_path=str(instance_path)).config["SECRET_KEY"]
    key_file = instance_path / "secret_key"
    assert len(first) == 64
    int(first, 16)
    assert key_file.read_text().strip() == first
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert create_app(instance_path=str(instance_path)).config["SECRET_KEY"] == first
    assert [path.name for path in instance_path.iterdir()] == ["secret_key"]


def test_secret_key_differs_between_installations(tmp_path: Path) -> None:
    keys = {
        create_app(instance_path=str(tmp_path / name)).config["SECRET_KEY"]
        for name in ("one", "two", "three")
    }
    assert len(keys) == 3


def test_no_secret_key_file_when_a_key_is_configured(
    instance_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SECRET_KEY", "from-env")
    create_app(instance_path=str(instance_path))
    create_app({"SECRET_KEY": "from-test"}, instance_path=str(instance_path))
    assert not (instance_path / "secret_key").exists()


def test_an_empty_secret_key_file_is_refused(instance_path: Path) -> None:
    instance_path.mkdir()
    (instance_path / "secret_key").write_text("\n")
    with pytest.raises(RuntimeError, match="secret_key is empty"):
        create_app(instance_path=str(instance_path))


@pytest.mark.parametrize(
    ("given", "expected"),
    [(" 5 per minute ", "5 per minute"), ("", "")],  # empty: no limit
)
def test_the_limit_of_game_starts_comes_from_the_environment(given: str, expected: str) -> None:
    assert environment_config({"GAME_STARTS_LIMIT": given}) == {"GAME_STARTS_LIMIT": expected}
