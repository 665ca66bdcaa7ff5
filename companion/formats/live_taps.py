"""A tap on the live round page with no network: the card, the undo, the round after it,
and the page in the table's words.

This is the rules worker's call ``live/tap`` (companion/web/offline): the game as the phone
shows it offline (``offline_game``: the state the server last gave and the changes queued
since), the round's number, the unfinished trick kept on the phone, and one tap. The tap is
checked as the live page checks it (C1, C6, R19) and, when it completes a trick or takes one
back, answered with the change to queue, in the API's terms, already applied: so the phone
shows the trick taken, the next leader (R9, R21) and, after the last trick, the round's
scores, exactly as the server will once the change is sent.

What the page shows comes back as ``page`` (``live_page.page_words``), every sentence in the
reader's language with the live page's own templates (templates/games/live.html). A test
holds it against the server's live page in every language and trick rule.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.formats import live_page, parse
from companion.formats.live_words import word
from companion.formats.offline_game import (
    LIVE,
    PENDING,
    SCORED,
    apply_change,
    live_of,
    live_round,
    offline_state,
    plays_json,
    plays_of,
    standings,
    trick_field,
)
from companion.formats.parse import ApiError
from companion.formats.trick_taps import card_words, read_trick, write_trick
from companion.rules import Play, Refusal, RuleError, TableSetup, only_a_pass, table_setup
from companion.rules.cards import card_of_token
from companion.rules.live import LiveRound
from companion.rules.wording import Reader, say

#: The taps of the live page: a card's chip, the two undo buttons, or none (draw the page).
TAPS = ("card", "undo_card", "undo_trick")


def live_tap(raw: Mapping[str, Any], reader: Reader) -> dict[str, object]:
    """``live/tap``: ``{"state", "queued", "number", "trick", "tap"}`` in (``trick``: the
    unfinished trick as the resolver writes it, ``red-7 pass:green-3``, or ``null`` for the
    one in the state, entered on the server's page before the phone went offline; ``tap``:
    ``{"card": "red-7"}``, ``{"undo_card": true}``, ``{"undo_trick": true}`` or ``{}``). Out: the
    ``change`` to queue (or ``null``), the unfinished ``trick`` after the tap, and the
    ``page``. A tap the rules refuse changes nothing and is said on the page, as the page
    says it; so is an unfinished trick that no longer fits the round (another phone's
    trick was sent meanwhile): it is dropped, and said to be."""
    body = parse.fields(raw, "The request", ("state", "queued", "number", "trick", "tap"))
    if not isinstance(body["queued"], list) or not isinstance(body["tap"], dict):
        raise ApiError('"queued" must be a list of changes and "tap" an object.')
    number = parse.integer(body["number"], "number", 1, 2**31)
    game = offline_state(body["state"], body["queued"])
    names = [str(name) for name in game["players"]]
    setup = table_setup(len(names), parse.variant(game["variant"]))
    live_round(game, number)  # refused unless the round is played live
    tap = Tap(game, setup, number, names, reader)
    tap.plays = tap.unfinished(body["trick"])
    action = next((name for name in TAPS if body["tap"].get(name)), None)
    if action == "card":
        tap.card(str(body["tap"]["card"]))
    elif action == "undo_card":
        tap.undo_card()
    elif action == "undo_trick":
        tap.undo_trick()
    round_ = game["rounds"][number - 1]
    return {
        "change": tap.change,
        "trick": write_trick(tap.plays),
        "page": live_page.page_words(
            game, setup, round_, tap.plays, reader, tap.refusal, tap.refused, tap.notes
        ),
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
        self.plays: tuple[Play, ...] = ()
        self.change: dict[str, object] | None = None
        self.refusal: str | None = None
        self.refused: str | None = None
        self.notes: list[str] = []

    def live(self) -> LiveRound:
        return live_of(self.game["rounds"][self.number - 1], self.setup)

    def unfinished(self, text: object) -> tuple[Play, ...]:
        """The phone's unfinished trick, checked against the round as it stands (C6, R19);
        empty once the round is over."""
        round_ = self.game["rounds"][self.number - 1]
        if round_["status"] == SCORED:
            return ()
        if text is None:  # the phone has none of its own: the one the server last gave
            field = trick_field(self.setup)
            return tuple(plays_of(self.setup, round_.get("trick_so_far") or [], field))
        try:
            plays = read_trick(text if isinstance(text, str) else "", self.setup)
            if plays:
                self.live().check_partial_trick(plays)
        except RuleError as error:
            self.notes.append(say(error.message, self.reader, self.names))
            return ()
        return plays

    def card(self, token: str) -> None:
        """C1, C6, R19: the card added to the trick (a card of the third colour, once two
        are in a Hat Trick trick, is a pass); the trick's last card queues the trick."""
        card = card_of_token(token)
        if card is None:
            self.refusal = word(self.reader, "not_a_card", value=token[:20])
            return
        if self.game["rounds"][self.number - 1]["status"] == SCORED:
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
            self.plays = plays
            return
        field = trick_field(self.setup)
        self.queue({"action": "trick", "number": self.number, "body": {field: []}}, plays)
        if self.change is not None:
            self.plays = ()

    def undo_card(self) -> None:
        """The last card entered taken back: of the unfinished trick, or else the one that
        completed the last trick, which is taken back and opened again with its others."""
        if self.plays:
            removed = self.plays[-1]
            seat = self.live().seat_order()[len(self.plays) - 1]
            self.plays = self.plays[:-1]
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
        scored = self.game["rounds"][self.number - 1]["status"] == SCORED
        if not self.queue({"action": "undo", "number": self.number, "body": {}}):
            return
        reopened = self.live()
        try:
            kept, taken_back = reopened.reopen(last.leader, last.plays)
        except RuleError as error:  # led from another seat before R21 was corrected
            self.notes.append(say(error.message, self.reader, self.names))
            return
        self.plays = kept
        seat = (last.leader + len(kept)) % self.setup.players
        note = word(
            self.reader,
            "reopened",
            card=card_words(taken_back.card, self.reader),
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
            self.plays = ()
            self.notes.append(word(self.reader, "trick_taken_back", number=taken_back))

    def queue(self, change: dict[str, Any], plays: Sequence[Play] = ()) -> bool:
        """Apply ``change`` (a trick's cards are ``plays``) to the game as the server will;
        answers whether it was, else says the server's refusal on the page."""
        body = {"version": self.game.get("version", 0), **change["body"]}
        if plays:
            body[trick_field(self.setup)] = plays_json(self.setup, plays)
        made = {**change, "body": body}
        try:
            if self.game["rounds"][self.number - 1]["mode"] != LIVE:
                raise ApiError(f"Round {self.number} is not played trick by trick.")
            apply_change(self.game, self.setup, made)
        except Refusal as error:
            self.refusal = say(error.message, self.reader, self.names)
            return False
        self.game.update(standings(self.game))
        self.game[PENDING] += 1
        self.change = made
        return True
