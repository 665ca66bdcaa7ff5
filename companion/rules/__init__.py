"""The rules of Sticheln, as RULES.md numbers them: pure Python, standard library only.

Pages, the API, statistics and imports all call this package; nothing else implements a
rule. Every public function cites the ruling (R1-R23) or check (C1-C6) it implements.
"""

from companion.rules.cards import Card, Colour
from companion.rules.deck import Deck, in_box
from companion.rules.errors import RuleError
from companion.rules.hat_trick import (
    HatTrickOutcome,
    Play,
    check_hat_trick_plays,
    resolve_hat_trick,
)
from companion.rules.scoring import (
    DelayedEntry,
    Entry,
    FullEntry,
    HatTrickFullEntry,
    HatTrickQuickEntry,
    QuickEntry,
    RoundScore,
    score_round,
)
from companion.rules.table import (
    TableSetup,
    deal,
    round_dealer,
    round_leader,
    running_totals,
    table_setup,
    winners,
)
from companion.rules.text import Message
from companion.rules.tricks import TrickOutcome, check_trick_cards, trick_winner
from companion.rules.variants import (
    PRESETS,
    ClassicVariant,
    HatTrickVariant,
    Variant,
    variant_from_settings,
    variant_named,
)

__all__ = [
    "PRESETS",
    "Card",
    "ClassicVariant",
    "Colour",
    "Deck",
    "DelayedEntry",
    "Entry",
    "FullEntry",
    "HatTrickFullEntry",
    "HatTrickOutcome",
    "HatTrickQuickEntry",
    "HatTrickVariant",
    "Message",
    "Play",
    "QuickEntry",
    "RoundScore",
    "RuleError",
    "TableSetup",
    "TrickOutcome",
    "Variant",
    "check_hat_trick_plays",
    "check_trick_cards",
    "deal",
    "in_box",
    "resolve_hat_trick",
    "round_dealer",
    "round_leader",
    "running_totals",
    "score_round",
    "table_setup",
    "trick_winner",
    "variant_from_settings",
    "variant_named",
    "winners",
]
