"""One error path: the refusals' one base class, and ``companion.web.errors`` answering
them as JSON on the API and as pages elsewhere, by blueprint."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
import sqlalchemy as sa
from flask import Blueprint, Flask
from flask.testing import FlaskClient

from companion import services
from companion.data.models import Game, db
from companion.formats.backup.plans import BackupError
from companion.pages.record import Problems
from companion.play_state.parse import ApiError
from companion.read_models.messages import page_reader
from companion.rules import Card, Colour, Message, PlainText, Refusal, RuleError, variant_named
from companion.rules.errors import PlayerCountError, UnknownColourError, UnknownVariantError
from companion.rules.text import N_
from companion.web.errors import PageArea, refusals, register_api_errors, register_page_errors
from companion.web.scoreboard_page import game_template_helpers

NAMES = ["Ann", "Ben", "Cleo"]

# --------------------------------------------------------------------------------------------
# One base class


def test_rules_services_and_api_refusals_share_one_base_class() -> None:
    refusals_ = [
        RuleError(Message(N_("A game has 1 to 10 rounds, not %(rounds)s."), {"rounds": 12})),
        services.ServiceError(N_("Every player needs a name.")),
        services.StaleVersion(3),
        ApiError("The request body is empty; send a JSON object."),
        BackupError("The file is empty."),
    ]
    for refusal in refusals_:
        assert isinstance(refusal, Refusal)
        assert isinstance(refusal.message, Message)


def test_the_message_is_one_attribute_and_its_english_is_the_errors_text() -> None:
    rule = RuleError(Message(N_("A game has 1 to 10 rounds, not %(rounds)s."), {"rounds": 12}))
    service = services.ServiceError(N_("%(name)s is entered twice."), name="Ann")
    assert str(rule) == rule.message.render() == "A game has 1 to 10 rounds, not 12."
    assert str(service) == service.message.render() == "Ann is entered twice."
    assert service.message.params == {"name": "Ann"}
    backup = BackupError("Game 2, round 1: Ann is entered twice.")
    assert str(backup) == backup.message.render("de") == "Game 2, round 1: Ann is entered twice."


def test_a_refusal_carries_the_field_and_the_seat_it_concerns() -> None:
    card = Card(Colour.RED, 7)
    rule = RuleError(Message(N_("Not this card.")), seat=2, card=card, field="captured")
    service = services.ServiceError(N_("Every player needs a name."), field="players", seat=1)
    assert (rule.field, rule.seat, rule.card) == ("captured", 2, card)
    assert (service.field, service.seat) == ("players", 1)
    assert service.message.params == {}  # field and seat are not parameters of the sentence


def test_a_refusal_about_no_field_or_seat_says_so() -> None:
    refusal = ApiError("The request body must be a JSON object.")
    assert refusal.field is None
    assert refusal.seat is None


def test_a_kind_of_refusal_about_one_field_names_it_by_itself() -> None:
    assert PlayerCountError(Message(N_("Too many players."))).field == "players"
    assert UnknownVariantError(Message(N_("No such variant."))).field == "variant"
    assert PlayerCountError(Message(N_("Too many.")), field="first_leader").field == "first_leader"


def test_the_apis_own_english_is_said_as_written() -> None:
    refusal = ApiError("seats[0].tricks must be a whole number, not 50% of one.", 422)
    assert isinstance(refusal.message, PlainText)
    assert refusal.message.render(translate=str.upper) == (
        "seats[0].tricks must be a whole number, not 50% of one."
    )
    assert str(refusal) == "seats[0].tricks must be a whole number, not 50% of one."
    assert refusal.status == 422


# --------------------------------------------------------------------------------------------
# Catching a refusal where a page shows it


def game_count() -> int:
    return db.session.scalar(sa.select(sa.func.count()).select_from(Game)) or 0


def test_a_refusal_caught_by_a_page_keeps_its_field_and_seat_and_saves_nothing(
    app: Flask,
) -> None:
    with app.app_context():
        with refusals() as refused:
            services.create_game(NAMES, variant_named("classic"), 5, 0)
            db.session.flush()
            raise services.ServiceError(N_("Every player needs a name."), field="players", seat=2)
        assert refused.failed
        assert refused.refusal is not None
        assert (refused.refusal.field, refused.refusal.seat) == ("players", 2)
        assert not refused.stale
        assert game_count() == 0


@pytest.mark.no_database_queries
def test_a_stale_version_caught_by_a_page_says_the_version_now(app: Flask) -> None:
    with app.app_context():
        with refusals() as refused:
            raise services.StaleVersion(7)
        assert refused.stale
        assert refused.current == 7
        assert refused.refusal is None


def test_a_change_that_goes_through_is_no_refusal(app: Flask) -> None:
    with app.app_context():
        with refusals() as refused:
            services.create_game(NAMES, variant_named("classic"), 5, 0)
            db.session.commit()
        assert not refused.failed
        assert game_count() == 1


@pytest.mark.no_database_queries
def test_anything_else_than_a_refusal_is_not_caught(app: Flask) -> None:
    with app.app_context(), pytest.raises(KeyError), refusals():
        raise KeyError("not a refusal")


@pytest.mark.no_database_queries
def test_a_refusal_about_a_seat_is_shown_beside_that_seat(app: Flask) -> None:
    problems = Problems()
    with app.test_request_context():
        reader = page_reader()
        problems.add(
            services.ServiceError(N_("%(player)s has no name."), seat=1, player=1), NAMES, reader
        )
        problems.add(ApiError("Something at the table."), NAMES, reader)
    assert problems.by_seat == {1: ["Ben has no name."]}
    assert problems.top == ["Something at the table."]


# --------------------------------------------------------------------------------------------
# JSON on the API, pages elsewhere, by blueprint


@pytest.fixture
def raising(app: Flask) -> Iterator[dict[str, Exception]]:
    """Two views that raise what the test puts in the dict: one under the API's prefix, one in
    a page area of its own (with its way back and conflict pages)."""
    raised: dict[str, Exception] = {}

    def raise_it(**_values: object) -> str:
        raise raised["error"]

    trial = Blueprint("trial", __name__)
    trial.context_processor(game_template_helpers)  # the scoreboard's helpers, as games has
    trial.add_url_rule("/trial/<code>", "page", raise_it)
    area = PageArea(ways_back=lambda _status: [("/trial", "Trial")], about_games=True)
    register_page_errors(trial, area)
    app.register_blueprint(trial)
    api_trial = Blueprint("api_trial", __name__, url_prefix="/api/v1/trial")
    api_trial.add_url_rule("", "answer", raise_it)
    register_api_errors(api_trial)
    app.register_blueprint(api_trial)
    app.add_url_rule("/plain/<code>", "plain", raise_it)
    yield raised


@pytest.mark.parametrize(
    ("error", "status", "answer"),
    [
        (ApiError("The request body is empty."), 400, {"error": "The request body is empty."}),
        (
            ApiError("The game changed.", 409, {"version": 4}),
            409,
            {"error": "The game changed.", "version": 4},
        ),
        (
            RuleError(Message(N_("A game has 1 to 10 rounds, not %(rounds)s."), {"rounds": 0})),
            422,
            {"error": "A game has 1 to 10 rounds, not 0."},
        ),
        (
            UnknownColourError("pink"),
            400,
            {"error": str(UnknownColourError("pink"))},
        ),
        (
            services.NotFound(N_("There is no game with this id.")),
            404,
            {"error": "There is no game with this id."},
        ),
        (
            services.StaleVersion(5),
            409,
            {"error": str(services.StaleVersion(5)), "version": 5},
        ),
    ],
)
@pytest.mark.no_database_queries
def test_a_refusal_on_the_api_is_json_with_its_status(
    client: FlaskClient,
    raising: dict[str, Exception],
    error: Exception,
    status: int,
    answer: dict[str, object],
) -> None:
    raising["error"] = error
    response = client.get("/api/v1/trial")
    assert response.status_code == status
    assert response.get_json() == answer


@pytest.mark.no_database_queries
def test_a_missing_game_in_a_page_area_is_its_error_page(
    client: FlaskClient, raising: dict[str, Exception]
) -> None:
    raising["error"] = services.NotFound(N_("There is no game with this id."))
    response = client.get("/trial/nothing", headers={"Accept-Language": "de"})
    page = response.get_data(as_text=True)
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    assert 'href="/trial"' in page  # the area's way back
    assert "There is no game at this address" not in page  # in the player's language


def test_a_stale_version_in_a_page_area_shows_the_game_as_it_is_now(
    app: Flask, client: FlaskClient, raising: dict[str, Exception]
) -> None:
    with app.app_context():
        game, _key = services.create_game(NAMES, variant_named("classic"), 5, 0)
        db.session.commit()
        code = game.code
    raising["error"] = services.StaleVersion(1)
    response = client.get(f"/trial/{code}")
    assert response.status_code == 409
    assert response.mimetype == "text/html"
    assert "Cleo" in response.get_data(as_text=True)


@pytest.mark.no_database_queries
def test_a_refusal_no_page_takes_stays_a_server_error(
    client: FlaskClient, raising: dict[str, Exception]
) -> None:
    raising["error"] = RuleError(Message(N_("Not this card.")))
    with pytest.raises(RuleError):
        client.get("/trial/abc")
    raising["error"] = services.StaleVersion(2)
    with pytest.raises(services.StaleVersion):
        client.get("/plain/abc")  # no page area: no conflict page of its own


@pytest.mark.no_database_queries
def test_an_unknown_address_is_json_on_the_api_and_a_page_elsewhere(client: FlaskClient) -> None:
    api = client.get("/api/v1/nowhere")
    page = client.get("/nowhere")
    assert (api.status_code, api.get_json()) == (
        404,
        {"error": "There is no such API endpoint or resource."},
    )
    assert page.status_code == 404
    assert page.mimetype == "text/html"
    assert "There is no such page." in page.get_data(as_text=True)
