"""What a phone shows of a game while it is offline: the game state the server last gave
(the API's shape, DESIGN.md "Games") with the rounds this phone entered since, each scored
and explained as the server will score and explain it, and marked as not yet sent.

This is the one place that decides what the phone shows offline. It runs on the phone, in
the rules worker under Pyodide (companion/web/offline, the call ``games/offline``), and is
tested on the server against the server itself: the state it gives after a queued round
equals the state the API answers once that round is sent. So it may import only the
standard library, ``companion.rules`` and the pure readers beside it (``parse``,
``entries``; the import contract in pyproject.toml keeps it so).

A queued change is what the outbox will send, in the API's terms:
``{"action": "record", "body": {"version", "number"?, "entries"}}``,
``{"action": "correct", "number": n, "body": {"version", "entries"}}``,
``{"action": "mark", "body": {"version", "number"?, "marked"}}``, and for a round played
trick by trick ``{"action": "live", "body": {"version", "marked"?}}`` (open it),
``{"action": "trick", "number": n, "body": {"version", "cards" | "plays"}}`` (a trick, in
play order from its leader) and ``{"action": "undo", "number": n, "body": {"version"}}``
(take back the last trick); and ``{"action": "again", "body": {}}``, the table's next game
(``next_game`` is what the phone shows of it). A change the rules or the game refuse is not
applied: the
answer lists it under ``refused`` with the status and words the API would answer, so the
phone never shows a score the server will not keep.

A live round's indicators are hidden in the state while a hazy round is unscored (R15); the
phone that laid them out offline keeps them under ``laid_out`` (its own key, never sent), so
that its tricks are checked against them (C6) and the round is scored as the server will.
A hazy round opened on another phone is played out here without them: a trick naming one
of its face-down indicators is refused only by the server, and the round, once its last
trick is in, is marked ``awaiting_score`` and scored by the server when it is sent.

The module is over 400 lines because it mirrors, in one place, every change the server's
services apply to a game (companion/services/rounds.py, live.py and games.py's play again),
each in the server's order of checks: split up, that order would be harder to hold against
the server's.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from companion.play_state import parse
from companion.play_state.entries import read_entries
from companion.play_state.new_game import starting_state
from companion.play_state.parse import ApiError
from companion.rules import (
    MAX_PLAYERS,
    Card,
    Entry,
    Refusal,
    RoundScore,
    TableSetup,
    round_leader,
    score_checked,
    score_round,
    table_setup,
    winners,
)
from companion.rules.checks import check_marks
from companion.rules.explain import explain_seat
from companion.rules.hat_trick import Play
from companion.rules.live import LiveRound

#: The mark on each round (and the count on the game) that this phone has not sent yet.
PENDING = "pending"
#: A live round's indicators as this phone laid them out, hidden or not (R15).
LAID_OUT = "laid_out"
#: A hazy live round played out on this phone whose indicators only the server knows: it
#: is scored once sent (R15).
AWAITING_SCORE = "awaiting_score"
#: On a game whose next game this phone started (play again) before the server had it.
NEXT_STARTED = "next_started"
#: What the server calls a round's and a game's states (companion/data/states.py).
SCORED, PLAYING, LIVE, QUICK, FULL = "scored", "playing", "live", "quick", "full"
FINISHED, IN_PROGRESS, ABANDONED = "finished", "in_progress", "abandoned"


#: How a refusal is said to the table: in its language, naming its players (``names``, in
#: seat order), as the server's pages say it (the rules worker passes one); else the API's.
Say = Callable[[Refusal, Sequence[str]], str]


def api_words(refusal: Refusal, _names: Sequence[str]) -> str:
    """A refusal as the JSON API says it."""
    return str(refusal)


def game_offline(request: Mapping[str, Any], say: Say = api_words) -> dict[str, object]:
    """The rules worker's ``games/offline``: ``{"state": <game state>, "queued": [...]}``
    answered with the state the phone shows (:func:`offline_state`)."""
    body = parse.fields(request, "The request", ("state", "queued"))
    state, queued = body["state"], body["queued"]
    if not isinstance(state, dict) or not isinstance(queued, list):
        raise ApiError('"state" must be a game state and "queued" a list of changes.')
    return offline_state(state, queued, say)


def offline_state(
    state: Mapping[str, Any], queued: Sequence[Any], say: Say = api_words
) -> dict[str, object]:
    """``state`` with each change of ``queued`` applied in order, as the server would apply
    it; the rounds changed carry ``"pending": true``, the game how many changes wait,
    ``next_round`` the number of the round recorded next and ``next_leader`` the seat that
    leads its first trick, and ``refused`` the changes the server would refuse (index,
    status, and the words ``say`` gives: by default the API's)."""
    game: dict[str, Any] = copy.deepcopy(dict(state))
    setup = table_setup(len(game["players"]), parse.variant(game["variant"]))
    refused: list[dict[str, object]] = []
    for index, change in enumerate(queued):
        try:
            apply_change(game, setup, change)
        except Refusal as error:
            words = say(error, game["players"])
            refused.append({"change": index, "status": parse.refusal_status(error), "error": words})
    game.update(standings(game))
    game["next_round"] = number_to_record(game)
    game["next_leader"] = leader_of(game, setup, game["next_round"])
    game[PENDING] = len(queued) - len(refused)
    game["refused"] = refused
    return game


def apply_change(game: dict[str, Any], setup: TableSetup, change: object) -> None:
    """Apply one queued change to ``game``, checked in the server's order (the round it
    was opened for, an abandoned game, the rules C1-C5, then the round to fill), so a
    refusal is the one the server would give."""
    fields = parse.fields(change, "A queued change", ("action", "body"), ("number",))
    if fields["action"] == "mark":
        apply_marks(game, setup, fields["body"])
        return
    if fields["action"] == "live":
        apply_live_start(game, setup, fields["body"])
        return
    if fields["action"] == "again":
        apply_again(game)
        return
    if fields["action"] in LIVE_ACTIONS:
        number = parse.integer(fields.get("number"), "number", 1, 2**31)
        LIVE_ACTIONS[fields["action"]](game, setup, number, fields["body"])
        return
    body = parse.fields(fields["body"], "The change's body", ("version", "entries"), ("number",))
    entries = read_entries(body["entries"], setup)
    if fields["action"] == "record":
        number = number_to_record(game)
        check_opened_for(body.get("number"), number)
        check_open(game)
        scored = score_checked(setup, entries)
        round_ = round_to_record(game, setup, number)
    elif fields["action"] == "correct":
        check_open(game)
        round_ = round_to_correct(game, parse.integer(fields.get("number"), "number", 1, 2**31))
        scored = score_checked(setup, entries)
    else:
        raise ApiError(
            'A queued change\'s "action" is "record", "correct", "mark", "live", "cards", '
            '"trick", "undo", "undo_card" or "again".'
        )
    fill_scored(round_, setup, entries, scored)


def check_opened_for(opened_for: object, number: int, opened: int = 0) -> None:
    """A change opened for round ``opened_for`` is refused (409) unless that is round
    ``number``, the one to record next, and (marking) not one of the ``opened`` rounds the
    game already has (another phone may have taken it)."""
    if opened_for is None:
        return
    wanted = parse.integer(opened_for, "number", 1, 2**31)
    if wanted != number or wanted <= opened:
        raise ApiError(
            f"Round {opened_for} is not the round to record: round {number} is next "
            "(another phone may have recorded it). Nothing was saved.",
            409,
        )


def apply_marks(game: dict[str, Any], setup: TableSetup, body: object) -> None:
    """The colours of the next round marked (R4, R14), checked in the server's order (the
    round it was opened for, the marks C1 and C2, then the round to open); the round is then
    played, its indicators hidden while a hazy round is unscored (R15)."""
    fields = parse.fields(body, "The change's body", ("version", "marked"), ("number",))
    seats = parse.listing(fields["marked"], "marked", MAX_PLAYERS)
    marked = [parse.cards(cards, f"marked[{seat}]", 2) for seat, cards in enumerate(seats)]
    playing = bool(game["rounds"]) and game["rounds"][-1]["status"] == PLAYING
    check_opened_for(fields.get("number"), number_to_record(game), len(game["rounds"]))
    number = len(game["rounds"]) + 1
    check_marking(setup, marked)
    check_open(game)
    if playing:
        raise ApiError("A round is already being played; record it first.")
    if number > game["rounds_planned"]:
        raise ApiError(f"All {game['rounds_planned']} rounds of this game are recorded.")
    shown = None if setup.variant.hides_marks else [[c.as_json() for c in seat] for seat in marked]
    game["rounds"].append(
        {
            "number": number,
            "leader": round_leader(number, game["first_leader"], setup.players),
            "mode": QUICK,
            "status": PLAYING,
            "marked": shown,
            "scores": None,
            "explanations": None,
            PENDING: True,
        }
    )


def check_marking(setup: TableSetup, marked: Sequence[Sequence[Card]]) -> None:
    """Every seat's indicator cards, each named once (C1), of its own colours (C2), as the
    server's marking checks them (companion/services/rounds.py, in the same words)."""
    if not setup.variant.colours_marked or not setup.cards_laid_out:
        raise ApiError("Colours are marked only in classic-family games that lay them out.")
    if len(marked) != setup.players:
        raise ApiError(f"Give the indicator cards of all {setup.players} players.")
    check_marks(marked, setup.deck, setup.variant.colours_marked)


def number_to_record(game: Mapping[str, Any]) -> int:
    """The round recorded next: the one being played, else the one after the last."""
    rounds = game["rounds"]
    if rounds and rounds[-1]["status"] == PLAYING:
        return int(rounds[-1]["number"])
    return len(rounds) + 1


def leader_of(game: Mapping[str, Any], setup: TableSetup, number: int) -> int:
    """The seat that leads round ``number``'s first trick: as stored for a round being
    played, else by the rules (R3)."""
    rounds = game["rounds"]
    if len(rounds) >= number:
        return int(rounds[number - 1]["leader"])
    return round_leader(number, game["first_leader"], setup.players)


def check_open(game: Mapping[str, Any]) -> None:
    """An abandoned game takes no more changes."""
    if game["status"] == ABANDONED:
        raise ApiError("This game was abandoned; it takes no more changes.", 400)


def round_to_record(game: dict[str, Any], setup: TableSetup, number: int) -> dict[str, Any]:
    """The round a record fills: the one being played (marked), else a new one after the
    last; refused past the planned rounds, or while the round is played live."""
    rounds: list[dict[str, Any]] = game["rounds"]
    if rounds and rounds[-1]["status"] == PLAYING:
        if rounds[-1]["mode"] == LIVE:
            raise ApiError("This round is being played trick by trick; finish it live.", 400)
        return rounds[-1]
    if number > game["rounds_planned"]:
        planned = game["rounds_planned"]
        raise ApiError(f"All {planned} rounds of this game are recorded.", 400)
    round_: dict[str, Any] = {
        "number": number,
        "leader": round_leader(number, game["first_leader"], setup.players),
    }
    rounds.append(round_)
    return round_


def round_to_correct(game: dict[str, Any], number: int) -> dict[str, Any]:
    """The scored round ``number``; refused as the server refuses it."""
    rounds: list[dict[str, Any]] = game["rounds"]
    if not 1 <= number <= len(rounds):
        raise ApiError(f"This game has no round {number}.", 404)
    if rounds[number - 1]["status"] != SCORED:
        raise ApiError(f"Round {number} is not scored yet; record it instead.", 400)
    return rounds[number - 1]


def fill_scored(
    round_: dict[str, Any], setup: TableSetup, entries: Sequence[Entry], scored: RoundScore
) -> None:
    """The round as the server stores and shows it once scored: mode, marks, scores and the
    terms that explain each score (R10, R12-R16, R22)."""
    stored = [entry.as_json() for entry in entries]
    round_.update(
        mode=QUICK if any(entry.is_quick for entry in entries) else FULL,
        status=SCORED,
        marked=[list(entry.get("marked", [])) for entry in stored],
        scores=[seat.score for seat in scored.seats],
        explanations=[
            explain_seat(setup, seat, entry).as_json()
            for seat, entry in zip(scored.seats, entries, strict=True)
        ],
    )
    round_[PENDING] = True


def standings(game: Mapping[str, Any]) -> dict[str, object]:
    """Totals (R11), the game's status and, once finished, its winners."""
    totals = [0] * len(game["players"])
    scored = 0
    for round_ in game["rounds"]:
        if round_["status"] == SCORED:
            scored += 1
            totals = [total + score for total, score in zip(totals, round_["scores"], strict=True)]
    status = game["status"]
    if status != ABANDONED:
        status = FINISHED if scored >= game["rounds_planned"] else IN_PROGRESS
    return {
        "totals": totals,
        "status": status,
        "winners": winners(totals) if status == FINISHED else [],
    }


# --------------------------------------------------------------------------------------------
# Rounds played trick by trick (C6, R9, R19-R21), as companion/services/live.py plays them


def apply_live_start(game: dict[str, Any], setup: TableSetup, body: object) -> None:
    """The next round opened to be played live: with its indicators where the variant lays
    them out (C1, C2), or the round whose colours were marked, made live as it is."""
    fields = parse.fields(body, "The change's body", ("version",), ("marked",))
    marked = None
    if "marked" in fields:
        seats = parse.listing(fields["marked"], "marked", MAX_PLAYERS)
        marked = [parse.cards(cards, f"marked[{seat}]", 2) for seat, cards in enumerate(seats)]
    check_open(game)
    rounds: list[dict[str, Any]] = game["rounds"]
    current = rounds[-1] if rounds and rounds[-1]["status"] == PLAYING else None
    if current is not None and marked is None and not current.get("tricks"):
        make_live(current)
        return
    lays_out = setup.cards_laid_out > 0
    if lays_out and marked is None:
        raise ApiError(f"Give the indicator cards of all {setup.players} players.")
    if not lays_out and marked:
        raise ApiError("This variant lays out no indicator cards.")
    if lays_out and marked is not None:
        check_marking(setup, marked)
    if current is not None:
        raise ApiError("A round is already being played; record it first.")
    number = len(rounds) + 1
    if number > game["rounds_planned"]:
        raise ApiError(f"All {game['rounds_planned']} rounds of this game are recorded.")
    laid_out = [[card.as_json() for card in seat] for seat in marked or [[]] * setup.players]
    round_: dict[str, Any] = {
        "number": number,
        "leader": round_leader(number, game["first_leader"], setup.players),
        "status": PLAYING,
        "marked": None if setup.variant.hides_marks else laid_out,
        "scores": None,
        "explanations": None,
        LAID_OUT: laid_out,
    }
    rounds.append(round_)
    make_live(round_)


def make_live(round_: dict[str, Any]) -> None:
    """A round in play, from now on followed trick by trick from its leader (R3)."""
    round_.update(
        mode=LIVE,
        tricks_played=0,
        next_leader=round_["leader"],
        tricks=[],
        trick_so_far=[],
    )
    round_[PENDING] = True


def trick_field(setup: TableSetup) -> str:
    """What a trick's cards are called: Hat Trick's ``plays`` may be passes (R19)."""
    return "plays" if setup.variant.has_passes else "cards"


def plays_of(setup: TableSetup, items: object, where: str) -> list[Play]:
    """A trick's cards as the API reads them (a classic-family card is never a pass, R6)."""
    listed = parse.listing(items, where, MAX_PLAYERS)
    if setup.variant.has_passes:
        return [parse.play(item, f"{where}[{i}]") for i, item in enumerate(listed)]
    return [Play(parse.card(item, f"{where}[{i}]")) for i, item in enumerate(listed)]


def plays_json(setup: TableSetup, plays: Sequence[Play]) -> list[dict[str, object]]:
    """A trick's cards as the game state shows them."""
    if setup.variant.has_passes:
        return [dict(play.as_json()) for play in plays]
    return [dict(play.card.as_json()) for play in plays]


def live_round(game: Mapping[str, Any], number: int) -> dict[str, Any]:
    """Round ``number``, which must be played live; refused as the server refuses it."""
    rounds: list[dict[str, Any]] = game["rounds"]
    if not 1 <= number <= len(rounds):
        raise ApiError(f"This game has no round {number}.", 404)
    round_ = rounds[number - 1]
    if round_["mode"] != LIVE:
        raise ApiError(f"Round {number} is not played trick by trick.")
    return round_


def live_of(round_: Mapping[str, Any], setup: TableSetup) -> LiveRound:
    """The round as the rules follow it: its indicators (this phone's own when hidden,
    R15) and its tricks, each from the seat that led it (R9, R21)."""
    shown = round_.get(LAID_OUT) or round_.get("marked") or []
    marked = tuple(parse.cards(cards, "marked", 2) for cards in shown)
    live = LiveRound(setup, int(round_["leader"]), marked)
    field = trick_field(setup)
    for trick in round_.get("tricks") or []:
        live.follow_recorded_lead(int(trick["leader"]))
        live.play_trick(plays_of(setup, trick[field], field))
    return live


def apply_trick(game: dict[str, Any], setup: TableSetup, number: int, body: object) -> None:
    """One trick of a live round (C6, R19), the round scored after its last (R10-R16, R22)."""
    field = trick_field(setup)
    fields = parse.fields(body, "The change's body", ("version", field))
    plays = plays_of(setup, fields[field], field)
    check_open(game)
    round_ = live_round(game, number)
    if round_["status"] == SCORED:
        raise ApiError(f"Round {number} is over: all its tricks are played.")
    live = live_of(round_, setup)
    trick = live.play_trick(plays)
    round_["tricks"] = [
        *round_["tricks"],
        {"leader": trick.leader, field: plays_json(setup, plays)},
    ]
    round_["tricks_played"] = len(live.tricks)
    round_[PENDING] = True
    if not live.is_complete:
        round_.update(next_leader=live.leader, trick_so_far=[])
        return
    if setup.cards_laid_out and not any(live.marked):
        # A hazy round opened on another phone: its indicators are the server's (R15), so
        # the server scores it once the trick is sent.
        round_.update(next_leader=None, trick_so_far=[])
        round_[AWAITING_SCORE] = True
        return
    entries = live.entries()
    fill_scored(round_, setup, entries, score_round(setup, entries))
    round_.pop("trick_so_far", None)
    round_.update(mode=LIVE, next_leader=None)


def apply_undo(game: dict[str, Any], setup: TableSetup, number: int, body: object) -> None:
    """The last trick of a live round taken back; a round it scored is in play again, as
    long as it is the game's last round."""
    parse.fields(body, "The change's body", ("version",))
    check_open(game)
    round_ = live_round(game, number)
    if not round_.get("tricks"):
        raise ApiError(f"No trick has been played yet in round {number}.")
    if round_["status"] == SCORED and round_ is not game["rounds"][-1]:
        raise ApiError("Only the last round's last trick can be taken back.")
    round_["tricks"] = round_["tricks"][:-1]
    round_.pop(AWAITING_SCORE, None)
    if round_["status"] == SCORED:
        marked = round_["marked"]
        round_.update(
            status=PLAYING,
            scores=None,
            explanations=None,
            marked=None if setup.variant.hides_marks else marked,
        )
    live = live_of(round_, setup)
    round_.update(tricks_played=len(live.tricks), next_leader=live.leader, trick_so_far=[])
    round_[PENDING] = True


def apply_cards(game: dict[str, Any], setup: TableSetup, number: int, body: object) -> None:
    """The cards of a live round's unfinished trick (C6, R19), as ``PUT
    .../rounds/<n>/trick-so-far`` stores them: refused as stale when the trick is no longer
    the one they were entered on (``was``: another phone changed it)."""
    field = trick_field(setup)
    fields = parse.fields(body, "The change's body", ("version", field, "was"))
    plays = plays_of(setup, fields[field], field)
    was = plays_of(setup, fields["was"], "was")
    check_open(game)
    round_ = live_round(game, number)
    if round_["status"] == SCORED:
        raise ApiError(f"Round {number} is over: all its tricks are played.")
    if plays_of(setup, round_.get("trick_so_far") or [], field) != was:
        raise ApiError(TRICK_CHANGED, 409)
    if plays:
        live_of(round_, setup).check_partial_trick(plays)
    round_["trick_so_far"] = plays_json(setup, plays)
    round_[PENDING] = True


def apply_undo_card(game: dict[str, Any], setup: TableSetup, number: int, body: object) -> None:
    """The card that completed the last trick taken back, as ``DELETE
    .../tricks/last/cards/last`` does: the trick is open again with its other cards."""
    undone = copy.deepcopy(game)
    apply_undo(undone, setup, number, body)  # the server's checks first, in its order
    live = live_of(live_round(game, number), setup)
    last = live.undo_trick()
    kept, _ = live.reopen(last.leader, last.plays)  # refused before anything changes
    game.clear()
    game.update(undone)
    game["rounds"][number - 1]["trick_so_far"] = plays_json(setup, kept)


#: What the phone says when the unfinished trick changed on another phone (as the API does).
TRICK_CHANGED = (
    "Another phone changed this trick meanwhile, so your tap was not used. The trick is "
    "shown as it is now: tap again if your card is still missing."
)

LIVE_ACTIONS = {
    "cards": apply_cards,
    "trick": apply_trick,
    "undo": apply_undo,
    "undo_card": apply_undo_card,
}


# --------------------------------------------------------------------------------------------
# The table's next game (play again), as companion/services/games.py starts it


def live_entries_answer(request: Mapping[str, Any]) -> dict[str, object]:
    """The rules worker's ``rounds/live_entries``: ``{"state", "queued", "number"}``
    answered with ``{"entries": [...], "scores": [...]}``: round ``number`` as this phone
    played it live, as the API's entries of a round in full (each seat's indicators and
    every card it took, R10), and the scores they make, once all its tricks are played.
    What the phone shows, and sends, when the table keeps its round after a clash with
    another phone's."""
    body = parse.fields(request, "The request", ("state", "queued", "number"))
    number = parse.integer(body["number"], "number", 1, 2**31)
    if not isinstance(body["state"], dict) or not isinstance(body["queued"], list):
        raise ApiError('"state" must be a game state and "queued" a list of changes.')
    game = offline_state(before_round(body["state"], number), body["queued"])
    setup = table_setup(len(game["players"]), parse.variant(game["variant"]))
    round_ = live_round(game, number)
    live = live_of(round_, setup)
    if not live.is_complete or (setup.cards_laid_out and not any(live.marked)):
        raise ApiError(f"Round {number} is not over on this phone: it cannot be kept whole.")
    return {"entries": [entry.as_json() for entry in live.entries()], "scores": round_["scores"]}


def played_live(
    state: Mapping[str, Any], changes: Sequence[Mapping[str, Any]]
) -> dict[int, list[int]]:
    """The scores of each round played live on this phone that the server did not take (a
    change of it ``"clashed"``, in the phone's outbox ``changes``), by number, once played to
    its end here (``live_entries_answer``, from the game as the server has it now)."""
    live = {"live", *LIVE_ACTIONS}
    clashed = {
        change.get("number")
        for change in changes
        if change.get("state") == "clashed" and change.get("action") in live
    }
    played: dict[int, list[int]] = {}
    for number in sorted(n for n in clashed if isinstance(n, int)):
        queued = [
            {"action": change["action"], "body": change.get("body"), "number": number}
            for change in changes
            if change.get("action") in live and change.get("number") == number
        ]
        try:
            scores = live_entries_answer({"state": state, "queued": queued, "number": number})
        except Refusal:
            continue  # not played to its end here: only the other phone's round can stand
        played[number] = [int(score) for score in scores["scores"]]  # type: ignore[attr-defined]
    return played


def before_round(state: Mapping[str, Any], number: int) -> dict[str, Any]:
    """The game as it stood before round ``number`` was entered: what this phone's changes
    of that round were based on, whatever another phone made of the round since."""
    return {**state, "rounds": list(state["rounds"])[: number - 1], "status": IN_PROGRESS}


def apply_again(game: dict[str, Any]) -> None:
    """Play again, once the game is over (finished or abandoned): the phone starts the next
    game (``next_game``) and marks this one for it."""
    if game["status"] == IN_PROGRESS:
        raise ApiError("This game is still being played: finish or abandon it first.")
    game[NEXT_STARTED] = True


def next_game(state: Mapping[str, Any]) -> dict[str, object]:
    """The table's next game as the server starts it: the same players in the same seats,
    the same variant and rounds, the first lead one seat on (R3), nothing played yet."""
    players = list(state["players"])
    first_leader = round_leader(2, int(state["first_leader"]), len(players))
    return starting_state(players, state["variant"], state["rounds_planned"], first_leader)


def next_game_answer(request: Mapping[str, Any]) -> dict[str, object]:
    """The rules worker's ``games/next``: ``{"state": <a game over>}`` answered with its
    next game (refused, in the API's words, while the game is still played)."""
    state = parse.fields(request, "The request", ("state",))["state"]
    if not isinstance(state, dict):
        raise ApiError('"state" must be a game state.')
    apply_again(dict(state))
    return next_game(state)
