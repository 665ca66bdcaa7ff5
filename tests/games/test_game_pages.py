"""The whole-game pages: new game, scoreboard, read-only view, edit link, abandon, delete.

Each test drives the pages as a phone would (CSRF tokens taken from the form HTML), and
checks what the page says and what the database holds, not only the status code. Games are
made as phones make them (the ``table`` fixture), or through the new-game page where that
page is what is tested; rounds are recorded through ``companion.services``, as the round
pages would.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion import services
from companion.data.models import Game, Player, Round, RoundResult, Seat, db, utcnow
from companion.pages.scoreboard import short_names
from companion.read_models.messages import colour_name, render_message, signed_number
from companion.rules import Card, Colour, Message, QuickEntry, RuleError, variant_named
from companion.rules.errors import PlayerCountError
from companion.rules.text import N_
from companion.services.games import get_game
from companion.services.rounds import mark_colours, record_round
from companion.web.edit_rights import SESSION_KEYS
from scripts.page_reader import Element, csrf_token, read_page, words_of_main
from tests.assets.helpers import static_url
from tests.table import Table

MINUS = "\u2212"
NAMES = ["Ann", "Ben", "Cleo", "Dan"]
CONFLICT = "This game changed on another phone."

# --------------------------------------------------------------------------------------------
# Helpers: a browser's way of filling forms, and a look into the database


def form_value(page: str, name: str) -> str:
    """The value of the hidden or text input called ``name``."""
    value = read_page(page).find("input", name=name).get("value")
    assert value is not None, f"input {name} has no value"
    return value


def text_of(page: str) -> str:
    """The visible words of a page's <main> (every tag a word break, entities decoded)."""
    return words_of_main(page)


def errors_by_field(page: str) -> dict[str, list[str]]:
    """The error messages shown next to each field, keyed by the error list's id."""
    lists = read_page(page).find_all("ul", class_="field-errors")
    return {str(found.get("id")): [item.text for item in found.find_all("li")] for found in lists}


def heading(cell: Element) -> str | tuple[str | None, str]:
    """A column heading: its text, or (full name, short name) when it is shortened; a
    shortened one holds nothing but an ``<abbr>`` whose only attribute is its title."""
    if not cell.children:
        return cell.text
    (abbr,) = cell.children
    assert abbr.tag == "abbr" and list(abbr.attrs) == ["title"], abbr
    assert not cell.own_text, cell
    return abbr.get("title"), abbr.text


def game_form(names: list[str], **fields: Any) -> dict[str, Any]:
    """The new-game form as a browser sends it: every name field, the variant and the rest."""
    data = {f"player_{row}": "" for row in range(8)}
    data.update({f"player_{row}": name for row, name in enumerate(names)})
    data.update(
        variant="classic",
        scoring="classic",
        colours="1",
        reveal="open",
        rounds="5",
        first_leader="0",
    )
    data.update({key: str(value) for key, value in fields.items()})
    return data


def post_new_game(client: FlaskClient, names: list[str], **fields: Any) -> TestResponse:
    """Open the new-game page and send it filled in."""
    page = client.get("/games/new").get_data(as_text=True)
    return client.post(
        "/games/new", data={"csrf_token": csrf_token(page), **game_form(names, **fields)}
    )


def create_through_form(client: FlaskClient, names: list[str] = NAMES, **fields: Any) -> str:
    """Start a game through the new-game page; answers its code."""
    response = post_new_game(client, names, **fields)
    assert response.status_code == 302, errors_by_field(response.get_data(as_text=True))
    match = re.fullmatch(r"/g/([a-z0-9]+)", response.headers["Location"])
    assert match, response.headers["Location"]
    return match.group(1)


def start_game(table: Table, names: list[str] = NAMES, rounds: int = 5, **settings: Any) -> str:
    """A game of ``rounds`` rounds whose score the test's phone keeps (it opened the edit
    link), made as phones make games (tests/table.py); answers its code."""
    game: dict[str, Any] = table.new_game(names, rounds=rounds, edit_here=True, **settings)
    return str(game["id"])


def page_of(client: FlaskClient, path: str, status: int = 200) -> str:
    """The HTML of ``path``, after checking its status."""
    response = client.get(path)
    assert response.status_code == status, (path, response.status_code)
    return response.get_data(as_text=True)


def row_counts(app: Flask) -> dict[str, int]:
    """How many rows each table holds: a refused request must leave all of them alone."""
    with app.app_context():
        return {
            model.__tablename__: db.session.scalar(sa.select(sa.func.count()).select_from(model))
            for model in (Player, Game, Seat, Round, RoundResult)
        }


def edit_key_of(client: FlaskClient, code: str) -> str:
    """The edit key this client's cookie holds for the game."""
    with client.session_transaction() as session:
        return str(session[SESSION_KEYS][code])


@pytest.fixture
def in_app(app: Flask) -> Iterator[None]:
    """Run the test body inside an app context (for services and the database)."""
    with app.app_context():
        yield


def load(code: str) -> Game:
    """The game, read afresh from the database."""
    db.session.expire_all()
    return get_game(code)


def red(value: int) -> Card:
    return Card(Colour.RED, value)


def blue(value: int) -> Card:
    return Card(Colour.BLUE, value)


def green(value: int) -> Card:
    return Card(Colour.GREEN, value)


def record(app: Flask, code: str, *entries: QuickEntry) -> None:
    """Record the next round of a classic game, as the round pages would."""
    with app.app_context():
        game = load(code)
        record_round(game, game.version, entries)
        db.session.commit()


def store_scored_round(app: Flask, code: str, scores: list[int], colours: list[str]) -> None:
    """Store a scored round as it is kept (entries and results), bypassing the entry forms:
    for what the score pages show of rounds that are tedious to enter in full."""
    with app.app_context():
        game = load(code)
        number = len(game.rounds) + 1
        round_ = Round(
            number=number,
            leader=(game.first_leader + number - 1) % len(game.seats),
            mode="full",
            status="scored",
            entries=[{"captured": []} for _ in game.seats],
        )
        round_.results = [
            RoundResult(seat=seat, player_id=place.player_id, score=score, colour_names=colour)
            for seat, (place, score, colour) in enumerate(
                zip(game.seats, scores, colours, strict=True)
            )
        ]
        game.rounds.append(round_)
        game.updated_at = utcnow()  # as every service does: the game's version moves on
        db.session.commit()


#: A round of three players (R2: values 0-8, 14 tricks) scoring -23, +15, +16 (R10).
ROUND_ONE = (
    QuickEntry((red(8),), 2, (red(7), red(6), red(5))),  # 2x3 - 3 = 3 others; 3 - 26 = -23
    QuickEntry((blue(3),), 6, ()),  # 18 - 3 = 15
    QuickEntry((green(2),), 6, ()),  # 18 - 2 = 16
)
#: The next round: +17, -4, +12; totals -6, +11, +28.
ROUND_TWO = (
    QuickEntry((red(1),), 6, ()),  # 18 - 1 = 17
    QuickEntry((blue(8),), 4, (blue(7),)),  # 12 - 1 = 11 others; 11 - 15 = -4
    QuickEntry((green(0),), 4, ()),  # 12 - 0 = 12
)


# --------------------------------------------------------------------------------------------
# Words and numbers


def test_scores_carry_a_plus_or_a_real_minus_sign() -> None:
    assert signed_number(3) == "+3"
    assert signed_number(-7) == f"{MINUS}7"
    assert signed_number(0) == "0"


def test_rules_messages_name_players_and_seats_for_people(app: Flask) -> None:
    message = Message(N_("%(player)s has no card %(card)s."), {"player": 1, "card": red(4)})
    with app.test_request_context("/"):
        assert render_message(message, ["Ann", "Ben"]) == "Ben has no card red 4."
        assert render_message(message) == "Seat 2 has no card red 4."
        assert colour_name("violet") == colour_name(Colour.VIOLET) == "violet"


def test_rules_messages_are_translated(app: Flask) -> None:
    message = Message(N_("Sticheln is played by 3 to 8 players, not %(players)s."), {"players": 2})
    with app.test_request_context("/", headers={"Accept-Language": "de"}):
        assert (
            render_message(message)
            == "Sticheln wird zu dritt bis zu acht gespielt, nicht mit 2 Personen."
        )


def test_short_names_keep_short_names_whole_and_tell_long_ones_apart() -> None:
    assert short_names(["Ann", "Ben", "Cleo"]) == ["Ann", "Ben", "Cleo"]
    eight = ["Alexandra", "Alexander", "Bartholomew", "Christine", "Dan", "Eve", "Fiona", "Gus"]
    assert short_names(eight) == ["Al…a", "Al…r", "Bar…", "Chr…", "Dan", "Eve", "Fio…", "Gus"]
    assert short_names(["Maximilian", "Maximiliane", "Max"]) == ["Maximilian", "Maximilia…", "Max"]
    assert short_names(["Anna Maria", "Anna Marie", "Bo", "Cy", "Di", "Ed", "Flo"]) == [
        "An…a",
        "An…e",
        "Bo",
        "Cy",
        "Di",
        "Ed",
        "Flo",
    ]


# --------------------------------------------------------------------------------------------
# New game page


@pytest.mark.parametrize("players", [3, 4, 6])
def test_one_round_per_player_is_one_tap_without_javascript(
    client: FlaskClient, table: Table, players: int
) -> None:
    """Stick 'Em plays as many rounds as there are players (R11): the box alone says so, the
    rounds field left as it was."""
    page = page_of(client, "/games/new")
    box = read_page(page).find("input", name="one_round_each")
    assert box.get("type") == "checkbox"

    names = ["Ann", "Ben", "Cleo", "Dan", "Eve", "Finn"][:players]
    code = create_through_form(client, names, rounds=5, one_round_each="y")

    assert table.state({"id": code})["rounds_planned"] == players


def test_new_game_page_offers_eight_seats_every_variant_and_known_names(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    start_game(table, ["Zoe", "Yann", "Xena"])
    page = page_of(client, "/games/new")
    form = read_page(page)
    seats = [str(field.get("name")) for field in form.find_all(name=True)]
    assert [f"player_{row}" for row in range(8)] == [
        name for name in seats if name.startswith("player_") and name[7:].isdigit()
    ]
    assert page.count('maxlength="40"') == 8
    assert [option.get("value") for option in form.find("datalist").find_all("option")] == [
        "Xena",
        "Yann",
        "Zoe",
    ]
    words = text_of(page)
    for name, explanation in [
        ("Classic", "One cursed colour each"),
        ("Mild", "Every card of your cursed colour costs 5 points"),
        ("Reverse", "A lucky colour instead: its cards score their value, every other card −1"),
        ("Aggravated", "Two cursed colours each"),
        ("Hazy", "Indicator cards stay face down until the round is scored"),
        ("Delayed", "Nothing is laid out: each player picks their colour when the round ends"),
        ("Hat Trick", "Another game with red, blue and green for 4 to 7 players"),
        ("Custom", "Choose the three settings below."),
    ]:
        assert f"{name} {explanation}" in words
    assert form_value(page, "rounds") == "5"
    assert form.find_all("input", value="classic", checked=True)
    assert "The rulebook says: the youngest player." in words
    assert len([o for o in form.find_all("option") if re.fullmatch(r"Seat \d", o.text)]) == 8
    assert 'name="csrf_token"' in page
    assert "<script>" not in page and 'src="/static/new_game.' in page  # no inline script


PRESET_GAMES = [
    ("classic", NAMES, "Classic"),
    ("mild", NAMES[:3], "Mild"),
    ("reverse", NAMES, "Reverse"),
    ("aggravated", [*NAMES, "Eve", "Fred", "Gil", "Hal"], "Aggravated"),
    ("hazy", NAMES, "Hazy"),
    ("delayed", NAMES[:3], "Delayed"),
    ("hat-trick", NAMES, "Hat Trick"),
]


@pytest.mark.parametrize(("preset", "names", "label"), PRESET_GAMES)
def test_a_game_of_each_preset_starts_from_the_page(
    app: Flask, client: FlaskClient, preset: str, names: list[str], label: str
) -> None:
    response = post_new_game(client, names, variant=preset, rounds=4, first_leader=1)
    code = response.headers["Location"].removeprefix("/g/")
    assert response.status_code == 302 and response.headers["Location"] == f"/g/{code}"

    words = text_of(page_of(client, f"/g/{code}"))
    assert f"{label} · 0 of 4 rounds scored" in words
    # R3: the named seat leads round 1; the seat before it deals.
    assert f"Round 1 of 4 deals {names[0]} opens the round {names[1]}" in words
    board = read_page(page_of(client, f"/g/{code}"))
    assert [seat.text for seat in board.find_all("span", class_="seat__name")] == names
    with app.app_context():
        game = load(code)
        assert game.variant == variant_named(preset)
        assert (game.rounds_planned, game.first_leader, game.status) == (4, 1, "in_progress")
        assert [seat.player.name for seat in game.seats] == names


def test_a_custom_variant_keeps_its_three_settings(app: Flask, client: FlaskClient) -> None:
    code = create_through_form(
        client, NAMES[:3], variant="custom", scoring="reverse", colours=2, reveal="hazy"
    )
    words = text_of(page_of(client, f"/g/{code}"))
    assert "Custom: reverse scoring (lucky colour), 2 colours hidden until scored" in words
    with app.app_context():
        game = load(code)
        assert (game.scoring, game.colours_marked, game.reveal) == ("reverse", 2, "hazy")


def test_empty_name_fields_are_skipped_and_the_first_leader_follows_its_row(
    app: Flask, client: FlaskClient
) -> None:
    data = game_form([], player_1="Ann", player_4="Ben", player_6="Cleo", first_leader=6)
    page = client.get("/games/new").get_data(as_text=True)
    response = client.post("/games/new", data={"csrf_token": csrf_token(page), **data})
    code = response.headers["Location"].removeprefix("/g/")
    assert "deals Ben opens the round Cleo" in text_of(page_of(client, f"/g/{code}"))
    with app.app_context():
        game = load(code)
        assert [seat.player.name for seat in game.seats] == ["Ann", "Ben", "Cleo"]
        assert game.first_leader == 2


def test_known_players_are_matched_whatever_the_case(app: Flask, client: FlaskClient) -> None:
    create_through_form(client, ["Ann", "Ben", "Cleo"])
    create_through_form(client, ["ANN", "  ben  ", "Dora"])
    with app.app_context():
        names = db.session.scalars(sa.select(Player.name).order_by(Player.name)).all()
    assert names == ["Ann", "Ben", "Cleo", "Dora"]


BAD_GAMES = [
    pytest.param(
        game_form(["Ann", "Ben"]),
        "players-errors",
        "Sticheln is played by 3 to 8 players; you entered 2.",
        id="two players",
    ),
    pytest.param(
        {**game_form([f"P{seat}" for seat in range(8)]), "player_8": "Ida"},
        "players-errors",
        "Sticheln is played by 3 to 8 players; you entered 9.",
        id="nine names",
    ),
    pytest.param(
        game_form(["Ann", "Ben", "Cleo"], variant="hat-trick"),
        "players-errors",
        "Hat Trick is played by 4 to 7 players; you entered 3.",
        id="three players of Hat Trick",
    ),
    pytest.param(
        game_form([*NAMES, "Eve", "Fred", "Gil", "Hal"], variant="hat-trick"),
        "players-errors",
        "Hat Trick is played by 4 to 7 players; you entered 8.",
        id="eight players of Hat Trick",
    ),
    pytest.param(
        game_form(["Ann", "B" * 41, "Cleo"]),
        "player_1-errors",
        "A name has at most 40 characters; this one has 41.",
        id="a name of 41 characters",
    ),
    pytest.param(
        game_form(["Ann", "Ben", "aNN"]),
        "player_2-errors",
        "aNN already sits at seat 1.",
        id="the same name twice",
    ),
    pytest.param(
        game_form(NAMES, rounds=0), "rounds-errors", "A game has 1 to 10 rounds.", id="0 rounds"
    ),
    pytest.param(
        game_form(NAMES, rounds=11), "rounds-errors", "A game has 1 to 10 rounds.", id="11 rounds"
    ),
    pytest.param(
        game_form(NAMES, first_leader=5),
        "first_leader-errors",
        "Nobody sits at seat 6; choose one of the players entered.",
        id="an empty seat leads",
    ),
    pytest.param(
        game_form(NAMES, variant="fast"), "variant-errors", "Not a valid choice.", id="no variant"
    ),
]


@pytest.mark.parametrize(("data", "field", "message"), BAD_GAMES)
def test_bad_input_is_shown_next_to_its_field_and_saves_nothing(
    app: Flask, client: FlaskClient, data: dict[str, Any], field: str, message: str
) -> None:
    page = client.get("/games/new").get_data(as_text=True)
    before = row_counts(app)
    response = client.post("/games/new", data={"csrf_token": csrf_token(page), **data})
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert errors_by_field(page)[field] == [message]
    assert row_counts(app) == before
    assert form_value(page, "player_0") == data["player_0"]  # what was typed stays


@pytest.mark.parametrize(
    ("refusal", "field", "message"),
    [
        (
            RuleError(
                Message(N_("A game has 1 to 10 rounds, not %(rounds)s."), {"rounds": 12}),
                field="rounds",
            ),
            "rounds-errors",
            "A game has 1 to 10 rounds, not 12.",
        ),
        (
            PlayerCountError(Message(N_("%(player)s cannot sit here."), {"player": 2})),
            "players-errors",
            "Cleo cannot sit here.",
        ),
        (
            services.ServiceError(
                "The first leader must be a seat from 0 to 2.", field="first_leader"
            ),
            "first_leader-errors",
            "The first leader must be a seat from 0 to 2.",
        ),
    ],
)
def test_a_refusal_by_the_services_is_shown_next_to_its_field(
    app: Flask,
    client: FlaskClient,
    monkeypatch: pytest.MonkeyPatch,
    refusal: Exception,
    field: str,
    message: str,
) -> None:
    def refuse(*_args: object, **_settings: object) -> None:
        raise refusal

    monkeypatch.setattr(services, "create_game", refuse)
    before = row_counts(app)
    response = post_new_game(client, NAMES[:3])
    assert response.status_code == 400
    assert errors_by_field(response.get_data(as_text=True))[field] == [message]
    assert row_counts(app) == before


def test_the_wrong_field_is_marked_invalid_for_screen_readers(client: FlaskClient) -> None:
    page = post_new_game(client, ["Ann", "Ben", "ann"]).get_data(as_text=True)
    field = read_page(page).find("input", name="player_2")
    assert field.get("aria-invalid") == "true"
    assert field.get("aria-describedby") == "player_2-errors"
    other = read_page(page).find("input", name="player_1")
    assert "aria-invalid" not in other.attrs


def test_a_form_without_its_csrf_token_is_shown_again_and_saves_nothing(
    app: Flask, client: FlaskClient
) -> None:
    client.get("/games/new")
    before = row_counts(app)
    response = client.post("/games/new", data=game_form(NAMES))
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert errors_by_field(page)["csrf-errors"] == [
        "This form has expired or did not come from this page; nothing was saved. "
        "Please check it and send it again."
    ]
    assert form_value(page, "player_3") == "Dan"
    assert row_counts(app) == before
    again = client.post("/games/new", data={"csrf_token": csrf_token(page), **game_form(NAMES)})
    assert again.status_code == 302


def test_new_game_errors_speak_the_players_language(client: FlaskClient) -> None:
    client.set_cookie("lang", "de")
    page = post_new_game(client, NAMES, rounds=11).get_data(as_text=True)
    assert '<html lang="de">' in page
    assert errors_by_field(page)["rounds-errors"]


def test_markup_in_names_is_shown_as_text(app: Flask, client: FlaskClient) -> None:
    attack = '<script>alert("x")</script>'
    code = create_through_form(client, ["Ann", attack, "<b>Cleo</b>"])
    for path in (f"/g/{code}", f"/g/{code}/view", "/games/new", f"/g/{code}/delete"):
        page = page_of(client, path)
        assert "<script>alert" not in page and "<b>Cleo" not in page
        assert "&lt;script&gt;alert(" in page
    refused = post_new_game(client, ["Ann", attack, attack.upper()]).get_data(as_text=True)
    assert "<SCRIPT>" not in refused and "&lt;SCRIPT&gt;" in refused


# --------------------------------------------------------------------------------------------
# Scoreboard and read-only view


def test_the_creating_phone_sees_edit_controls_and_a_link_to_the_share_page(
    client: FlaskClient,
) -> None:
    code = create_through_form(client)
    key = edit_key_of(client, code)
    response = client.get(f"/g/{code}")
    page = response.get_data(as_text=True)
    assert key not in page  # the edit link is on the share page only
    assert f'href="/g/{code}/share"' in page and "Share with other phones" in page
    assert f'href="/g/{code}/abandon"' in page and f'href="/g/{code}/delete"' in page
    assert "<svg" not in page  # no chart before the first round, and no QR code
    assert response.headers["Cache-Control"] == "private, no-cache"


def test_the_read_only_view_shows_no_control_and_no_edit_key(
    client: FlaskClient, table: Table
) -> None:
    code = start_game(table)
    key = edit_key_of(client, code)
    for page in (
        page_of(client, f"/g/{code}/view"),
        page_of(client.application.test_client(), f"/g/{code}"),
    ):
        assert key not in page
        assert "/edit/" not in page
        assert "/abandon" not in page and "/delete" not in page
        assert "Manage the game" not in page
        assert "Mark colours" not in page and "Record round" not in page
        words = text_of(page)
        seats = read_page(page).find_all(class_="seat__name")
        assert "Ann Ben Cleo Dan" in " ".join(seat.text for seat in seats)
        assert f'href="/g/{code}/share"' in page and "Share with other phones" in words
        assert "deals Dan opens the round Ann" in words


def test_a_phone_without_the_edit_key_sees_what_the_read_only_view_shows(
    client: FlaskClient,
    table: Table,
) -> None:
    code = start_game(table)
    other = client.application.test_client()
    assert text_of(page_of(other, f"/g/{code}")) == text_of(page_of(other, f"/g/{code}/view"))


def test_the_round_buttons_link_their_pages(client: FlaskClient, table: Table) -> None:
    code = start_game(table)
    page = read_page(page_of(client, f"/g/{code}"))
    links = {link.words(): link.get("href") for link in page.find_all("a")}
    assert links["Mark colours"] == f"/g/{code}/rounds/mark"
    assert links["Record round 1"] == f"/g/{code}/rounds/record"


def test_scores_and_running_totals_are_signed(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = start_game(table, NAMES[:3])
    record(app, code, *ROUND_ONE)
    record(app, code, *ROUND_TWO)
    page = page_of(client, f"/g/{code}")
    rows = read_page(page).find_all("tr", class_="is-scored")
    cells = [[td.words().split() for td in row.find_all("td") if td.find_all("b")] for row in rows]
    assert [[score for score, *_ in row] for row in cells] == [
        [f"{MINUS}23", "+15", "+16"],
        ["+17", f"{MINUS}4", "+12"],
    ]
    # the running total follows the round score in each cell
    assert [[total for _, total, *_ in row] for row in cells] == [
        [f"{MINUS}23", "+15", "+16"],
        [f"{MINUS}6", "+11", "+28"],
    ]
    footer = read_page(page).find("tfoot")
    assert [td.text for td in footer.find_all("td")] == [f"{MINUS}6", "+11", "+28"]
    # never a hyphen for a minus: no text of the page starts with one before a digit
    assert not [text for text in read_page(page).strings if re.match(r"-\d", text)]
    assert "2 of 5 rounds scored" in text_of(page)


def test_dealer_and_leader_move_one_seat_each_round(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = start_game(table, NAMES[:3], first_leader=2)
    assert "deals Ben opens the round Cleo" in text_of(page_of(client, f"/g/{code}"))
    record(app, code, *ROUND_ONE)
    words = text_of(page_of(client, f"/g/{code}"))
    assert "Round 2 of 5 deals Cleo opens the round Ann" in words  # R3, around the table
    page = page_of(client, f"/g/{code}")
    first_row = read_page(page).find("tr", class_="is-scored")
    assert len(first_row.find_all(class_="leads")) == 1
    assert first_row.find_all("td")[2].attrs == {"class": "leads"}  # round 1 was led by Cleo


def test_marked_colours_are_shown_as_chips_with_symbol_and_value(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = start_game(table, NAMES[:3])
    with app.app_context():
        game = load(code)
        mark_colours(game, game.version, [[red(8)], [blue(3)], [green(2)]])
        db.session.commit()
    page = page_of(client, f"/g/{code}/view")
    # the chip shows the symbol and value; a screen reader says the colour and value
    chip = '<span class="chip chip--mark" data-colour="red" role="img" aria-label="red 8">♥8</span>'
    assert chip in page
    assert 'aria-label="blue 3"' in page and 'aria-label="green 2"' in page
    assert "The colours are marked; the round is being played." in text_of(page)
    assert page.count("being played") >= 3  # the round's scores are not in yet


def test_hazy_marks_stay_hidden_until_the_round_is_scored(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = start_game(table, NAMES[:3], variant="hazy")
    with app.app_context():
        game = load(code)
        mark_colours(game, game.version, [[red(8)], [blue(3)], [green(2)]])
        db.session.commit()
    viewer = app.test_client()
    for page in (page_of(client, f"/g/{code}"), page_of(viewer, f"/g/{code}/view")):
        assert 'data-colour="red"' not in page and "red 8" not in page and "♥" not in page
        assert page.count("chip--hidden") == 3
        assert "face down: they are shown once the round is scored" in text_of(page)
    assert viewer.get(f"/api/v1/games/{code}").get_json()["rounds"][0]["marked"] is None

    record(app, code, *ROUND_ONE)
    page = page_of(viewer, f"/g/{code}/view")
    assert "chip--hidden" not in page
    assert 'aria-label="red 8"' in page and 'aria-label="blue 3"' in page
    assert 'aria-label="green 2"' in page


def test_delayed_rounds_show_the_colours_chosen_at_scoring(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = start_game(table, NAMES[:3], variant="delayed")
    store_scored_round(app, code, [3, 0, -2], ["red", "", "blue,green"])
    page = page_of(client, f"/g/{code}/view")
    chips = read_page(page).find_all(class_="chip", role="img")
    assert [(chip.get("data-colour"), chip.get("aria-label")) for chip in chips] == [
        ("red", "red"),
        ("blue", "blue"),
        ("green", "green"),
    ]


def test_a_single_winner_is_named_when_the_game_is_over(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = start_game(table, NAMES[:3], rounds=1)
    record(app, code, *ROUND_ONE)
    page = page_of(client, f"/g/{code}/view")
    words = text_of(page)
    assert "Finished after 1 round" in words
    assert "Cleo wins with +16 points." in words
    winners = read_page(page).find("ol", class_="seat-list").find_all("li", class_="seat--winner")
    assert [seat.find("span", class_="seat__name").text for seat in winners] == ["Cleo"]
    assert "Round 2" not in words and "deals;" not in words


def test_equal_highest_totals_share_the_win(app: Flask, client: FlaskClient, table: Table) -> None:
    code = start_game(table, NAMES[:3], rounds=1)
    record(
        app,
        code,
        QuickEntry((red(8),), 2, (red(7), red(6), red(5))),
        QuickEntry((blue(3),), 6, ()),
        QuickEntry((green(3),), 6, ()),
    )
    words = text_of(page_of(client, f"/g/{code}"))
    assert "Shared win: Ben, Cleo, with +15 points each." in words
    assert words.count("winner") == 2


def test_the_score_table_scrolls_in_its_own_box_with_short_names(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    names = ["Alexandra", "Alexander", "Bartholomew", "Christine", "Dan", "Eve", "Fiona", "Gus"]
    code = start_game(table, names, rounds=3)
    assert "No round has been played yet." in text_of(page_of(client, f"/g/{code}"))
    store_scored_round(app, code, [1, 2, 3, 4, 5, 6, 7, -8], ["red"] * 8)
    page = page_of(client, f"/g/{code}")
    assert '<div class="table-scroll" role="region"' in page
    round_column, *headers = [heading(th) for th in read_page(page).find_all("th", scope="col")]
    assert round_column == ("Round", "#")
    assert headers == [
        ("Alexandra", "Al…a"),
        ("Alexander", "Al…r"),
        ("Bartholomew", "Bar…"),
        ("Christine", "Chr…"),
        "Dan",
        "Eve",
        ("Fiona", "Fio…"),
        "Gus",
    ]
    # the players list shows every name whole
    seats = read_page(page).find("ol", class_="seat-list")
    assert "Bartholomew" in [name.text for name in seats.find_all("span", class_="seat__name")]


# --------------------------------------------------------------------------------------------
# Edit rights: the edit link, and refusals to other phones


def test_the_edit_link_gives_another_phone_the_right_to_change_the_game(
    client: FlaskClient,
    table: Table,
) -> None:
    code = start_game(table)
    key = edit_key_of(client, code)
    other = client.application.test_client()
    assert other.get(f"/g/{code}/abandon").status_code == 403

    response = other.get(f"/g/{code}/edit/{key}")
    assert response.status_code == 302 and response.headers["Location"] == f"/g/{code}"
    assert f'href="/g/{code}/abandon"' in page_of(other, f"/g/{code}")
    assert f"/g/{code}/edit/{key}" in page_of(other, f"/g/{code}/share")
    assert other.get(f"/g/{code}/abandon").status_code == 200


@pytest.mark.parametrize(
    ("language", "notice"),
    [
        (
            "en",
            "This phone can now keep the score: it may enter and correct the rounds of this game.",
        ),
        (
            "de",
            "Dieses Handy führt jetzt den Spielstand: Es darf die Runden dieser Partie "
            "eintragen und korrigieren.",
        ),
    ],
)
def test_opening_the_edit_link_says_once_that_this_phone_keeps_the_score_now(
    client: FlaskClient, table: Table, language: str, notice: str
) -> None:
    code = start_game(table)
    key = edit_key_of(client, code)
    other = client.application.test_client()
    other.environ_base["HTTP_ACCEPT_LANGUAGE"] = language

    opened = other.get(f"/g/{code}/edit/{key}", follow_redirects=True)

    shown = [p.text for p in read_page(opened.get_data(as_text=True)).find_all("p", role="status")]
    assert notice in shown
    assert opened.headers["Cache-Control"] == "no-store"  # said once, never kept
    assert notice not in page_of(other, f"/g/{code}")  # a reload no longer says it


def test_a_wrong_edit_key_is_refused_and_grants_nothing(client: FlaskClient, table: Table) -> None:
    code = start_game(table)
    other = client.application.test_client()
    response = other.get(f"/g/{code}/edit/not-the-key")
    words = text_of(response.get_data(as_text=True))
    assert response.status_code == 403
    assert "This edit link does not open this game." in words
    assert "/abandon" not in page_of(other, f"/g/{code}")


@pytest.mark.parametrize("action", ["abandon", "delete"])
def test_a_phone_without_the_edit_key_may_not_abandon_or_delete(
    app: Flask, client: FlaskClient, action: str, table: Table
) -> None:
    code = start_game(table)
    page = page_of(client, f"/g/{code}/{action}")
    other = app.test_client()
    other_form = page_of(other, "/games/new")  # the other phone's own CSRF session
    before = row_counts(app)
    for response in (
        other.get(f"/g/{code}/{action}"),
        other.post(
            f"/g/{code}/{action}",
            data={"csrf_token": csrf_token(other_form), "version": form_value(page, "version")},
        ),
    ):
        assert response.status_code == 403
        words = text_of(response.get_data(as_text=True))
        assert "Not allowed from this phone" in words
        assert "Open the game's edit link on this phone to change it." in words
    assert row_counts(app) == before
    with app.app_context():
        assert load(code).status == "in_progress"


# --------------------------------------------------------------------------------------------
# Abandon and delete


def test_abandoning_asks_first_then_stops_the_game(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = start_game(table, NAMES[:3])
    record(app, code, *ROUND_ONE)
    page = page_of(client, f"/g/{code}/abandon")
    words = text_of(page)
    assert "Abandon this game?" in words and "Ann, Ben, Cleo" in words
    assert form_value(page, "version") == "2"
    with app.app_context():
        assert load(code).status == "in_progress"  # asking changes nothing

    response = client.post(
        f"/g/{code}/abandon", data={"csrf_token": csrf_token(page), "version": "2"}
    )
    assert response.status_code == 302 and response.headers["Location"] == f"/g/{code}"
    page = page_of(client, f"/g/{code}")
    words = text_of(page)
    assert "Abandoned after 1 of 5 rounds" in words
    assert "/abandon" not in page and "Record round" not in page and "deals;" not in words
    assert "wins" not in words
    with app.app_context():
        game = load(code)
        assert game.status == "abandoned" and len(game.rounds) == 1


def test_deleting_asks_first_then_removes_the_game_and_goes_home(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = start_game(table, NAMES[:3])
    record(app, code, *ROUND_ONE)
    page = page_of(client, f"/g/{code}/delete")
    assert "Delete this game?" in text_of(page) and "This cannot be undone." in text_of(page)
    response = client.post(
        f"/g/{code}/delete",
        data={"csrf_token": csrf_token(page), "version": form_value(page, "version")},
    )
    assert response.status_code == 302 and response.headers["Location"] == "/"
    assert row_counts(app) == {
        "players": 3,
        "games": 0,
        "seats": 0,
        "rounds": 0,
        "round_results": 0,
    }
    assert "Game not found" in text_of(page_of(client, f"/g/{code}", status=404))


@pytest.mark.parametrize("action", ["abandon", "delete"])
def test_a_stale_confirmation_shows_the_conflict_and_changes_nothing(
    app: Flask, client: FlaskClient, action: str, table: Table
) -> None:
    code = start_game(table, NAMES[:3])
    page = page_of(client, f"/g/{code}/{action}")
    record(app, code, *ROUND_ONE)  # another phone records a round meanwhile
    before = row_counts(app)

    response = client.post(
        f"/g/{code}/{action}",
        data={"csrf_token": csrf_token(page), "version": form_value(page, "version")},
    )
    page = response.get_data(as_text=True)
    assert response.status_code == 409
    words = text_of(page)
    assert CONFLICT in words and "Nothing was changed from this phone." in words
    assert "1 of 5 rounds scored" in words  # the current state, with the other phone's round
    assert f"{MINUS}23" in page
    assert row_counts(app) == before
    with app.app_context():
        assert load(code).status == "in_progress"


def test_a_tampered_version_counts_as_stale(app: Flask, client: FlaskClient, table: Table) -> None:
    code = start_game(table)
    page = page_of(client, f"/g/{code}/abandon")
    response = client.post(
        f"/g/{code}/abandon", data={"csrf_token": csrf_token(page), "version": "x"}
    )
    assert response.status_code == 409 and CONFLICT in text_of(response.get_data(as_text=True))
    with app.app_context():
        assert load(code).status == "in_progress"


def test_a_confirmation_without_csrf_token_asks_again(
    app: Flask, client: FlaskClient, table: Table
) -> None:
    code = start_game(table)
    page_of(client, f"/g/{code}/delete")
    response = client.post(f"/g/{code}/delete", data={"version": "1"})
    page = response.get_data(as_text=True)
    assert response.status_code == 400
    assert "Delete this game?" in text_of(page)
    assert "This form has expired" in " ".join(errors_by_field(page)["version-errors"])
    with app.app_context():
        assert load(code).status == "in_progress"


# --------------------------------------------------------------------------------------------
# Error pages, and the API keeping its JSON errors


@pytest.mark.parametrize(
    "path", ["/g/nosuchgame", "/g/nosuchgame/view", "/g/nosuchgame/edit/k", "/g/nosuchgame/abandon"]
)
def test_an_unknown_game_gets_a_friendly_page(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 404
    assert response.mimetype == "text/html"
    words = text_of(response.get_data(as_text=True))
    assert "Game not found" in words and "There is no game at this address." in words
    assert "New game" in words


def test_api_errors_stay_json_beside_the_game_pages(client: FlaskClient) -> None:
    unknown_game = client.get("/api/v1/games/nosuchgame")
    assert unknown_game.status_code == 404
    assert unknown_game.get_json() == {"error": "There is no game with this id."}
    unknown_path = client.get("/api/v1/no/such/thing")
    assert unknown_path.status_code == 404 and unknown_path.mimetype == "application/json"
    assert list(unknown_path.get_json()) == ["error"]
    wrong_method = client.delete("/api/v1/games")
    assert wrong_method.status_code == 405 and wrong_method.mimetype == "application/json"


def test_a_game_made_by_the_api_opens_on_its_pages(client: FlaskClient) -> None:
    response = client.post(
        "/api/v1/games", json={"players": NAMES[:3], "variant": "mild", "first_leader": 2}
    )
    state = response.get_json()
    assert state["url"].endswith(f"/g/{state['id']}")
    words = text_of(page_of(client, state["share_url"].removeprefix("http://localhost")))
    assert "Mild · 0 of 5 rounds scored" in words
    assert "deals Ben opens the round Cleo" in words


def test_the_scoreboard_links_the_games_table_tools(client: FlaskClient) -> None:
    answer = client.post(
        "/api/v1/games", json={"players": ["Ann", "Ben", "Cleo"], "variant": "mild"}
    )
    code = answer.json["id"]
    for url in (f"/g/{code}", f"/g/{code}/view"):
        page = client.get(url).get_data(as_text=True)
        assert f'href="/g/{code}/setup"' in page
        assert f'href="/g/{code}/resolve"' in page


def test_both_scoreboards_keep_the_screen_awake(client: FlaskClient, table: Table) -> None:
    code = start_game(table)
    for path in (f"/g/{code}", f"/g/{code}/view"):
        page = client.get(path).get_data(as_text=True)
        assert f'<script src="{static_url("follow.js")}" defer></script>' in page, path
