"""Sticheln companion: a score keeper and rules companion for the card game Sticheln."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask

from companion import cli, resources
from companion.config import configure
from companion.data import database
from companion.web import (
    assets,
    circle_rights,
    compression,
    errors,
    game_codes,
    i18n,
    rate_limits,
    request_logs,
    security,
)
from companion.web.security import csrf


def create_app(
    test_config: Mapping[str, Any] | None = None, instance_path: str | None = None
) -> Flask:
    """Create and configure the app.

    ``test_config`` overrides every other setting; ``instance_path`` (absolute) replaces the
    ``instance/`` folder beside the package, so tests never touch the real one.
    """
    app = Flask(
        __name__,
        instance_path=instance_path,
        instance_relative_config=True,
        template_folder=resources.folder("templates"),
        static_folder=resources.folder("static"),
    )
    os.makedirs(app.instance_path, exist_ok=True)
    configure(app, test_config)

    request_logs.init_app(app)
    csrf.init_app(app)
    i18n.init_app(app)
    database.init_app(app)
    cli.init_app(app)
    security.init_app(app)
    assets.init_app(app)
    compression.init_app(app)
    errors.init_app(app)
    rate_limits.init_app(app)
    game_codes.init_app(app)
    circle_rights.init_app(app)

    from companion.web.api import bp as api_bp
    from companion.web.circles import bp as circles_bp
    from companion.web.games import bp as games_bp
    from companion.web.history import bp as history_bp
    from companion.web.main import bp as main_bp
    from companion.web.offline import bp as offline_bp
    from companion.web.pwa import bp as pwa_bp
    from companion.web.rulebook import bp as rulebook_bp
    from companion.web.tools import bp as tools_bp

    app.register_blueprint(main_bp)
    app.register_blueprint(i18n.bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(games_bp)
    app.register_blueprint(history_bp)
    app.register_blueprint(circles_bp)
    app.register_blueprint(tools_bp)
    app.register_blueprint(pwa_bp)
    app.register_blueprint(rulebook_bp)
    app.register_blueprint(offline_bp)
    csrf.exempt(api_bp)  # bearer keys; the session's keys only from our own pages (api.rights)
    return app
