"""A round followed trick by trick (C6, R9, R19-R21): who leads, who captured what.

The app never sees the hands, only what is played: a card is refused if it was already
played or laid out this round. When the last trick is in, the round turns into the same
entries a table would type in full, and is scored like them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from companion.rules.cards import Card
from companion.rules.entries import DelayedEntry, Entry, FullEntry, HatTrickFullEntry
from companion.rules.errors import CardError, HatTrickError, RuleError, TrickError
from companion.rules.hat_trick import Play, check_hat_trick_plays, resolve_hat_trick
from companion.rules.table import TableSetup, seat_order
from companion.rules.text import N_, ngettext
from companion.rules.tricks import check_trick_cards, deck_message, trick_winner
from companion.rules.variants import ClassicVariant, HatTrickVariant


@dataclass(frozen=True)
class PlayedTrick:
    """One trick as played: its leader, the plays in order from the leader, and the result:
    the seats taking cards, the seat taking the trick (Hat Trick: the deciding pile, R21)
    and the seat leading next (Hat Trick: the player of the deciding card, R21)."""

    leader: int
    plays: tuple[Play, ...]
    winners: tuple[int, ...]
    next_leader: int
    winner: int


@dataclass
class LiveRound:
    """The state of a round in play, rebuilt from its indicators and its tricks so far."""

    setup: TableSetup
    first_leader: int
    marked: tuple[tuple[Card, ...], ...] = ()
    tricks: list[PlayedTrick] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.marked:
            self.marked = tuple(() for _ in range(self.setup.players))

    @property
    def leader(self) -> int:
        """Who leads the next trick: the last trick's winner (R9) or, in Hat Trick, the
        player of the card that decided the last trick (R21)."""
        return self.tricks[-1].next_leader if self.tricks else self.first_leader

    @property
    def is_complete(self) -> bool:
        """Whether every trick of the round has been played (R5, R18)."""
        return len(self.tricks) >= self.setup.tricks_per_round

    def seat_order(self) -> list[int]:
        """The seats in playing order for the next trick, from its leader clockwise."""
        return seat_order(self.leader, self.setup.players)

    def cards_out(self) -> dict[Card, int]:
        """Every card laid out or played so far, with the seat that showed it (C6)."""
        out = {card: seat for seat, cards in enumerate(self.marked) for card in cards}
        for trick in self.tricks:
            for offset, play in enumerate(trick.plays):
                out[play.card] = (trick.leader + offset) % self.setup.players
        return out

    def play_trick(self, plays: Sequence[Play]) -> PlayedTrick:
        """C6: check and record the next trick, one play per seat in order from the leader."""
        if self.is_complete:
            raise TrickError.saying(
                N_("All %(tricks)s tricks of this round are played."),
                tricks=self.setup.tricks_per_round,
            )
        order = self.seat_order()
        if len(plays) != len(order):
            raise TrickError.saying(
                ngettext(
                    "A trick takes one card from each of the %(players)s players, in order "
                    "from the leader; %(count)s card was given (C6).",
                    "A trick takes one card from each of the %(players)s players, in order "
                    "from the leader; %(count)s cards were given (C6).",
                    len(plays),
                ),
                players=len(order),
                count=len(plays),
            )
        self.check_partial_trick(plays)
        trick = self._resolve(plays, order)
        self.tricks.append(trick)
        return trick

    def check_partial_trick(self, plays: Sequence[Play]) -> None:
        """C1, C6, R19: the next trick so far, as each card is entered: each card in the deck
        in use and still in its player's hand as far as the app knows, no card twice, no pass
        outside Hat Trick, and in Hat Trick at most two colours with passes as R19 allows."""
        order = self.seat_order()
        if len(plays) > len(order):
            raise TrickError.saying(
                N_("A trick holds one card per player: at most %(limit)s cards, not %(count)s."),
                limit=len(order),
                count=len(plays),
            )
        self._check_not_out(plays, order)
        if isinstance(self.setup.variant, HatTrickVariant):
            check_hat_trick_plays(plays, self.setup.deck, self.setup.players)
            return
        passed = next((i for i, play in enumerate(plays) if play.passed), None)
        if passed is not None:
            raise HatTrickError.saying(
                N_("%(player)s cannot pass: only Hat Trick has passes (R6, R19)."),
                seat=order[passed],
            )
        check_trick_cards([play.card for play in plays], self.setup.deck, self.setup.players)

    def _check_not_out(self, plays: Sequence[Play], order: Sequence[int]) -> None:
        out = self.cards_out()
        deck = self.setup.deck
        for play, seat in zip(plays, order, strict=False):
            if play.card not in deck:
                raise CardError(deck_message(play.card, deck, seat), seat=seat, card=play.card)
            if play.card in out:
                raise CardError.saying(
                    N_(
                        "%(player)s cannot play %(card)s: it was already played or laid out "
                        "this round (C6)."
                    ),
                    seat=seat,
                    card=play.card,
                )

    def _resolve(self, plays: Sequence[Play], order: Sequence[int]) -> PlayedTrick:
        """R8, R9, R13, R20, R21: who takes a checked, complete trick and who leads next."""
        variant = self.setup.variant
        if isinstance(variant, HatTrickVariant):
            outcome = resolve_hat_trick(plays)
            winners = tuple(order[pile.winner] for pile in outcome.piles)
            return PlayedTrick(
                self.leader,
                tuple(plays),
                winners,
                order[outcome.next_leader],
                order[outcome.winner],
            )
        assert isinstance(variant, ClassicVariant)
        winner = order[trick_winner([play.card for play in plays], variant.scoring).winner]
        return PlayedTrick(self.leader, tuple(plays), (winner,), winner, winner)

    def follow_recorded_lead(self, leader: int) -> None:
        """Replay a stored trick from the seat the table led it from. Until R21 was corrected,
        a Hat Trick lead went to the taker of the deciding pile rather than to the
        player of the deciding card; a round recorded then keeps the lead as it was played,
        so its cards stay with the seats that played them. Any other leader is refused."""
        if leader == self.leader:
            return
        last = self.tricks[-1] if self.tricks else None
        if (
            last is None
            or not isinstance(self.setup.variant, HatTrickVariant)
            or leader != last.winner
        ):
            raise TrickError.saying(
                N_("%(player)s cannot lead this trick: %(other)s leads it (R9, R21)."),
                seat=leader,
                other=self.leader,
            )
        self.tricks[-1] = replace(last, next_leader=leader)

    def undo_trick(self) -> PlayedTrick:
        """Take back the last trick (the table made a mistake)."""
        if not self.tricks:
            raise TrickError.saying(N_("No trick has been played yet this round."))
        return self.tricks.pop()

    def reopen(self, leader: int, plays: Sequence[Play]) -> tuple[tuple[Play, ...], Play]:
        """C6, R9, R21: a trick just taken back (led by ``leader``, ``plays`` in order from
        them) open again as the next trick without its last play (the table mistyped the
        card that completed it): answers the plays it keeps and the play taken back. It
        must be led from the seat that leads now; a Hat Trick round recorded before R21 was
        corrected may have led it from another seat, and such a trick is taken back whole."""
        if self.is_complete or not plays or leader != self.leader:
            raise TrickError.saying(
                N_(
                    "%(player)s led this trick, but %(other)s leads it now (R9, R21): take "
                    "back the whole trick and enter it again."
                ),
                seat=leader,
                other=self.leader,
            )
        return tuple(plays[:-1]), plays[-1]

    def capture_piles(self) -> list[list[Card]]:
        """Each seat's captured cards so far, face-up cards only (R9, R20)."""
        piles: list[list[Card]] = [[] for _ in range(self.setup.players)]
        for trick in self.tricks:
            if isinstance(self.setup.variant, HatTrickVariant):
                outcome = resolve_hat_trick(trick.plays)
                order = [(trick.leader + i) % self.setup.players for i in range(len(trick.plays))]
                for pile in outcome.piles:
                    piles[order[pile.winner]].extend(pile.cards)
            else:
                piles[trick.winners[0]].extend(play.card for play in trick.plays)
        return piles

    def tricks_won(self) -> list[int]:
        """How many tricks each seat has taken so far (R9). A Hat Trick trick of two piles is
        nobody's whole trick: there the cards and passes taken count (R20-R22)."""
        won = [0] * self.setup.players
        for trick in self.tricks:
            if len(trick.winners) == 1:
                won[trick.winners[0]] += 1
        return won

    def pass_cards(self) -> list[list[Card]]:
        """Each seat's face-down pass cards (R19, Hat Trick only)."""
        passed: list[list[Card]] = [[] for _ in range(self.setup.players)]
        for trick in self.tricks:
            for offset, play in enumerate(trick.plays):
                if play.passed:
                    passed[(trick.leader + offset) % self.setup.players].append(play.card)
        return passed

    def entries(self) -> list[Entry]:
        """The finished round as full entries, ready for :func:`score_round`."""
        if not self.is_complete:
            raise RuleError.saying(
                ngettext(
                    "The round is not over: %(played)s of its %(tricks)s tricks is played.",
                    "The round is not over: %(played)s of its %(tricks)s tricks are played.",
                    len(self.tricks),
                ),
                played=len(self.tricks),
                tricks=self.setup.tricks_per_round,
            )
        piles = self.capture_piles()
        variant = self.setup.variant
        if isinstance(variant, HatTrickVariant):
            passed = self.pass_cards()
            return [
                HatTrickFullEntry(tuple(p), tuple(x)) for p, x in zip(piles, passed, strict=True)
            ]
        if not variant.reveal.lays_out_indicators:
            return [DelayedEntry(tuple(pile)) for pile in piles]
        return [
            FullEntry(marked, tuple(pile)) for marked, pile in zip(self.marked, piles, strict=True)
        ]
