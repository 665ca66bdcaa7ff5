"""The app factory, the page layout and the home page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask, request
from flask.testing import FlaskClient

from companion import create_app
from scripts.page_reader import addresses, read_page
from tests.assets.helpers import static_url

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.no_database_queries
def test_create_app_is_in_testing_mode_only_when_asked(app: Flask, tmp_path: Path) -> None:
    assert app.testing
    assert not create_app(instance_path=str(tmp_path / "plain")).testing


def test_create_app_makes_the_instance_folder(tmp_path: Path) -> None:
    instance = tmp_path / "nested" / "instance"
    app = create_app({"SECRET_KEY": "test"}, instance_path=str(instance))
    assert app.instance_path == str(instance)
    assert instance.is_dir()


@pytest.mark.no_database_queries
def test_templates_and_static_files_come_from_the_top_level_folders(app: Flask) -> None:
    templates = Path(app.root_path, app.template_folder or "").resolve()
    assert templates == ROOT / "templates"
    assert Path(app.static_folder or "").resolve() == ROOT / "static"


@pytest.mark.no_database_queries
def test_main_and_api_blueprints_are_registered(app: Flask) -> None:
    assert {"main", "api", "i18n"} <= set(app.blueprints)
    assert app.blueprints["api"].url_prefix == "/api/v1"


@pytest.mark.no_database_queries
def test_home_page_welcomes_and_explains_the_app(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert "<h1>Welcome to the Sticheln companion</h1>" in page
    assert "keeps the score for everyone" in page
    assert '<h2 id="home-table">At your table</h2>' in page
    assert "JSON API: <code>/api/v1</code>" in page  # in the footer


@pytest.mark.no_database_queries
def test_layout_is_built_for_phones(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert '<a class="brand" href="/">Sticheln companion</a>' in page
    assert '<main id="content">' in page
    assert f'<link rel="stylesheet" href="{static_url("style.css")}">' in page


@pytest.mark.no_database_queries
def test_footer_switches_to_each_language_by_its_own_name(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    links = [
        (link.get("href"), link.get("lang"), "".join(link.strings))
        for link in read_page(page).find_all("a", lang=True)
        if str(link.get("href")).startswith("/lang/")
    ]
    assert links == [
        ("/lang/en?next=/", "en", "English"),
        ("/lang/de?next=/", "de", "Deutsch"),
        ("/lang/it?next=/", "it", "Italiano"),
        ("/lang/fr?next=/", "fr", "Français"),
        ("/lang/hu?next=/", "hu", "Magyar"),
    ]


@pytest.mark.no_database_queries
def test_language_links_come_back_to_the_current_page_with_its_query(
    client: FlaskClient,
) -> None:
    page = client.get("/?page=2").get_data(as_text=True)
    assert 'href="/lang/de?next=/?page%3D2"' in page


@pytest.mark.no_database_queries
def test_pages_make_no_request_to_another_site(client: FlaskClient) -> None:
    page = client.get("/").get_data(as_text=True)
    assert not [a for a in addresses(page) if a.startswith(("//", "http://", "https://"))]
    for path in [*ROOT.glob("templates/**/*.html"), *ROOT.glob("static/**/*.css")]:
        assert not re.search(r"https?://|url\(\s*['\"]?//", path.read_text()), path


@pytest.mark.no_database_queries
def test_stylesheet_is_served_with_dark_mode_and_touch_sized_targets(
    client: FlaskClient,
) -> None:
    response = client.get("/static/style.css")
    css = response.get_data(as_text=True)
    response.close()
    assert response.mimetype == "text/css"
    # served minified (companion.web.minify): no blank is promised after a colon
    assert re.search(r"@media screen and \(prefers-color-scheme: ?dark\)", css)
    assert re.search(r"--touch: ?44px[;}]", css)
    assert "@import" not in css and "@font-face" not in css


def add_echo_route(app: Flask) -> FlaskClient:
    """Give ``app`` a POST route that echoes its form, and return a client for it."""
    app.add_url_rule("/echo", "echo", lambda: dict(request.form), methods=["POST"])
    return app.test_client()


@pytest.mark.no_database_queries
def test_request_bodies_are_limited_to_64_kib(app: Flask) -> None:
    app.config["WTF_CSRF_ENABLED"] = False
    client = add_echo_route(app)
    assert client.post("/echo", data={"name": "x" * 60_000}).json == {"name": "x" * 60_000}
    too_large = client.post("/echo", data={"name": "x" * (64 * 1024)})
    assert too_large.status_code == 413
    assert "What was sent is too large; nothing was saved." in too_large.get_data(as_text=True)


@pytest.mark.no_database_queries
def test_csrf_protection_refuses_a_form_post_without_token(app: Flask) -> None:
    client = add_echo_route(app)
    refused = client.post("/echo", data={"name": "Ann"})
    assert refused.status_code == 400
    assert "This form has expired or did not come from this page" in refused.get_data(as_text=True)


@pytest.mark.no_database_queries
def test_an_unknown_page_answers_the_error_page_in_the_players_language(
    client: FlaskClient,
) -> None:
    missing = client.get("/no-such-page", headers={"Accept-Language": "de"})
    assert missing.status_code == 404
    page = missing.get_data(as_text=True)
    assert '<html lang="de">' in page
    assert 'name="viewport"' in page
    assert "Seite nicht gefunden" in page


@pytest.mark.no_database_queries
def test_a_wrong_method_on_a_page_answers_the_error_page(client: FlaskClient) -> None:
    refused = client.post("/")
    assert refused.status_code == 405
    assert "This page cannot be used that way; nothing was saved." in refused.get_data(as_text=True)
