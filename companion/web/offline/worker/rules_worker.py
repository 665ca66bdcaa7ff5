"""The rules worker's Python side: the answers the JSON API gives, for the phone offline.

Shipped at the top of the rules archive (companion/web/offline/kit.py) and imported by
rules-worker.js under Pyodide; never imported by the app. Each call is an API path and the
request's JSON text; the answer is the status and body the API gives for them, computed by
the very functions the API's routes call (``companion.play_state.rules_answers``), refusals
included, so the phone and the server cannot disagree. Seven calls are the phone's own, in
the API's manner: ``games/offline`` (what the phone shows of a game), ``games/next`` (the
table's next game, as play again starts it), ``games/new`` (a game started as ``POST
/games`` starts it), ``rounds/live_entries`` (a round played live here, in full),
``rounds/fields`` and ``rounds/marks`` (a round form's posted fields read as the page reads
them) and ``live/tap`` (a tap on a live round's page, and the change it queues); and
pages drawn by the server's page models and templates (companion/pages), their links from
the route map the kit carries: ``pages/scoreboard``, the scoreboard's board from the kept
state and the queue, ``pages/resolver``, the trick resolver's trick after a tap, and
``pages/round_scores``, a round's scores with their reasons, a round queued here included,
``pages/live``, a live round (the cards of its unfinished trick queued here included), and
the round pages (``pages/record``, ``pages/mark``: record, correct, mark) and the page
starting a round live (``pages/live_start``), and the changes queued here that the server
did not take, with the conflict view's ways out (``pages/stopped``). With ``whole``, the
scoreboard comes with its heading, for the kept shell page a game only this phone holds is
drawn in.
Given the player's
language, a refusal is said in it as the server's pages say it (companion/rules/wording.py,
with the compiled catalogs the archive ships); without one, in the API's English.

It is over 450 lines because it is the worker's one entry point: every call the phone makes
is answered here, each by a short function that hands its request to the module the server
calls for the same thing, and the worker imports this one module.
"""

from __future__ import annotations

import gettext
import json
import re
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

from companion.play_state import (
    live_taps,
    new_game,
    offline_game,
    parse,
    round_fields,
    rules_answers,
    trick_taps,
)
from companion.rules import Refusal
from companion.rules.wording import Reader, say

#: The calls the worker answers, by the path of the API's route under ``/api/v1/``.
ANSWERS: dict[str, Callable[[Mapping[str, Any]], dict[str, object]]] = {
    "rounds/score": rules_answers.score_round,
    "tricks/resolve": rules_answers.resolve_trick,
    # Not an API path: what the phone shows of a game offline (the state plus its queue).
    "games/offline": offline_game.game_offline,
    # Not an API path: a round form's fields, as the page posts them, read into the entries
    # the page would read (and the count the others imply, C3, C5), for Save with no network.
    "rounds/fields": round_fields.fields_answer,
    # Not an API path: the mark page's fields read into each seat's indicator cards.
    "rounds/marks": round_fields.marks_answer,
    # Not an API path: the table's next game, as play again starts it on the server.
    "games/next": offline_game.next_game_answer,
    # Not an API path: a new game as POST /games will start it (refused as it refuses it).
    "games/new": new_game.new_game_answer,
    # Not an API path: a round played live on this phone, as the entries of a round in full
    # (kept after a clash with another phone's).
    "rounds/live_entries": offline_game.live_entries_answer,
}
#: The calls whose answer is in the player's words: given the language (English without one).
TOLD: dict[str, Callable[[Mapping[str, Any], Reader], dict[str, object]]] = {
    # Not an API path: one tap on a live round's page offline: the change it makes, if any,
    # and the page told in the table's words.
    "live/tap": live_taps.live_tap,
}

#: The pages the worker renders, as the server renders them.
PAGES = frozenset(
    {
        "pages/scoreboard",
        "pages/resolver",
        "pages/round_scores",
        "pages/live",
        "pages/record",
        "pages/mark",
        "pages/live_start",
        "pages/stopped",
    }
)

#: The calls of a page whose refusals, in the player's words, also name the field they
#: concern (the page shows each beside its field, else beside the players).
FIELDS_NAMED = frozenset({"games/new"})


#: The compiled catalogs, unpacked beside this module (companion/web/offline/kit.py).
HERE = Path(__file__).resolve().parent
CATALOGS = HERE / "companion" / "translations"
#: The templates of the pages the worker renders, compiled to Python modules when the kit was
#: built, and the app's route map (kit.py).
TEMPLATES = HERE / "templates"
ROUTES = HERE / "routes.json"
#: A variable part of a URL rule: ``<code>``, ``<int:number>``, ``<any(a, b):page>``.
RULE_PART = re.compile(r"<(?:[^:<>]+:)?([A-Za-z_][A-Za-z0-9_]*)>")


def answer(call: str, request: str, language: str | None = None) -> str:
    """``{"status": ..., "body": ...}`` as JSON text: what ``POST /api/v1/<call>`` answers
    to the JSON text ``request``; a refusal's ``error`` in ``language`` as the pages say it,
    if one is given (English for a language the app does not have)."""
    if call not in ANSWERS and call not in TOLD and call not in PAGES:
        known = ", ".join(sorted([*ANSWERS, *TOLD, *PAGES]))
        return reply(404, {"error": f'The rules worker answers {known}, not "{call}".'})
    try:
        body = parse.read_json(request.encode("utf-8", "surrogatepass"))
        if call == "games/offline" and language is not None:  # refusals said to the table
            return reply(200, offline_game.game_offline(body, table_words(language)))
        if call in TOLD:
            return reply(200, TOLD[call](body, reader(language or "en")))
        if call == "pages/scoreboard":
            return reply(200, scoreboard(body, language or "en"))
        if call == "pages/resolver":
            return reply(200, resolver(body, language or "en"))
        if call == "pages/round_scores":
            return reply(200, round_scores(body, language or "en"))
        if call == "pages/live":
            return reply(200, live_round(body, language or "en"))
        if call in ROUND_PAGES:
            return reply(200, round_page(body, language or "en", ROUND_PAGES[call]))
        if call == "pages/live_start":
            return reply(200, live_start(body, language or "en"))
        if call == "pages/stopped":
            return reply(200, stopped(body, language or "en"))
        return reply(200, ANSWERS[call](body))
    except Refusal as error:
        said: dict[str, object] = {"error": words(error, language)}
        if call in FIELDS_NAMED and language is not None and error.field is not None:
            said["field"] = error.field  # where the page shows it
        return reply(parse.refusal_status(error), said)


def words(refusal: Refusal, language: str | None) -> str:
    """The refusal as the API says it, or as the server's pages say it in ``language``
    (which count seats from 1, where the API counts them from 0)."""
    if language is None:
        return str(refusal)
    return say(refusal.message, reader(language))


def table_words(language: str) -> offline_game.Say:
    """Refusals as the server's pages say them in ``language``, naming the players."""
    return lambda refusal, names: say(refusal.message, reader(language), names)


def reader(language: str) -> Reader:
    """The reader of ``language``, through its shipped catalog; English for any other."""
    known = language.isalpha() and catalog(language).is_file()
    return catalog_reader(language) if known else Reader()


def catalog(language: str) -> Path:
    return CATALOGS / language / "LC_MESSAGES" / "messages.mo"


@cache
def catalog_reader(language: str) -> Reader:
    """Read once, when the first refusal in ``language`` is said."""
    with catalog(language).open("rb") as file:
        return Reader.of(gettext.GNUTranslations(file), language)


def reply(status: int, body: Mapping[str, object]) -> str:
    return json.dumps({"status": status, "body": body})


# --------------------------------------------------------------------------------------------
# Pages


def scoreboard(body: Mapping[str, Any], language: str) -> dict[str, object]:
    """The scoreboard's board (templates/games/scoreboard_board.html) of the game the phone
    kept (``state``) with the changes it queued (``queued``), as the server will draw it once
    they are sent, the queued rounds marked as not yet sent. ``root`` is where the app is
    (its URL prefix), ``token`` the CSRF token of the page the phone kept, ``editable``
    whether this phone may change the game; ``excluded`` and ``next_game``, which the game's
    state does not hold, as the kept page said them. A game the server does not have yet (a
    next game, a new game started here) is a state like any other: ``address`` is then where
    its pages are on this phone (``/g/<code>/next``, ``/games/new/<key>``), which its links
    lead to, and it offers only what the phone can do with it (no correction of a round not
    sent, no table tools); ``whole`` draws it with its heading, as the page the kept shell
    shows. Answers the HTML, the number of the round to record next and what the server
    would refuse of the queue."""
    # Imported when the first page is drawn, not at the worker's start: the rules answer
    # sooner, and a phone that never draws a page offline never loads Jinja.
    from companion.pages import scoreboard as scoreboard_page  # noqa: PLC0415

    fields = parse.fields(
        body,
        "The request",
        ("state", "queued"),
        ("root", "token", "editable", "view", "excluded", "next_game", "address", "whole"),
    )
    state = offline_game.game_offline(
        {"state": fields["state"], "queued": fields["queued"]}, table_words(language)
    )
    board = scoreboard_page.scoreboard_of(
        state,
        reader(language),
        excluded=fields.get("excluded") is True,
        next_game_code=next_game(fields.get("next_game"), state),
    )
    address = fields.get("address")
    link = linker(str(fields.get("root") or ""), board.code, str(address) if address else None)
    context = scoreboard_page.board_context(
        state,
        board,
        link,
        str(fields.get("token") or ""),
        fields.get("editable") is True,
        fields.get("view") is True,
    )
    if address:
        context = scoreboard_page.unsent_context(context)
    whole = fields.get("whole") is True
    template = "games/scoreboard_unsent.html" if whole else "games/scoreboard_board.html"
    html = environment(language).get_template(template).render(context)
    return {
        "html": html,
        "pending": state[offline_game.PENDING],
        "refused": state["refused"],
        "next_round": state["next_round"],
        "status": state["status"],
    }


def resolver(body: Mapping[str, Any], language: str) -> dict[str, object]:
    """The trick resolver's trick and deck (templates/tools/resolver_trick.html) after one
    tap, as the server's page draws them: the table (``rule`` and ``players`` outside a game,
    or the game's ``variant``, ``names`` and ``leader``, trick_taps.asked_table), the trick
    sent back (``trick``, the hidden field) and the ``tap`` (``{"add": "red-7"}``,
    ``{"undo": true}``, ``{"clear": true}``, or ``{}``: the settings only); ``root`` is where
    the app is. Answers the HTML and the trick's field after the tap."""
    from companion.pages import resolver as resolver_page  # noqa: PLC0415 (see scoreboard)

    fields = parse.fields(
        body,
        "The request",
        ("trick", "tap"),
        ("pass_next", "rule", "players", "variant", "names", "leader", "root"),
    )
    table = trick_taps.asked_table(fields)
    asked = fields["tap"]
    if not isinstance(asked, dict):
        raise parse.ApiError('"tap" must be an object.')
    added = asked.get("add")
    tapped = trick_taps.tap(
        table.setup,
        fields["trick"] if isinstance(fields["trick"], str) else "",
        add=added if isinstance(added, str) else None,
        undo=asked.get("undo") is True,
        clear=asked.get("clear") is True,
        passing=fields.get("pass_next") is True,
    )
    said = reader(language)
    page = resolver_page.resolver_of(
        table.setup,
        resolver_page.players_in_order(table.setup, said, table.names, table.leader),
        tapped.plays,
        said,
        tapped.refusal,
        tapped.refused,
        tapped.cleared,
        table.names or None,
    )
    context = resolver_page.resolver_context(page, linker(str(fields.get("root") or "")))
    html = environment(language).get_template("tools/resolver_trick.html").render(context)
    return {"html": html, "trick": tapped.field, "refused": page.refusal is not None}


def round_scores(body: Mapping[str, Any], language: str) -> dict[str, object]:
    """Round ``number``'s scores with their reasons (templates/games/round_scores_list.html)
    in the game the phone kept (``state``) with the changes it queued (``queued``), as the
    server will draw them once they are sent; ``root`` is where the app is. Answers the HTML,
    or none for a round not scored."""
    from companion.pages import round_scores as round_page  # noqa: PLC0415 (see scoreboard)

    fields = parse.fields(body, "The request", ("state", "queued", "number"), ("root",))
    number = parse.integer(fields["number"], "number", 1, 1000)
    state = offline_game.game_offline(
        {"state": fields["state"], "queued": fields["queued"]}, table_words(language)
    )
    page = round_page.round_scores_of(state, number, reader(language))
    if page is None:
        return {"html": None}
    context = round_page.round_context(page, linker(str(fields.get("root") or "")))
    html = environment(language).get_template("games/round_scores_list.html").render(context)
    return {"html": html}


def live_round(body: Mapping[str, Any], language: str) -> dict[str, object]:
    """The live page of round ``number`` (templates/games/live_round.html) of the game the
    phone kept (``state``) with the changes it queued (``queued``, the cards of the
    unfinished trick among them), as the server will draw it once they are sent. ``root``,
    ``token`` and ``next_game`` as for the scoreboard; ``refusal``, ``refused`` and
    ``notes``: what the last tap (``live/tap``) said; ``address``: the game's address when
    the server does not have the game yet (started or played again on this phone). Answers
    the HTML."""
    from companion.pages import live as live_page  # noqa: PLC0415 (see scoreboard)

    fields = parse.fields(
        body,
        "The request",
        ("state", "queued", "number"),
        ("root", "token", "next_game", "refusal", "refused", "notes", "address"),
    )
    state = offline_game.game_offline(
        {"state": fields["state"], "queued": fields["queued"]}, table_words(language)
    )
    number = parse.integer(fields["number"], "number", 1, 2**31)
    offline_game.live_round(state, number)  # refused unless the round is played live
    refused = fields.get("refused")
    page = live_page.live_page_of(
        state,
        number,
        reader(language),
        next_game_code=next_game(fields.get("next_game"), state),
        refused=str(refused) if refused else None,
    )
    notes = fields.get("notes") or []
    refusal = fields.get("refusal")
    address = fields.get("address")  # a game the server does not have yet: its pages there
    link = linker(str(fields.get("root") or ""), page.code, str(address) if address else None)
    context = live_page.live_context(
        page,
        link,
        str(fields.get("token") or ""),
        notes=[str(note) for note in notes] if isinstance(notes, list) else [],
        refusal=str(refusal) if refusal else None,
    )
    html = environment(language).get_template("games/live_round.html").render(context)
    return {"html": html, "pending": state[offline_game.PENDING], "refused": state["refused"]}


#: The round pages the worker draws, by call: the template of each one's content.
ROUND_PAGES = {
    "pages/record": "games/round_record_page.html",
    "pages/mark": "games/round_mark_page.html",
}


def round_page(body: Mapping[str, Any], language: str, template: str) -> dict[str, object]:
    """A round page's content (the record page in the entry ``mode`` asked for, a
    correction's when ``number`` names a round, or the mark page) of the game the phone
    kept (``state``) with the changes it queued (``queued``), as the server draws it once
    they are sent: its form holding the round's indicators as marked, or the ``fields`` the
    page posted (``{name: [values...]}``), shown again; a correction of a round the server
    scored before the phone went offline shows the fields of the page the phone ``kept``.
    With ``check``, the ``fields`` are checked as the server's Check does (C1-C5): the page
    shows each seat's score, or every refusal beside the seat it names, and the count the
    others imply filled in. ``root``, ``token`` and ``address`` as for the scoreboard.
    Answers the HTML, the round's number and the form's kind."""
    from companion.pages import record  # noqa: PLC0415 (see scoreboard)

    fields = parse.fields(
        body,
        "The request",
        ("state", "queued"),
        ("root", "token", "mode", "number", "fields", "kept", "check", "address"),
    )
    state: dict[str, Any] = offline_game.game_offline(
        {"state": fields["state"], "queued": fields["queued"]}, table_words(language)
    )
    setup = record.setup_of(state)
    correcting = fields.get("number") is not None
    number = (
        parse.integer(fields["number"], "number", 1, len(state["rounds"]))
        if correcting
        else int(state["next_round"])
    )
    marking = template == ROUND_PAGES["pages/mark"]
    mode = fields.get("mode")
    stored = (
        queued_entries(fields, number) if correcting else marked_entries(state, number, marking)
    )
    posted = fields.get("fields")
    if posted is None and correcting and stored is None:
        posted = fields.get("kept")  # the round as the kept page showed it, scored before
    kind = (
        record.Kind.MARK
        if marking
        else record.kind_of(setup, mode if isinstance(mode, str) else None, stored)
    )
    if posted is not None:
        values: dict[str, list[str]] = round_fields.posted_fields(posted)
    else:
        values = record.entry_values(kind, stored, setup.players)
    words = reader(language)
    checked = checked_round(kind, setup, values, words, state) if fields.get("check") else {}
    page = record.round_page(state, kind, number, values, words, **checked)
    code = page.code
    link = page_linker(fields, code)
    hidden = [
        ("csrf_token", str(fields.get("token") or "")),
        ("version", str(state["version"])),
        ("number", str(number)),
        ("digest", ""),
    ]
    if correcting:
        modes = record.mode_links(
            page,
            words,
            lambda other: link("games.correct_round", code=code, number=number, mode=other),
        )
    else:
        modes = record.mode_links(
            page, words, lambda other: link("games.record_round", code=code, mode=other)
        )
    context = record.round_context(
        page, link, hidden[:3] if marking else hidden, correcting=correcting, modes=modes
    )
    html = environment(language).get_template(template).render(context)
    return {"html": html, "number": number, "kind": kind.value}


def live_start(body: Mapping[str, Any], language: str) -> dict[str, object]:
    """The page starting the next round live (templates/games/live_start_page.html) of the
    game the phone kept (``state``) with the changes it queued (``queued``), as the server
    draws it once they are sent: the mark page's chips when the variant lays out indicators
    and the round is not marked yet (R4, R14-R16), else one button. ``root``, ``token`` and
    ``address`` as for the scoreboard. Answers the HTML and the round's number."""
    from companion.pages import record  # noqa: PLC0415 (see scoreboard)

    fields = parse.fields(body, "The request", ("state", "queued"), ("root", "token", "address"))
    state: dict[str, Any] = offline_game.game_offline(
        {"state": fields["state"], "queued": fields["queued"]}, table_words(language)
    )
    words = reader(language)
    context = record.live_start_context(
        state, words, page_linker(fields, str(state["id"])), str(fields.get("token") or "")
    )
    html = environment(language).get_template("games/live_start_page.html").render(context)
    return {"html": html, "number": context["number"]}


def stopped(body: Mapping[str, Any], language: str) -> dict[str, object]:
    """The changes this phone queued that the server did not take (a clash with another
    phone's change, 409, or a refusal), as the scoreboard shows them
    (templates/games/round_stopped.html, with the server's conflict view for a clash), from
    the game as the server has it now (``state``) and the phone's outbox (``changes``: each
    with its ``id``, ``action``, ``number``, ``body``, ``state``, ``error``, ``fields`` and
    ``page``). A round played live here is offered whole, with its scores, once played to
    its end. ``root`` and ``token`` as for the scoreboard. Answers the HTML."""
    from companion.pages import clash  # noqa: PLC0415 (see scoreboard)

    fields = parse.fields(body, "The request", ("state", "changes"), ("root", "token"))
    state, changes = fields["state"], fields["changes"]
    if not isinstance(state, dict) or not isinstance(changes, list):
        raise parse.ApiError('"state" must be a game state and "changes" a list of changes.')
    kept = [change for change in changes if isinstance(change, Mapping)]
    played = offline_game.played_live(state, kept)
    words = reader(language)
    link = linker(str(fields.get("root") or ""), str(state["id"]))
    context = {
        "stopped": clash.stopped_of(state, kept, words, link, played),
        "form_token": str(fields.get("token") or ""),
    }
    html = environment(language).get_template("games/round_stopped.html").render(context)
    return {"html": html}


def page_linker(fields: Mapping[str, Any], code: str) -> Callable[..., str]:
    """The links of a page of the game ``code``: under ``root``, and under ``address`` for
    a game the server does not have yet."""
    address = fields.get("address")
    return linker(str(fields.get("root") or ""), code, str(address) if address else None)


def checked_round(
    kind: Any, setup: Any, values: dict[str, list[str]], words: Reader, state: Mapping[str, Any]
) -> dict[str, Any]:
    """What the server's Check shows of a round form's ``values`` (filled in, in place, with
    the count the others imply): the scores, or the refusals (C1-C5) and unreadable fields."""
    from companion.pages import record  # noqa: PLC0415 (see scoreboard)
    from companion.rules import RoundRefused, score_checked  # noqa: PLC0415

    names = [str(name) for name in state["players"]]
    problems = record.Problems()
    try:
        read = round_fields.read_round_fields(kind.value, setup, values)
    except round_fields.FieldRefused as refused:
        return {"errors": {refused.field: [words_of(refused, words, names)]}}
    found: dict[str, Any] = {"problems": problems}
    if read.implied is not None:
        name = f"s{read.implied.seat}-{read.implied.field}"
        values[name] = [str(read.implied.value)]
        found.update(implied=name, zero_passes=read.implied.zero_passes)
    try:
        found["scores"] = [seat.score for seat in score_checked(setup, read.entries).seats]
    except RoundRefused as refused:
        for problem in refused.problems:
            problems.add(problem, names, words)
    except Refusal as refused:
        problems.add(refused, names, words)
    return found


def words_of(refusal: Refusal, words: Reader, names: list[str]) -> str:
    return say(refusal.message, words, names)


def queued_entries(fields: Mapping[str, Any], number: int) -> list[Any] | None:
    """The entries of round ``number`` as this phone last queued them (recorded or
    corrected here), as a correction's form shows them; ``None`` for a round the server
    scored before the phone went offline (the phone does not hold its entries)."""
    state, queued = fields["state"], fields["queued"]
    found = None
    for index, change in enumerate(queued):
        action = change.get("action") if isinstance(change, Mapping) else None
        if action == "record":
            opened = offline_game.offline_state(state, queued[:index])["next_round"]
        elif action == "correct":
            opened = change.get("number")
        else:
            continue
        body = change.get("body")
        if opened == number and isinstance(body, Mapping) and isinstance(body.get("entries"), list):
            found = body["entries"]
    return found


def marked_entries(
    state: Mapping[str, Any], number: int, marking: bool
) -> list[dict[str, object]] | None:
    """The indicators the round to record was marked with, as stored entries (none on the
    mark page, none while hidden, R15)."""
    rounds = state["rounds"]
    if marking or number > len(rounds):
        return None
    marked = rounds[number - 1].get("marked")
    if rounds[number - 1]["status"] == "scored" or not marked:
        return None
    return [{"marked": cards} for cards in marked]


@cache
def environment(language: str) -> Any:
    """The templates in ``language``, each imported once for the visit (Jinja keeps them)."""
    from companion.pages import render  # noqa: PLC0415 (see scoreboard)

    known = language.isalpha() and catalog(language).is_file()
    if known:
        with catalog(language).open("rb") as file:
            translations: gettext.NullTranslations = gettext.GNUTranslations(file)
    else:
        translations = gettext.NullTranslations()
    return render.page_environment(TEMPLATES, translations, language if known else "en")


@cache
def routes() -> dict[str, str]:
    """The app's route map (endpoint -> URL rule), as the server handed it to the kit."""
    loaded: dict[str, str] = json.loads(ROUTES.read_text())
    return loaded


def next_game(kept: object, state: Mapping[str, Any]) -> str | None:
    """The table's next game, as the kept page named it, or as this phone started it (play
    again offline: its pages are under the game's own, ``/g/<code>/next``)."""
    if kept or state.get(offline_game.NEXT_STARTED):
        return str(kept or offline_game.NEXT_STARTED)
    return None


def linker(root: str, code: str = "", address: str | None = None) -> Callable[..., str]:
    """``url_for`` as the worker has it: an endpoint's rule with its values filled in,
    under ``root``; with an ``address``, the pages of the game ``code`` are under it (a game
    the server does not have yet)."""

    def path_of(endpoint: str, **values: object) -> str:
        rule = routes()[endpoint]
        return RULE_PART.sub(lambda part: quote(str(values[part.group(1)]), safe=""), rule)

    def query_of(endpoint: str, **values: object) -> str:
        """The values the rule does not hold, as ``url_for`` adds them (``?mode=quick``)."""
        used = set(RULE_PART.findall(routes()[endpoint]))
        query = urlencode(
            [(k, str(v)) for k, v in values.items() if k not in used and v is not None]
        )
        return "?" + query if query else ""

    def url(endpoint: str, **values: object) -> str:
        path = path_of(endpoint, **values)
        query = query_of(endpoint, **values)
        if address is not None:
            game = path_of("games.scoreboard", code=code)
            if path == game or path.startswith(game + "/"):
                return address + path[len(game) :] + query
        return root + path + query

    return url
