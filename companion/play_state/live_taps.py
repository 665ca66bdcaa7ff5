"""A tap on the live round page with no network: the card, the undo, and the change it
queues.

This is the rules worker's call ``live/tap`` (companion/web/offline): the game as the phone
shows it offline (``offline_game``: the state the server last gave and the changes queued
since, the cards of the unfinished trick among them), the round's number, and one tap. The
tap is checked as the live page checks it (C1, C6, R19) and answered with the change to
queue, in the API's terms: a card of the unfinished trick (``cards``: the trick as it is
now, and as it was), the trick's last card (``trick``), a card or a trick taken back
(``undo_card``, ``undo``). Once it is queued, the page is drawn by the worker's
``pages/live`` from the kept state and the queue, as the server will draw it once the queue
is sent; a refusal and the notes of the tap, in the reader's language, go on that page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.play_state import parse
from companion.play_state.offline_game import (
    LIVE,
    SCORED,
    apply_change,
    live_of,
    live_round,
    offline_state,
    plays_json,
    plays_of,
    trick_field,
)
from companion.play_state.parse import ApiError
from companion.play_state.trick_taps import card_words
from companion.rules import Play, Refusal, RuleError, TableSetup, only_a_pass, table_setup
from companion.rules.cards import card_of_token
from companion.rules.live import LiveRound
from companion.rules.names_in_sentences import before_names
from companion.rules.text import N_
from companion.rules.wording import Reader, say

#: The taps of the live page: a card's chip, the two undo buttons, or none (draw the page).
TAPS = ("card", "undo_card", "undo_trick")

#: What a tap says, as the live page's routes say it (companion/web/games/live/routes.py).
WORDS = {
    "not_a_card": N_("“%(value)s” is not a card."),
    "over": N_("Round %(number)s is over: all its tricks are played."),
    "no_card": N_("This trick has no card yet, so there is no card to take back."),
    "taken_back": N_("Taken back: %(card)s (%(player)s)."),
    "reopened": N_(
        "Taken back: %(card)s (%(player)s). Trick %(number)s is open again: enter its last card."
    ),
    "withdrawn": N_("The round’s scores are withdrawn until its last trick is complete."),
    "trick_taken_back": N_("Trick %(number)s taken back: enter its cards again."),
}


def word(reader: Reader, key: str, **values: object) -> str:
    """One of the tap's sentences, the words before a name as the language writes them."""
    text = reader.gettext(WORDS[key])
    return before_names(text, values, reader.language) % values if values else text


def live_tap(raw: Mapping[str, Any], reader: Reader) -> dict[str, object]:
    """``live/tap``: ``{"state", "queued", "number", "tap"}`` in (``tap``: ``{"card":
    "red-7"}``, ``{"undo_card": true}``, ``{"undo_trick": true}`` or ``{}``). Out: the
    ``change`` to queue (or ``null``), the ``refusal`` of a tap the rules refuse (which
    changes nothing), the card ``refused``, and the ``notes`` the page shows."""
    body = parse.fields(raw, "The request", ("state", "queued", "number", "tap"))
    if not isinstance(body["queued"], list) or not isinstance(body["tap"], dict):
        raise ApiError('"queued" must be a list of changes and "tap" an object.')
    number = parse.integer(body["number"], "number", 1, 2**31)
    game = offline_state(body["state"], body["queued"])
    names = [str(name) for name in game["players"]]
    setup = table_setup(len(names), parse.variant(game["variant"]))
    live_round(game, number)  # refused unless the round is played live
    tap = Tap(game, setup, number, names, reader)
    action = next((name for name in TAPS if body["tap"].get(name)), None)
    if action == "card":
        tap.card(str(body["tap"]["card"]))
    elif action == "undo_card":
        tap.undo_card()
    elif action == "undo_trick":
        tap.undo_trick()
    return {
        "change": tap.change,
        "refusal": tap.refusal,
        "refused": tap.refused,
        "notes": tap.notes,
    }


class Tap:
    """One tap on the live page of round ``number``: what it changes, and what it says."""

    def __init__(
        self,
        game: dict[str, Any],
        setup: TableSetup,
        number: int,
        names: Sequence[str],
        reader: Reader,
    ) -> None:
        self.game, self.setup, self.number = game, setup, number
        self.names, self.reader = names, reader
        self.change: dict[str, object] | None = None
        self.refusal: str | None = None
        self.refused: str | None = None
        self.notes: list[str] = []
        round_ = self.round()
        field = trick_field(setup)
        scored = round_["status"] == SCORED
        self.plays = (
            () if scored else tuple(plays_of(setup, round_.get("trick_so_far") or [], field))
        )

    def round(self) -> dict[str, Any]:
        round_: dict[str, Any] = self.game["rounds"][self.number - 1]
        return round_

    def live(self) -> LiveRound:
        return live_of(self.round(), self.setup)

    def card(self, token: str) -> None:
        """C1, C6, R19: the card added to the trick (a card of the third colour, once two
        are in a Hat Trick trick, is a pass); the trick's last card queues the trick."""
        card = card_of_token(token)
        if card is None:
            self.refusal = word(self.reader, "not_a_card", value=token[:20])
            return
        if self.round()["status"] == SCORED:
            self.refusal = word(self.reader, "over", number=self.number)
            return
        passed = only_a_pass(self.setup.variant, self.plays, card)
        plays = (*self.plays, Play(card, passed=self.setup.variant.has_passes and passed))
        try:
            self.live().check_partial_trick(plays)
        except RuleError as error:
            self.refusal = say(error.message, self.reader, self.names)
            self.refused = token
            return
        if len(plays) < self.setup.players:
            self.queue_cards(plays)
            return
        self.queue({"action": "trick", "number": self.number, "body": {}}, plays)

    def queue_cards(self, plays: Sequence[Play]) -> bool:
        """The unfinished trick as it is now, and as it was (the server refuses the change
        if another phone changed the trick meanwhile)."""
        was = plays_json(self.setup, self.plays)
        return self.queue({"action": "cards", "number": self.number, "body": {"was": was}}, plays)

    def undo_card(self) -> None:
        """The last card entered taken back: of the unfinished trick, or else the one that
        completed the last trick, which is taken back and opened again with its others."""
        if self.plays:
            removed = self.plays[-1]
            seat = self.live().seat_order()[len(self.plays) - 1]
            if self.queue_cards(self.plays[:-1]):
                self.notes.append(
                    word(
                        self.reader,
                        "taken_back",
                        card=card_words(removed.card, self.reader),
                        player=self.names[seat],
                    )
                )
            return
        live = self.live()
        if not live.tricks:
            self.refusal = word(self.reader, "no_card")
            return
        last = live.tricks[-1]
        scored = self.round()["status"] == SCORED
        if not self.queue({"action": "undo_card", "number": self.number, "body": {}}):
            return
        reopened = self.live()
        kept = plays_of(self.setup, self.round().get("trick_so_far") or [], "trick_so_far")
        seat = (last.leader + len(kept)) % self.setup.players
        note = word(
            self.reader,
            "reopened",
            card=card_words(last.plays[len(kept)].card, self.reader),
            player=self.names[seat],
            number=len(reopened.tricks) + 1,
        )
        if scored:
            note += " " + word(self.reader, "withdrawn")
        self.notes.append(note)

    def undo_trick(self) -> None:
        """The last saved trick taken back (a round it finished is in play again)."""
        taken_back = len(self.live().tricks)
        if self.queue({"action": "undo", "number": self.number, "body": {}}):
            self.notes.append(word(self.reader, "trick_taken_back", number=taken_back))

    def queue(self, change: dict[str, Any], plays: Sequence[Play] | None = None) -> bool:
        """Apply ``change`` (its cards ``plays``) to the game as the server will; answers
        whether it was, else says the server's refusal on the page."""
        body = {"version": self.game.get("version", 0), **change["body"]}
        if plays is not None:
            body[trick_field(self.setup)] = plays_json(self.setup, plays)
        made = {**change, "body": body}
        try:
            if self.round()["mode"] != LIVE:
                raise ApiError(f"Round {self.number} is not played trick by trick.")
            apply_change(self.game, self.setup, made)
        except Refusal as error:
            self.refusal = say(error.message, self.reader, self.names)
            return False
        self.change = made
        return True
