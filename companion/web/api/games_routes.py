"""The games endpoints: create a game, read its state, record and correct rounds.

Every mutation needs the game's edit key (401 without, 403 with a wrong one; ``rights``:
a Bearer header, or the phone's own from our pages) and the version it was based on (409
with the current version if stale). A request either changes the game as a whole or,
refused, leaves the database exactly as it was. The changes a phone's outbox sends take an
``Idempotency-Key`` (``idempotency``): sent again, they are answered as the first time and
applied once.
"""

from __future__ import annotations

import json

from flask import current_app, jsonify, request, url_for
from flask.typing import ResponseReturnValue
from werkzeug.wrappers import Response

from companion import services
from companion.data import queries
from companion.data.models import Circle, Game, db
from companion.data.states import RoundStatus
from companion.formats import bg_stats, game_json
from companion.formats.backup.export import document, game_document, game_for_export
from companion.play_state import parse
from companion.play_state.entries import read_entries
from companion.play_state.new_game import read_new_game
from companion.play_state.parse import ApiError
from companion.rules import MAX_PLAYERS
from companion.rules.hat_trick import Play
from companion.services.circles import circle_name_for, circle_of_invite, new_circle
from companion.web.api import bp, circle_keys, rights
from companion.web.api.idempotency import (
    Replay,
    commit_change,
    idempotent,
    recall,
    unstored_secret,
)
from companion.web.api.rules_routes import request_body
from companion.web.circle_rights import remember_invite, use_circle
from companion.web.edit_rights import remember_edit_key
from companion.web.phone_id import phone_holder
from companion.web.rate_limits import limit_game_starts


def game_state(game: Game) -> dict[str, object]:
    """The API's game state with links to its pages."""
    return game_json.game_state(
        game,
        url=url_for("games.scoreboard", code=game.code, _external=True),
        share_url=url_for("games.view", code=game.code, _external=True),
        bg_stats_url=bg_stats.bg_stats_url(game),
    )


def editable_game(code: str) -> Game:
    """The game ``code``, locked for this transaction, if the request holds its edit key
    (``rights``: a Bearer header, or the phone's session from our own pages).

    The key is checked before the row is locked, so a request without it never makes a
    writer wait; and again once locked, as a new edit key may have been made meanwhile.
    Only then is a request sent again with its ``Idempotency-Key`` answered as before
    (``recall``): a key never passes the edit rights."""
    return editable_game_with_key(code)[0]


def editable_game_with_key(code: str) -> tuple[Game, rights.SentKey]:
    """``editable_game``, and the key that opened it."""
    game = services.get_game(code)
    sent = rights.sent_key(code)
    rights.check_key(game, sent)
    game = services.lock_game(game)
    rights.check_key(game, sent)
    recall(game.edit_key_hash)
    return game, sent


@bp.post("/games")
@limit_game_starts
@idempotent
def create_game() -> ResponseReturnValue:
    """Start a game; the answer holds the edit key, shown this once (and to a replay of the
    same request by the same client, which makes it again: it is not stored). The game
    joins a circle (``circle_keys``): the one whose invite key is sent, or the one the
    phone's own pages chose; else a new one, whose id, name and invite key the answer holds,
    shown this once too. A game our own pages start (a phone's outbox sending the game it
    started offline) gives the phone its right, and the new circle's invite, as the new-game
    page does, the first time and on a replay alike.

    The body and the circle rights are checked before a replay is looked for, and a replay
    goes to the client that sent the start only (``start_holder``); a refused start is
    never stored."""
    keyed = circle_keys.circle_of_key()
    table = read_new_game(request_body())
    start_in = circle_keys.circle_to_start_in(table.circle, keyed)
    try:
        recall(start_holder(keyed), keep_refusals=False)
    except Replay as replay:
        keep_right_of(replay.response)
        raise
    circle, invite = None, None
    if start_in.new:
        name = circle_name_for(table.names)
        circle, invite = new_circle(name, secret=unstored_secret(NEW_CIRCLE_SECRET))
    game, key = services.create_game(
        table.names,
        table.variant,
        table.rounds,
        table.first_leader,
        circle_id=start_in.circle_id if circle is None else circle.id,
        key=unstored_secret(),
    )
    commit_change()
    if rights.sent_by_phone():
        remember_edit_key(game, key)
        if circle is not None and invite is not None:
            remember_invite(circle, invite)
        use_circle(game.circle_id)
    answer: dict[str, object] = {**game_state(game), "edit_key": key}
    if circle is not None:
        answer["circle"] = {"id": circle.id, "name": circle.name, "invite_key": invite}
    return answer, 201, {"Cache-Control": "no-store"}


def start_holder(keyed: Circle | None) -> str | None:
    """Who a game's start is kept for, and replayed to: the circle whose key it was sent
    with, else the phone whose own pages sent it; ``None`` for a program with neither,
    which nothing tells apart from any other client (its start is not kept)."""
    if keyed is not None:
        return keyed.secret_hash
    if rights.sent_by_phone():
        return phone_holder(make=True)
    return None


#: What a new circle's invite secret is made for, in a replayed answer (``idempotency``).
NEW_CIRCLE_SECRET = "circle"


def keep_right_of(started: Response) -> None:
    """The phone's right to the game a replayed start answers, and the new circle's invite
    it holds, if our own pages sent it."""
    if started.status_code != 201 or not rights.sent_by_phone():
        return
    answer = json.loads(started.get_data())
    game = services.get_game(answer["id"])
    remember_edit_key(game, answer["edit_key"])
    if "circle" in answer:
        circle = circle_of_invite(answer["circle"]["id"], answer["circle"]["invite_key"])
        if circle is not None:
            remember_invite(circle, answer["circle"]["invite_key"])
    use_circle(game.circle_id)


#: A game's state changes with every round, and is the same for anyone holding its id (it
#: never holds the edit key): a cache may keep it, but must ask each time whether it changed.
STATE_CACHE_CONTROL = "no-cache"


@bp.get("/games/<code>")
def show_game(code: str) -> ResponseReturnValue:
    """The state of a game, for anyone holding its link. Its ETag is its body's own (a
    rename changes the names, not the version): a client polling an unchanged game is
    answered 304, without the body."""
    response = jsonify(game_state(services.get_game(code)))
    response.headers["Cache-Control"] = STATE_CACHE_CONTROL
    response.add_etag()
    return response.make_conditional(request)


def round_sent(game: Game, opened_for: int | None = None) -> services.RoundSent:
    """The round in the request's body: the version it was based on, the entries and, for
    a new round, the number the client meant (if it says)."""
    optional = ("number",) if opened_for is None else ()
    data = parse.fields(request_body(), "The request", ("version", "entries"), optional)
    if "number" in data:
        opened_for = parse.integer(data["number"], "number", 1, 2**31)
    version = parse.integer(data["version"], "version", 0, 2**31)
    entries = read_entries(data["entries"], queries.setup_of(game))
    return services.RoundSent(version, tuple(entries), opened_for)


def answer(game: Game, submitted: services.Submitted) -> dict[str, object]:
    """The game as it is now after a saved round; any other result is refused: a stale
    version (409 with the current one), a round the client did not mean (409 with the game
    as it is now: it is never filed under another number) or what the rules refuse."""
    match submitted:
        case services.Saved():
            commit_change()
            return game_state(game)
        case services.Stale(current):
            raise services.StaleVersion(game.version if current is None else current)
        case services.Clashed(round_):
            not_next = services.RoundNotNext(round_.number, queries.number_to_record(game))
            raise ApiError(str(not_next), 409, state=game_state(game))
        case services.Refused(services.RoundNotNext() as not_next):
            raise ApiError(str(not_next), 409, state=game_state(game))
        case services.Refused(refusal):
            raise refusal
    raise AssertionError(f"a round is never only checked here: {submitted!r}")


@bp.post("/games/<code>/rounds")
@idempotent
def record_round(code: str) -> ResponseReturnValue:
    """Record and score the next round, or refuse if the client meant another one."""
    game = editable_game(code)
    return answer(game, services.submit(game, round_sent(game))), 201


@bp.put("/games/<code>/rounds/<int:number>")
@idempotent
def correct_round(code: str, number: int) -> ResponseReturnValue:
    """Correct a scored round; totals and winners follow."""
    game = editable_game(code)
    return answer(game, services.submit(game, round_sent(game, number), correcting=True))


@bp.post("/games/<code>/rounds/marks")
@idempotent
def mark_colours(code: str) -> ResponseReturnValue:
    """Mark the colours of the next round: each seat's indicator cards (R4, R14; C1, C2),
    as the mark page does; the round is then recorded (``POST .../rounds``) or played live.
    With ``number``, the round the client meant: refused (409, with the game) if another
    phone opened it meanwhile or it is not the next one."""
    game = editable_game(code)
    data = parse.fields(request_body(), "The request", ("version", "marked"), ("number",))
    version = parse.integer(data["version"], "version", 0, 2**31)
    seats = parse.listing(data["marked"], "marked", MAX_PLAYERS)
    marked = [parse.cards(cards, f"marked[{seat}]", 2) for seat, cards in enumerate(seats)]
    if "number" in data:
        number = parse.integer(data["number"], "number", 1, 2**31)
        match services.opening_clash(game, number):
            case services.Clashed(round_):
                not_next = services.RoundNotNext(round_.number, queries.number_to_record(game))
                raise ApiError(str(not_next), 409, state=game_state(game))
            case services.Refused(refusal):
                raise ApiError(str(refusal), 409, state=game_state(game))
    services.mark_colours(game, version, marked)
    commit_change()
    return game_state(game), 201


@bp.post("/games/<code>/rounds/live")
@idempotent
def open_live_round(code: str) -> ResponseReturnValue:
    """Start the next round to be entered trick by trick (indicators first, unless none)."""
    game = editable_game(code)
    data = parse.fields(request_body(), "The request", ("version",), ("marked",))
    version = parse.integer(data["version"], "version", 0, 2**31)
    services.check_version(game, version)
    marked = None
    if "marked" in data:
        seats = parse.listing(data["marked"], "marked", MAX_PLAYERS)
        marked = [parse.cards(cards, f"marked[{seat}]", 2) for seat, cards in enumerate(seats)]
    services.open_live_round(game, version, marked)
    commit_change()
    return game_state(game), 201


@bp.post("/games/<code>/rounds/<int:number>/tricks")
@idempotent
def play_trick(code: str, number: int) -> ResponseReturnValue:
    """Record one trick, a card per seat in play order from the leader (C6).

    Answers who took it (Hat Trick: each colour's pile in ``pile_winners``, and the taker of
    the deciding pile as ``winner``) and who leads next (Hat Trick: the player of the card
    that decided, R21, who may have taken no pile), with the game state; after the last
    trick the round is scored by itself.
    """
    game = editable_game(code)
    hat_trick = game.variant.has_passes
    field = "plays" if hat_trick else "cards"
    data = parse.fields(request_body(), "The request", ("version", field))
    version = parse.integer(data["version"], "version", 0, 2**31)
    services.check_version(game, version)
    items = parse.listing(data[field], field, MAX_PLAYERS)
    read = parse.play if hat_trick else _plain_play
    plays = [read(item, f"{field}[{i}]") for i, item in enumerate(items)]
    trick, round_ = services.play_live_trick(game, number, version, plays)
    commit_change()
    answer: dict[str, object] = {
        "winner": trick.winner,
        "pile_winners": list(trick.winners),
        "next_leader": trick.next_leader,
        "round_complete": round_.status == RoundStatus.SCORED,
    }
    return {**game_state(game), **answer}, 201


@bp.put("/games/<code>/rounds/<int:number>/trick-so-far")
@idempotent
def replace_trick_so_far(code: str, number: int) -> ResponseReturnValue:
    """Store the cards of the unfinished trick, in play order from its leader (C6, R19), in
    place of the trick ``was`` they were entered on: a phone that played on offline sends
    them once the network is back. Refused (409) if the trick changed meanwhile."""
    game = editable_game(code)
    hat_trick = game.variant.has_passes
    field = "plays" if hat_trick else "cards"
    data = parse.fields(request_body(), "The request", ("version", field, "was"))
    version = parse.integer(data["version"], "version", 0, 2**31)
    read = parse.play if hat_trick else _plain_play
    plays = [
        read(item, f"{field}[{i}]")
        for i, item in enumerate(parse.listing(data[field], field, MAX_PLAYERS))
    ]
    was = [
        read(item, f"was[{i}]")
        for i, item in enumerate(parse.listing(data["was"], "was", MAX_PLAYERS))
    ]
    services.replace_unfinished_trick(game, number, version, was, plays)
    commit_change()
    return game_state(game)


def _plain_play(value: object, where: str) -> Play:
    """A classic-family trick takes plain cards: there is no passing (R6)."""
    return Play(parse.card(value, where))


@bp.delete("/games/<code>/rounds/<int:number>/tricks/last")
@idempotent
def undo_trick(code: str, number: int) -> ResponseReturnValue:
    """Take back the last trick of a live round (its version in the body or the query)."""
    game = editable_game(code)
    services.undo_live_trick(game, number, deletion_version())
    commit_change()
    return game_state(game)


@bp.delete("/games/<code>/rounds/<int:number>/tricks/last/cards/last")
@idempotent
def undo_last_card(code: str, number: int) -> ResponseReturnValue:
    """Take back the card that completed the last trick (its version in the body or the
    query): the trick is no longer saved, and the answer gives the cards it keeps, in play
    order from its leader, for the client to send the trick again with its last card."""
    game = editable_game(code)
    reopened = services.take_back_last_card(game, number, deletion_version())
    commit_change()
    hat_trick = game.variant.has_passes
    field = "plays" if hat_trick else "cards"
    kept = [play.as_json() if hat_trick else play.card.as_json() for play in reopened.kept]
    taken_back = reopened.taken_back
    answer = {
        "leader": reopened.leader,
        field: kept,
        "taken_back": taken_back.as_json() if hat_trick else taken_back.card.as_json(),
        "seat": reopened.seat,
    }
    return {**game_state(game), "reopened": answer}


def deletion_version() -> int:
    """The version a DELETE was based on: in its body, or as ``?version=`` without one."""
    if request.args.get("version") is not None and not request.get_data():
        raw = request.args["version"]
        if not raw.isascii() or not raw.isdigit() or len(raw) > 10:
            raise ApiError('The query parameter "version" must be a whole number.')
        return int(raw)
    data = parse.fields(request_body(), "The request", ("version",))
    return parse.integer(data["version"], "version", 0, 2**31)


@bp.post("/games/<code>/again")
@limit_game_starts
def play_again(code: str) -> ResponseReturnValue:
    """The table's next game, as the page's "Play again" starts it: the same players in the
    same seats, the same variant and rounds, the first lead one seat on (R3). A table plays
    one next game: the first call starts it (201), any later one, from any holder of this
    game's key, answers it (200), so the call needs no idempotency key of its own. Its edit
    key is derived from the key that opened this game (``services.next_game_key``), as the
    pages derive it, so every phone of the table may change it; a phone's own right (its
    session) is given it."""
    game, sent = editable_game_with_key(code)
    secret = current_app.config["SECRET_KEY"]

    def derived(new_code: str) -> str:
        return services.next_game_key(secret, sent.key, new_code)

    following, started = services.play_again(game, derived)
    commit_change()
    key = derived(following.code)
    if not services.key_opens(following, key):
        raise ApiError(rights.KEY_REPLACED if sent.from_session else rights.WRONG_KEY, 403)
    if sent.from_session:
        remember_edit_key(following, key)
    status = 201 if started is not None else 200
    return {**game_state(following), "edit_key": key}, status, {"Cache-Control": "no-store"}


@bp.post("/games/<code>/edit-key")
def rotate_edit_key(code: str) -> ResponseReturnValue:
    """Make a new edit key (Bearer: the current one): the old key and every phone holding it
    lose the right to change the game. The answer holds the new key, shown this once. A
    phone that asked with its own right keeps it with the new key, as on the share page."""
    game, sent = editable_game_with_key(code)
    data = parse.fields(request_body(), "The request", ("version",))
    version = parse.integer(data["version"], "version", 0, 2**31)
    key = services.rotate_edit_key(game, version)
    answer = {"edit_key": key, "version": game.version}
    db.session.commit()
    if sent.from_session:
        remember_edit_key(game, key)
    return answer, 200, {"Cache-Control": "no-store"}


@bp.get("/games/<code>/export")
def export_game(code: str) -> ResponseReturnValue:
    """The game as a backup document with this one game, which the import command reads
    back; public like the game's state."""
    game = game_for_export(code)
    return document([game_document(game, public=True)])
