"""The live round page's sentences (templates/games/live.html, live_macros.html, the trick
macros of templates/macros.html and the notes of companion/web/games/live/routes.py), looked
up in the same catalogue as the page's, and the card chips they name: for the page drawn on
the phone offline (``live_page``, ``live_taps``).
"""

from __future__ import annotations

from companion.formats.trick_taps import card_words
from companion.rules import Card, Colour
from companion.rules.cards import card_token
from companion.rules.names_in_sentences import before_names
from companion.rules.text import N_
from companion.rules.wording import COLOUR_SYMBOLS, Reader, colour_words

#: The page's sentences, by what they say.
WORDS = {
    "title": N_("Round %(number)s, live"),
    "count": N_("%(played)s of %(total)s tricks played"),
    "scoreboard": N_("Scoreboard"),
    "trick_of": N_("Trick %(number)s of %(total)s"),
    "trick": N_("Trick %(number)s"),
    "not_added": N_("Not added:"),
    "leads_tap": N_("%(player)s leads: tap the card they play."),
    "next_to_play": N_("Next to play: %(player)s."),
    "undo_card": N_("Undo last card"),
    "last_trick": N_(
        "This is the last trick: afterwards each player sets their last card aside, unscored (R18)."
    ),
    "pass": N_("pass"),
    "takes": N_("takes"),
    "winning": N_("winning"),
    "next": N_("next"),
    "pile_taken": N_("%(player)s takes this pile with %(card)s (R20)."),
    "pile_taking": N_("%(player)s is taking this pile with %(card)s."),
    "passed": N_("Passed (R19):"),
    "pass_card": N_("%(player)s, showing %(card)s"),
    "will_lead": N_("%(player)s leads the next trick."),
    "would_lead": N_("So far %(player)s would lead the next trick."),
    "taken": N_("%(player)s takes the trick with %(card)s."),
    "taking": N_("Winning so far: %(player)s with %(card)s."),
    "over_title": N_("Round %(number)s is over"),
    "over_text": N_("Every trick is played and the round is scored."),
    "set_aside": N_("Each player’s last card was set aside, unscored (R18)."),
    "awaiting": N_(
        "Every trick is played. Its indicators are face down (R15), so the round is scored "
        "when this phone sends it."
    ),
    "player": N_("Player"),
    "this_round": N_("This round"),
    "total": N_("Total"),
    "result": N_("Result"),
    "wins": N_("%(name)s wins with %(total)s points."),
    "shared": N_("Shared win: %(names)s, with %(total)s points each."),
    "ranking": N_("Ranking"),
    "winner": N_("winner"),
    "play_again": N_("Play again"),
    "play_again_hint": N_(
        "The same players in the same seats, the same variant and rounds; the first lead "
        "moves one seat on."
    ),
    "to_result": N_("See the result on the scoreboard"),
    "back": N_("Back to the scoreboard"),
    "deck": N_("Cards of the deck"),
    "pass_hint": N_(
        "Two colours are in the trick: a card of the third colour is a pass, put face down "
        "(R19). Tap the card the player shows."
    ),
    "a_pass": N_("a pass"),
    "played": N_("%(card)s (played)"),
    "laid-out": N_("%(card)s (indicator)"),
    "in-trick": N_("%(card)s (in this trick)"),
    "as_pass": N_("%(card)s (a pass)"),
    "bar_winning": N_("Winning so far: %(player)s"),
    "bar_would_lead": N_("Would lead next: %(player)s"),
    "bar_trick": N_("Trick %(number)s: %(player)s"),
    "bar_next": N_("Next: %(player)s"),
    "grey_trick_hazy": N_(
        "Greyed-out cards were played this round; the filled ones are in this trick. The "
        "indicators stay face down: the app refuses one only if it is entered."
    ),
    "grey_trick_laid_out": N_(
        "Greyed-out cards were played this round or laid out as indicators; the filled ones "
        "are in this trick."
    ),
    "grey_trick": N_("Greyed-out cards were played this round; the filled ones are in this trick."),
    "grey_hazy": N_(
        "Greyed-out cards were played this round. The indicators stay face down: the app "
        "refuses one only if it is entered."
    ),
    "grey_laid_out": N_("Greyed-out cards were played this round or laid out as indicators."),
    "grey": N_("Greyed-out cards were played this round."),
    "captured": N_("Captured so far"),
    "passes": N_("Passes"),
    "tricks": N_("Tricks"),
    "cards": N_("Cards"),
    "leads": N_("leads this trick"),
    "hazy": N_("Hazy: the indicators stay hidden until the round is scored."),
    "corrections": N_("Corrections"),
    "undo_trick": N_("Undo last trick (trick %(number)s)"),
    "footer": N_(
        "Each card shows at once on every phone following the game, and another phone with "
        "the edit link carries on from the cards entered so far. A trick is saved when its "
        "last card is entered."
    ),
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
#: The count of a Hat Trick pile's cards (a sentence with a count).
PILE_CARDS = ("%(num)s card", "%(num)s cards")
MINUS = "\u2212"


def word(reader: Reader, key: str, **values: object) -> str:
    """One of the page's sentences, the words before a name as the language writes them."""
    text = reader.gettext(WORDS[key])
    return before_names(text, values, reader.language) % values if values else text


def signed(number: int) -> str:
    """A score as the pages show it: "+3", "−7", "0"."""
    return f"+{number}" if number > 0 else f"{MINUS}{-number}" if number < 0 else "0"


def chip(card: Card, reader: Reader) -> dict[str, object]:
    """A card as a chip draws it: its colour, value, shape and name."""
    return {
        "token": card_token(card),
        "colour": card.colour.value,
        "value": card.value,
        "symbol": COLOUR_SYMBOLS[card.colour],
        "label": card_words(card, reader),
    }


def colour_chip(colour: Colour, reader: Reader) -> dict[str, object]:
    """A scored colour, drawn without a value."""
    return {
        "colour": colour.value,
        "symbol": COLOUR_SYMBOLS[colour],
        "label": colour_words(colour, reader),
    }
