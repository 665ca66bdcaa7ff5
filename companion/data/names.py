"""Players' names: how one is written down, matched, and which characters it may not hold.

A name is shared by every game and statistic of the server, so two spellings that look
alike must be one player or be refused, never two look-alikes in the history: "Ａｎｎ" (full
width) is "Ann", and "Ann" with an invisible character or a writing-direction control in it
is refused. Plain functions of text (standard library only), used by the forms, the API,
the services and the backup import alike.
"""

from __future__ import annotations

import unicodedata

from companion.rules.text import N_

#: The longest name a player may have (its column is this wide).
MAX_NAME_LENGTH = 40

#: Characters that show nothing or turn the text around (format characters such as U+200B,
#: U+200E, U+202E, U+2066, U+FEFF and the soft hyphen U+00AD), and line or paragraph
#: separators: a name holding one looks like another name.
INVISIBLE_CATEGORIES = frozenset({"Cf", "Zl", "Zp"})
#: Control characters and lone surrogates: neither PostgreSQL (a NUL byte) nor UTF-8 (half a
#: surrogate pair) can even store them.
CONTROL_CATEGORIES = frozenset({"Cc", "Cs"})


def clean_name(name: str) -> str:
    """A player's name as shown: compatibility forms made plain (NFKC: "Ａｎｎ" is "Ann"),
    inner runs of spaces collapsed, ends trimmed."""
    return " ".join(unicodedata.normalize("NFKC", name).split())


def name_key(name: str) -> str:
    """What players are matched by: the cleaned name without case. A NUL, which no stored
    name holds, becomes U+FFFD so that a look-up never sends one to PostgreSQL."""
    folded = clean_name(name.replace("\x00", "\ufffd")).casefold()
    return unicodedata.normalize("NFKC", folded)


def name_character_problem(name: str) -> str | None:
    """Why ``name`` (as typed, before cleaning) cannot be a name, untranslated; ``None``
    when every character may stand in one. Spaces, tabs and line breaks are fine: cleaning
    turns them into single spaces."""
    for char in name:
        category = unicodedata.category(char)
        if category in INVISIBLE_CATEGORIES:
            return N_(
                "A name cannot contain invisible characters or characters that change the "
                "writing direction."
            )
        if category in CONTROL_CATEGORIES and not char.isspace():
            return N_("A name cannot contain control characters.")
    return None
