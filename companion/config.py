"""Configuration: defaults, then instance/config.py, then the environment, then a test's dict."""

from __future__ import annotations

import os
import secrets
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from flask import Flask

LANGUAGES = ["en", "de", "it", "fr", "hu"]
"""Locale codes the interface is translated into, English first as the fallback."""

SESSION_COOKIE_NAME = "sticheln_session"
"""The session cookie's name: the app's own, as another app on the host may call its cookie
``session``. Phones keep it for months, so it stays as it is (docs/operators/security.md)."""

SECRET_KEY_FILE = "secret_key"
DATABASE_FILE = "companion.sqlite3"
POSTGRES_DRIVER_PREFIX = "postgresql+psycopg://"
#: What an environment variable says to switch a setting on.
TRUE_WORDS = frozenset({"1", "true", "yes", "on"})


def default_config(instance_path: str) -> dict[str, Any]:
    """Return the built-in defaults; the SQLite database lives in the instance folder."""
    return {
        "SQLALCHEMY_DATABASE_URI": "sqlite:///" + os.path.join(instance_path, DATABASE_FILE),
        "MAX_CONTENT_LENGTH": 64 * 1024,
        # How long the API answers a request sent again with the same Idempotency-Key as it
        # answered the first one (docs/api.md); older answers are purged.
        "IDEMPOTENCY_KEY_DAYS": 30,
        "SESSION_COOKIE_NAME": SESSION_COOKIE_NAME,
        "SESSION_COOKIE_SAMESITE": "Lax",
        # The session (edit keys, an unfinished live trick) is written only when it changes:
        # refreshing it on every response let a late reply, such as a static file fetched
        # by the service worker, put back an older cookie over a newer one.
        "SESSION_REFRESH_EACH_REQUEST": False,
        "PERMANENT_SESSION_LIFETIME": 400 * 24 * 60 * 60,
        "SESSION_COOKIE_HTTPONLY": True,
        # Flask-WTF's HTTPS check demands a Referer, which the pages that show an edit key
        # never send: companion.web.security checks Sec-Fetch-Site and Origin instead.
        "WTF_CSRF_SSL_STRICT": False,
        # Behind PROXY_COUNT proxies: the client's address and scheme are read from
        # X-Forwarded-For and X-Forwarded-Proto; X-Forwarded-Host only when this is true;
        # X-Forwarded-Prefix never (URL_PREFIX is where the app is mounted, if not at /).
        "PROXY_COUNT": 0,
        "PROXY_TRUST_HOST": False,
        "URL_PREFIX": "",
        # Each table's games, players and history are its circle's, shown only to its
        # phones; a club server is one circle open to every phone.
        "CLUB_SERVER": False,
        "LANGUAGES": list(LANGUAGES),
        "BABEL_DEFAULT_LOCALE": "en",
        "BABEL_TRANSLATION_DIRECTORIES": "translations",
    }


def normalize_database_url(url: str) -> str:
    """Make a PostgreSQL URL use the psycopg 3 driver; leave every other URL as it is.

    Hosting platforms hand out ``postgres://`` or ``postgresql://`` URLs, which SQLAlchemy
    would map to psycopg2 (or refuse); the app ships psycopg 3.
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return POSTGRES_DRIVER_PREFIX + url[len(prefix) :]
    return url


def environment_config(environ: Mapping[str, str]) -> dict[str, Any]:
    """Return the settings given by ``SECRET_KEY``, ``DATABASE_URL``, ``PROXY_COUNT``,
    ``PROXY_TRUST_HOST``, ``URL_PREFIX``, ``GAME_STARTS_LIMIT`` and ``CLUB_SERVER``."""
    config: dict[str, Any] = {}
    if environ.get("SECRET_KEY"):
        config["SECRET_KEY"] = environ["SECRET_KEY"]
    if environ.get("DATABASE_URL"):
        config["SQLALCHEMY_DATABASE_URI"] = normalize_database_url(environ["DATABASE_URL"])
    if environ.get("PROXY_COUNT", "").isdigit():
        config["PROXY_COUNT"] = int(environ["PROXY_COUNT"])
    if "PROXY_TRUST_HOST" in environ:
        config["PROXY_TRUST_HOST"] = environ["PROXY_TRUST_HOST"].strip().lower() in TRUE_WORDS
    if "CLUB_SERVER" in environ:
        config["CLUB_SERVER"] = environ["CLUB_SERVER"].strip().lower() in TRUE_WORDS
    if environ.get("URL_PREFIX"):
        config["URL_PREFIX"] = environ["URL_PREFIX"]
    if "GAME_STARTS_LIMIT" in environ:  # empty: no limit (companion/web/rate_limits.py)
        config["GAME_STARTS_LIMIT"] = environ["GAME_STARTS_LIMIT"].strip()
    return config


def load_or_create_secret_key(instance_path: str) -> str:
    """Read the key in ``instance/secret_key``, creating a random one (mode 0600) if absent.

    The new key is written to a private temporary file and hard-linked into place, so
    several workers starting at once all end up with the one key that won the race.
    """
    path = Path(instance_path) / SECRET_KEY_FILE
    if not path.exists():
        fd, temporary = tempfile.mkstemp(dir=instance_path, prefix=".secret_key.")
        try:
            with os.fdopen(fd, "w") as file:
                file.write(secrets.token_hex(32) + "\n")
            os.link(temporary, path)
        except FileExistsError:
            pass
        finally:
            os.unlink(temporary)
    key = path.read_text().strip()
    if not key:
        raise RuntimeError(f"{path} is empty: delete it to have a new secret key generated.")
    return key


def configure(app: Flask, test_config: Mapping[str, Any] | None = None) -> None:
    """Apply the configuration layers to ``app`` in order, each overriding the one before."""
    app.config.from_mapping(default_config(app.instance_path))
    app.config.from_pyfile("config.py", silent=True)
    app.config.from_mapping(environment_config(os.environ))
    if test_config is not None:
        app.config.from_mapping(test_config)
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = load_or_create_secret_key(app.instance_path)
