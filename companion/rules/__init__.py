"""The rules of Sticheln, as RULES.md numbers them: pure Python, standard library only.

Pages, the API, statistics and imports all call this package; nothing else implements a
rule. Every public function cites the ruling (R1-R23) or check (C1-C6) it implements.
"""

from companion.rules.cards import Card, Colour
from companion.rules.deck import Deck, in_box
from companion.rules.entries import (
    DelayedEntry,
    Entry,
    FullEntry,
    HatTrickFullEntry,
    HatTrickQuickEntry,
    QuickEntry,
)
from companion.rules.errors import Refusal, RuleError
from companion.rules.explain import (
    Choice,
    CountedCard,
    DelayedChoice,
    SeatExplanation,
    Term,
    TermKind,
    explain_round,
    explain_seat,
)
from companion.rules.hat_trick import (
    HatTrickOutcome,
    Play,
    can_pass,
    check_hat_trick_plays,
    resolve_hat_trick,
)
from companion.rules.implied import (
    ImpliedCount,
    hat_trick_count_limits,
    implied_count,
    implied_hat_trick_count,
    implied_tricks,
)
from companion.rules.scoring import RoundScore, round_problems, score_round
from companion.rules.table import (
    DEFAULT_ROUNDS,
    MAX_ROUNDS,
    MIN_ROUNDS,
    TableSetup,
    deal,
    round_dealer,
    round_leader,
    running_totals,
    seat_order,
    table_setup,
    tricks_of_cards,
    winners,
)
from companion.rules.text import Message, PlainText
from companion.rules.tricks import TrickOutcome, check_trick_cards, trick_winner
from companion.rules.variants import (
    CLASSIC,
    HAT_TRICK,
    HAT_TRICK_MAX_PLAYERS,
    HAT_TRICK_MIN_PLAYERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PRESETS,
    ClassicVariant,
    HatTrickVariant,
    Variant,
    variant_from_settings,
    variant_named,
)

__all__ = [
    "CLASSIC",
    "DEFAULT_ROUNDS",
    "HAT_TRICK",
    "HAT_TRICK_MAX_PLAYERS",
    "HAT_TRICK_MIN_PLAYERS",
    "MAX_PLAYERS",
    "MAX_ROUNDS",
    "MIN_PLAYERS",
    "MIN_ROUNDS",
    "PRESETS",
    "Card",
    "Choice",
    "ClassicVariant",
    "Colour",
    "CountedCard",
    "Deck",
    "DelayedChoice",
    "DelayedEntry",
    "Entry",
    "FullEntry",
    "HatTrickFullEntry",
    "HatTrickOutcome",
    "HatTrickQuickEntry",
    "HatTrickVariant",
    "ImpliedCount",
    "Message",
    "PlainText",
    "Play",
    "QuickEntry",
    "RoundScore",
    "Refusal",
    "RuleError",
    "SeatExplanation",
    "TableSetup",
    "Term",
    "TermKind",
    "TrickOutcome",
    "Variant",
    "can_pass",
    "check_hat_trick_plays",
    "check_trick_cards",
    "deal",
    "explain_round",
    "explain_seat",
    "hat_trick_count_limits",
    "implied_count",
    "implied_hat_trick_count",
    "implied_tricks",
    "in_box",
    "resolve_hat_trick",
    "round_dealer",
    "round_leader",
    "running_totals",
    "round_problems",
    "score_round",
    "seat_order",
    "table_setup",
    "trick_winner",
    "tricks_of_cards",
    "variant_from_settings",
    "variant_named",
    "winners",
]
